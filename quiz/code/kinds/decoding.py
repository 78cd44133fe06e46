"""One step of cached decoding with RoPE: `decode_step(q, k, v, k_cache, v_cache, position)` (Y5, Y9).

The cache holds keys already rotated at their positions 0 … t − 1 and raw values; the new token's
q and k come unrotated and belong at absolute position t. The output (B, H, 1, d_v) equals the
last row of full causal attention over all t + 1 tokens with RoPE at their positions.
"""

from __future__ import annotations

import numpy as np

import engine
from quiz.code.compare import Output
from quiz.code.inputs import normal
from quiz.code.interfaces import INTERFACES
from quiz.code.probes import ProbeSpec
from quiz.code.sandbox import Call
from quiz.code.spec import Mistake, Policy, Task

DecodeArgs = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]
"""decode_step's arguments: the new q, k (B, H, 1, d) and v (B, H, 1, d_v), the cached keys (B, H, t, d) and values, the position t."""


def step(
    call: Call[DecodeArgs], *, rotate_q: bool = True, rotate_k: bool = True, rotate_v: bool = False, append: bool = True, scale: float | None = None
) -> Output:
    """The engine's cache stepped once, with the new token's q, k, v rotated at its position as asked.

    Without `append` the new token attends the cached keys only, its own key left out.
    """
    q, k, v, k_cache, v_cache, position = call.args
    q, k, v = (engine.apply_rotary(x, position) if turn else x for x, turn in ((q, rotate_q), (k, rotate_k), (v, rotate_v)))
    if not append:
        return (engine.scaled_dot_product_attention(q, k_cache, v_cache, scale=scale),)
    cache = engine.KVCache()
    cache.append(k_cache, v_cache)
    return (cache.step(q, k, v, scale=scale),)


def cache_rotated_again(call: Call[DecodeArgs], policy: Policy) -> Output:
    """The cached keys taken for raw ones: the new key appended unrotated and every key rotated at its position,
    so cached key j ends up turned by 2j·θ."""
    q, k, v, k_cache, v_cache, position = call.args
    keys = engine.apply_rotary(np.concatenate([k_cache, k], axis=-2), np.arange(position + 1))
    values = np.concatenate([v_cache, v], axis=-2)
    return (engine.scaled_dot_product_attention(engine.apply_rotary(q, position), keys, values),)


def draw_decode(check: str, rng: np.random.Generator) -> list[ProbeSpec[DecodeArgs]]:
    def call(B: int, H: int, t: int, d: int, dv: int, dtype: type[np.floating] = np.float64) -> ProbeSpec[DecodeArgs]:
        k_cache = engine.apply_rotary(normal(rng, B, H, t, d), np.arange(t))  # stored rotated, as a cache holds them
        drawn = (normal(rng, B, H, 1, d), normal(rng, B, H, 1, d), normal(rng, B, H, 1, dv), k_cache, normal(rng, B, H, t, dv))
        q, k, v, k_cache, v_cache = [np.asarray(x, dtype=dtype) for x in drawn]
        return ProbeSpec((Call("decode_step", (q, k, v, k_cache, v_cache, t)),))

    match check:
        case "output":
            d = int(rng.choice([4, 8]))
            return [call(1, 2, int(rng.integers(4, 9)), d, d)]
        case "shapes":  # batch and heads, d_v ≠ d, in float32
            return [call(2, 3, int(rng.integers(5, 10)), 8, 6, np.float32)]
    raise ValueError(f"decode_step has no check {check!r}")


DECODE_MISTAKES = (
    "decode_new_token_at_position_zero",
    "decode_query_not_rotated",
    "decode_cache_rotated_again",
    "decode_rope_on_values",
    "decode_new_key_not_appended",
    "missing_scale",
)
DECODE_STEP: Task[DecodeArgs] = Task(
    INTERFACES["decode_step"],
    reference=lambda call, policy: step(call),
    draw=draw_decode,
    mistakes=(
        Mistake("decode_new_token_at_position_zero", lambda c, p: step(c, rotate_q=False, rotate_k=False)),
        Mistake("decode_query_not_rotated", lambda c, p: step(c, rotate_q=False)),
        Mistake("decode_cache_rotated_again", cache_rotated_again),
        Mistake("decode_rope_on_values", lambda c, p: step(c, rotate_v=True)),
        Mistake("decode_new_key_not_appended", lambda c, p: step(c, append=False)),
        Mistake("missing_scale", lambda c, p: step(c, scale=1.0)),
    ),
    reveals={"output": DECODE_MISTAKES, "shapes": DECODE_MISTAKES},
)
