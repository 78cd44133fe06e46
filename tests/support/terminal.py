"""The real `quiz` command in a pseudo-terminal, for tests that need a whole process: keys are
typed into it, and what it draws is read back as text (escape sequences removed)."""

from __future__ import annotations

import codecs
import fcntl
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

# Control sequences: CSI (cursor, colours), OSC (titles, clipboard), and two-byte escapes.
ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]|\x1b[()][0-9A-Za-z]")


class Terminal:
    """`quiz ARGS...` running in a pty of `size` (columns, lines) with `env` added."""

    def __init__(self, *args: str, env: dict[str, str], size: tuple[int, int] = (100, 30)) -> None:
        self.master, slave = os.openpty()
        columns, lines = size
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
        environment = {**os.environ, "TERM": "xterm-256color", "TEXTUAL_ANIMATIONS": "none", **env}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "quiz", *args], stdin=slave, stdout=slave, stderr=slave, env=environment, cwd=Path.cwd(), start_new_session=True
        )
        os.close(slave)
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self.screen = ""
        """Everything drawn so far, as text."""

    def type(self, text: str) -> None:
        os.write(self.master, text.encode("utf-8"))

    def wait_for(self, text: str, timeout_s: float = 120.0) -> None:
        """Read what the app draws until `text` appears in it (AssertionError after `timeout_s`)."""
        start = len(self.screen)
        deadline = time.monotonic() + timeout_s
        while text not in self.screen[max(0, start - len(text)) :]:
            left = deadline - time.monotonic()
            assert left > 0, f"{text!r} never appeared; the end of the screen: {self.screen[-2000:]!r}"
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    data = os.read(self.master, 65536)
                except OSError:  # the process ended: its side of the pty is closed
                    data = b""
                assert data, f"the app ended before {text!r} appeared: {self.screen[-2000:]!r}"
                self.screen += ESCAPES.sub("", self._decoder.decode(data))

    def kill(self, signal_number: int) -> int:
        """Send `signal_number` and return the exit status once the process is gone."""
        self.process.send_signal(signal_number)
        return self.process.wait(timeout=60)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=60)
        os.close(self.master)
