"""The real `quiz` command in a real pseudo-terminal, for what only a terminal shows: the bytes
the app writes, and how long it takes to quit. Output is read as it arrives (select on the pty,
never a sleep); the process is killed by its id if a test leaves it running."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable, Mapping

CTRL_Q = b"\x11"
F2 = b"\x1bOQ"


class TerminalSession:
    """`python -m quiz ARGS` attached to a pty of `size` (columns, rows)."""

    def __init__(self, args: list[str], env: Mapping[str, str], size: tuple[int, int] = (100, 30)) -> None:
        self._master, slave = pty.openpty()
        columns, rows = size
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "quiz", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env={**os.environ, "TERM": "xterm-256color", **env},
            start_new_session=True,
        )
        os.close(slave)
        self.output = b""

    def __enter__(self) -> TerminalSession:
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        os.close(self._master)

    def read_until(self, seen: Callable[[bytes], bool], timeout: float) -> bool:
        """Read what the app writes until `seen(output)` is true; False after `timeout` or at exit."""
        deadline = time.monotonic() + timeout
        while not seen(self.output):
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            ready, _, _ = select.select([self._master], [], [], left)
            if not ready:
                continue
            try:
                chunk = os.read(self._master, 65536)
            except OSError:  # the app closed the terminal: it has exited
                return seen(self.output)
            if not chunk:
                return seen(self.output)
            self.output += chunk
        return True

    def press(self, keys: bytes) -> None:
        os.write(self._master, keys)

    def seconds_to_exit(self, timeout: float) -> float:
        """Wall-clock seconds until the process ends (draining its output meanwhile)."""
        start = time.monotonic()
        self.read_until(lambda _: self.process.poll() is not None, timeout)
        self.process.wait(max(timeout - (time.monotonic() - start), 0.1))
        return time.monotonic() - start
