"""Convert plain YAML data into the typed question model, reporting every problem with its line.

Conversion is driven by the model's type hints, so the model is the one description of the
format (the JSON Schema is generated from it too). This module picks the converter for each
hint and converts the containers (lists, mappings, unions, the model's dataclasses); scalars
are converted in `quiz.format.scalars`, limits checked in `quiz.format.limits`, and where each
value stands is kept by `quiz.format.marks`. A converter never raises for bad data: it reports
a Diagnostic and returns INVALID, so one run lists all the problems of a file.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from functools import cache
from typing import Any, Final, Literal, Protocol, Union, get_args, get_origin, get_type_hints

from quiz.base.fieldwise import Fieldwise, record
from quiz.format.diagnostics import Location, Report
from quiz.format.limits import check_limits
from quiz.format.marks import Marks, Where
from quiz.format.scalars import INVALID, describe, expected, to_bool, to_float, to_int, to_str
from quiz.format.suggest import closest, did_you_mean
from quiz.format.yaml_data import Refused, YamlList, YamlMap


class Convertible(Protocol):
    """A model type that converts itself (texts, expressions) instead of being a plain dataclass."""

    @classmethod
    def from_yaml(cls, value: object, where: Where, report: Report) -> object: ...

    @classmethod
    def json_schema(cls) -> dict[str, Any]: ...


Converter = Callable[[object, Where, Report], object]


def converter_for(tp: object) -> Converter:
    """The conversion function for a type hint (cached: built once per type)."""
    return _converter_for(tp)


@cache
def _converter_for(tp: Any) -> Converter:
    return _reporting_refusals(_build_converter(tp))


def _reporting_refusals(convert: Converter) -> Converter:
    """`convert`, except that a value refused while reading is reported (once) where it stands."""

    def checked(value: object, where: Where, report: Report) -> object:
        if isinstance(value, Refused):
            return report_refused(value, where, report)
        return convert(value, where, report)

    return checked


def report_refused(value: Refused, where: Where, report: Report) -> object:
    """Report why `value` was refused while reading, at its own line, and return INVALID."""
    field = f"{where.field}: " if where.field else ""
    report.error(Location(where.path, *value.mark), f"{field}{value.message}")
    return INVALID


def _build_converter(tp: Any) -> Converter:
    if tp is str:
        return to_str
    if tp is bool:
        return to_bool
    if tp is int:
        return to_int
    if tp is float:
        return to_float
    if isinstance(tp, type) and hasattr(tp, "from_yaml"):
        from_yaml: Converter = tp.from_yaml  # a class that reads itself (Text, OrderItem, ...)
        return from_yaml
    if dataclasses.is_dataclass(tp):
        return _dataclass_converter(tp)
    origin = get_origin(tp)
    args = get_args(tp)
    if origin is Literal:
        return _literal_converter(args)
    if origin is typing.Annotated:
        return _annotated_converter(tp)
    if origin in (Union, types.UnionType):
        return _optional_converter(args)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return _sequence_converter(args[0])
    if origin is dict and args[0] is str:
        return _mapping_converter(args[1])
    raise TypeError(f"the question model uses a type the converter does not know: {tp!r}")


def _literal_converter(choices: tuple[Any, ...]) -> Converter:
    names = ", ".join(str(c) for c in choices)

    def convert(value: object, where: Where, report: Report) -> object:
        if isinstance(value, str) and value in choices:
            return str(value)
        hint = did_you_mean(value, choices)
        report.error(where.location(), f"{where.field}: expected one of {names}, got {describe(value)}{hint}")
        return INVALID

    return convert


def _optional_converter(args: tuple[Any, ...]) -> Converter:
    rest = [a for a in args if a is not type(None)]
    if len(rest) != 1 or len(args) != 2:
        raise TypeError(f"only `T | None` unions are supported in the model, not {args!r}")
    inner = converter_for(rest[0])

    def convert(value: object, where: Where, report: Report) -> object:
        return None if value is None else inner(value, where, report)

    return convert


def _sequence_converter(item_type: Any) -> Converter:
    item = converter_for(item_type)

    def convert(value: object, where: Where, report: Report) -> object:
        if not isinstance(value, YamlList):
            return expected(where, report, "a list", value)
        out = [item(v, where.item(i, m), report) for i, (v, m) in enumerate(zip(value, value.marks))]
        return INVALID if any(v is INVALID for v in out) else tuple(out)

    return convert


def _mapping_converter(value_type: Any) -> Converter:
    item = converter_for(value_type)

    def convert(value: object, where: Where, report: Report) -> object:
        if not isinstance(value, YamlMap):
            return expected(where, report, "a mapping", value)
        out = {k: item(v, where.child(k, value.marks[k]), report) for k, v in value.items()}
        return INVALID if any(v is INVALID for v in out.values()) else out

    return convert


def _annotated_converter(tp: Any) -> Converter:
    base, *extras = get_args(tp)
    tagged = next((e for e in extras if isinstance(e, Tagged)), None)
    if tagged is None:
        return converter_for(base)
    return tagged.converter(get_args(base))


@record(slots=True)
class Tagged(Fieldwise):
    """Marks a union of dataclasses told apart by the value of one field (`type: choice`)."""

    field: str

    def variants(self, members: tuple[Any, ...]) -> dict[str, Any]:
        return {get_args(get_type_hints(m)[self.field])[0]: m for m in members}

    def converter(self, members: tuple[Any, ...]) -> Converter:
        by_tag = self.variants(members)
        names = ", ".join(by_tag)

        def convert(value: object, where: Where, report: Report) -> object:
            if not isinstance(value, YamlMap):
                return expected(where, report, "a mapping", value)
            tag = value.get(self.field)
            if tag is None:
                report.error(where.location(), f"{where.field or 'question'}: missing required field '{self.field}' (one of {names})")
                return INVALID
            member = by_tag.get(tag) if isinstance(tag, str) else None
            if member is None:
                at = where.child(self.field, value.marks[self.field])
                hint = did_you_mean(tag, tuple(by_tag))
                report.error(at.location(), f"{at.field}: unknown {self.field} {describe(tag)}; expected one of {names}{hint}")
                return INVALID
            return converter_for(member)(value, where, report)

        return convert


def yaml_fields(cls: type) -> list[dataclasses.Field[Any]]:
    """The dataclass fields an author writes (fields marked `internal` are set by the loader)."""
    return [f for f in dataclasses.fields(cls) if not f.metadata.get("internal")]


REFERENCED: Final = "referenced"
"""Field metadata (`doc(..., referenced=True)`): other fields refer to this one (parameters by name, options by id). When it
cannot be read the object is not built at all, since checking on without it would only report
errors in its wake (every parameter's name unknown)."""
def is_required(f: dataclasses.Field[Any]) -> bool:
    return f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING


def _read_as_meant(value: YamlMap, fields: list[str], here: Where, label: str, report: Report) -> YamlMap:
    """`value` with each misspelt field read as the field it most likely means, after reporting it.

    Unknown fields are errors (with a "did you mean"). Checking on without a misspelt field would
    report only what it lacks (`parms` leaves every parameter unknown, `anser` a missing answer),
    and nothing of what it holds; read as the field meant, what it holds is checked too, so one
    run lists every problem and none in the wake of the misspelling. The error already reported
    keeps the question out of the bank.
    """
    meant: dict[str, str] = {}
    for key in value:
        if key not in fields:
            # Past a file's listed share a problem is only counted: skip the costly hint.
            close = None if report.is_full(here.path) else closest(key, fields)
            at = here.child(key, value.marks[key])
            report.error(at.location(), f"unknown field '{key}' in {label}" + (f" (did you mean '{close}'?)" if close else ""))
            if close is not None and close not in value and close not in meant.values():
                meant[key] = close
    if not meant:
        return value
    renamed = YamlMap(value.mark)
    for key, inner in value.items():
        if key in fields or key in meant:
            renamed[meant.get(key, key)] = inner
            renamed.marks[meant.get(key, key)] = value.marks[key]
    return renamed


def _dataclass_converter(cls: Any) -> Converter:
    hints = get_type_hints(cls, include_extras=True)
    fields = yaml_fields(cls)
    converters = {f.name: converter_for(hints[f.name]) for f in fields}
    metadata = {f.name: f.metadata for f in fields}
    required = [f.name for f in fields if is_required(f)]
    # A bad optional field that nothing else refers to (hints, misconceptions, a tolerance) is
    # reported and left at its default, so the object is still built and the checks after
    # conversion (claims, expressions) run too; see `REFERENCED`.
    spare = {f.name for f in fields if not is_required(f) and not f.metadata.get(REFERENCED)}
    label = getattr(cls, "yaml_label", cls.__name__)
    check = getattr(cls, "check", None)
    with_marks = any(f.name == "marks" for f in dataclasses.fields(cls))

    def convert(value: object, where: Where, report: Report) -> object:
        if not isinstance(value, YamlMap):
            return expected(where, report, f"a mapping ({label})", value)
        here = Where(where.path, value.mark, where.field)
        value = _read_as_meant(value, list(converters), here, label, report)
        ok = True
        missing = [name for name in required if value.get(name) is None]
        for name in missing:
            report.error(here.location(), f"{label}: missing required field '{name}'")
        kwargs: dict[str, object] = {}
        for key, raw in value.items():
            convert_field = converters.get(key)
            if convert_field is None or raw is None:
                continue
            at = here.child(key, value.marks[key])
            converted = convert_field(raw, at, report)
            if converted is INVALID:
                ok = ok and key in spare
            else:
                check_limits(metadata[key], converted, at, report)
                kwargs[key] = converted
        if not ok or missing:
            return INVALID
        if with_marks:
            kwargs["marks"] = Marks.of(value, where.path)
        made = cls(**kwargs)
        # A broken rule (difficulty 7, a credit of 1.5) is reported and the object kept, so the
        # checks after it (expressions, claims) still run; the loader keeps such a question out
        # of the bank. Only a check that returns False leaves nothing usable.
        if check is not None and check(made, here, value, report) is False:
            return INVALID
        return made

    return convert
