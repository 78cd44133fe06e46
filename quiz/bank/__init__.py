"""The question bank: packs found, loaded and checked, and questions looked up by id or key."""

from quiz.bank.bank import Bank
from quiz.bank.loading import bundled_claims, content_version, default_sources, load_bank, pack_files

__all__ = ["Bank", "bundled_claims", "content_version", "default_sources", "load_bank", "pack_files"]
