"""The question bank: packs found, loaded and checked, and questions looked up by id or key."""

from quiz.bank.bank import Bank, SkippedQuestion
from quiz.bank.loading import bundled_claims, content_version, default_sources, load_bank, pack_files
from quiz.bank.selection import Selection, SelectionError, resolve_selection

__all__ = [
    "Bank",
    "Selection",
    "SelectionError",
    "SkippedQuestion",
    "bundled_claims",
    "content_version",
    "default_sources",
    "load_bank",
    "pack_files",
    "resolve_selection",
]
