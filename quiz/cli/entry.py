"""The `quiz` command's entry point, and `python -m quiz`'s: the command line, imported with the
cyclic garbage collector held as the rest of a start holds it (see `quiz.base.collector.STARTING`)."""

from __future__ import annotations

import gc
from collections.abc import Sequence

from quiz.base.collector import STARTING


def main(argv: Sequence[str] | None = None) -> int:
    """Run the `quiz` command. Importing it builds only objects that live as long as the process:
    collections would walk them for nothing (some twenty before the first screen), so they are
    imported held and then frozen out of every later collection."""
    STARTING.hold()  # released once the arguments are read; the commands that open the app hold it again
    from quiz.cli.main import main as run_command

    gc.freeze()
    return run_command(argv)
