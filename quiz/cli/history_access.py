"""What the history subcommands share: opening the store or stopping with the reason, and the
catalogue of the bank that statistics need."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Final

from quiz.cli.arguments import CommandError
from quiz.locale.i18n import LANGUAGES

if TYPE_CHECKING:
    from quiz.history.store import History

EXIT_HISTORY_UNAVAILABLE: Final = 4
"""The history file cannot be used (damaged, locked, read-only, newer): the reason is printed."""


def add_lang_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lang", choices=LANGUAGES, default="en", help="language (default en)")


def open_or_fail(lang: str) -> History:
    """The learner's history store, or a CommandError (exit 4) saying why it cannot be used."""
    from quiz.history.store import History, open_history

    history = open_history()
    if not isinstance(history, History):
        raise CommandError(history.message(lang), EXIT_HISTORY_UNAVAILABLE)
    return history


@contextmanager
def history_or_fail(lang: str) -> Iterator[History]:
    """The open store for the length of a command; any reason it cannot be used stops the command
    with that reason in `lang` (exit 4). The store is closed afterwards."""
    from quiz.history.unavailable import HistoryUnavailable

    history = open_or_fail(lang)
    try:
        yield history
    except HistoryUnavailable as exc:
        raise CommandError(exc.reason.message(lang), EXIT_HISTORY_UNAVAILABLE) from None
    finally:
        history.close()
