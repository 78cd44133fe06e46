"""The learner's settings (interface language and theme), kept in a small JSON file.

A missing or damaged file never stops the app: it falls back to the defaults and says why.
The file is read only when it is a regular file (a symlink to one is followed) of at most
`MAX_SETTINGS_BYTES`, so a FIFO, a device or a huge file cannot hang or exhaust the app; a
byte-order mark is accepted. Saving writes a temporary file and renames it over the old one, so
a killed process leaves either the old settings or the new ones, never half a file; it writes
through a symlink, keeps the keys this version does not know, and leaves alone a file it
cannot read rather than overwrite what someone wrote there.
"""

from __future__ import annotations

import json
from dataclasses import asdict, fields, replace
from pathlib import Path
from typing import Any, Final

from quiz.base import locations
from quiz.base.atomic import write_text_atomically
from quiz.base.bounded_read import UnreadableFile, read_bounded
from quiz.base.fieldwise import Fieldwise, record
from quiz.locale.i18n import DEFAULT_LANGUAGE, LANGUAGES

SETTINGS_FILE: Final = "settings.json"
DEFAULT_THEME: Final = "textual-dark"
MAX_SETTINGS_BYTES: Final = 64 * 1024


@record
class Settings(Fieldwise):
    """What the learner chose in Settings."""

    language: str = DEFAULT_LANGUAGE
    theme: str = DEFAULT_THEME


class SettingsNotSaved(OSError):
    """The settings file exists but cannot be read as settings, so it was left untouched."""


def settings_path() -> Path:
    return locations.config_dir() / SETTINGS_FILE


def load_settings(path: Path | None = None) -> tuple[Settings, str | None]:
    """The saved settings, and a message when the file could not be used (defaults then)."""
    path = path or settings_path()
    try:
        raw = _read(path)
    except FileNotFoundError:
        return Settings(), None
    except (UnreadableFile, OSError, ValueError, RecursionError) as exc:
        return Settings(), f"{path}: could not read the settings ({_reason(exc)}); using the defaults"
    known = {f.name for f in fields(Settings)}
    values = {k: v for k, v in raw.items() if k in known and isinstance(v, str)}
    settings = replace(Settings(), **values)
    if settings.language not in LANGUAGES:
        return replace(settings, language=DEFAULT_LANGUAGE), f"{path}: unknown language {settings.language!r}; using English"
    return settings, None


def save_settings(settings: Settings, path: Path | None = None) -> None:
    """Write the settings atomically (temporary file, then rename) where `path` leads.

    Keys in the file this version does not know are kept. SettingsNotSaved if the file exists
    but cannot be read as settings; OSError if it cannot be written.
    """
    target = (path or settings_path()).resolve()  # through any symlink, to the file itself
    try:
        current = _read(target)
    except FileNotFoundError:
        current = {}
    except (UnreadableFile, OSError, ValueError, RecursionError) as exc:
        raise SettingsNotSaved(f"{target} could not be read ({_reason(exc)}), so it was left as it is") from None
    write_text_atomically(target, _json_text({**current, **asdict(settings)}))


def _json_text(settings: dict[str, Any]) -> str:
    """The settings as JSON, readable as written (Japanese as it is); a text UTF-8 cannot hold (a
    lone surrogate, which a JSON escape can carry) keeps every character escaped instead."""
    text = json.dumps(settings, ensure_ascii=False, indent=2)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(settings, indent=2)
    return text


def _read(path: Path) -> dict[str, Any]:
    """The JSON object in the settings file; FileNotFoundError when there is none."""
    text = read_bounded(path, MAX_SETTINGS_BYTES).decode("utf-8-sig")
    raw = json.loads(text)  # deep nesting is a RecursionError, a huge number a ValueError
    if not isinstance(raw, dict):
        raise ValueError("the settings are not a JSON object")
    return raw


def _reason(exc: BaseException) -> str:
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    if isinstance(exc, OSError) and not isinstance(exc, UnreadableFile):
        return exc.strerror or str(exc)
    return str(exc)
