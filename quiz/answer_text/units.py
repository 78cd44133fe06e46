"""Answers with units (`1.5 GiB`, `3.2e9 bytes`, `12 ms`): read, converted to the question's unit, then graded.

A question declares the unit its key is in (`unit: MiB`); a learner may answer in any unit of the
same kind, or with none (then the question's unit is meant). Byte prefixes follow IEC and SI as
written: `GB` is 10⁹ bytes, `GiB` 2³⁰. A lower-case `b` (a bit) is no byte unit, so `Gb` is refused
rather than read as gigabytes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from quiz.answer_text.outcome import Invalid, Parsed
from quiz.answer_text.wording import render_value


@dataclass(frozen=True)
class Unit:
    """A unit: its kind (bytes, seconds, FLOPs), its size in the kind's base unit and how it is written."""

    kind: str
    factor: float
    symbol: str


def _family(kind: str, spellings: dict[str, tuple[float, tuple[str, ...]]]) -> dict[str, Unit]:
    """Each spelling of a kind's units, by the unit's symbol: its size in the base unit and its other spellings."""
    return {spelling: Unit(kind, factor, symbol) for symbol, (factor, more) in spellings.items() for spelling in (symbol, *more)}


def _flop_spellings(prefix: str) -> tuple[str, ...]:
    """A FLOP count's other spellings with `prefix` (FLOPS, as often written for a count, and GFLOP)."""
    prefixes = (prefix, "K") if prefix == "k" else (prefix,)
    words = ("FLOP", "FLOPs", "FLOPS", *(() if prefix else ("flop", "flops")))
    return tuple(p + w for p in prefixes for w in words if p + w != f"{prefix}FLOPs")


_FLOP_PREFIXES: Final = {"": 1.0, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}
UNITS: Final[dict[str, Unit]] = {
    **_family(
        "bytes",
        {
            "B": (1.0, ("byte", "bytes", "バイト")),
            "kB": (1e3, ("KB",)),
            "MB": (1e6, ()),
            "GB": (1e9, ()),
            "TB": (1e12, ()),
            "PB": (1e15, ()),
            "KiB": (2.0**10, ()),
            "MiB": (2.0**20, ()),
            "GiB": (2.0**30, ()),
            "TiB": (2.0**40, ()),
            "PiB": (2.0**50, ()),
        },
    ),
    **_family(
        "seconds",
        {
            "s": (1.0, ("sec", "second", "seconds", "秒")),
            "ms": (1e-3, ("millisecond", "milliseconds", "ミリ秒")),
            "µs": (1e-6, ("μs", "us", "microsecond", "microseconds", "マイクロ秒")),
            "ns": (1e-9, ("nanosecond", "nanoseconds", "ナノ秒")),
            "min": (60.0, ("minute", "minutes", "分")),
        },
    ),
    **_family("flops", {f"{prefix}FLOPs": (factor, _flop_spellings(prefix)) for prefix, factor in _FLOP_PREFIXES.items()}),
}
"""Every spelling a learner may write, by kind; units of a kind convert into one another."""

_EXAMPLES: Final = {"bytes": "1.5 GiB, 3.2e9 bytes", "seconds": "12 ms, 0.8 s", "flops": "3.2 TFLOPs, 4e9 FLOPs"}
# A number (or any expression the reader takes) followed by a word of letters: the unit written.
_TRAILING: Final = re.compile(r"^(?P<amount>.*?[\d)\s.])\s*(?P<unit>[A-Za-zµμ\u3040-\u30ff\u4e00-\u9fff]+)\s*$", re.S)


def unit_named(name: str) -> Unit | None:
    """The unit a question or an answer names, None when there is no such unit."""
    return UNITS.get(name)


def examples(unit: Unit) -> str:
    """Answers with units of this kind, for how-to-answer lines and messages."""
    return _EXAMPLES[unit.kind]


def parse_quantity(text: str, unit: Unit) -> Parsed | Invalid:
    """Read `text` as one number in `unit`: a bare number is in `unit`, one with a unit of the
    same kind is converted into it, another kind or an unknown unit is refused with what works."""
    from quiz.answer_text.parse import parse_answer  # the parser is imported on first use, as the package does

    match = _TRAILING.match(text.strip())
    if match is None:
        parsed = parse_answer(text, ())
        return parsed if isinstance(parsed, Invalid) else Parsed(parsed.value, f"{parsed.display} {unit.symbol}")
    written, amount = match["unit"], parse_answer(match["amount"], ())
    if isinstance(amount, Invalid):
        return parse_answer(text, ())  # not a number with a unit: the reader says what it cannot read
    given = UNITS.get(written)
    if given is None or given.kind != unit.kind:
        return Invalid("units.refused", {"unit": written, "asked": unit.symbol, "examples": examples(unit)})
    assert isinstance(amount.value, float)  # read as a number: shape ()
    value = amount.value * given.factor / unit.factor
    shown = f"{render_value(value)} {unit.symbol}"
    return Parsed(value, shown if given.symbol == unit.symbol else f"{shown} ({amount.display} {written})")


def parse_in_unit(text: str, shape: tuple[int, ...], unit: str | None, *, sizes: bool = False) -> Parsed | Invalid:
    """Read a numeric answer of `shape`, in the question's `unit` when it declares one (a number's
    only); `sizes` reads a shape answer's sizes as `parse_answer` does (`7x18, 7x8`)."""
    from quiz.answer_text.parse import parse_answer

    declared = unit_named(unit) if unit is not None and shape == () else None
    return parse_answer(text, shape, sizes=sizes) if declared is None else parse_quantity(text, declared)
