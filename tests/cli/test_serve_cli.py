"""`quiz serve` on the command line: options that do not go together stop with a clear message
before anything listens, and the logins' files are written from a password never on argv."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from quiz.cli.main import main
from quiz.serve.passwords import verify_password
from quiz.serve.users import read_users


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--host", "0.0.0.0"], "--host 0.0.0.0 listens beyond this machine: give --password-file FILE or --users FILE"),
        (["--max-sessions", "0"], "--max-sessions must be 1 or more"),
        (["--idle-timeout", "0"], "--idle-timeout must be more than 0 minutes"),
        (["--base-url", "quiz.example.org"], "--base-url must be an http or https URL"),
        (["--password-file", "missing.txt"], "make it with quiz serve set-password"),
        (["--users", "missing.txt"], "make it with quiz serve adduser NAME --users"),
    ],
)
def test_options_that_cannot_serve_stop_with_a_message(capsys, monkeypatch, tmp_path: Path, args: list[str], says: str):
    monkeypatch.chdir(tmp_path)
    assert main(["serve", *args]) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err


def test_a_bad_password_file_says_why(capsys, tmp_path: Path):
    path = tmp_path / "password.txt"
    path.write_text("hunter2\n", encoding="utf-8")  # a password, not its hash
    assert main(["serve", "--password-file", str(path)]) == 2
    assert "not a password hash" in capsys.readouterr().err


@pytest.mark.slow  # three scrypt hashes at their real cost
def test_adduser_and_set_password_read_the_password_from_stdin(capsys, monkeypatch, tmp_path: Path):
    users, password_file = tmp_path / "users.txt", tmp_path / "password.txt"
    monkeypatch.setattr(sys, "stdin", io.StringIO("first secret\n"))
    assert main(["serve", "adduser", "alice", "--users", str(users)]) == 0
    monkeypatch.setattr(sys, "stdin", io.StringIO("second secret\n"))
    assert main(["serve", "adduser", "alice", "--users", str(users)]) == 0
    assert "added alice" in capsys.readouterr().err.splitlines()[0]
    assert verify_password("second secret", read_users(users)["alice"])
    monkeypatch.setattr(sys, "stdin", io.StringIO("shared secret\n"))
    assert main(["serve", "set-password", str(password_file)]) == 0
    assert verify_password("shared secret", password_file.read_text(encoding="utf-8").strip())


def test_adduser_refuses_a_name_that_could_leave_its_folder_and_an_empty_password(capsys, monkeypatch, tmp_path: Path):
    monkeypatch.setattr(sys, "stdin", io.StringIO("x\n"))
    assert main(["serve", "adduser", "../bob", "--users", str(tmp_path / "users.txt")]) == 2
    assert "cannot be a user name" in capsys.readouterr().err
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n"))
    assert main(["serve", "adduser", "bob", "--users", str(tmp_path / "users.txt")]) == 1
    assert "the password is empty" in capsys.readouterr().err and not (tmp_path / "users.txt").exists()


def test_each_session_runs_the_app_itself_with_the_servers_options(tmp_path: Path):
    import argparse

    from quiz.cli.serve import session_command

    command = session_command(argparse.Namespace(lang="ja", bank=[tmp_path / "my pack"]))
    assert command.startswith("exec ") and "-m quiz.cli.serve_app --lang ja --bank" in command
    assert f"'{tmp_path / 'my pack'}'" in command  # quoted for the shell
