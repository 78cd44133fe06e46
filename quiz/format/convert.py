"""Convert plain YAML data into the typed question model, reporting every problem with its line.

Conversion is driven by the model's type hints, so the model is the one description of the
format (the JSON Schema is generated from it too). Scalars arrive as text and are converted by
their field's type: `1e-3` becomes a number in a number field, `yes` a boolean only in a boolean
field, `010` is ten in an integer field and stays "010" in a text field, and `1:30` is never 90.
A converter never raises for bad data: it reports a Diagnostic and returns INVALID, so one run
lists all the problems of a file.
"""

from __future__ import annotations

import dataclasses
import difflib
import math
import re
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final, Literal, Protocol, Union, get_args, get_origin, get_type_hints

from quiz.format.diagnostics import Location, Report
from quiz.format.yaml_source import Refused, YamlList, YamlMap

INVALID: Final = object()
"""What a converter returns after reporting a problem."""

INT_PATTERN: Final = re.compile(r"[+-]?[0-9]+")
FLOAT_PATTERN: Final = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
MAX_INT_DIGITS: Final = 15
"""Most digits of a whole number in a number field (difficulty, time, decimals, ...)."""
MAX_FLOAT_CHARS: Final = 40
"""Longest number in a decimal field, in characters: enough for any float's shortest repr."""
_TRUE: Final = frozenset({"true", "yes", "on"})
_FALSE: Final = frozenset({"false", "no", "off"})


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


class Convertible(Protocol):
    """A model type that converts itself (texts, expressions) instead of being a plain dataclass."""

    @classmethod
    def from_yaml(cls, value: object, where: Where, report: Report) -> object: ...

    @classmethod
    def json_schema(cls) -> dict[str, Any]: ...


Converter = Callable[[object, Where, Report], object]


def describe(value: object) -> str:
    """How a wrong value is named in messages: its kind and, for a short scalar, the value."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, Refused):
        return "a refused value"
    if isinstance(value, YamlMap):
        return "a mapping"
    if isinstance(value, YamlList):
        return "a list"
    text = str(value)
    return f"'{text}'" if len(text) <= 40 else f"'{text[:37]}...'"


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
        return _to_str
    if tp is bool:
        return _to_bool
    if tp is int:
        return _to_int
    if tp is float:
        return _to_float
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


def _expected(where: Where, report: Report, what: str, value: object) -> object:
    report.error(where.location(), f"{where.field}: expected {what}, got {describe(value)}")
    return INVALID


def _to_str(value: object, where: Where, report: Report) -> object:
    if isinstance(value, str):
        return str(value)
    return _expected(where, report, "text", value)


def _to_bool(value: object, where: Where, report: Report) -> object:
    if isinstance(value, str):
        word = value.lower()
        if word in _TRUE:
            return True
        if word in _FALSE:
            return False
    return _expected(where, report, "true or false", value)


def _to_int(value: object, where: Where, report: Report) -> object:
    # Decimal only: `010` is ten (not YAML 1.1's octal eight) and `1:30` is an error, never 90.
    if not isinstance(value, str) or not INT_PATTERN.fullmatch(value.strip()):
        return _expected(where, report, "a whole number", value)
    if len(value.strip().lstrip("+-")) > MAX_INT_DIGITS:  # checked before int() does the work
        report.error(where.location(), f"{where.field}: a whole number here has at most {MAX_INT_DIGITS} digits")
        return INVALID
    return int(value)


def _to_float(value: object, where: Where, report: Report) -> object:
    if not isinstance(value, str) or not FLOAT_PATTERN.fullmatch(value.strip()):
        return _expected(where, report, "a number", value)
    if len(value.strip()) > MAX_FLOAT_CHARS:
        report.error(where.location(), f"{where.field}: a number here is written with at most {MAX_FLOAT_CHARS} characters")
        return INVALID
    number = float(value)
    if not math.isfinite(number):
        report.error(where.location(), f"{where.field}: {describe(value)} is too large to be a number")
        return INVALID
    return number + 0.0  # -0 is 0: numpy refuses a std of -0.0 as negative


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
            return _expected(where, report, "a list", value)
        out = [item(v, where.item(i, m), report) for i, (v, m) in enumerate(zip(value, value.marks))]
        return INVALID if any(v is INVALID for v in out) else tuple(out)

    return convert


def _mapping_converter(value_type: Any) -> Converter:
    item = converter_for(value_type)

    def convert(value: object, where: Where, report: Report) -> object:
        if not isinstance(value, YamlMap):
            return _expected(where, report, "a mapping", value)
        out = {k: item(v, where.child(k, value.marks[k]), report) for k, v in value.items()}
        return INVALID if any(v is INVALID for v in out.values()) else out

    return convert


def _annotated_converter(tp: Any) -> Converter:
    base, *extras = get_args(tp)
    tagged = next((e for e in extras if isinstance(e, Tagged)), None)
    if tagged is None:
        return converter_for(base)
    return tagged.converter(get_args(base))


@dataclass(frozen=True, slots=True)
class Tagged:
    """Marks a union of dataclasses told apart by the value of one field (`type: choice`)."""

    field: str

    def variants(self, members: tuple[Any, ...]) -> dict[str, Any]:
        return {get_args(get_type_hints(m)[self.field])[0]: m for m in members}

    def converter(self, members: tuple[Any, ...]) -> Converter:
        by_tag = self.variants(members)
        names = ", ".join(by_tag)

        def convert(value: object, where: Where, report: Report) -> object:
            if not isinstance(value, YamlMap):
                return _expected(where, report, "a mapping", value)
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


def closest(value: object, options: tuple[Any, ...] | list[str]) -> str | None:
    """The one of `options` that `value` most likely misspells, if any is close."""
    if not isinstance(value, str):
        return None
    close = difflib.get_close_matches(value, [str(o) for o in options], n=1, cutoff=0.6)
    return close[0] if close else None


def did_you_mean(value: object, options: tuple[Any, ...] | list[str]) -> str:
    """` (did you mean 'x'?)` for the closest of `options`, or an empty string."""
    close = closest(value, options)
    return f" (did you mean '{close}'?)" if close else ""


def yaml_fields(cls: type) -> list[dataclasses.Field[Any]]:
    """The dataclass fields an author writes (fields marked `internal` are set by the loader)."""
    return [f for f in dataclasses.fields(cls) if not f.metadata.get("internal")]


REFERENCED: Final = "referenced"
"""Field metadata (`doc(..., referenced=True)`): other fields refer to this one (parameters by name, options by id). When it
cannot be read the object is not built at all, since checking on without it would only report
errors in its wake (every parameter's name unknown)."""
NUMBER_LIMITS: Final = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
"""Field metadata bounding a number, named as JSON Schema names them: checked here, and given
to editors by the schema, so the two never disagree."""
COUNT_LIMITS: Final = ("minItems", "maxItems")
"""Field metadata bounding how many items a list holds."""


def check_limits(metadata: Any, value: object, where: Where, report: Report) -> None:
    """Report a number outside its field's limits, or a list with too few or too many items."""
    reason = f" ({metadata['reason']})" if "reason" in metadata else ""
    if isinstance(value, int | float) and not isinstance(value, bool):
        low, high = metadata.get("minimum"), metadata.get("maximum")
        above, below = metadata.get("exclusiveMinimum"), metadata.get("exclusiveMaximum")
        if (
            (low is not None and value < low)
            or (high is not None and value > high)
            or (above is not None and value <= above)
            or (below is not None and value >= below)
        ):
            report.error(where.location(), f"{where.field} must be {_number_rule(metadata)}{reason}")
    elif isinstance(value, tuple):
        least, most = metadata.get("minItems"), metadata.get("maxItems")
        if (least is not None and len(value) < least) or (most is not None and len(value) > most):
            report.error(where.location(), f"{where.field} must list {_count_rule(least, most)}, found {len(value)}{reason}")


def _number_rule(metadata: Any) -> str:
    low = metadata.get("minimum", metadata.get("exclusiveMinimum"))
    high = metadata.get("maximum", metadata.get("exclusiveMaximum"))
    low_word = "at least" if "minimum" in metadata else "above"
    high_word = "at most" if "maximum" in metadata else "below"
    if low is not None and high is not None:
        if "minimum" in metadata and "maximum" in metadata:
            return f"between {low:g} and {high:g}"
        return f"{low_word} {low:g} and {high_word} {high:g}"
    return f"{low_word} {low:g}" if low is not None else f"{high_word} {high:g}"


def _count_rule(least: int | None, most: int | None) -> str:
    if least is not None and least == most:
        return f"exactly {least} entr{'ies' if least != 1 else 'y'}"
    if least is not None and most is not None:
        return f"between {least} and {most} entries"
    return f"at least {least} entr{'ies' if least != 1 else 'y'}" if least is not None else f"at most {most} entries"


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
            return _expected(where, report, f"a mapping ({label})", value)
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
