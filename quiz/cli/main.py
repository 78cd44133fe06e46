"""The `quiz` command: parses arguments and dispatches to a subcommand."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import traceback
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Final

from quiz import __version__
from quiz.base.collector import STARTING
from quiz.base.terminal_text import terminal_safe_output
from quiz.cli.arguments import CommandError, command_index

COMMANDS: Final = {
    "practice": "practice",
    "list": "list",
    "show": "show",
    "grade": "grade",
    "validate": "validate",
    "schema": "schema",
    "coverage": "coverage",
    "history": "history",
    "stats": "stats",
    "review": "review",
    "plan": "plan",
    "items": "items",
    "optimize": "optimize",
    "mock": "mock",
    "export": "export_history",
    "import": "import_history",
    "new": "new",
    "paths": "paths",
    "export-anki": "export_anki",
    "serve": "serve",
}
"""Each subcommand's name and its module in `quiz.cli`, in the order `quiz --help` lists them.
A command imports its own module alone: `quiz practice` starts without loading the others."""
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


def command_module(name: str) -> ModuleType:
    """The module of subcommand `name` (a key of COMMANDS), imported on first use."""
    return importlib.import_module(f"quiz.cli.{COMMANDS[name]}")


def build_parser(commands: Iterable[str] = COMMANDS) -> argparse.ArgumentParser:
    """The argument parser for `quiz` and the subcommands `commands` (by default all of them)."""
    common = _bank_option("bank")
    parser = argparse.ArgumentParser(
        prog="quiz",
        description="Practise interview questions on scaled dot-product attention.",
        parents=[_bank_option("root_bank")],
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    for name in commands:
        command_module(name).add_parser(subparsers, [common])
    return parser


def _parser_for(named: str | None, argv: list[str]) -> argparse.ArgumentParser:
    """A parser with the subcommand `named` in `argv`, or with every one where it is not one (a
    usage error lists them) or `argv` asks for help; plain `quiz`, which opens the app, needs none."""
    if named in COMMANDS:
        return build_parser([named])
    if named is None and not {"-h", "--help"} & set(argv):
        return build_parser(())
    return build_parser()


def main(argv: Sequence[str] | None = None) -> int:
    """The `quiz` command (started by `quiz.cli.entry.main`); returns the process exit code.

    Everything it prints goes through `terminal_safe_output`: no text from a pack, a file name
    or an answer can steer the terminal.
    """
    with terminal_safe_output():
        return _run(list(sys.argv[1:] if argv is None else argv))


def _run(argv: list[str]) -> int:
    index = command_index(argv)
    named = argv[index] if index is not None else None
    if named == "grade":
        argv = command_module("grade").join_answer_values(argv)
    args = _parser_for(named, argv).parse_args(argv)
    STARTING.release()  # the entry point's hold: the commands that open the app hold it again
    args.bank = [*args.root_bank, *getattr(args, "bank", [])]
    try:
        if not hasattr(args, "run"):  # plain `quiz` opens the app on its home screen
            launch: Callable[[argparse.Namespace, None], int] = command_module("practice").launch
            return launch(args, None)
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
