"""The ids of the code tasks, in order: what a question file may name as its `task`.

Light on purpose: the question model names the ids without loading the tasks themselves
(`quiz.code.tasks`, which holds one task for each id, in this order).
"""

from typing import Final

TASK_IDS: Final = (
    "attention",
    "softmax",
    "softmax_backward",
    "causal_mask",
    "split_merge_heads",
    "multi_head_attention",
    "online_attention",
    "attention_entropy",
    "gqa_attention",
    "attention_backward",
)
