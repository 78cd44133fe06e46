"""The `quiz` subcommands, one module each; each exposes `add_parser` and `run`."""

import argparse
from collections.abc import Sequence

from quiz.locale.i18n import LANGUAGES
from quiz.variants.keys import MAX_SEED_DIGITS


def add_variant_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments naming one variant, and the output options, shared by show and grade."""
    parser.add_argument("id", metavar="ID", help="question id or variant key (id#seed)")
    parser.add_argument("--seed", type=seed_number, help="variant seed, 0 or more (default: the key's, or 0)")
    parser.add_argument("--lang", choices=LANGUAGES, default="en", help="language (default en)")
    parser.add_argument("--json", action="store_true", help="print a JSON object")


def seed_number(text: str) -> int:
    """A variant seed as `--seed` takes it: a whole number the key `id#seed` can carry back."""
    if not text.isascii() or not text.isdigit() or len(text) > MAX_SEED_DIGITS:
        raise argparse.ArgumentTypeError(f"a seed is a whole number from 0 to {10**MAX_SEED_DIGITS - 1}, got {text!r}")
    return int(text)


class CommandError(Exception):
    """Stops a subcommand with a message on stderr and an exit code."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def command_index(argv: Sequence[str]) -> int | None:
    """Where the subcommand stands in `argv`: the first word that is neither an option nor --bank's path."""
    index = 0
    while index < len(argv):
        token = argv[index]
        if token == "--":
            return index + 1 if index + 1 < len(argv) else None
        if not token.startswith("-"):
            return index
        index += 2 if token == "--bank" else 1
    return None
