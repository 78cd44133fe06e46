"""Build `yaml_source`'s plain data from PyYAML's event stream, refusing what a question file may
not hold as it reads (see `quiz.format.yaml_source` for the rules); imported only when a file is parsed."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Final

import yaml

from quiz.format.diagnostics import Location, SourceError
from quiz.format.yaml_data import (
    MAX_DEPTH,
    MAX_FILE_BYTES,
    MAX_ITEMS,
    MAX_KEYS,
    MAX_NUMBER_CHARS,
    MAX_TEXT_CHARS,
    NULLS,
    QuotedStr,
    ReadingStopped,
    Refused,
    StopCheck,
    YamlList,
    YamlMap,
)
from quiz.format.yaml_hints import yaml_hint

# libyaml's parser when PyYAML was built with it; the pure-Python one otherwise
_Loader = yaml.CSafeLoader if yaml.__with_libyaml__ else yaml.SafeLoader

_NUMBER_LIKE: Final = re.compile(r"[-+]?[0-9_.]+(?:[eE][-+]?[0-9_]+)?")
_STOP_EVERY: Final = 1_000
"""Events read between two checks of whether the reader should stop."""


def _mark(event: yaml.Event) -> tuple[int, int]:
    mark = event.start_mark
    assert mark is not None  # the parser marks every event it emits
    return (mark.line + 1, mark.column + 1)


def parse_events(raw: bytes, path: Path, stop: StopCheck | None = None) -> object:
    """Parse YAML bytes already read from `path` (the path only labels messages)."""
    if len(raw) > MAX_FILE_BYTES:
        raise SourceError(Location(path), f"file is {len(raw):,} bytes; the limit is {MAX_FILE_BYTES:,} (1 MiB)")
    text = _decode(raw, path)
    try:
        return _Builder(path, stop).build(yaml.parse(text, Loader=_Loader))
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
        raise SourceError(Location(path, line, column), f"not UTF-8: byte 0x{raw[exc.start]:02x} cannot be decoded") from None
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


class _Frame:
    """A mapping or list being filled; for a mapping, the key awaiting its value."""

    __slots__ = ("container", "key", "key_mark")

    def __init__(self, container: YamlMap | YamlList) -> None:
        self.container = container
        self.key: str | None = None
        self.key_mark = (0, 0)


class _Builder:
    """Builds the data from the event stream with an explicit stack (no recursion limit to hit).

    A refused container is dropped at once and the events up to its end are skipped, so a
    value over a limit costs no more than reading past it.
    """

    def __init__(self, path: Path, stop: StopCheck | None) -> None:
        self.path = path
        self.stop = stop
        self.stack: list[_Frame] = []
        self.skipping = 0  # nesting depth inside a refused container, while its events are skipped
        self.refused: Refused | None = None  # what the skipped container becomes once it ends

    def build(self, events: Iterable[yaml.Event]) -> object:
        root: object = None
        documents = 0
        for count, event in enumerate(events):
            if self.stop is not None and count % _STOP_EVERY == 0 and self.stop():
                raise ReadingStopped()
            kind = type(event)
            if type(event) is yaml.AliasEvent:
                raise _refuse(self.path, event, f"aliases (*{event.anchor}) are not allowed in question files")
            if kind in (yaml.ScalarEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent):
                _check_plain_node(event, self.path)
            if kind is yaml.DocumentStartEvent:
                documents += 1
                if documents > 1:
                    raise _refuse(self.path, event, "a question file holds one YAML document; remove the second '---'")
                continue
            if self.skipping:
                self._skip(kind)
                if self.skipping:
                    continue
                value: object = self.refused
            elif type(event) is yaml.ScalarEvent:
                value = self._scalar(event)
            elif kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
                self._open(event, YamlMap if kind is yaml.MappingStartEvent else YamlList)
                continue
            elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
                value = self.stack.pop().container
            else:
                continue
            if not self.stack:
                root = value
            else:
                self._add(value, event)
        return root

    def _skip(self, kind: type) -> None:
        if kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
            self.skipping += 1
        elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
            self.skipping -= 1

    def _refuse_container(self, mark: tuple[int, int], message: str) -> None:
        """Drop the container being opened or filled and skip the events up to its end."""
        self.refused = Refused(mark, message)
        self.skipping = 1

    def _open(self, event: yaml.Event, kind: type[YamlMap] | type[YamlList]) -> None:
        mark = _mark(event)
        if len(self.stack) >= MAX_DEPTH:
            self._refuse_container(mark, f"nested more than {MAX_DEPTH} levels deep; the limit keeps reading safe")
            return
        self.stack.append(_Frame(kind(mark)))

    def _scalar(self, event: yaml.ScalarEvent) -> object:
        text: str = event.value
        mark = _mark(event)
        if len(text) > MAX_TEXT_CHARS:
            return Refused(mark, f"a text of {len(text):,} characters; the limit is {MAX_TEXT_CHARS:,}")
        if not event.implicit[0]:
            return QuotedStr(text)
        if len(text) > MAX_NUMBER_CHARS and _NUMBER_LIKE.fullmatch(text):
            return Refused(mark, f"a number written with {len(text):,} characters; the limit is {MAX_NUMBER_CHARS}")
        return None if text in NULLS else text

    def _add(self, value: object, event: yaml.Event) -> None:
        top = self.stack[-1]
        container = top.container
        if isinstance(container, YamlList):
            if len(container) >= MAX_ITEMS:
                self._drop_top(f"a list of more than {MAX_ITEMS:,} items; the limit keeps reading safe")
                return
            container.append(value)
            container.marks.append(_value_mark(value, event))
            return
        assert isinstance(container, YamlMap)
        if top.key is not None:  # this value completes a key
            container[top.key] = value
            container.marks[top.key] = top.key_mark
            top.key = None
            return
        problem = self._key_problem(container, value)
        if problem is not None:  # the key's value, still to come, is skipped with the rest
            self._drop_top(problem, _value_mark(value, event))
            return
        assert isinstance(value, str)
        top.key, top.key_mark = value, _mark(event)

    def _key_problem(self, container: YamlMap, key: object) -> str | None:
        if isinstance(key, Refused):
            return f"a key is refused: {key.message}"
        if not isinstance(key, str):
            what = "an empty key" if key is None else "a mapping or list used as a key"
            return f"{what} is not allowed; keys are plain names"
        if key in container:
            return f"duplicate key '{key}' (first defined at line {container.marks[key][0]})"
        if len(container) >= MAX_KEYS:
            return f"a mapping of more than {MAX_KEYS} keys; the limit keeps reading safe"
        return None

    def _drop_top(self, message: str, mark: tuple[int, int] | None = None) -> None:
        """Refuse the container being filled with `message`, at `mark` (default: where it starts)."""
        frame = self.stack.pop()
        self._refuse_container(mark or frame.container.mark, message)


def _value_mark(value: object, event: yaml.Event) -> tuple[int, int]:
    # A container's own mark is where it started; its end event would point past it.
    if isinstance(value, YamlMap | YamlList | Refused):
        return value.mark
    return _mark(event)
