"""Work the reference and the mistakes of one probe call have in common, done once for that call.

Several mistakes start from the same engine run. In implement-sdpa, attention with the call's
own mask under the stated policy gives the reference and feeds the unstable softmax, the −1e9
fill and the other empty-row policy; attention without the mask feeds both the ignored mask and
the mask applied after the softmax. While
`resolve` works out one call (inside `one_call()`), a function marked `shared` runs once for each
distinct set of arguments: arrays and other objects are told apart by identity, never by value,
and nothing outlives the call. Outside that scope (fault matching, tests) every use computes.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from enum import Enum
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

# Each entry keeps its arguments alive beside the result, so that no identity in a key is reused.
_MEMO: ContextVar[dict[Hashable, tuple[Any, Any]] | None] = ContextVar("quiz_code_one_call", default=None)


@contextmanager
def one_call() -> Iterator[None]:
    """The scope of one probe call: `shared` functions compute each distinct use once within it."""
    token = _MEMO.set({})
    try:
        yield
    finally:
        _MEMO.reset(token)


def shared(compute: Callable[P, R]) -> Callable[P, R]:
    """`compute`, run once per distinct arguments within `one_call()` and afresh outside it."""

    @functools.wraps(compute)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        memo = _MEMO.get()
        if memo is None:
            return compute(*args, **kwargs)
        key = (compute, *[_key(value) for value in args], *[(name, _key(value)) for name, value in kwargs.items()])
        found = memo.get(key)
        if found is None:
            found = memo[key] = ((args, kwargs), compute(*args, **kwargs))
        return found[1]

    return run


def _key(value: object) -> Hashable:
    """Plain values (names, flags, sizes, Faults) by value, in a 1-tuple so none equals an identity;
    arrays and everything else by identity."""
    if value is None or isinstance(value, (str, int, float, Enum)):
        return (value,)
    return id(value)
