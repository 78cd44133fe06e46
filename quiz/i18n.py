"""Interface text in English and Japanese, looked up by key, with English as the fallback.

Catalogues live in `quiz/locale/<lang>.toml`, one table per area (`[parse]`, `[grade]`, ...),
so a key reads `parse.empty`. Placeholders are `{name}` fields filled from keyword arguments
supplied by our own code, never from question packs.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib.resources import files
from typing import Final

LANGUAGES: Final = ("en", "ja")
DEFAULT_LANGUAGE: Final = "en"


@cache
def catalogue(lang: str) -> dict[str, str]:
    """The flat `area.key -> text` table for `lang` (empty for an unknown language)."""
    if lang not in LANGUAGES:
        return {}
    raw = tomllib.loads(files("quiz").joinpath("locale", f"{lang}.toml").read_text("utf-8"))
    return {f"{area}.{key}": text for area, table in raw.items() for key, text in table.items()}


def tr(key: str, lang: str = DEFAULT_LANGUAGE, /, **params: object) -> str:
    """The text for `key` in `lang`, falling back to English, then to the key itself."""
    text = catalogue(lang).get(key) or catalogue(DEFAULT_LANGUAGE).get(key) or key
    return text.format(**params) if params else text
