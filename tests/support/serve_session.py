"""The real `quiz serve` as a process, and the system's Chromium driven by Playwright, for the
browser tests. The page is read as text: Chromium runs without WebGL, so xterm.js draws its rows
as DOM text (`.xterm-rows`) instead of on a canvas."""

from __future__ import annotations

import os
import re
import select
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
SCREEN = "(document.querySelector('.xterm-rows') ? document.querySelector('.xterm-rows').innerText : '').replace(/\\u00a0/g, ' ')"
"""The terminal's text; xterm.js writes the spaces of styled runs as no-break spaces."""


def chromium_path() -> str | None:
    """The system's Chromium (Debian's `chromium` package), or None when there is none."""
    return next((found for name in CHROMIUM_NAMES if (found := shutil.which(name))), None)


class ServeProcess:
    """`python -m quiz serve --port 0 ARGS`; `url` is the URL it printed."""

    def __init__(self, args: list[str], env: Mapping[str, str] | None = None) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "quiz", "serve", "--port", "0", *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, **(env or {})},
        )
        self.url = self._printed_url(timeout=60)

    def _printed_url(self, timeout: float) -> str:
        assert self.process.stdout is not None
        deadline = time.monotonic() + timeout
        line = b""
        while not line.endswith(b"\n"):
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.process.stdout], [], [], max(left, 0))
            if not ready:
                self.close()
                raise AssertionError("quiz serve printed no URL in time")
            byte = os.read(self.process.stdout.fileno(), 1)
            if not byte:
                raise AssertionError(f"quiz serve exited: {self.process.stderr.read().decode() if self.process.stderr else ''}")
            line += byte
        found = re.search(rb"https?://\S+", line)
        assert found, line
        return found.group(0).decode()

    @property
    def base(self) -> str:
        """The page's URL without the token."""
        return self.url.split("?", 1)[0]

    def sessions(self) -> list[int]:
        """The ids of the app processes the server runs now (its children: each session's shell execs the app)."""
        children: list[int] = []
        for task in Path(f"/proc/{self.process.pid}/task").glob("*"):
            try:
                children += [int(pid) for pid in (task / "children").read_text().split()]
            except OSError:
                continue
        return children

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()

    def __enter__(self) -> ServeProcess:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium (the system's), skipping the test with the reason when there is none."""
    path = chromium_path()
    if path is None:
        pytest.skip("no Chromium found (apt-get install chromium): the browser tests of quiz serve need one")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        # --no-sandbox: CI runs as root, where Chromium's own sandbox cannot start.
        browser = playwright.chromium.launch(executable_path=path, args=["--no-sandbox", "--disable-webgl"])
        try:
            yield browser
        finally:
            browser.close()


def wait_for_screen(page: Any, text: str, timeout: float = 30, gone: bool = False) -> str:
    """Wait until the terminal in `page` shows `text` (no longer shows it, when `gone`); the screen's text then."""
    test = "!" if gone else ""
    page.wait_for_function(f"(text) => {test}({SCREEN}).includes(text)", arg=text, timeout=timeout * 1000)
    return str(page.evaluate(SCREEN))
