"""`quiz paths`: where the quiz keeps settings, history and its cache and looks for packs."""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], parents: list[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "paths",
        parents=parents,
        help="show where settings, history, the cache and question packs live",
        description=(
            "Show where the quiz keeps your settings, history and cache and where it looks for question packs. "
            "QUIZ_CONFIG_DIR, QUIZ_DATA_DIR and QUIZ_CACHE_DIR move them."
        ),
    )
    parser.add_argument("--json", action="store_true", help="print a JSON object (settings, history, packs, bank, cache)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print each place and whether it exists yet; a missing or empty packs folder is normal."""
    from quiz.bank import pack_files
    from quiz.base import locations
    from quiz.history.settings import settings_path
    from quiz.history.store import history_path

    packs = locations.user_packs_dir()
    places = {
        "settings": (settings_path(), _state(settings_path())),
        "history": (history_path(), _state(history_path())),
        "packs": (packs, _packs_state(packs, len(pack_files(packs)))),
        "bank": (locations.bundled_bank_dir(), "the bundled questions"),
        "cache": (locations.cache_dir(), "the packs as last loaded, for a quick start; safe to delete"),
    }
    if args.json:
        print(json.dumps({name: str(path) for name, (path, _) in places.items()}, ensure_ascii=False, indent=2))
        return 0
    for name, (path, state) in places.items():
        print(f"{name:<9} {path}  ({state})")
    return 0


def _state(path: Path) -> str:
    return "exists" if path.exists() else "not created yet"


def _packs_state(path: Path, files: int) -> str:
    if not path.is_dir():
        return "not created yet: make the folder and put question files (.yaml) in it"
    return f"{files} question file{'s' if files != 1 else ''}"
