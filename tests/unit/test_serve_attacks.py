"""quiz serve attacked over real sockets: each way in without the token, the cookie, the right Host
or Origin is refused, messages and sessions are bounded, and a session's process ends with it.

The server runs in the test's event loop on 127.0.0.1 (a port the system picks); sessions run a
stand-in for the app (a process that waits for the server's first packet, the quit request), so
these tests are about the server, not the app: the browser tests run the real one.
"""

from __future__ import annotations

import asyncio
import os
import shlex
import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from http.cookies import SimpleCookie
from pathlib import Path

import aiohttp
import pytest

from quiz.serve.passwords import hash_password
from quiz.serve.server import CLOSE_FULL, CLOSE_IDLE, MAX_MESSAGE, QuizServer
from quiz.serve.settings import Auth, ServeSettings
from quiz.serve.tokens import new_token

STAND_IN = "exec " + shlex.join([sys.executable, "-c", "import sys; sys.stdin.buffer.read(1)"])
"""A session's process: it runs until the server writes to it (the quit request when the session ends)."""
FAST = 2**10


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Running:
    server: QuizServer
    base: str
    idle_clock: Clock

    @property
    def origin(self) -> str:
        return self.base.rstrip("/")

    def cookie_header(self, user: str = "") -> dict[str, str]:
        return {"Cookie": f"{self.server.cookie_name}={self.server.signer.sign(user)}"}


async def serving(settings: ServeSettings, tmp_path: Path) -> AsyncIterator[Running]:
    clock = Clock()
    server = QuizServer(settings, STAND_IN, new_token(), users_root=tmp_path / "users", monotonic=clock)
    runner = await server.start()
    try:
        yield Running(server, f"http://127.0.0.1:{server.port}/", clock)
    finally:
        await runner.cleanup()


@pytest.fixture
async def running(tmp_path: Path) -> AsyncIterator[Running]:
    async for served in serving(ServeSettings(port=0, max_sessions=1, idle_timeout=60), tmp_path):
        yield served


@pytest.fixture
async def client() -> AsyncIterator[aiohttp.ClientSession]:
    # No cookie jar: each test sends exactly the cookie it means to.
    async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as session:
        yield session


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def test_the_token_is_exchanged_for_a_strict_http_only_cookie(running: Running, client: aiohttp.ClientSession):
    async with client.get(f"{running.base}?token={running.server.token}", allow_redirects=False) as response:
        assert response.status == 303 and response.headers["Location"] == "./"
        cookie = SimpleCookie(response.headers["Set-Cookie"])[running.server.cookie_name]
    assert cookie["httponly"] and cookie["samesite"] == "Strict" and cookie["path"] == "/" and not cookie["secure"]
    async with client.get(running.base, headers={"Cookie": f"{running.server.cookie_name}={cookie.value}"}) as response:
        page = await response.text()
        assert response.status == 200 and "nonce-" in response.headers["Content-Security-Policy"]
    assert 'data-session-websocket-url="ws"' in page  # relative to the page: a proxy's prefix works
    assert 'href="static/favicon.svg"' in page and "<title>Attention quiz</title>" in page
    assert "googleapis" not in page  # nothing is fetched from elsewhere


async def test_a_wrong_token_gets_a_readable_403_page(running: Running, client: aiohttp.ClientSession):
    for wrong in [new_token(), running.server.token[:-1], "", "x" * 2000]:
        async with client.get(running.base, params={"token": wrong}, allow_redirects=False) as response:
            page = await response.text()
            assert response.status == 403 and "Set-Cookie" not in response.headers
        assert "<title>Attention quiz · Wrong token</title>" in page and 'rel="icon"' in page
        assert "changes every time quiz serve starts" in page


@pytest.mark.parametrize("path", ["", "static/js/textual.js", "static/css/xterm.css", "download/abc", "ws"])
async def test_without_the_cookie_everything_but_the_icon_is_refused(running: Running, client: aiohttp.ClientSession, path: str):
    async with client.get(running.base + path, headers={"Origin": running.origin}) as response:
        assert response.status == 403 and "Not logged in" in await response.text()
    async with client.get(running.base + "static/favicon.svg") as response:
        assert response.status == 200 and response.content_type == "image/svg+xml"


async def test_a_forged_cookie_is_refused(running: Running, client: aiohttp.ClientSession):
    real = running.server.signer.sign("")
    user, issued, signature = real.split(".")
    for forged in [f"{user}.{int(issued) + 60}.{signature}", f"{user}.{issued}.{'A' * len(signature)}", "..", "garbage"]:
        async with client.get(running.base, headers={"Cookie": f"{running.server.cookie_name}={forged}"}) as response:
            assert response.status == 403


async def test_a_cookie_of_another_port_is_not_this_servers(running: Running, client: aiohttp.ClientSession, tmp_path: Path):
    async for other in serving(ServeSettings(port=0), tmp_path / "other"):
        cookie = other.cookie_header()["Cookie"].replace(other.server.cookie_name, running.server.cookie_name)
        async with client.get(running.base, headers={"Cookie": cookie}) as response:
            assert response.status == 403


@pytest.mark.parametrize("host", ["evil.example", "evil.example:80", "127.0.0.2:8000", "localhost.evil.example"])
async def test_a_foreign_host_header_is_refused_even_with_the_cookie(running: Running, client: aiohttp.ClientSession, host: str):
    """DNS rebinding: a hostile name that resolves to 127.0.0.1 carries its own name in Host."""
    headers = running.cookie_header() | {"Host": host}
    async with client.get(running.base, headers=headers) as response:
        assert response.status == 403 and "Unknown host name" in await response.text()
    async with client.get(f"{running.base}?token={running.server.token}", headers={"Host": host}, allow_redirects=False) as response:
        assert response.status == 403 and "Set-Cookie" not in response.headers


@pytest.mark.parametrize("origin", ["http://evil.example", "http://127.0.0.1:1", "null", None])
async def test_a_websocket_from_another_origin_or_none_is_refused(running: Running, client: aiohttp.ClientSession, origin: str | None):
    headers = running.cookie_header() | ({"Origin": origin} if origin else {})
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await client.ws_connect(running.base + "ws", headers=headers)
    assert refused.value.status == 403
    assert running.server.slots.taken == 0 and not running.server.sessions  # no process was started


async def test_a_page_of_another_origin_gets_nothing(running: Running, client: aiohttp.ClientSession):
    async with client.get(running.base, headers=running.cookie_header() | {"Origin": "http://evil.example"}) as response:
        assert response.status == 403 and "another site" in await response.text()


async def test_only_the_assets_the_page_needs_are_served_and_no_listing(running: Running, client: aiohttp.ClientSession):
    cookie = running.cookie_header()
    for path in ["static/js/textual.js", "static/css/xterm.css", "static/fonts/RobotoMono.ttf", "static/favicon.svg"]:
        async with client.get(running.base + path, headers=cookie) as response:
            assert response.status == 200, path
    for path in ["static/", "static/js/", "static/images/background.png", "static/../server.py", "static/%2e%2e/server.py", "nothing"]:
        async with client.get(running.base + path, headers=cookie) as response:
            assert response.status in (403, 404), path
            assert "Index of" not in await response.text()


async def open_session(running: Running, client: aiohttp.ClientSession, user: str = "") -> aiohttp.ClientWebSocketResponse:
    return await client.ws_connect(running.base + "ws?width=100&height=30", headers=running.cookie_header(user) | {"Origin": running.origin})


async def until(condition: Callable[[], object], seconds: float = 20.0) -> None:
    """Wait for `condition()` (a server's or a process's state), at most `seconds`."""
    for _ in range(int(seconds / 0.05)):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("it did not happen in time")


@pytest.mark.slow
async def test_a_session_runs_its_process_and_ends_it_when_the_browser_goes(running: Running, client: aiohttp.ClientSession):
    websocket = await open_session(running, client)
    await until(lambda: any(session.pid for session in running.server.sessions))
    (session,) = running.server.sessions
    pid = session.pid
    assert pid is not None and alive(pid)
    await websocket.close()
    await until(lambda: not running.server.sessions)
    assert not alive(pid) and running.server.slots.taken == 0


@pytest.mark.slow
async def test_an_oversized_message_closes_the_session(running: Running, client: aiohttp.ClientSession):
    websocket = await open_session(running, client)
    await websocket.send_str('["stdin", "' + "x" * MAX_MESSAGE + '"]')
    message = await websocket.receive()
    assert message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
    assert websocket.close_code == aiohttp.WSCloseCode.MESSAGE_TOO_BIG
    await until(lambda: not running.server.sessions)


@pytest.mark.slow
async def test_a_session_past_the_limit_is_closed_before_any_process_starts(running: Running, client: aiohttp.ClientSession):
    first = await open_session(running, client)
    await until(lambda: len(running.server.sessions) == 1)
    async with client.get(running.base, headers=running.cookie_header()) as response:
        assert response.status == 503 and "at most 1 sessions" in await response.text()
    second = await open_session(running, client)
    await second.receive()
    assert second.close_code == CLOSE_FULL and len(running.server.sessions) == 1
    await first.close()
    await until(lambda: running.server.slots.taken == 0)


@pytest.mark.slow
async def test_an_idle_session_is_ended_with_its_process(running: Running, client: aiohttp.ClientSession):
    websocket = await open_session(running, client)
    await until(lambda: any(session.pid for session in running.server.sessions))
    pid = next(iter(running.server.sessions)).pid
    assert pid is not None
    running.idle_clock.now += 30
    await websocket.send_str('["stdin", "a"]')  # activity: the idle time starts again
    await websocket.send_str('["ping", "seen"]')
    assert await websocket.receive_json(timeout=10) == ["pong", "seen"]  # the key before it was taken
    running.idle_clock.now += 59
    await asyncio.sleep(0.2)
    assert running.server.sessions, "ended before its idle time"
    running.idle_clock.now += 2
    message = await websocket.receive(timeout=20)
    assert message.type is aiohttp.WSMsgType.CLOSE and websocket.close_code == CLOSE_IDLE
    await until(lambda: not running.server.sessions and not alive(pid))


@pytest.mark.slow
async def test_hostile_messages_are_dropped_and_the_session_lives_on(running: Running, client: aiohttp.ClientSession):
    websocket = await open_session(running, client)
    for junk in ["not json", "{}", "[]", '[1, 2]', '["stdin", 5]', '["resize", {"width": 10000000, "height": -5}]', '["ping", "x"]']:
        await websocket.send_str(junk)
    assert await websocket.receive_json(timeout=10) == ["pong", "x"]  # answered after the junk before it
    assert running.server.sessions
    await websocket.close()


async def login(running: Running, client: aiohttp.ClientSession, origin: str | None, **form: str) -> aiohttp.ClientResponse:
    headers = {"Origin": origin} if origin else {}
    return await client.post(running.base + "login", data=form, headers=headers, allow_redirects=False)


async def test_the_password_logs_in_and_a_wrong_one_or_another_origin_does_not(tmp_path: Path, client: aiohttp.ClientSession):
    settings = ServeSettings(port=0, auth=Auth.PASSWORD, password_hash=hash_password("s3cret", n=FAST))
    async for running in serving(settings, tmp_path):
        async with client.get(running.base) as response:
            assert response.status == 200 and 'type="password"' in await response.text()
        async with await login(running, client, running.origin, password="wrong") as response:
            assert response.status == 403 and "wrong" in await response.text()
        for origin in ["http://evil.example", None]:  # a login forced by another site's form
            async with await login(running, client, origin, password="s3cret") as response:
                assert response.status == 403 and "Set-Cookie" not in response.headers
        async with await login(running, client, running.origin, password="s3cret") as response:
            assert response.status == 303 and running.server.signer.user(response.cookies[running.server.cookie_name].value) == ""
        async with await login(running, client, running.origin, password="x" * 20_000) as response:
            assert response.status == 413  # the body is bounded


async def test_each_user_logs_in_as_themselves_only(tmp_path: Path, client: aiohttp.ClientSession):
    users = {"alice": hash_password("a-pass", n=FAST), "bob": hash_password("b-pass", n=FAST)}
    async for running in serving(ServeSettings(port=0, auth=Auth.USERS, users=users), tmp_path):
        for name, password in [("alice", "b-pass"), ("carol", "a-pass"), ("", "a-pass")]:
            async with await login(running, client, running.origin, name=name, password=password) as response:
                assert response.status == 403, name
        async with await login(running, client, running.origin, name="bob", password="b-pass") as response:
            assert running.server.signer.user(response.cookies[running.server.cookie_name].value) == "bob"
        async with client.get(f"{running.base}?token={running.server.token}", allow_redirects=False) as response:
            assert "Set-Cookie" not in response.headers  # no token logs in where users do
        alice, bob = running.server.environment_for("alice"), running.server.environment_for("bob")
        assert alice["QUIZ_DATA_DIR"] != bob["QUIZ_DATA_DIR"] and Path(bob["QUIZ_DATA_DIR"]).is_relative_to(tmp_path / "users" / "bob")
        assert alice["QUIZ_CODE_FOR_OTHERS"] == "1"  # others' code runs only where bubblewrap confines it


async def test_the_machines_own_user_on_loopback_runs_code_as_the_terminal_app_does(tmp_path: Path):
    async for running in serving(ServeSettings(port=0), tmp_path):
        assert "QUIZ_CODE_FOR_OTHERS" not in running.server.environment_for("")


async def test_a_download_is_only_for_the_user_whose_session_made_it(tmp_path: Path, client: aiohttp.ClientSession):
    from quiz.serve.process import SessionProcess

    users = {"alice": hash_password("a", n=FAST), "bob": hash_password("b", n=FAST)}
    async for running in serving(ServeSettings(port=0, auth=Auth.USERS, users=users), tmp_path):
        manager = running.server.download_manager

        async def nothing(*_: object) -> None:
            return None

        owner = SessionProcess("true", user="alice", environment={}, write_bytes=nothing, write_str=nothing, close=nothing, download_manager=manager)
        await manager.create_download(app_service=owner, delivery_key="k1", file_name="report.md", open_method="download", mime_type="text/markdown")
        async with client.get(running.base + "download/k1", headers=running.cookie_header("bob")) as response:
            assert response.status == 404
