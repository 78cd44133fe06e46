"""Frozen records whose methods are written once, here, instead of compiled for every class.

`@dataclass` writes the source of each method it adds (`__init__`; for a frozen class
`__setattr__` and `__delattr__`; `__eq__`, `__hash__`, `__repr__`) for each class and compiles
it. Before the first question is on screen, `quiz practice` defines some seventy frozen records
(the question models, with up to some thirty fields, the bank's events, claims, diagnostics, the
compiled question, the variant, the result...), and compiling their methods took about a tenth
of every start. Those records are declared with `@record` and inherit `Fieldwise`, whose methods
read the same fields in the same order as the generated ones: the fields that initialise,
compare, hash and show, as each field's `init`, `compare`, `hash` and `repr` say. A record is as
frozen as a frozen dataclass: assigning or deleting an attribute raises FrozenInstanceError, and
`__post_init__` sets a field with `object.__setattr__`, as it must there. (No InitVar: nothing
would pass it to `__post_init__`.) Records only other commands use stay plain dataclasses; a
module that uses this uses it for all its frozen records (tests/unit/test_fieldwise.py checks that
rule, and that the methods behave as @dataclass's do).
"""

from __future__ import annotations

import dataclasses
import reprlib
from collections.abc import Callable
from dataclasses import MISSING, FrozenInstanceError
from functools import cache
from typing import Any, NamedTuple, TypeVar, cast, dataclass_transform, overload

R = TypeVar("R", bound=type)


@overload
def record(cls: R, /) -> R: ...
@overload
def record(*, slots: bool = False, kw_only: bool = False) -> Callable[[R], R]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field,))
def record(cls: R | None = None, /, *, slots: bool = False, kw_only: bool = False) -> R | Callable[[R], R]:
    """`@dataclass(frozen=True)` for a class that inherits `Fieldwise`, compiling no method for it."""

    def declare(cls: R) -> R:
        if not issubclass(cls, Fieldwise):
            raise TypeError(f"@record: {cls.__qualname__} must inherit Fieldwise, which gives it its methods")
        return cast(R, dataclasses.dataclass(cls, init=False, eq=False, repr=False, slots=slots, kw_only=kw_only))

    return declare if cls is None else declare(cls)


class _Plan(NamedTuple):
    """What Fieldwise's methods read of a record's fields, worked out once per class."""

    positional: tuple[str, ...]  # init fields that may be given by position, in order
    keywords: frozenset[str]  # every init field
    fields: tuple[tuple[str, bool, Any, Any], ...]  # name, init, default, factory, in declaration order
    post_init: bool
    compared: tuple[str, ...]  # the fields __eq__ compares
    hashed: tuple[str, ...]  # the fields __hash__ hashes
    shown: tuple[str, ...]  # the fields __repr__ shows


@cache
def _plan(cls: type) -> _Plan:
    fields = dataclasses.fields(cls)
    return _Plan(
        positional=tuple(f.name for f in fields if f.init and not f.kw_only),
        keywords=frozenset(f.name for f in fields if f.init),
        fields=tuple((f.name, f.init, f.default, f.default_factory) for f in fields),
        post_init=hasattr(cls, "__post_init__"),
        compared=tuple(f.name for f in fields if f.compare),
        # as @dataclass: a field's own `hash`, or its `compare` when that is None
        hashed=tuple(f.name for f in fields if (f.compare if f.hash is None else f.hash)),
        shown=tuple(f.name for f in fields if f.repr),
    )


class Fieldwise:
    """Construction, immutability, equality, hash and repr by the dataclass fields, for a class
    declared with `@record` (every dataclass between it and this class must be declared so too)."""

    __slots__ = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Each field from its argument, its default or its default factory, in declaration
        order; then `__post_init__`, if the class has one."""
        cls: type = self.__class__  # annotated: mypy takes a class's __hash__ for its instances'
        plan = _plan(cls)
        if len(args) > len(plan.positional):
            raise TypeError(f"{self._init_name()} takes {len(plan.positional) + 1} positional arguments but {len(args) + 1} were given")
        given = dict(zip(plan.positional, args))
        for name in kwargs:
            if name not in plan.keywords:
                raise TypeError(f"{self._init_name()} got an unexpected keyword argument {name!r}")
            if name in given:
                raise TypeError(f"{self._init_name()} got multiple values for argument {name!r}")
        given.update(kwargs)
        # One call per field, as @dataclass's frozen __init__ makes: touching the instance's
        # __dict__ instead would give each record a dict of its own in place of its shared keys.
        assign = object.__setattr__
        for name, init, default, factory in plan.fields:
            if init and name in given:
                assign(self, name, given[name])
            elif factory is not MISSING:
                assign(self, name, factory())
            elif default is not MISSING:
                assign(self, name, default)
            elif init:
                raise TypeError(f"{self._init_name()} missing required argument: {name!r}")
        if plan.post_init:
            self.__post_init__()  # type: ignore[attr-defined]

    def _init_name(self) -> str:
        return f"{self.__class__.__qualname__}.__init__()"

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    # Pickling and copying build the record without __init__ and set its fields from this state
    # (a slotted record has no __dict__ for them to fill), past __setattr__ as __init__ does.
    def __getstate__(self) -> list[object]:
        cls: type = self.__class__
        return [getattr(self, field[0]) for field in _plan(cls).fields]

    def __setstate__(self, state: list[object]) -> None:
        cls: type = self.__class__
        for field, value in zip(_plan(cls).fields, state, strict=True):
            object.__setattr__(self, field[0], value)

    def __eq__(self, other: object) -> bool:
        cls: type = self.__class__  # annotated: mypy takes a class's __hash__ for its instances'
        names = _plan(cls).compared
        if other.__class__ is not cls:
            return NotImplemented
        return tuple(getattr(self, name) for name in names) == tuple(getattr(other, name) for name in names)

    def __hash__(self) -> int:
        cls: type = self.__class__
        return hash(tuple(getattr(self, name) for name in _plan(cls).hashed))

    @reprlib.recursive_repr()
    def __repr__(self) -> str:
        cls: type = self.__class__
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in _plan(cls).shown)
        return f"{cls.__qualname__}({shown})"

