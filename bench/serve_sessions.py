"""quiz serve under load, in one run: time to the first frame of the home screen

1. of the terminal app (`python -m quiz` in a pseudo-terminal, until its home menu is written): the floor;
2. of one browser session of `quiz serve` (from opening the websocket until the home menu arrives on it);
3. of 20 sessions opened at once (each one's time; the median and the slowest), which on a 2-core
   machine start 20 app processes side by side.
Sessions are opened as a browser does (the printed token exchanged for the cookie, the Origin of
the page), with aiohttp's websocket client instead of a browser: the figure is the server's and
the app's, not a browser's drawing. Every process gets this run's own data and cache folders
(the cache warmed by one start first), never the user's.
Run: .venv/bin/python bench/serve_sessions.py
"""

from __future__ import annotations

import asyncio
import os
import pty
import re
import select
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp
from _smoke import sized

REPEATS = sized(3, 1)
CONCURRENT = sized(20, 2)
HOME = b"Practise everything"
"""Text of the home menu: once it has arrived, the first frame is there."""
TIMEOUT = 300.0


def terminal_start(env: dict[str, str]) -> float:
    """Seconds from starting `python -m quiz` in a pty until its home menu is written."""
    master, slave = pty.openpty()
    start = time.monotonic()
    process = subprocess.Popen([sys.executable, "-m", "quiz"], stdin=slave, stdout=slave, stderr=slave, env={**env, "TERM": "xterm-256color"})
    os.close(slave)
    seen = b""
    try:
        while HOME not in seen:
            ready, _, _ = select.select([master], [], [], TIMEOUT)
            if not ready:
                raise SystemExit("the terminal app showed no home screen in time")
            seen = seen[-len(HOME) :] + os.read(master, 65536)
        return time.monotonic() - start
    finally:
        process.kill()
        process.wait()
        os.close(master)


def start_server(env: dict[str, str], sessions: int) -> tuple[subprocess.Popen[bytes], str]:
    """`quiz serve` on a free port, allowing `sessions` at once; it and the URL it printed."""
    command = [sys.executable, "-m", "quiz", "serve", "--port", "0", "--max-sessions", str(sessions)]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    assert server.stdout is not None
    line = server.stdout.readline().decode()
    found = re.search(r"http://\S+", line)
    if not found:
        server.kill()
        raise SystemExit(f"quiz serve printed no URL: {line!r}")
    return server, found.group(0)


async def first_frame(client: aiohttp.ClientSession, base: str) -> float:
    """Seconds from opening a session's websocket until the home menu has arrived on it."""
    start = time.monotonic()
    seen = b""
    async with client.ws_connect(base + "ws?width=120&height=36", headers={"Origin": base.rstrip("/")}, max_msg_size=0) as websocket:
        async for message in websocket:
            if message.type is aiohttp.WSMsgType.BINARY:
                seen = seen[-len(HOME) :] + message.data
                if HOME in seen:
                    return time.monotonic() - start
    raise SystemExit("a session closed before its home screen")


async def sessions_at_once(url: str, count: int) -> list[float]:
    """Each of `count` sessions' time to its first frame, all opened at once by one logged-in browser."""
    base = url.split("?", 1)[0]
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as client:
        async with client.get(url) as response:  # the token for the cookie, as a browser does
            response.raise_for_status()
        return list(await asyncio.wait_for(asyncio.gather(*(first_frame(client, base) for _ in range(count))), TIMEOUT))


def no_sessions_left(server: subprocess.Popen[bytes]) -> None:
    """Wait until the server has ended every session's process (the sessions closed)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        children = [child for task in Path(f"/proc/{server.pid}/task").glob("*") for child in (task / "children").read_text().split()]
        if not children:
            return
        time.sleep(0.1)
    raise SystemExit("sessions' processes outlived their websockets")


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-serve-") as folder:
        root = Path(folder)
        env = {**os.environ, "QUIZ_DATA_DIR": str(root / "data"), "QUIZ_CONFIG_DIR": str(root / "config"), "QUIZ_CACHE_DIR": str(root / "cache")}
        terminal_start(env)  # warms the bank cache, as every later start finds it
        floor = statistics.median(terminal_start(env) for _ in range(REPEATS))
        server, url = start_server(env, CONCURRENT)
        try:
            single: list[float] = []
            for _ in range(REPEATS):
                single += asyncio.run(sessions_at_once(url, 1))
                no_sessions_left(server)
            crowd: list[float] = []
            for _ in range(REPEATS):
                crowd += asyncio.run(sessions_at_once(url, CONCURRENT))
                no_sessions_left(server)
        finally:
            server.terminate()
            server.wait()
    one = statistics.median(single)
    print(f"terminal app, start to its home screen (floor): {floor:.2f} s  (median of {REPEATS})")
    print(f"1 session of quiz serve, websocket to home screen: {one:.2f} s  {one / floor:.2f}x the floor")
    print(
        f"{CONCURRENT} concurrent sessions: median {statistics.median(crowd):.2f} s  "
        f"({statistics.median(crowd) / floor:.2f}x the floor), slowest {max(crowd):.2f} s  on {os.cpu_count()} cores"
    )


if __name__ == "__main__":
    main()
