"""Where a value of a question file stands: the file, line and column, and the field's name,
kept with the converted model so later checks point at the field at fault."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from quiz.format.diagnostics import Location
from quiz.format.yaml_source import YamlList, YamlMap


@dataclass(frozen=True, slots=True)
class Where:
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


@dataclass(frozen=True, slots=True)
class Marks:
    """Where a mapping of a question file stands, and each of its keys and their items.

    The converter gives it to every model class with a `marks` field, so checks that run long
    after reading (compiling, self-tests) point at the field at fault, not at the question's start.
    """

    start: Location
    keys: dict[str, Location]
    items: dict[str, dict[str | int, Location]]
    """For a key holding a list or mapping: where each item or inner key stands."""

    def at(self, key: str, item: str | int | None = None) -> Location:
        """Where `key` (or one item of it) stands; the nearest enclosing place when not written."""
        if item is not None and item in self.items.get(key, {}):
            return self.items[key][item]
        return self.keys.get(key, self.start)

    @classmethod
    def of(cls, value: YamlMap, path: Path) -> Marks:
        items: dict[str, dict[str | int, Location]] = {}
        for key, inner in value.items():
            if isinstance(inner, YamlMap):
                items[key] = {k: Location(path, *m) for k, m in inner.marks.items()}
            elif isinstance(inner, YamlList):
                items[key] = {i: Location(path, *m) for i, m in enumerate(inner.marks)}
        return cls(Location(path, *value.mark), {k: Location(path, *m) for k, m in value.marks.items()}, items)


def located(obj: object, key: str, item: str | int | None = None) -> Location | None:
    """Where field `key` of a model object loaded from a file stands (None when built in code)."""
    marks = getattr(obj, "marks", None)
    return marks.at(key, item) if isinstance(marks, Marks) else None
