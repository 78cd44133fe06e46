"""The interface catalogues as parsed before: a start reads each as JSON from the cache folder
instead of parsing its TOML again (Python's TOML reader takes ~15 ms for the English one).

One file per language, holding a hash of the TOML's content it was parsed from, so an edited
catalogue is parsed afresh (and the file rewritten); the file is data only (a table of text by
key, checked as read), written atomically and readable by its owner alone, and one that is
damaged, someone else's or readable by others is ignored.
"""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path
from typing import Final

from quiz.base import locations
from quiz.base.atomic import write_text_atomically
from quiz.base.own_file import NotOwnFile, read_own_file, this_user

log = logging.getLogger(__name__)

FORMAT: Final = 1
"""The layout of a kept catalogue; a file of another layout is parsed afresh."""
MAX_BYTES: Final = 4 * 1024 * 1024


def flat_catalogue(lang: str, source: bytes) -> dict[str, str]:
    """The `area.key -> text` table of `lang`'s TOML catalogue `source`, from the cache when kept."""
    path = locations.cache_dir() / f"catalogue-{lang}.json"
    header = {"format": FORMAT, "source": hashlib.sha256(source).hexdigest()}
    kept = _kept(path, header)
    if kept is not None:
        return kept
    table = parse(source)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        write_text_atomically(path, json.dumps({**header, "table": table}, ensure_ascii=False))
    except (OSError, ValueError) as exc:  # the next start parses it again, nothing worse
        log.info("catalogue cache %s not written: %s", path, exc)
    return table


def parse(source: bytes) -> dict[str, str]:
    """The catalogue's tables (`[parse]`, `[grade]`, ...) as one table of `area.key` names."""
    import tomllib  # only when a catalogue is not kept: ~5 ms to import

    raw = tomllib.loads(source.decode("utf-8"))
    return {f"{area}.{key}": text for area, table in raw.items() for key, text in table.items()}


def _kept(path: Path, header: dict[str, object]) -> dict[str, str] | None:
    """The table kept at `path` if it was parsed from the same source by the same layout."""
    try:
        kept = json.loads(read_own_file(path, this_user(), MAX_BYTES))
    except FileNotFoundError:
        return None
    except (NotOwnFile, UnicodeDecodeError, ValueError, RecursionError) as exc:
        log.info("catalogue cache %s ignored: %s", path, exc)
        return None
    if type(kept) is not dict or any(kept.get(name) != value for name, value in header.items()):
        return None  # another version of the catalogue: parsed again and rewritten
    table = kept.get("table")
    if type(table) is not dict or not all(type(key) is str and type(text) is str for key, text in table.items()):
        log.info("catalogue cache %s ignored: not a table of text", path)
        return None
    return table
