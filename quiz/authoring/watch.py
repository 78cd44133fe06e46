"""`quiz validate --watch`: check again whenever a question file changes, and say only what changed.

Polling with the standard library is enough for files an author saves by hand: every
`interval` seconds the contents of the watched files are hashed (a changed modification time
alone would miss two saves within the file system's clock tick); a change, a new file or a
removed one runs the checks again. The problems are compared with the last run's by file,
severity and message (not line: adding a line above a problem does not make it new), and only
the fixed and the new ones are printed, then the summary.
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from quiz.authoring.validation import Validation
from quiz.bank import pack_files
from quiz.base.bounded_read import UnreadableFile, read_bounded
from quiz.format.diagnostics import Diagnostic
from quiz.format.yaml_data import MAX_FILE_BYTES

INTERVAL = 1.0
"""Seconds between two looks at the files."""


def snapshot(paths: Sequence[Path]) -> dict[Path, str]:
    """Each question file under `paths` with a hash of its contents (files that vanish are left out).

    Files are read as the loader reads them, at most MAX_FILE_BYTES of a regular file: one the
    loader refuses is hashed as the reason, so it counts as changed once it can be read.
    """
    found: dict[Path, str] = {}
    for source in paths:
        for path in pack_files(source):
            try:
                content = read_bounded(path, MAX_FILE_BYTES)
            except FileNotFoundError:  # removed between listing and reading: the check will say
                continue
            except UnreadableFile as exc:
                content = str(exc).encode()
            found[path] = hashlib.sha256(content).hexdigest()
    return found


def watch(
    paths: Sequence[Path],
    check: Callable[[], Validation],
    out: TextIO,
    *,
    sleep: Callable[[float], None] | None = None,
    interval: float = INTERVAL,
    rounds: int | None = None,
) -> None:
    """Print a full check of `paths`, then after each change only what changed.

    `sleep` (default `time.sleep`) and `rounds` (how many looks before returning; None: until
    interrupted) let tests drive it without waiting.
    """
    sleep = sleep or time.sleep
    files = snapshot(paths)
    last = check()
    for diagnostic in last.diagnostics:
        print(diagnostic, file=out)
    print(last.summary(), file=out)
    print(f"watching {len(files)} file{'s' if len(files) != 1 else ''}; Ctrl+C stops", file=out, flush=True)
    looked = 0
    while rounds is None or looked < rounds:
        sleep(interval)
        looked += 1
        now = snapshot(paths)
        if now == files:
            continue
        changed = sorted({*now, *files} - {p for p in now.keys() & files.keys() if now[p] == files[p]})
        files = now
        result = check()
        print_changes(last, result, changed, out)
        last = result


def print_changes(before: Validation, after: Validation, changed: Sequence[Path], out: TextIO) -> None:
    """The files that changed, the problems fixed and the new ones, and the summary."""
    print(f"changed: {', '.join(str(p) for p in changed)}", file=out)
    fixed, new = _difference(before.diagnostics, after.diagnostics), _difference(after.diagnostics, before.diagnostics)
    for diagnostic in fixed:
        print(f"  fixed: {diagnostic}", file=out)
    for diagnostic in new:
        print(f"  new: {diagnostic}", file=out)
    if not fixed and not new:
        print("  no problem fixed or new", file=out)
    print(after.summary(), file=out, flush=True)


def _difference(these: list[Diagnostic], those: list[Diagnostic]) -> list[Diagnostic]:
    """The diagnostics of `these` not in `those`, matched by file, severity and message (as many
    times as each occurs), so a problem that only moved to another line is not news."""
    remaining = Counter(_identity(d) for d in those)
    out = []
    for diagnostic in these:
        key = _identity(diagnostic)
        if remaining[key]:
            remaining[key] -= 1
        else:
            out.append(diagnostic)
    return out


def _identity(diagnostic: Diagnostic) -> tuple[str, str, str]:
    return (str(diagnostic.location.path), str(diagnostic.severity), diagnostic.message)
