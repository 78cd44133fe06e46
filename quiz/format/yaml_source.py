"""Read a YAML file as plain data, safely, keeping the line of every value.

A question pack is data written by strangers, so only the parts of YAML authors need are
accepted: no tags (nothing may construct objects), no anchors or aliases (alias bombs), no
duplicate keys (PyYAML would silently keep the last), one document per file, at most
`MAX_FILE_BYTES`, UTF-8 only. Every scalar stays text: the model converts each one by the type
of its field, so YAML 1.1's surprises (`yes` as a boolean, `010` as octal, `1:30` as 90, `1e-3`
as a string) never reach authors.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Final

import yaml

from quiz.format.diagnostics import Location, SourceError
from quiz.format.yaml_hints import yaml_hint

# libyaml's parser when PyYAML was built with it; the pure-Python one otherwise
_Loader = yaml.CSafeLoader if yaml.__with_libyaml__ else yaml.SafeLoader

MAX_FILE_BYTES: Final = 1024 * 1024
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


def _mark(event: yaml.Event) -> tuple[int, int]:
    mark = event.start_mark
    assert mark is not None  # the parser marks every event it emits
    return (mark.line + 1, mark.column + 1)


def read_yaml_file(path: Path) -> object:
    """The plain data of one YAML file: YamlMap, YamlList, str or None; SourceError if refused."""
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise SourceError(Location(path), f"file is {size:,} bytes; the limit is {MAX_FILE_BYTES:,} (1 MiB)")
        raw = path.read_bytes()
    except OSError as exc:
        raise SourceError(Location(path), f"cannot read file: {exc.strerror or exc}") from None
    return parse_yaml(raw, path)


def parse_yaml(raw: bytes, path: Path) -> object:
    """Parse YAML bytes already read from `path` (the path only labels messages)."""
    if len(raw) > MAX_FILE_BYTES:
        raise SourceError(Location(path), f"file is {len(raw):,} bytes; the limit is {MAX_FILE_BYTES:,} (1 MiB)")
    text = _decode(raw, path)
    try:
        return _build(yaml.parse(text, Loader=_Loader), path)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = Location(path, mark.line + 1, mark.column + 1) if mark else Location(path)
        problem = exc.problem or exc.context or "invalid YAML"
        hint = yaml_hint(problem)
        raise SourceError(where, f"invalid YAML: {problem}" + (f" ({hint})" if hint else "")) from None
    except yaml.YAMLError as exc:
        raise SourceError(Location(path), f"invalid YAML: {exc}") from None


def _decode(raw: bytes, path: Path) -> str:
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise SourceError(
            Location(path, line, column), f"not UTF-8: byte 0x{raw[exc.start]:02x} cannot be decoded"
        ) from None
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise SourceError(Location(path, line), "file contains a NUL character; is it binary?")
    return text


def _refuse(path: Path, event: yaml.Event, what: str) -> SourceError:
    line, column = _mark(event)
    return SourceError(Location(path, line, column), what)


def _check_plain_node(event: yaml.Event, path: Path) -> None:
    anchor = getattr(event, "anchor", None)
    if anchor is not None:
        raise _refuse(path, event, f"anchors (&{anchor}) are not allowed in question files; repeat the value instead")
    tag = getattr(event, "tag", None)
    if tag is not None:
        raise _refuse(path, event, f"YAML tags ({tag}) are not allowed in question files")


def _build(events: Iterable[yaml.Event], path: Path) -> object:
    """Build the data from the event stream with an explicit stack (no recursion limit to hit)."""
    stack: list[_Open] = []
    root: object = None
    documents = 0
    for event in events:
        kind = type(event)
        if type(event) is yaml.ScalarEvent:
            _check_plain_node(event, path)
            value: object = event.value
            if not event.implicit[0]:
                value = QuotedStr(value)
            elif value in NULLS:
                value = None
        elif kind is yaml.MappingStartEvent:
            _check_plain_node(event, path)
            stack.append(_Open(YamlMap(_mark(event))))
            continue
        elif kind is yaml.SequenceStartEvent:
            _check_plain_node(event, path)
            stack.append(_Open(YamlList(_mark(event))))
            continue
        elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
            value = stack.pop().container
        elif type(event) is yaml.AliasEvent:
            raise _refuse(path, event, f"aliases (*{event.anchor}) are not allowed in question files")
        elif kind is yaml.DocumentStartEvent:
            documents += 1
            if documents > 1:
                raise _refuse(path, event, "a question file holds one YAML document; remove the second '---'")
            continue
        else:
            continue
        if not stack:
            root = value
            continue
        _add(stack[-1], value, event, path)
    return root


class _Open:
    """A container on the stack being filled and, for a mapping, the key read that awaits its value."""

    __slots__ = ("container", "key")

    def __init__(self, container: YamlMap | YamlList) -> None:
        self.container = container
        self.key: str | None = None


def _add(top: _Open, value: object, event: yaml.Event, path: Path) -> None:
    container = top.container
    if isinstance(container, YamlList):
        container.append(value)
        container.marks.append(_value_mark(value, event))
        return
    key = top.key
    if key is None:  # this value is a key
        if not isinstance(value, str):
            what = "an empty key" if value is None else "a mapping or list used as a key"
            line, column = _value_mark(value, event)
            raise SourceError(Location(path, line, column), f"{what} is not allowed; keys are plain names")
        if value in container:
            first = container.marks[value]
            raise _refuse(path, event, f"duplicate key '{value}' (first defined at line {first[0]})")
        container.marks[value] = _mark(event)
        top.key = value
    else:
        container[key] = value
        top.key = None


def _value_mark(value: object, event: yaml.Event) -> tuple[int, int]:
    # A container's own mark is where it started; its end event would point past it.
    return value.mark if isinstance(value, YamlMap | YamlList) else _mark(event)
