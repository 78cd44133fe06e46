"""Loading the bank in a worker while the loading screen shows, and saying what was skipped."""

from __future__ import annotations

from collections.abc import Sequence

from textual import work
from textual.worker import get_current_worker

from quiz.bank import Bank, SkippedQuestion, load_bank
from quiz.bank.cache import BankCache
from quiz.format.yaml_data import ReadingStopped
from quiz.locale.i18n import tr
from quiz.ui.app_base import QuizAppBase
from quiz.ui.screens.loading import LoadingScreen

MAX_SKIPPED_LISTED = 8
"""Skipped questions named in the notice; the rest are counted."""


class BankLoading(QuizAppBase):
    """The app's part that reads the packs, off the event loop, and then opens the first screen."""

    def _start_loading(self) -> None:
        """Show the loading screen and read the bank behind it."""
        self.push_screen(LoadingScreen(self.lang))
        self._load_bank()

    @work(thread=True, exclusive=True, group="bank")
    def _load_bank(self) -> None:
        """Read and convert every pack in a thread, off the event loop, so keys work meanwhile.

        Python waits for a running thread before the process exits, so the loader asks
        between files, questions and YAML events whether Textual has cancelled the worker
        (it does when the app quits) and then stops at once.
        """
        worker = get_current_worker()
        cache = BankCache()
        try:
            bank = load_bank(extra=self.bank_paths, stop=lambda: worker.is_cancelled, cache=cache)
        except ReadingStopped:
            return
        if not worker.is_cancelled:
            self.call_from_thread(self._bank_loaded, bank, cache)

    def _bank_loaded(self, bank: Bank, cache: BankCache) -> None:
        self.bank = bank
        if bank.skipped:  # a broken pack costs only its own questions; say which
            self.notify(skipped_notice(bank.skipped, self.lang), severity="warning", timeout=30)
        self.pop_screen()  # the loading screen
        self._open_first_screen()
        self.call_after_refresh(self._save_bank_cache, cache)

    @work(thread=True, exclusive=True, group="bank-cache")
    def _save_bank_cache(self, cache: BankCache) -> None:
        """Keep what this start loaded for the next one, once the first screen is drawn."""
        cache.save()


def skipped_notice(skipped: Sequence[SkippedQuestion], lang: str) -> str:
    """The notice after loading: how many questions or files were skipped, and which."""
    items = [f"• {item}" for item in skipped[:MAX_SKIPPED_LISTED]]
    if len(skipped) > MAX_SKIPPED_LISTED:
        items.append(tr("ui.skipped_more", lang, count=len(skipped) - MAX_SKIPPED_LISTED))
    return tr("ui.skipped", lang, count=len(skipped), items="\n".join(items))
