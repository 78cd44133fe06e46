"""Reading the packs for the app, in its worker thread, and the notice of what was skipped."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from quiz.bank import Bank, SkippedQuestion, load_bank
from quiz.bank.cache import BankCache
from quiz.format.yaml_data import ReadingStopped
from quiz.locale.i18n import tr

MAX_SKIPPED_LISTED = 8
"""Skipped questions named in the notice; the rest are counted."""


def read_packs(extra: Sequence[Path], stop: Callable[[], bool]) -> tuple[Bank, BankCache] | None:
    """The bank (bundled, user packs, `extra`) and the cache this read fills, or None if `stop`
    said to stop: it is asked between files, questions and YAML events, so an app that quits while
    the packs load is not kept waiting for the thread."""
    cache = BankCache()
    try:
        return load_bank(extra=extra, stop=stop, cache=cache), cache
    except ReadingStopped:
        return None


def skipped_notice(skipped: Sequence[SkippedQuestion], lang: str) -> str:
    """The notice after loading: how many questions or files were skipped, and which."""
    items = [f"• {item}" for item in skipped[:MAX_SKIPPED_LISTED]]
    if len(skipped) > MAX_SKIPPED_LISTED:
        items.append(tr("ui.skipped_more", lang, count=len(skipped) - MAX_SKIPPED_LISTED))
    return tr("ui.skipped", lang, count=len(skipped), items="\n".join(items))
