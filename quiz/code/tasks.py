"""The fixed list of function kinds a code question can ask for, by id."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from quiz.code.kinds import attention, backward, heads, masks, online, softmax
from quiz.code.spec import AnyTask

TASKS: Mapping[str, AnyTask] = MappingProxyType(
    {
        task.id: task
        for task in (
            attention.TASK,
            softmax.SOFTMAX,
            softmax.SOFTMAX_BACKWARD,
            masks.CAUSAL_MASK,
            heads.SPLIT_MERGE_HEADS,
            heads.MULTI_HEAD_ATTENTION,
            online.ONLINE_ATTENTION,
            softmax.ATTENTION_ENTROPY,
            heads.GQA_ATTENTION,
            backward.ATTENTION_BACKWARD,
        )
    }
)


def get_task(task_id: str) -> AnyTask:
    """The task `task_id`; a ValueError listing the valid ids when there is none."""
    try:
        return TASKS[task_id]
    except KeyError:
        raise ValueError(f"unknown code task {task_id!r}; tasks: {', '.join(TASKS)}") from None
