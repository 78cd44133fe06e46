"""Bounds on a field's number or item count, declared in the model's field metadata: checked
while converting, and given to editors by the JSON Schema, so the two never disagree."""

from __future__ import annotations

from typing import Any, Final

from quiz.format.diagnostics import Report
from quiz.format.marks import Where

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
