"""The `quiz` command: parses arguments and dispatches to a subcommand."""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path

from quiz import __version__
from quiz.commands import (
    CommandError,
    coverage,
    export_anki,
    export_history,
    grade,
    history,
    import_history,
    mock,
    new,
    paths,
    practice,
    review,
    schema,
    show,
    stats,
    validate,
)
from quiz.commands import list as list_command
from quiz.terminal_text import terminal_safe_output

COMMANDS = (
    practice,
    list_command,
    show,
    grade,
    validate,
    schema,
    coverage,
    history,
    stats,
    review,
    mock,
    export_history,
    import_history,
    new,
    paths,
    export_anki,
)
EXIT_INTERNAL = 70
"""Exit code of a failure that is our bug, not the input's (EX_SOFTWARE)."""


def _bank_option(dest: str) -> argparse.ArgumentParser:
    # The root and every subcommand take --bank; each keeps its own list (a subcommand's
    # defaults would overwrite the root's) and main() joins them.
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument(
        "--bank",
        dest=dest,
        action="append",
        type=Path,
        default=[],
        metavar="PATH",
        help="also load questions from this file or folder (repeatable)",
    )
    return parser


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for `quiz` and its subcommands."""
    common = _bank_option("bank")
    parser = argparse.ArgumentParser(
        prog="quiz",
        description="Practise interview questions on scaled dot-product attention.",
        parents=[_bank_option("root_bank")],
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(subparsers, [common])
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `quiz` command; returns the process exit code.

    Everything it prints goes through `terminal_safe_output`: no text from a pack, a file name
    or an answer can steer the terminal.
    """
    with terminal_safe_output():
        return _run(list(sys.argv[1:] if argv is None else argv))


def _run(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(grade.join_answer_values(argv))
    args.bank = [*args.root_bank, *getattr(args, "bank", [])]
    try:
        if not hasattr(args, "run"):  # plain `quiz` opens the app on its home screen
            return practice.launch(args, None)
        run: Callable[[argparse.Namespace], int] = args.run  # what the subcommand's parser set
        return run(args)
    except CommandError as exc:
        print(f"quiz: {exc.message}", file=sys.stderr)
        return exc.code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `quiz validate | head`: the reader left; nothing more to say
        # Python flushes standard output once more at exit: let that flush go nowhere, quietly.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except MemoryError:
        print("quiz: ran out of memory", file=sys.stderr)
        return EXIT_INTERNAL
    except Exception as exc:  # never a traceback in front of a user; QUIZ_DEBUG=1 shows it
        if os.environ.get("QUIZ_DEBUG"):
            traceback.print_exc()
        print(f"quiz: internal error ({type(exc).__name__}: {exc}); this is a bug, please report it", file=sys.stderr)
        return EXIT_INTERNAL
