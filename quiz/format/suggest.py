"""The "did you mean" of messages: the option a misspelt name most likely meant."""

from __future__ import annotations

import difflib
from typing import Any


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
