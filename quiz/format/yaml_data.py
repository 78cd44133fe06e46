"""Plain YAML data as the reader gives it (mappings and lists that keep where each value stands,
quoted text, refused values) and the size limits it is read within.

Apart from the reader (`yaml_source` and its PyYAML half `yaml_events`) so that both, and every
model that reads the data, import these without importing each other.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from quiz.base.fieldwise import Fieldwise, record

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
