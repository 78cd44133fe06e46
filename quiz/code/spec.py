"""What a code task is made of: the functions to write, the engine's reference, the modelled mistakes."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import numpy as np

from quiz.code.compare import Output
from quiz.code.interfaces import Function, Interface
from quiz.code.probes import ProbeSpec
from quiz.code.sandbox import Arguments, Call

Policy = Mapping[str, str]
T = TypeVar("T", bound=Arguments)
"""The tuple type of a task's arguments, `tuple[np.ndarray, int]` for `split_heads(x, n_heads)`:
what its drawing gives and its reference and mistakes read."""


def always(policy: Policy) -> bool:
    return True


@dataclass(frozen=True)
class Mistake(Generic[T]):
    """A known wrong implementation: `run` gives its output for a call, None where it behaves correctly.

    id is the misconception recorded when a candidate's outputs match it: an `engine.Fault`
    value where the engine models the mistake, else a name of quiz.code's own.
    """

    id: str
    run: Callable[[Call[T], Policy], Output | None]
    applies: Callable[[Policy], bool] = always  # some mistakes are the stated policy under another


@dataclass(frozen=True)
class Task(Generic[T]):
    """A function kind a code question can ask for.

    `draw(check, rng)` gives the probes of one check; `reference(call, policy)` the engine's
    output for a call. `mistakes` are listed most common first: when two match, the first is
    named. `reveals[check]` are the mistakes that check's inputs are redrawn until they show.
    """

    interface: Interface
    """Its functions, checks and policies (see `quiz.code.interfaces`, which loading reads alone)."""
    reference: Callable[[Call[T], Policy], Output]
    draw: Callable[[str, np.random.Generator], list[ProbeSpec[T]]]
    mistakes: tuple[Mistake[T], ...]
    reveals: Mapping[str, tuple[str, ...]]
    only_with: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Mistakes that are no mistake unless the question runs one of these checks (their inputs alone
    make them wrong: masking before scaling only matters for an additive mask); every other mistake
    must fail whatever checks a question chooses, or the checks accept a wrong solution."""

    @property
    def id(self) -> str:
        return self.interface.id

    @property
    def functions(self) -> tuple[Function, ...]:
        return self.interface.functions

    @property
    def checks(self) -> tuple[str, ...]:
        return self.interface.checks

    @property
    def policies(self) -> Mapping[str, tuple[str, ...]]:
        return self.interface.policies

    def function(self, name: str) -> Function:
        return self.interface.function(name)

    def default_policy(self) -> dict[str, str]:
        return self.interface.default_policy()


AnyTask = Task[Any]
"""A task whatever its arguments' type: the registry's and the grader's view of it. They hand a
task's calls only back to that task's own reference and mistakes, which read them typed."""
