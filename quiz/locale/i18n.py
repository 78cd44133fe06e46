"""Interface text in English and Japanese, looked up by key, with English as the fallback.

Catalogues live in `quiz/locale/<lang>.toml`, one table per area (`[parse]`, `[grade]`, ...),
so a key reads `parse.empty`. Placeholders are `{name}` fields filled from keyword arguments
supplied by our own code, never from question packs.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Final

from quiz.locale.catalogue_cache import flat_catalogue

LANGUAGES: Final = ("en", "ja")
DEFAULT_LANGUAGE: Final = "en"
LOCALE_DIR: Final = Path(__file__).resolve().parent


@cache
def catalogue(lang: str) -> dict[str, str]:
    """The flat `area.key -> text` table for `lang` (empty for an unknown language)."""
    if lang not in LANGUAGES:
        return {}
    # Parsed once and kept in the cache folder (`quiz.locale.catalogue_cache`): parsing TOML is slow.
    return flat_catalogue(lang, (LOCALE_DIR / f"{lang}.toml").read_bytes())


def tr(key: str, lang: str = DEFAULT_LANGUAGE, /, **params: object) -> str:
    """The text for `key` in `lang`, falling back to English, then to the key itself."""
    text = catalogue(lang).get(key) or catalogue(DEFAULT_LANGUAGE).get(key) or key
    return text.format(**params) if params else text


def tr_count(key: str, lang: str, count: int, /, **params: object) -> str:
    """`tr` for a text about `count` things: `key_one` where the catalogue has it and count is 1
    ("1 question", not "1 questions"), else `key`."""
    one = f"{key}_one"
    if count == 1 and (one in catalogue(lang) or one in catalogue(DEFAULT_LANGUAGE)):
        return tr(one, lang, **params)
    return tr(key, lang, **params)
