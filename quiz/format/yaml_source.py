"""Read a YAML file as plain data, safely, keeping the line of every value.

A question pack is data written by strangers, so only the parts of YAML authors need are
accepted: no tags (nothing may construct objects), no anchors or aliases (alias bombs), one
document per file, at most `MAX_FILE_BYTES`, UTF-8 only, a regular file. Every scalar stays
text: the model converts each one by the type of its field, so YAML 1.1's surprises (`yes` as a
boolean, `010` as octal, `1:30` as 90, `1e-3` as a string) never reach authors.

Sizes are limited while the events are read, before anything else walks the data: nesting,
keys per mapping, items per list, characters per text and digits per number. A value over a
limit, or a mapping with a duplicate key (PyYAML would silently keep the last), is replaced by
a `Refused` marker saying why, and the rest of the file is still read: the question holding it
is skipped and the others load.
"""

from __future__ import annotations

from pathlib import Path

from quiz.base.bounded_read import UnreadableFile, read_bounded
from quiz.format.diagnostics import Location, SourceError
from quiz.format.yaml_data import MAX_FILE_BYTES, StopCheck


def read_yaml_file(path: Path, stop: StopCheck | None = None) -> object:
    """The plain data of one YAML file: YamlMap, YamlList, str, Refused or None.

    SourceError if the whole file is refused; ReadingStopped as soon as `stop()` is true.
    """
    return parse_yaml(read_source(path), path, stop)


def read_source(path: Path) -> bytes:
    """The bytes of a question file, as `read_yaml_file` reads them; SourceError if it cannot be read."""
    try:
        return read_bounded(path, MAX_FILE_BYTES)
    except UnreadableFile as exc:
        raise SourceError(Location(path), f"cannot read file: {exc}") from None
    except OSError as exc:
        raise SourceError(Location(path), f"cannot read file: {exc.strerror or exc}") from None


def parse_yaml(raw: bytes, path: Path, stop: StopCheck | None = None) -> object:
    """Parse YAML bytes already read from `path` (the path only labels messages)."""
    # PyYAML (~20 ms to import) only once a file is actually parsed: a warm start reads every
    # pack from the bank cache and never needs it.
    from quiz.format.yaml_events import parse_events

    return parse_events(raw, path, stop)
