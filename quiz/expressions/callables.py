"""A function an expression may call: the implementation and the size check that runs first."""

import functools
import inspect
from collections.abc import Callable, Mapping
from dataclasses import field
from typing import Any

from quiz.base.fieldwise import Fieldwise, record
from quiz.expressions.meter import SizeMeter

Preflight = Callable[[Mapping[str, Any]], int | None]
"""Checks bound arguments (defaults applied) and raises before anything large is allocated.

The arguments are whatever the expression gave, used as the function will use them: one of a
type that does not fit raises TypeError, which the evaluator reports as the expression's error.

It may return how many elements the call allocates on the way (its largest intermediate),
so work whose result is small still counts against the evaluation's budget.
"""

Caller = Callable[[list[object], dict[str, object], SizeMeter], object]
"""A function called with positional values, keyword values, and the evaluation's meter."""


HIDDEN_PARAMETERS = frozenset({"out"})
"""Keyword-only parameters expressions never see: `out=` would write into shared params."""


@record
class Function(Fieldwise):
    """An allowed callable, called only after its arguments bind and its preflight passes."""

    name: str
    implementation: Callable[..., object]
    preflight: Preflight | None = None
    remember: bool = False
    """Keep recent results by argument: only for a pure function of hashable arguments whose
    result cannot be changed (an engine record), so that a repeated call costs nothing."""
    signature: inspect.Signature = field(init=False, repr=False, compare=False)
    _remembered: Callable[..., object] | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "signature", _visible_signature(self.implementation))
        object.__setattr__(self, "_remembered", functools.lru_cache(maxsize=256, typed=True)(self.implementation) if self.remember else None)

    def caller(self, count: int, keywords: tuple[str, ...]) -> Caller:
        """The call for `count` positional arguments and these keywords, bound once.

        Which parameter receives which argument depends only on how many there are and on the
        keywords' names, both fixed where the call is written: the binding is worked out here,
        on stand-ins for the values, and the call only fills in the values.
        """
        try:
            bound = self.signature.bind(*(_Positional(i) for i in range(count)), **{name: _Keyword(name) for name in keywords})
        except TypeError:
            return self._refuse
        bound.apply_defaults()
        slots = bound.arguments
        if self.preflight is None and self._remembered is None:
            implementation = self.implementation
            return lambda args, kwargs, meter: implementation(*args, **kwargs)
        return functools.partial(self._checked, tuple(slots.items()))

    def _refuse(self, args: list[object], kwargs: dict[str, object], meter: SizeMeter) -> object:
        """Arguments that do not bind: let inspect say why, in its words."""
        try:
            self.signature.bind(*args, **kwargs)
        except TypeError as error:
            raise TypeError(f"{self.name}(): {error}") from None
        raise AssertionError(f"{self.name}(): arguments bound that their stand-ins did not")

    def _checked(
        self, slots: tuple[tuple[str, object], ...], args: list[object], kwargs: dict[str, object], meter: SizeMeter
    ) -> object:
        """Run the preflight on the bound arguments and charge its cost to `meter`, then call."""
        arguments = {name: _fill(slot, args, kwargs) for name, slot in slots}
        if self.preflight is not None:
            meter.spend(self.preflight(arguments) or 0)
        if self._remembered is not None and _hashable(arguments):
            return self._remembered(*args, **kwargs)
        return self.implementation(*args, **kwargs)


@record
class _Positional(Fieldwise):
    index: int


@record
class _Keyword(Fieldwise):
    name: str


def _fill(slot: object, args: list[object], kwargs: dict[str, object]) -> object:
    """The value a bound parameter takes: a positional argument, a keyword's, or its default."""
    if type(slot) is _Positional:
        return args[slot.index]
    if type(slot) is _Keyword:
        return kwargs[slot.name]
    return slot


def _hashable(arguments: Mapping[str, object]) -> bool:
    try:
        hash(tuple(arguments.values()))
    except TypeError:  # an array, say
        return False
    return True


def _visible_signature(implementation: Callable[..., object]) -> inspect.Signature:
    """The signature without HIDDEN_PARAMETERS, so binding refuses them like unknown keywords; no *args or **kwargs."""
    signature = inspect.signature(implementation)
    hidden = [signature.parameters[name] for name in HIDDEN_PARAMETERS & set(signature.parameters)]
    if any(parameter.kind is not parameter.KEYWORD_ONLY for parameter in hidden):
        # Dropping a positional parameter would shift the ones after it.
        raise TypeError(f"{implementation.__name__}: a hidden parameter must be keyword-only")
    visible = [p for p in signature.parameters.values() if p.name not in HIDDEN_PARAMETERS]
    if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in visible):
        # A call's binding maps each parameter to one argument or default (`_fill`), never a pack of them.
        raise TypeError("an allowed function may not take *args or **kwargs")
    return signature.replace(parameters=visible)
