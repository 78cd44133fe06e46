"""The `quiz` command: parses arguments and dispatches to the core or the app."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from quiz import __version__


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for `quiz` and its subcommands."""
    parser = argparse.ArgumentParser(
        prog="quiz",
        description="Practise interview questions on scaled dot-product attention.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `quiz` command; returns the process exit code."""
    parser = build_parser()
    parser.parse_args(argv)
    parser.print_help()
    return 0
