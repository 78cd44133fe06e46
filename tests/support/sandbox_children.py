"""Find the sandbox's child processes from a test: the child is confined to its own run directory,
so it cannot report its pid through a file of ours; /proc says which children run the harness."""

from __future__ import annotations

import os
import time


def harness_children() -> list[int]:
    """The pids of this process's children that run the sandbox's harness."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat, open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                parent, command = int(stat.read().rpartition(")")[2].split()[1]), cmdline.read()
        except OSError:  # gone meanwhile
            continue
        if parent == os.getpid() and b"harness.py" in command:
            found.append(int(entry))
    return found


def wait_for_harness_child(poll_seconds: float = 0.02) -> int:
    """The pid of the first harness child to appear (waits as long as it takes: a test's own timeout bounds it)."""
    while not (pids := harness_children()):
        time.sleep(poll_seconds)
    return pids[0]
