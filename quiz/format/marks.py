"""Where a value of a question file stands: the file, line and column, and the field's name,
kept with the converted model so later checks point at the field at fault."""

from __future__ import annotations

from pathlib import Path

from quiz.base.fieldwise import Fieldwise, record
from quiz.format.diagnostics import Location
from quiz.format.yaml_data import YamlList, YamlMap


@record(slots=True)
class Where(Fieldwise):
    """Where a value stands, for messages: the file, its (line, column) and the field's name."""

    path: Path
    mark: tuple[int, int]
    field: str

    def location(self) -> Location:
        return Location(self.path, *self.mark)

    def child(self, name: str, mark: tuple[int, int]) -> Where:
        return Where(self.path, mark, f"{self.field}.{name}" if self.field else name)

    def item(self, index: int, mark: tuple[int, int]) -> Where:
        return Where(self.path, mark, f"{self.field}[{index}]")


@record(slots=True)
class Marks(Fieldwise):
    """Where a mapping of a question file stands, and each of its keys and their items.

    The converter gives it to every model class with a `marks` field, so checks that run long
    after reading (compiling, self-tests) point at the field at fault, not at the question's start.
    Keys and items keep their (line, column) in the start's file: a question has hundreds, few of
    which a message ever names, so a Location is made only when one is asked for.
    """

    start: Location
    keys: dict[str, tuple[int, int]]
    items: dict[str, dict[str | int, tuple[int, int]]]
    """For a key holding a list or mapping: where each item or inner key stands."""

    def at(self, key: str, item: str | int | None = None) -> Location:
        """Where `key` (or one item of it) stands; the nearest enclosing place when not written."""
        mark = self.items.get(key, {}).get(item) if item is not None else None
        if mark is None:
            mark = self.keys.get(key)
        return self.start if mark is None else Location(self.start.path, *mark)

    @classmethod
    def of(cls, value: YamlMap, path: Path) -> Marks:
        items: dict[str, dict[str | int, tuple[int, int]]] = {}
        for key, inner in value.items():
            if isinstance(inner, YamlMap | YamlList):
                marks = inner.marks.items() if isinstance(inner, YamlMap) else enumerate(inner.marks)
                items[key] = dict[str | int, tuple[int, int]](marks)
        return cls(Location(path, *value.mark), dict(value.marks), items)


def located(obj: object, key: str, item: str | int | None = None) -> Location | None:
    """Where field `key` of a model object loaded from a file stands (None when built in code)."""
    marks = getattr(obj, "marks", None)
    return marks.at(key, item) if isinstance(marks, Marks) else None
