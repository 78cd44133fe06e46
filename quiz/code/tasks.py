"""Every code task by id, in the order of `TASK_IDS`: each task module defines its tasks, and this
gathers them, so the list of ids is written once (in `quiz.code.interfaces`, which the model reads)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from quiz.code.interfaces import TASK_IDS
from quiz.code.kinds import attention, backward, decoding, heads, linear_attention, losses, masks, online, positions, softmax, tiled
from quiz.code.spec import AnyTask, Task

KINDS = (attention, softmax, masks, heads, online, backward, positions, decoding, losses, linear_attention, tiled)
"""The modules that define tasks: every `Task` value at their top level is one."""


def _gathered() -> dict[str, AnyTask]:
    found = {value.id: value for kind in KINDS for value in vars(kind).values() if isinstance(value, Task)}
    if set(found) != set(TASK_IDS):
        # A task defined without its id in TASK_IDS (or the reverse) would be unreachable or missing.
        raise RuntimeError(f"code tasks {sorted(found)} do not match TASK_IDS {sorted(TASK_IDS)}")
    return {task_id: found[task_id] for task_id in TASK_IDS}


TASKS: Mapping[str, AnyTask] = MappingProxyType(_gathered())


def get_task(task_id: str) -> AnyTask:
    """The task `task_id`; a ValueError listing the valid ids when there is none."""
    try:
        return TASKS[task_id]
    except KeyError:
        raise ValueError(f"unknown code task {task_id!r}; tasks: {', '.join(TASKS)}") from None
