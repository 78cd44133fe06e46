"""A function an expression may call: the implementation and the size check that runs first."""

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from quiz.expressions.meter import SizeMeter

Preflight = Callable[[Mapping[str, Any]], int | None]
"""Checks bound arguments (defaults applied) and raises before anything large is allocated.

The arguments are whatever the expression gave, used as the function will use them: one of a
type that does not fit raises TypeError, which the evaluator reports as the expression's error.

It may return how many elements the call allocates on the way (its largest intermediate),
so work whose result is small still counts against the evaluation's budget.
"""

HIDDEN_PARAMETERS = frozenset({"out"})
"""Keyword-only parameters expressions never see: `out=` would write into shared params."""


@dataclass(frozen=True)
class Function:
    """An allowed callable, called only after its arguments bind and its preflight passes."""

    name: str
    implementation: Callable[..., object]
    preflight: Preflight | None = None
    signature: inspect.Signature = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "signature", _visible_signature(self.implementation))

    def __call__(self, args: list[object], kwargs: dict[str, object], meter: SizeMeter) -> object:
        """Bind the arguments, run the preflight and charge its cost to `meter`, then call."""
        try:
            bound = self.signature.bind(*args, **kwargs)
        except TypeError as error:
            raise TypeError(f"{self.name}(): {error}") from None
        bound.apply_defaults()
        if self.preflight is not None:
            meter.spend(self.preflight(bound.arguments) or 0)
        return self.implementation(*bound.args, **bound.kwargs)


def _visible_signature(implementation: Callable[..., object]) -> inspect.Signature:
    """The signature without HIDDEN_PARAMETERS, so binding refuses them like unknown keywords."""
    signature = inspect.signature(implementation)
    hidden = [signature.parameters[name] for name in HIDDEN_PARAMETERS & set(signature.parameters)]
    if any(parameter.kind is not parameter.KEYWORD_ONLY for parameter in hidden):
        # Dropping a positional parameter would shift the ones after it.
        raise TypeError(f"{implementation.__name__}: a hidden parameter must be keyword-only")
    return signature.replace(
        parameters=[p for p in signature.parameters.values() if p.name not in HIDDEN_PARAMETERS]
    )
