"""Work the reference and the mistakes of one probe call have in common, done once for that call.

Several mistakes start from the same engine run. In implement-sdpa, attention with the call's
own mask under the stated policy gives the reference and feeds the unstable softmax, the −1e9
fill and the other empty-row policy; attention without the mask feeds both the ignored mask and
the mask applied after the softmax. While
`resolve` works out one call (inside `one_call()`), a function marked `shared` runs once for each
distinct set of arguments, told apart by identity, never by value: arrays by the objects the call
holds, plain values too (None, flags, Faults, the policy's strings and the call's own sizes are
the same objects at every use; an equal value in another object only computes again). Nothing
outlives the call. Outside that scope (fault matching, tests) every use computes.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from contextvars import ContextVar
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

# Each entry keeps its arguments alive beside the result, so that no identity in a key is reused.
_MEMO: ContextVar[dict[Hashable, tuple[Any, Any]] | None] = ContextVar("quiz_code_one_call", default=None)


class _Scope:
    """What `one_call()` returns: a fresh memo while the `with` block lasts (a class: cheaper than a generator)."""

    def __enter__(self) -> None:
        self.token = _MEMO.set({})

    def __exit__(self, *exc: object) -> None:
        _MEMO.reset(self.token)


def one_call() -> _Scope:
    """The scope of one probe call: `shared` functions compute each distinct use once within it."""
    return _Scope()


def shared(compute: Callable[P, R]) -> Callable[P, R]:
    """`compute`, run once per distinct arguments within `one_call()` and afresh outside it."""

    @functools.wraps(compute)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        memo = _MEMO.get()
        if memo is None:
            return compute(*args, **kwargs)
        key = (compute, *map(id, args), *[(name, id(value)) for name, value in kwargs.items()])
        found = memo.get(key)
        if found is None:
            found = memo[key] = ((args, kwargs), compute(*args, **kwargs))
        return found[1]

    return run

