"""What each code task asks of a candidate, by task id: the functions to write, the checks that
may run and the policies they depend on.

Light on purpose (no numpy, no engine): loading a code question checks its `checks`, `policy` and
`starter` against these alone. The tasks themselves (`quiz.code.tasks`: the engine's reference,
the drawing of inputs, the modelled mistakes) are imported only to run or grade a candidate's file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final


@dataclass(frozen=True)
class Function:
    """A function the candidate writes: its name, its parameters as in the def line, how many arrays it returns."""

    name: str
    parameters: tuple[str, ...]
    returns: int = 1

    @property
    def signature(self) -> str:
        return f"def {self.name}({', '.join(self.parameters)})"


@dataclass(frozen=True)
class Interface:
    """A task as an author sees it: its functions, the checks it offers and its policies."""

    id: str
    functions: tuple[Function, ...]
    checks: tuple[str, ...]
    policies: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # name → values, default first

    def function(self, name: str) -> Function:
        return next(f for f in self.functions if f.name == name)

    def default_policy(self) -> dict[str, str]:
        return {name: values[0] for name, values in self.policies.items()}


EMPTY_ROWS = ("zero", "nan")
"""What a row with no allowed key gives, the default first: the policy `fully_masked_rows` checks."""

_INTERFACES = (
    Interface(
        "attention",
        (Function("attention", ("q", "k", "v", "mask=None")),),
        ("output", "shapes", "boolean_mask", "additive_mask", "fully_masked_rows", "causal_leak", "large_scores"),
        {"empty_rows": EMPTY_ROWS},
    ),
    Interface(
        "softmax",
        (Function("softmax", ("x", "axis=-1")),),
        ("output", "shapes", "rows_sum_to_one", "additive_mask", "fully_masked_rows", "large_scores"),
        {"empty_rows": EMPTY_ROWS},
    ),
    Interface("softmax_backward", (Function("softmax_backward", ("p", "grad", "axis=-1")),), ("gradients", "shapes")),
    Interface("causal_mask", (Function("causal_mask", ("L", "S")),), ("output", "shapes")),
    Interface("split_merge_heads", (Function("split_heads", ("x", "n_heads")), Function("merge_heads", ("x",))), ("output", "shapes")),
    Interface(
        "multi_head_attention",
        (Function("multi_head_attention", ("x", "w_q", "w_k", "w_v", "w_o", "n_heads", "causal=False")),),
        ("output", "shapes", "causal_leak", "large_scores"),
    ),
    Interface("online_attention", (Function("online_attention", ("q", "k", "v", "block_size")),), ("output", "shapes", "large_scores")),
    Interface("cross_entropy", (Function("cross_entropy", ("logits", "targets"), returns=2),), ("output", "shapes", "large_logits")),
    Interface("causal_linear_attention", (Function("causal_linear_attention", ("q", "k", "v")),), ("output", "shapes", "causal_leak")),
    Interface(
        "tiled_attention",
        (Function("tiled_causal_attention", ("q", "k", "v", "block_q", "block_k"), returns=2),),
        ("output", "shapes", "causal_leak", "large_scores"),
    ),
    Interface("attention_entropy", (Function("attention_entropy", ("weights", "valid")),), ("output", "shapes")),
    Interface("gqa_attention", (Function("gqa_attention", ("q", "k", "v")),), ("output", "shapes", "large_scores")),
    Interface("attention_backward", (Function("attention_backward", ("q", "k", "v", "grad_out"), returns=3),), ("gradients", "shapes")),
    Interface("rope", (Function("apply_rope", ("q", "k", "positions", "base=10000.0"), returns=2),), ("output", "shapes")),
    Interface("decode_step", (Function("decode_step", ("q", "k", "v", "k_cache", "v_cache", "position")),), ("output", "shapes")),
    Interface("batch_mask", (Function("batch_mask", ("lengths", "S", "window", "side")),), ("output", "shapes")),
    Interface("alibi_bias", (Function("alibi_bias", ("n_heads", "L", "S")),), ("output", "shapes")),
)

INTERFACES: Mapping[str, Interface] = MappingProxyType({interface.id: interface for interface in _INTERFACES})
"""Every task's interface by id, in the order tasks are listed and offered."""

TASK_IDS: Final = tuple(INTERFACES)
"""The ids of the code tasks, in order: what a question file may name as its `task` (the model
reads them here, without loading the tasks themselves)."""


def get_interface(task_id: str) -> Interface:
    """The interface of task `task_id`; a ValueError listing the valid ids when there is none."""
    try:
        return INTERFACES[task_id]
    except KeyError:
        raise ValueError(f"unknown code task {task_id!r}; tasks: {', '.join(INTERFACES)}") from None
