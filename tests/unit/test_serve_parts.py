"""quiz serve's parts on their own: the token and cookie, password hashes, the users file, the
Host and Origin rules, session slots and the idle timer (clocks injected)."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from quiz.serve.guard import Guard, is_loopback
from quiz.serve.limits import IdleTimer, SessionSlots
from quiz.serve.passwords import PasswordHashError, check_hash, hash_password, verify_password
from quiz.serve.settings import Auth, ServeSettings, SettingsError
from quiz.serve.tokens import COOKIE_MAX_AGE, CookieSigner, new_token, token_matches
from quiz.serve.users import UsersFileError, add_user, read_users, user_environment


class Clock:
    """A clock the test sets."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_tokens_are_fresh_and_compared_whole():
    token = new_token()
    assert len(token) >= 43 and token != new_token()
    assert token_matches(token, token)
    assert not token_matches(token[:-1], token) and not token_matches(token + "x", token)
    assert not token_matches(None, token) and not token_matches("", token)
    assert not token_matches("é" * 10, token)  # not ASCII: refused, not an exception


def test_a_signed_cookie_names_its_user_and_nothing_else_passes():
    clock = Clock()
    signer = CookieSigner(clock)
    cookie = signer.sign("alice")
    assert signer.user(cookie) == "alice" and signer.user(signer.sign("")) == ""
    encoded, issued, signature = cookie.split(".")
    bob = CookieSigner(clock, key=signer.key).sign("bob").split(".")[0]
    forged = [
        f"{bob}.{issued}.{signature}",  # another user's name under alice's signature
        f"{encoded}.{int(issued) + 1}.{signature}",  # a later issue time
        f"{encoded}.{issued}.{signature[:-2]}AA",
        CookieSigner(clock).sign("alice"),  # signed with another server's key
        "",
        "a.b",
        "a.b.c.d",
        None,
    ]
    assert [signer.user(value) for value in forged] == [None] * len(forged)


def test_a_cookie_expires():
    clock = Clock()
    signer = CookieSigner(clock)
    cookie = signer.sign("alice")
    clock.now += COOKIE_MAX_AGE
    assert signer.user(cookie) == "alice"
    clock.now += 1
    assert signer.user(cookie) is None


FAST = 2**10
"""A small scrypt cost for the tests that are not about the cost."""


@pytest.mark.slow  # scrypt at its real cost: some 0.1 s a hash, more on a busy machine
def test_password_hashes_are_salted_scrypt_and_verify():
    stored = hash_password("correct horse")
    assert stored.startswith("scrypt$32768$8$1$") and stored != hash_password("correct horse")
    assert verify_password("correct horse", stored)
    assert not verify_password("correct horse ", stored)
    assert check_hash(hash_password("x", salt=b"0" * 16, n=FAST))[3] == b"0" * 16


@pytest.mark.parametrize(
    ("stored", "says"),
    [
        ("plain text", "not a password hash"),
        ("scrypt$3$8$1$AAAA$AAAA", "out of range"),
        ("scrypt$16$8$1$!!!!$AAAA", "not base64"),
        ("bcrypt$16$8$1$AAAA$AAAA", "not a password hash"),
        ("scrypt$2097152$8$1$AAAA$AAAA", "out of range"),
    ],
)
def test_a_bad_stored_hash_says_what_is_wrong(stored: str, says: str):
    with pytest.raises(PasswordHashError, match=says):
        verify_password("x", stored)


def test_the_users_file_is_written_privately_and_read_back(tmp_path: Path):
    path = tmp_path / "users.txt"
    assert add_user(path, "alice", hash_password("a", n=FAST)) is True
    assert add_user(path, "bob", hash_password("b", n=FAST)) is True
    assert add_user(path, "alice", hash_password("a2", n=FAST)) is False  # a new password, not a second alice
    users = read_users(path)
    assert list(users) == ["alice", "bob"] and verify_password("a2", users["alice"])
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("alice\n", ":1: expected name:hash"),
        ("../x:scrypt$16$8$1$AAAA$AAAA\n", "cannot be a user name"),
        ("# a comment\n\nAlice:scrypt$16$8$1$AAAA$AAAA\n", ":3: 'Alice' cannot be a user name"),
        ("a:scrypt$16$8$1$AAAA$AAAA\na:scrypt$16$8$1$AAAA$AAAA\n", ":2: a is there twice"),
        ("a:nothing\n", ":1: not a password hash"),
    ],
)
def test_a_bad_users_file_names_its_line(tmp_path: Path, text: str, says: str):
    path = tmp_path / "users.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UsersFileError, match=says.replace("$", r"\$")):
        read_users(path)


def test_a_missing_users_file_says_how_to_make_one(tmp_path: Path):
    with pytest.raises(UsersFileError, match="quiz serve adduser NAME --users"):
        read_users(tmp_path / "none.txt")


def test_each_user_gets_private_folders_of_their_own(tmp_path: Path):
    alice, bob = user_environment("alice", tmp_path), user_environment("bob", tmp_path)
    assert set(alice) == {"QUIZ_DATA_DIR", "QUIZ_CONFIG_DIR", "QUIZ_CACHE_DIR", "QUIZ_SCREENSHOTS_DIR"}
    for key in alice:
        assert Path(alice[key]).is_relative_to(tmp_path / "alice") and Path(bob[key]).is_relative_to(tmp_path / "bob")
    assert stat.S_IMODE((tmp_path / "alice").stat().st_mode) == 0o700
    with pytest.raises(UsersFileError):
        user_environment("../bob", tmp_path)


def test_host_and_origin_rules():
    guard = Guard.for_server("127.0.0.1", 8000)
    assert all(guard.host_allowed(host) for host in ["127.0.0.1:8000", "localhost:8000", "LOCALHOST:8000", "[::1]:8000"])
    # DNS rebinding: a hostile name that resolves here, another port, junk.
    refused = ["evil.example:8000", "127.0.0.1:8001", "127.0.0.1", "", None, "a@127.0.0.1:8000", "127.0.0.1:8000/x", "[::1"]
    assert not any(guard.host_allowed(host) for host in refused)
    assert guard.origin_allowed("http://127.0.0.1:8000", required=True)
    assert guard.origin_allowed("http://localhost:8000", required=True)
    assert not guard.origin_allowed("http://evil.example", required=False)
    assert not guard.origin_allowed("http://127.0.0.1:8001", required=False)
    assert not guard.origin_allowed("null", required=False)
    assert guard.origin_allowed(None, required=False) and not guard.origin_allowed(None, required=True)


def test_behind_a_proxy_the_public_name_is_allowed_too():
    guard = Guard.for_server("127.0.0.1", 8000, "https://quiz.example.org/quiz/")
    assert guard.host_allowed("quiz.example.org") and guard.host_allowed("quiz.example.org:443")
    assert guard.origin_allowed("https://quiz.example.org", required=True)
    assert not guard.origin_allowed("http://quiz.example.org", required=True)
    assert not guard.host_allowed("other.example.org")


def test_listening_beyond_loopback_needs_a_password_or_an_explicit_no():
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1") and not is_loopback("0.0.0.0")
    with pytest.raises(SettingsError, match="--password-file FILE or --users FILE"):
        ServeSettings(host="0.0.0.0")
    for auth in (Auth.PASSWORD, Auth.USERS, Auth.NONE):
        assert ServeSettings(host="0.0.0.0", auth=auth).host == "0.0.0.0"


def test_the_public_url_and_the_cookie_follow_the_base_url():
    local = ServeSettings(port=8123)
    assert local.public_url() == "http://127.0.0.1:8123/" and local.cookie_path == "/" and not local.secure
    proxied = ServeSettings(base_url="https://quiz.example.org/quiz")
    assert proxied.public_url() == "https://quiz.example.org/quiz/" and proxied.cookie_path == "/quiz/" and proxied.secure
    for bad in ["ftp://x/", "https://x/?a=1", "quiz.example.org"]:
        with pytest.raises(SettingsError, match="--base-url"):
            ServeSettings(base_url=bad)


def test_session_slots_and_the_idle_timer():
    slots = SessionSlots(2)
    assert slots.take() and slots.take() and slots.full and not slots.take()
    slots.give_back()
    assert not slots.full and slots.take()
    clock = Clock()
    idle = IdleTimer(60, clock)
    clock.now += 59
    assert idle.remaining() == 1
    idle.touch()
    clock.now += 60
    assert idle.remaining() == 0
