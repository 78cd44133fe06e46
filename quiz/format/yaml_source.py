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

from collections.abc import Callable
from pathlib import Path
from typing import Final

from quiz.base.bounded_read import UnreadableFile, read_bounded
from quiz.base.fieldwise import Fieldwise, record
from quiz.format.diagnostics import Location, SourceError

MAX_FILE_BYTES: Final = 1024 * 1024
MAX_DEPTH: Final = 16
"""Deepest nesting of mappings and lists (the bundled bank needs 5)."""
MAX_KEYS: Final = 100
"""Most keys in one mapping (a question has about 15 fields)."""
MAX_ITEMS: Final = 5_000
"""Most items in one list (questions in a file, numbers in a literal)."""
MAX_TEXT_CHARS: Final = 20_000
"""Longest text (or key), in characters: a long explanation is a few thousand."""
MAX_NUMBER_CHARS: Final = 100
"""Longest plain scalar that reads as a number; Python refuses to convert ints beyond 4,300 digits."""
NULLS: Final = frozenset({"", "~", "null", "Null", "NULL"})


class QuotedStr(str):
    """A scalar the author quoted: always text, even where a plain one would read as a number."""

    __slots__ = ()


class YamlMap(dict[str, object]):
    """A mapping read from YAML; `marks[key]` is where each key stands, `mark` where it starts."""

    __slots__ = ("mark", "marks")

    def __init__(self, mark: tuple[int, int]) -> None:
        super().__init__()
        self.mark = mark
        self.marks: dict[str, tuple[int, int]] = {}


class YamlList(list[object]):
    """A sequence read from YAML; `marks[i]` is where item i starts, `mark` where it starts."""

    __slots__ = ("mark", "marks")

    def __init__(self, mark: tuple[int, int]) -> None:
        super().__init__()
        self.mark = mark
        self.marks: list[tuple[int, int]] = []


@record(slots=True)
class Refused(Fieldwise):
    """Stands in for a value refused while reading: over a size limit, or a mapping with a bad key.

    `mark` is where the problem is (the duplicate key, the list that grew too long).
    """

    mark: tuple[int, int]
    message: str


class ReadingStopped(Exception):
    """The caller asked the reader to stop (the app is quitting while packs load)."""


StopCheck = Callable[[], bool]


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
