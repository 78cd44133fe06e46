"""`__eq__`, `__hash__` and `__repr__` as `@dataclass` writes them, written once for the records a start builds.

`@dataclass` writes the source of each method for each class and compiles it. Before the first
question is on screen, `quiz practice` defines some seventy frozen records (the question models,
with up to some thirty fields, the bank's events, claims, diagnostics, the compiled question, the
variant, the result...), and compiling their methods took some 40 ms of every start. Those records
say `eq=False, repr=False` and inherit these instead, which read the same fields in the same order:
the fields that compare, hash and show, as each field's `compare`, `hash` and `repr` say. Records
only other commands use keep the generated methods; a module that uses this uses it for all its
frozen records (tests/test_fieldwise.py checks that rule, and that the methods match @dataclass's).
"""

from __future__ import annotations

import dataclasses
import reprlib
from functools import cache
from typing import Literal

Use = Literal["compare", "hash", "repr"]


@cache
def field_names(cls: type, use: Use) -> tuple[str, ...]:
    """The names of the dataclass fields of `cls` that take part in `use`, in declaration order."""
    fields = dataclasses.fields(cls)
    if use == "compare":
        return tuple(f.name for f in fields if f.compare)
    if use == "hash":  # as @dataclass: a field's own `hash`, or its `compare` when that is None
        return tuple(f.name for f in fields if (f.compare if f.hash is None else f.hash))
    return tuple(f.name for f in fields if f.repr)


class Fieldwise:
    """Equality, hash and repr by the dataclass fields, for a frozen dataclass declared with
    `eq=False, repr=False` (every dataclass between it and this class must be declared so too)."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        cls: type = self.__class__  # annotated: mypy takes a class's __hash__ for its instances'
        names = field_names(cls, "compare")
        if other.__class__ is not cls:
            return NotImplemented
        return tuple(getattr(self, name) for name in names) == tuple(getattr(other, name) for name in names)

    def __hash__(self) -> int:
        cls: type = self.__class__
        return hash(tuple(getattr(self, name) for name in field_names(cls, "hash")))

    @reprlib.recursive_repr()
    def __repr__(self) -> str:
        cls: type = self.__class__
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in field_names(cls, "repr"))
        return f"{cls.__qualname__}({shown})"

