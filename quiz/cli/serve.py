"""`quiz serve`: the app in a browser (textual-serve), and `quiz serve adduser` / `set-password`
for its logins. The server itself is `quiz.serve.server`; this reads the options and prints the URL."""

from __future__ import annotations

import argparse
import getpass
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from quiz.cli.arguments import CommandError
from quiz.locale.i18n import LANGUAGES, tr

if TYPE_CHECKING:  # the server brings aiohttp: only `quiz serve` itself loads it
    from quiz.serve.settings import ServeSettings

EXIT_USAGE = 2


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], parents: list[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "serve",
        parents=parents,
        help="serve the app to a web browser",
        description=(
            "Serve the app to web browsers, one app process per browser tab, on 127.0.0.1 unless --host says "
            "otherwise. It prints a URL with a fresh token; the token is exchanged for a cookie. See docs/serve.md."
        ),
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; another needs a password)")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000; 0: any free port)")
    parser.add_argument("--lang", choices=LANGUAGES, help="language of the pages and the app (default: English pages, each user's setting)")
    parser.add_argument("--open", action="store_true", help="open the URL in a web browser")
    parser.add_argument("--base-url", metavar="URL", help="the public URL behind a reverse proxy, e.g. https://quiz.example.org/quiz/")
    login = parser.add_mutually_exclusive_group()
    login.add_argument("--password-file", type=Path, metavar="FILE", help="log in with the password hashed in FILE (quiz serve set-password FILE)")
    login.add_argument("--users", type=Path, metavar="FILE", help="log in as one of the users in FILE (quiz serve adduser), each with their own data")
    login.add_argument("--no-auth-i-know", action="store_true", help="no token and no password: anyone who reaches the port uses the app")
    parser.add_argument("--max-sessions", type=int, default=20, metavar="N", help="app processes at once (default 20)")
    parser.add_argument("--idle-timeout", type=float, default=30.0, metavar="MINUTES", help="end a session silent this long (default 30)")
    actions = parser.add_subparsers(dest="action", title="logins", metavar="ACTION")
    adduser = actions.add_parser("adduser", help="add a user to a users file, or change their password (read from a prompt or stdin)")
    adduser.add_argument("name", metavar="NAME")
    adduser.add_argument("--users", dest="users_file", type=Path, required=True, metavar="FILE")
    set_password = actions.add_parser("set-password", help="write the hash of a password (read from a prompt or stdin) to FILE")
    set_password.add_argument("file", type=Path, metavar="FILE")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Serve until Ctrl+C, or add a user or write a password hash."""
    lang = args.lang or "en"
    if args.action == "adduser":
        return _add_user(args.name, args.users_file, lang)
    if args.action == "set-password":
        return _set_password(args.file, lang)
    from quiz.serve.settings import SettingsError

    try:
        settings = _settings(args, lang)
    except SettingsError as exc:
        raise CommandError(str(exc), EXIT_USAGE) from None
    return _serve(args, settings)


def _settings(args: argparse.Namespace, lang: str) -> ServeSettings:
    from quiz.serve.settings import Auth, ServeSettings, read_password_file
    from quiz.serve.users import UsersFileError, read_users

    password_hash, users, auth = None, None, Auth.TOKEN
    if args.password_file is not None:
        password_hash, auth = read_password_file(args.password_file), Auth.PASSWORD
    elif args.users is not None:
        try:
            users, auth = read_users(args.users), Auth.USERS
        except UsersFileError as exc:
            raise CommandError(str(exc), EXIT_USAGE) from None
    elif args.no_auth_i_know:
        auth = Auth.NONE
    return ServeSettings(
        host=args.host,
        port=args.port,
        base_url=args.base_url,
        auth=auth,
        password_hash=password_hash,
        users=users,
        max_sessions=args.max_sessions,
        idle_timeout=args.idle_timeout * 60,
        lang=lang,
    )


def session_command(args: argparse.Namespace) -> str:
    """The shell command of each session's app process (exec: the shell gives way to it, so the
    process the server ends is the app itself)."""
    words = [sys.executable, "-m", "quiz.cli.serve_app"]
    if args.lang:
        words += ["--lang", args.lang]
    for path in args.bank:
        words += ["--bank", str(path.resolve())]
    return "exec " + shlex.join(words)


def _serve(args: argparse.Namespace, settings: ServeSettings) -> int:
    from quiz.code.sandbox import confinement
    from quiz.serve.guard import is_loopback
    from quiz.serve.server import QuizServer
    from quiz.serve.settings import Auth
    from quiz.serve.tokens import new_token

    lang = settings.lang
    state = confinement()
    if (settings.auth is Auth.USERS or not is_loopback(settings.host)) and not state.isolated:
        print(tr("serve.unconfined", lang, reason=state.reason), file=sys.stderr)
    server = QuizServer(settings, session_command(args), new_token())

    def ready(url: str) -> None:
        key = {Auth.USERS: "serve.serving_users", Auth.NONE: "serve.serving_no_auth"}.get(settings.auth, "serve.serving")
        print(tr(key, lang, url=url), flush=True)
        print(tr("serve.press_ctrl_c", lang), flush=True)
        if args.open:
            import webbrowser

            webbrowser.open(url)

    try:
        server.run(ready)
    except OSError as exc:
        raise CommandError(f"cannot listen on {settings.host}:{settings.port}: {exc.strerror or exc}") from None
    return 0


def _read_password(lang: str) -> str:
    """A new password from the terminal (typed twice, not shown) or the first line of stdin."""
    if not sys.stdin.isatty():
        password = sys.stdin.readline().rstrip("\r\n")
    else:
        password = getpass.getpass(tr("serve.password_prompt", lang))
        if getpass.getpass(tr("serve.password_again", lang)) != password:
            raise CommandError(tr("serve.password_mismatch", lang))
    if not password:
        raise CommandError(tr("serve.password_empty", lang))
    return password


def _add_user(name: str, path: Path, lang: str) -> int:
    from quiz.serve.passwords import hash_password
    from quiz.serve.users import UsersFileError, add_user, check_name

    try:
        check_name(name)
        new = add_user(path, name, hash_password(_read_password(lang)))
    except UsersFileError as exc:
        raise CommandError(str(exc), EXIT_USAGE) from None
    except OSError as exc:
        raise CommandError(f"cannot write {path}: {exc.strerror or exc}") from None
    print(tr("serve.user_added" if new else "serve.user_replaced", lang, name=name, path=path), file=sys.stderr)
    return 0


def _set_password(path: Path, lang: str) -> int:
    from quiz.base.atomic import write_text_atomically
    from quiz.serve.passwords import hash_password

    try:
        write_text_atomically(path, hash_password(_read_password(lang)) + "\n")
    except OSError as exc:
        raise CommandError(f"cannot write {path}: {exc.strerror or exc}") from None
    print(tr("serve.password_written", lang, path=path), file=sys.stderr)
    return 0
