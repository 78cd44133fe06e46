"""The learner's settings (interface language and theme), kept in a small JSON file.

A missing or damaged file never stops the app: it falls back to the defaults and says why.
Saving writes a temporary file and renames it over the old one, so a killed process leaves
either the old settings or the new ones, never half a file.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Final

from quiz import locations
from quiz.atomic import write_text_atomically
from quiz.i18n import DEFAULT_LANGUAGE, LANGUAGES

SETTINGS_FILE: Final = "settings.json"
DEFAULT_THEME: Final = "textual-dark"


@dataclass(frozen=True)
class Settings:
    """What the learner chose in Settings."""

    language: str = DEFAULT_LANGUAGE
    theme: str = DEFAULT_THEME


def settings_path() -> Path:
    return locations.config_dir() / SETTINGS_FILE


def load_settings(path: Path | None = None) -> tuple[Settings, str | None]:
    """The saved settings, and a message when the file could not be used (defaults then)."""
    path = path or settings_path()
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Settings(), None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return Settings(), f"{path}: could not read the settings ({exc}); using the defaults"
    if not isinstance(raw, dict):
        return Settings(), f"{path}: the settings are not a JSON object; using the defaults"
    known = {f.name for f in fields(Settings)}
    values = {k: v for k, v in raw.items() if k in known and isinstance(v, str)}
    settings = replace(Settings(), **values)
    if settings.language not in LANGUAGES:
        return replace(settings, language=DEFAULT_LANGUAGE), f"{path}: unknown language {settings.language!r}; using English"
    return settings, None


def save_settings(settings: Settings, path: Path | None = None) -> None:
    """Write the settings atomically (temporary file, then rename)."""
    write_text_atomically(path or settings_path(), json.dumps(asdict(settings), ensure_ascii=False, indent=2))
