"""Where the quiz keeps and finds things: bundled bank, user packs, config, history and cache.

Each location can be overridden by an environment variable, so tests point them at a temporary
directory and never touch the developer's own files.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "attention-quiz"
_PACKAGE_DIR = Path(__file__).resolve().parent.parent


def bundled_bank_dir() -> Path:
    """The bundled question bank: inside the installed package, or `questions/` of a checkout."""
    installed = _PACKAGE_DIR / "questions"
    return installed if installed.is_dir() else _PACKAGE_DIR.parent / "questions"


def data_dir() -> Path:
    """The user's data directory (history, packs); `QUIZ_DATA_DIR` overrides it."""
    return Path(os.environ.get("QUIZ_DATA_DIR") or platformdirs.user_data_dir(APP_NAME))


def config_dir() -> Path:
    """The user's config directory; `QUIZ_CONFIG_DIR` overrides it."""
    return Path(os.environ.get("QUIZ_CONFIG_DIR") or platformdirs.user_config_dir(APP_NAME))


def cache_dir() -> Path:
    """Where the quiz keeps what it can rebuild (the loaded bank, the parsed catalogues); `QUIZ_CACHE_DIR` overrides it."""
    return Path(os.environ.get("QUIZ_CACHE_DIR") or platformdirs.user_cache_dir(APP_NAME))


def screenshots_dir() -> Path:
    """Where the app saves screenshots: `QUIZ_SCREENSHOTS_DIR`, else a folder in the data directory."""
    return Path(os.environ.get("QUIZ_SCREENSHOTS_DIR") or data_dir() / "screenshots")


def user_packs_dir() -> Path:
    """Extra question packs the user dropped in: every YAML file below is loaded."""
    return data_dir() / "packs"
