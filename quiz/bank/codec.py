"""The question model as plain JSON data and back, driven by the model's type hints.

The bank cache stores questions with this. Decoding builds only the types the hints name (the
model's dataclasses, texts, numbers, paths), checks every value's JSON type against its field,
and raises CacheMismatch at the first value that does not fit: data that does not match the
model is refused, never guessed at, and nothing in it can choose a class or run code. A location
in the file being stored (`home`, nearly all of them) is written as [line, column] alone.
"""

from __future__ import annotations

import dataclasses
import enum
import inspect
import types
import typing
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin

from quiz.format.diagnostics import Location

Codec = tuple[Callable[[Any], Any], Callable[[Any], Any]]
"""An encoder (model value to JSON data) and a decoder (JSON data to model value)."""

_PRIMITIVES = (str, int, float, bool)


_home: ContextVar[Path | None] = ContextVar("home", default=None)


class CacheMismatch(ValueError):
    """JSON data that does not fit the model type it is read as."""


def encode(value: object, tp: object, home: Path | None = None) -> Any:
    """`value`, of model type `tp`, as JSON data (lists, strings, numbers, booleans, null)."""
    with _at_home(home):
        return codec_for(tp)[0](value)


def decode(data: object, tp: object, home: Path | None = None) -> Any:
    """The model value of type `tp` that `data` encodes; CacheMismatch when it does not fit."""
    with _at_home(home):
        return codec_for(tp)[1](data)


@contextmanager
def _at_home(home: Path | None) -> Iterator[None]:
    token = _home.set(home)
    try:
        yield
    finally:
        _home.reset(token)


@cache
def codec_for(tp: Any) -> Codec:
    """The encoder and decoder of a type hint (built once per type)."""
    if tp in _PRIMITIVES:
        return _identity, _exactly(tp)
    if tp is type(None):
        return _identity, _exactly(type(None))
    if tp is Path:
        return str, _path
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return _enum(tp)
    if tp is Location:
        return _location()
    if dataclasses.is_dataclass(tp):
        return _dataclass(tp)
    origin, args = get_origin(tp), get_args(tp)
    if origin is typing.Annotated:
        return codec_for(args[0])
    if origin is Literal:
        return _literal(args)
    if origin in (Union, types.UnionType):
        return _union(args)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return _sequence(args[0])
    if tp == tuple[int, int]:
        return list, _mark
    if origin is dict:
        return _mapping(args[0], args[1])
    raise TypeError(f"the bank cache cannot store the model type {tp!r}")


def _identity(value: Any) -> Any:
    return value


def _exactly(tp: type) -> Callable[[Any], Any]:
    def decode_one(data: Any) -> Any:
        if type(data) is not tp:  # exact: a bool is no int, an int no float
            raise CacheMismatch(f"expected {tp.__name__}, found {type(data).__name__}")
        return data

    return decode_one


def _path(data: Any) -> Path:
    if type(data) is not str:
        raise CacheMismatch(f"expected a path, found {type(data).__name__}")
    return _shared_path(data)


@lru_cache(maxsize=256)
def _shared_path(text: str) -> Path:
    # Every location in a pack names the same file: one Path object serves them all.
    return Path(text)


def _mark(data: Any) -> tuple[int, int]:
    # A (line, column) of the marks: there are thousands, so checked here in one go.
    if type(data) is not list or len(data) != 2 or type(data[0]) is not int or type(data[1]) is not int:
        raise CacheMismatch("expected [line, column]")
    return data[0], data[1]


def _location() -> Codec:
    def encode_one(value: Location) -> Any:
        if value.path == _home.get():
            return [value.line, value.column]
        return [str(value.path), value.line, value.column]

    def decode_one(data: Any) -> Location:
        if type(data) is list and len(data) == 2:
            home = _home.get()
            if home is None:
                raise CacheMismatch("a location in no file")
            return Location(home, *_mark(data))
        if type(data) is not list or len(data) != 3:
            raise CacheMismatch("expected a location [path, line, column]")
        return Location(_path(data[0]), *_mark(data[1:]))

    return encode_one, decode_one


def _enum(tp: type[enum.Enum]) -> Codec:
    def decode_one(data: Any) -> Any:
        try:
            return tp(data)
        except (ValueError, TypeError):
            raise CacheMismatch(f"{data!r} is not a {tp.__name__}") from None

    return (lambda value: value.value), decode_one


def _literal(choices: tuple[Any, ...]) -> Codec:
    def decode_one(data: Any) -> Any:
        if type(data) is not str or data not in choices:
            raise CacheMismatch(f"expected one of {choices}, found {data!r}")
        return data

    return _identity, decode_one


def _union(members: tuple[Any, ...]) -> Codec:
    rest = tuple(m for m in members if m is not type(None))
    if all(m in _PRIMITIVES for m in rest):  # numbers, text or None: JSON tells them apart by type
        return _identity, _one_of_types(members)
    if len(rest) < len(members):  # `T | None`
        encode_inner, decode_inner = codec_for(rest[0] if len(rest) == 1 else Union[rest])  # noqa: UP007 - built from a tuple
        return (lambda v: None if v is None else encode_inner(v)), (lambda d: None if d is None else decode_inner(d))
    if not all(dataclasses.is_dataclass(m) for m in rest):
        raise TypeError(f"the bank cache cannot store the union {members!r}")
    # One of several dataclasses (the question types): stored as [class name, fields].
    codecs = {m: codec_for(m) for m in rest}
    by_name = {m.__name__: codecs[m][1] for m in rest}

    def encode_one(value: Any) -> Any:
        return [type(value).__name__, codecs[type(value)][0](value)]

    def decode_one(data: Any) -> Any:
        if type(data) is not list or len(data) != 2 or type(data[0]) is not str or data[0] not in by_name:
            raise CacheMismatch("expected [type name, fields] of a known type")
        return by_name[data[0]](data[1])

    return encode_one, decode_one


def _one_of_types(members: tuple[Any, ...]) -> Callable[[Any], Any]:
    allowed = tuple(members)
    if not all(m in _PRIMITIVES or m is type(None) for m in allowed):
        raise TypeError(f"the bank cache cannot store the union {members!r}")

    def decode_one(data: Any) -> Any:
        if type(data) not in allowed:
            raise CacheMismatch(f"expected one of {', '.join(m.__name__ for m in allowed)}, found {type(data).__name__}")
        return data

    return decode_one


def _sequence(item: Any) -> Codec:
    encode_item, decode_item = codec_for(item)

    def decode_one(data: Any) -> Any:
        if type(data) is not list:
            raise CacheMismatch(f"expected a list, found {type(data).__name__}")
        return tuple(decode_item(d) for d in data)

    return (lambda value: [encode_item(v) for v in value]), decode_one


def _mapping(key: Any, value: Any) -> Codec:
    # Stored as [[key, value], ...]: keys keep their type (a list's index marks are ints) and order.
    encode_key, decode_key = codec_for(key)
    encode_value, decode_value = codec_for(value)
    key_types = _primitive_types(key)
    if value == tuple[int, int] and key_types is not None:
        return (lambda mapping: [[k, list(v)] for k, v in mapping.items()]), _marks_by_key(key_types)

    def decode_one(data: Any) -> Any:
        if type(data) is not list:
            raise CacheMismatch(f"expected a list of pairs, found {type(data).__name__}")
        out = {}
        for pair in data:
            if type(pair) is not list or len(pair) != 2:
                raise CacheMismatch("expected a [key, value] pair")
            out[decode_key(pair[0])] = decode_value(pair[1])
        return out

    return (lambda mapping: [[encode_key(k), encode_value(v)] for k, v in mapping.items()]), decode_one


def _primitive_types(tp: Any) -> tuple[type, ...] | None:
    """The JSON types a key of type `tp` may have, when it is text or a number (or a union of them)."""
    members = get_args(tp) if get_origin(tp) in (Union, types.UnionType) else (tp,)
    return members if all(m in (str, int) for m in members) else None


def _marks_by_key(key_types: tuple[type, ...]) -> Callable[[Any], Any]:
    """The decoder of a mapping to (line, column) marks, checked in one loop: a question has
    hundreds of marks, and a call per key and per mark made them most of a warm start's decoding."""

    def decode_one(data: Any) -> Any:
        if type(data) is not list:
            raise CacheMismatch(f"expected a list of pairs, found {type(data).__name__}")
        out = {}
        for pair in data:
            if type(pair) is not list or len(pair) != 2:
                raise CacheMismatch("expected a [key, value] pair")
            key, mark = pair
            if type(key) not in key_types:
                raise CacheMismatch(f"expected a key of type {' or '.join(t.__name__ for t in key_types)}, found {type(key).__name__}")
            if type(mark) is not list or len(mark) != 2 or type(mark[0]) is not int or type(mark[1]) is not int:
                raise CacheMismatch("expected [line, column]")
            out[key] = (mark[0], mark[1])
        return out

    return decode_one


def _field_types(cls: type) -> dict[str, Any]:
    """The type hints of `cls`'s fields, each class's own evaluated once: `get_type_hints` would
    evaluate the fields every question has again for each of the nine question models."""
    hints: dict[str, Any] = {}
    for base in reversed(cls.__mro__):
        if base is not object:
            hints.update(_own_field_types(base))
    return hints


@cache
def _own_field_types(cls: type) -> dict[str, Any]:
    """The type hints `cls` itself declares (not its bases'), evaluated in its module."""
    return inspect.get_annotations(cls, eval_str=True)


def _layout(cls: Any) -> tuple[list[str], list[Codec]]:
    # Every field, in declaration order: internal fields (locations, marks, the content
    # version) are part of what loading gives and come back as they were.
    hints = _field_types(cls)
    names = [f.name for f in dataclasses.fields(cls) if f.init]
    return names, [codec_for(hints[name]) for name in names]


def _dataclass(cls: Any) -> Codec:
    # Stored as the list of its fields' values (see `_layout`).
    names, codecs = _layout(cls)
    size = len(names)

    def encode_one(value: Any) -> Any:
        return [c[0](getattr(value, name)) for name, c in zip(names, codecs)]

    def decode_one(data: Any) -> Any:
        if type(data) is not list or len(data) != size:
            raise CacheMismatch(f"expected the {size} fields of {cls.__name__}")
        try:
            return cls(**{name: c[1](d) for name, c, d in zip(names, codecs, data)})
        except TypeError as exc:  # a check in the class itself
            raise CacheMismatch(f"{cls.__name__}: {exc}") from None

    return encode_one, decode_one
