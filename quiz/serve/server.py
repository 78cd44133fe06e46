"""The web server: textual-serve's Server, with every request checked (Host, Origin, the cookie),
only the page's own assets served, and sessions limited, timed out and ended with their browser."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import aiohttp_jinja2
import jinja2
import textual_serve
from aiohttp import WSMsgType, web
from textual_serve.server import Server

from quiz.code.sandbox import FOR_OTHERS_ENV
from quiz.locale.i18n import catalogue, tr
from quiz.serve.guard import Guard, is_loopback
from quiz.serve.limits import IdleTimer, SessionSlots
from quiz.serve.passwords import check_hash, hash_password, verify_password
from quiz.serve.process import SessionProcess
from quiz.serve.settings import Auth, ServeSettings
from quiz.serve.tokens import COOKIE_MAX_AGE, CookieSigner, token_matches
from quiz.serve.users import user_environment

HERE: Final = Path(__file__).resolve().parent
LIBRARY_STATIC: Final = Path(textual_serve.__file__).resolve().parent / "static"
ASSETS: Final = {
    "js/textual.js": LIBRARY_STATIC / "js" / "textual.js",
    "css/xterm.css": LIBRARY_STATIC / "css" / "xterm.css",
    "fonts/RobotoMono.ttf": LIBRARY_STATIC / "fonts" / "RobotoMono-VariableFont_wght.ttf",
    "favicon.svg": HERE / "static" / "favicon.svg",
}
"""The only files served, by URL below static/: no listing, nothing else of the library's folder."""
PUBLIC: Final = frozenset({"/static/favicon.svg", "/login"})
"""Paths a browser without the cookie may ask for: the error pages' icon and the login form's target."""
MAX_MESSAGE: Final = 256 * 1024
"""The largest websocket message taken from a browser (a long paste into the code editor fits)."""
MAX_BODY: Final = 8 * 1024
"""The largest request body (the login form is the only one)."""
MAX_CELLS: Final = 1000
"""The widest or tallest terminal a browser may ask for: a hostile size would make the app allocate."""
IDLE_POLL: Final = 1.0
"""Seconds between looks at a session's idle time (a clock set forward in a test is seen this soon)."""
CLOSE_IDLE: Final = 4000
CLOSE_FULL: Final = 4001
"""Websocket close codes the page explains (private range 4000-4999)."""
USER: Final = web.RequestKey("user", str)
"""Who a checked request comes from: the cookie's user, "" for the one user of a token or password."""
CSP: Final = (
    "default-src 'none'; script-src 'self' 'nonce-{nonce}'; style-src 'self' 'unsafe-inline'; font-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)


def _cells(text: str | None, default: int) -> int:
    try:
        return max(1, min(MAX_CELLS, int(text or default)))
    except ValueError:
        return default


class QuizServer(Server):
    """`quiz serve`'s web application around `command`, the app process each session runs.
    `users_root` holds the users' folders (--users); `clock` signs cookies, `monotonic` times idleness."""

    def __init__(
        self,
        settings: ServeSettings,
        command: str,
        token: str,
        *,
        users_root: Path | None = None,
        clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(
            command,
            host=settings.host,
            port=settings.port,
            title=tr("serve.title", settings.lang),
            public_url=settings.public_url().rstrip("/"),
            statics_path=LIBRARY_STATIC,
            templates_path=HERE / "templates",
        )
        self.settings = settings
        self.token = token
        self.users_root = users_root
        self.monotonic = monotonic
        self.signer = CookieSigner(clock)
        self.slots = SessionSlots(settings.max_sessions)
        self.sessions: set[SessionProcess] = set()
        self.guard = Guard.for_server(settings.host, settings.port, settings.base_url)
        self.cookie_name = f"quiz-serve-{settings.port}"
        # One password check at a time: scrypt takes 32 MiB and some 0.1 s, so guesses queue.
        self._checking = asyncio.Lock()
        # An unknown name is checked against this, at the users' own cost: its answer takes as long.
        costs = [check_hash(stored)[0] for stored in (settings.users or {}).values()]
        self._dummy_hash = hash_password("no such user", n=max(costs)) if costs else ""

    def bound(self, port: int) -> None:
        """The port the system gave (--port 0): the names and cookie the server answers to follow it."""
        self.port = port
        self.guard = Guard.for_server(self.settings.host, port, self.settings.base_url)
        self.cookie_name = f"quiz-serve-{port}"

    def url(self) -> str:
        """The URL to print: the page, with the token where the token logs in."""
        page = self.settings.public_url(self.port)
        return f"{page}?token={self.token}" if self.settings.auth in (Auth.TOKEN, Auth.PASSWORD) else page

    async def _make_app(self) -> web.Application:
        app = web.Application(middlewares=[self._check_request], client_max_size=MAX_BODY)
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path), autoescape=True)
        app.add_routes(
            [
                web.get("/", self.handle_index, name="index"),
                web.post("/login", self.handle_login, name="login"),
                web.get("/ws", self.handle_websocket, name="websocket"),
                web.get("/download/{key}", self.handle_download, name="download"),
                web.get("/static/{name:.+}", self.handle_asset, name="static"),
            ]
        )
        app.on_shutdown.append(self.on_shutdown)
        return app

    # Every request: Host, Origin, the cookie.

    @web.middleware
    async def _check_request(self, request: web.Request, handler: Callable[[web.Request], Any]) -> web.StreamResponse:
        if not self.guard.host_allowed(request.headers.get("Host")):
            return self._page(request, "forbidden_host", status=403)
        needs_origin = request.method != "GET" or request.path == "/ws"
        if not self.guard.origin_allowed(request.headers.get("Origin"), required=needs_origin):
            return self._page(request, "forbidden_origin", status=403)
        user = self._user(request)
        if user is None and request.path not in PUBLIC and request.path != "/":
            return self._page(request, "forbidden", status=403)
        if user is not None:
            request[USER] = user
        response: web.StreamResponse = await handler(request)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        # The token must not leave in a Referer; "no-referrer" would also make the login form's Origin "null".
        response.headers.setdefault("Referrer-Policy", "same-origin")
        return response

    def _user(self, request: web.Request) -> str | None:
        """Who the request comes from: the cookie's user, "" for the one user, None without a valid cookie."""
        if self.settings.auth is Auth.NONE:
            return ""
        return self.signer.user(request.cookies.get(self.cookie_name))

    def _logged_in(self, response: web.StreamResponse, user: str) -> web.StreamResponse:
        response.set_cookie(
            self.cookie_name,
            self.signer.sign(user),
            max_age=COOKIE_MAX_AGE,
            path=self.settings.cookie_path,
            httponly=True,
            samesite="Strict",
            secure=self.settings.secure,
        )
        return response

    # Pages.

    def _text(self) -> dict[str, str]:
        lang = self.settings.lang
        return {key.removeprefix("serve."): tr(key, lang) for key in catalogue("en") if key.startswith("serve.")}

    def _page(self, request: web.Request, kind: str, status: int, **extra: Any) -> web.Response:
        """A page of the server's own (an error, the login form, a full server), in the server's language."""
        # `base`: the page's own path, so the icon is found from any path the error is met on.
        settings = self.settings
        context = {"text": self._text(), "kind": kind, "lang": settings.lang, "auth": settings.auth.value, "base": settings.cookie_path, **extra}
        response = aiohttp_jinja2.render_template("message.html", request, context, status=status)
        response.headers["Content-Security-Policy"] = CSP.format(nonce="none")
        response.headers["Cache-Control"] = "no-store"
        return response

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        """The app's page; with `?token=` the token is exchanged for the cookie (and leaves the URL)."""
        given = request.query.get("token")
        if given is not None and self.settings.auth in (Auth.TOKEN, Auth.PASSWORD):
            if not token_matches(given, self.token):
                return self._page(request, "bad_token", status=403)
            return self._logged_in(web.Response(status=303, headers={"Location": "./"}), "")
        user = request.get(USER)
        if user is None:
            if self.settings.auth is Auth.TOKEN:
                return self._page(request, "forbidden", status=403)
            return self._page(request, "login", status=200)
        if self.slots.full:
            return self._page(request, "full", status=503, limit=self.settings.max_sessions)
        nonce = secrets.token_urlsafe(16)  # fresh for every page: only its own inline script runs
        context = {
            "text": self._text(),
            "lang": self.settings.lang,
            "nonce": nonce,
            "font_size": _cells(request.query.get("fontsize"), 16),
            "idle_minutes": round(self.settings.idle_timeout / 60),
            "user": user,
        }
        response = aiohttp_jinja2.render_template("page.html", request, context)
        response.headers["Content-Security-Policy"] = CSP.format(nonce=nonce)
        response.headers["Cache-Control"] = "no-store"
        return response

    async def handle_login(self, request: web.Request) -> web.StreamResponse:
        """The login form's post: the password (and the user's name with --users) for the cookie."""
        if self.settings.auth not in (Auth.PASSWORD, Auth.USERS):
            return self._page(request, "forbidden", status=403)
        try:
            form = await request.post()
        except web.HTTPRequestEntityTooLarge:
            return self._page(request, "login", status=413, failed=True)
        name, password = str(form.get("name", "")), str(form.get("password", ""))
        if self.settings.auth is Auth.USERS:
            users = self.settings.users or {}
            stored = users.get(name, self._dummy_hash)  # an unknown name costs the same time as a known one
            user: str | None = name if name in users else None
        else:
            stored, user = self.settings.password_hash or "", ""
        async with self._checking:
            right = await asyncio.to_thread(verify_password, password, stored)
        if not right or user is None:
            return self._page(request, "login", status=403, failed=True, name=name)
        return self._logged_in(web.Response(status=303, headers={"Location": "./"}), user)

    async def handle_asset(self, request: web.Request) -> web.StreamResponse:
        path = ASSETS.get(request.match_info["name"])
        if path is None:
            raise web.HTTPNotFound()
        return web.FileResponse(path, headers={"Cache-Control": "private, max-age=3600"})

    async def handle_download(self, request: web.Request) -> web.StreamResponse:
        """A file the app delivers (deliver_text, deliver_binary), to the user whose session made it."""
        with contextlib.suppress(KeyError):
            download = await self.download_manager.get_download_metadata(request.match_info["key"])
            owner = download.app_service
            if isinstance(owner, SessionProcess) and owner.user == request.get(USER):
                return await super().handle_download(request)
        raise web.HTTPNotFound()

    # Sessions.

    def environment_for(self, user: str) -> dict[str, str]:
        """The app process's environment for `user`: their own folders with --users, else as the
        server's; served to others (logins, or beyond loopback), code runs only where it is confined."""
        environment = user_environment(user, self.users_root) if self.settings.auth is Auth.USERS else {}
        if self.settings.auth is Auth.USERS or not is_loopback(self.settings.host):
            environment[FOR_OTHERS_ENV] = "1"
        return environment

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """One session: an app process for this websocket, ended when the browser goes, falls
        silent for the idle timeout, or the app quits."""
        websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_MESSAGE)
        await websocket.prepare(request)
        if not self.slots.take():
            await websocket.close(code=CLOSE_FULL, message=b"full")
            return websocket
        user = request[USER]
        session = SessionProcess(
            self.command,
            user=user,
            environment=self.environment_for(user),
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            close=websocket.close,
            download_manager=self.download_manager,
        )
        self.sessions.add(session)
        idle = IdleTimer(self.settings.idle_timeout, self.monotonic)
        watchdog = asyncio.create_task(self._watch_idle(idle, websocket))
        try:
            await session.start(_cells(request.query.get("width"), 80), _cells(request.query.get("height"), 24))
            await self._relay(websocket, session, idle)
        finally:
            watchdog.cancel()
            await session.stop()
            self.sessions.discard(session)
            self.slots.give_back()
        return websocket

    async def _watch_idle(self, idle: IdleTimer, websocket: web.WebSocketResponse) -> None:
        while (left := idle.remaining()) > 0:
            await asyncio.sleep(min(left, IDLE_POLL))
        await websocket.close(code=CLOSE_IDLE, message=b"idle")

    async def _relay(self, websocket: web.WebSocketResponse, session: SessionProcess, idle: IdleTimer) -> None:
        """The browser's messages to the app: keys, sizes, focus; anything else is dropped."""
        async for message in websocket:
            if message.type is not WSMsgType.TEXT:
                if message.type is WSMsgType.ERROR:  # too large, or broken: the socket is closing
                    return
                continue
            try:
                envelope = json.loads(message.data)
            except ValueError:
                continue
            if not isinstance(envelope, list) or not envelope:
                continue
            kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
            if kind == "stdin" and isinstance(data, str):
                idle.touch()
                await session.send_bytes(data.encode("utf-8"))
            elif kind == "resize" and isinstance(data, dict):
                idle.touch()
                await session.set_terminal_size(_cells(str(data.get("width")), 80), _cells(str(data.get("height")), 24))
            elif kind == "ping" and isinstance(data, str | int | float):
                await websocket.send_json(["pong", data])
            elif kind == "blur":
                await session.blur()
            elif kind == "focus":
                await session.focus()

    async def on_shutdown(self, app: web.Application) -> None:
        """End every session's app process: none outlives the server."""
        await asyncio.gather(*(session.stop() for session in list(self.sessions)))

    async def start(self) -> web.AppRunner:
        """Listen on the settings' host and port (the system's choice for 0); the caller cleans up."""
        runner = web.AppRunner(await self._make_app(), handle_signals=False, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, self.settings.host, self.settings.port)
        await site.start()
        self.bound(runner.addresses[0][1])
        return runner

    def run(self, ready: Callable[[str], None]) -> None:
        """Serve until Ctrl+C or SIGTERM; `ready` is told the URL once listening."""
        asyncio.run(self._run(ready))

    async def _run(self, ready: Callable[[str], None]) -> None:
        runner = await self.start()
        ready(self.url())
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for number in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(number, stop.set)
        try:
            await stop.wait()
        finally:
            await runner.cleanup()
