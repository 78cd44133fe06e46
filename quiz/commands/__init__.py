"""The `quiz` subcommands, one module each; each exposes `add_parser` and `run`."""

import argparse

from quiz.i18n import LANGUAGES


def add_variant_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments naming one variant, and the output options, shared by show and grade."""
    parser.add_argument("id", metavar="ID", help="question id or variant key (id#seed)")
    parser.add_argument("--seed", type=int, help="variant seed (default: the key's, or 0)")
    parser.add_argument("--lang", choices=LANGUAGES, default="en", help="language (default en)")
    parser.add_argument("--json", action="store_true", help="print a JSON object")


class CommandError(Exception):
    """Stops a subcommand with a message on stderr and an exit code."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
