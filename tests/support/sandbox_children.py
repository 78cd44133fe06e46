"""Find the sandbox's processes from a test: the child is confined to its own run directory (and under
bubblewrap to its own PID namespace, where its pid means nothing here), so it cannot report its pid
through a file of ours; the host's /proc says which processes run the harness, and which carry a name."""

from __future__ import annotations

import os
import time


def _processes() -> dict[int, tuple[int, bytes, str]]:
    """Every process this one can see: pid -> (parent pid, command line, name)."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat, open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                line, command = stat.read(), cmdline.read()
        except OSError:  # gone meanwhile
            continue
        name, _, rest = line.partition(" (")[2].rpartition(")")
        found[int(entry)] = (int(rest.split()[1]), command, name)
    return found


def harness_children() -> list[int]:
    """The pids of this process's descendants that run the sandbox's harness in Python (not the
    bubblewrap processes around it, whose command lines name the harness too)."""
    processes, ours, found = _processes(), {os.getpid()}, []
    changed = True
    while changed:  # the descendants of this process, however deep
        changed = False
        for pid, (parent, _, _) in processes.items():
            if parent in ours and pid not in ours:
                ours.add(pid)
                changed = True
    for pid in ours - {os.getpid()}:
        command = processes[pid][1]
        if b"harness.py" in command and not os.path.basename(command.split(b"\0")[0]).startswith(b"bwrap"):
            found.append(pid)
    return sorted(found)


def named(name: str) -> list[int]:
    """The pids of every process on the machine whose name (prctl PR_SET_NAME, /proc/PID/comm) is `name`."""
    return sorted(pid for pid, (_, _, comm) in _processes().items() if comm == name)


def wait_for_harness_child(poll_seconds: float = 0.02) -> int:
    """The pid of the first harness child to appear (waits as long as it takes: a test's own timeout bounds it)."""
    while not (pids := harness_children()):
        time.sleep(poll_seconds)
    return pids[0]
