"""Times issue 26's engine operations beside the dense attention they generalise, in one run.

- tiled: the FlashAttention-style forward (engine.tiled_attention, 128 × 128 tiles) against dense
  attention on the same inputs, plain and causal. In numpy the tiles save memory, not time: the
  figure is the loop's overhead, and under a causal mask the skipped tiles pay some of it back.
- decode: one KV-cache step at t = 1024 (the new token over 1023 cached positions) against
  recomputing full causal attention over all 1024 tokens, which is what decoding without a cache does.
- rotary, alibi: attention with RoPE applied to q and k, or with the ALiBi bias added, against plain
  attention.
- linear: causal linear attention through its running d × d state against its masked quadratic form.
Each row prints the operation's median time, its dense counterpart's, their ratio and the goal.
Goals: the tiled forward within 2× dense (its loop, not its arithmetic, is the overhead); a decode
step at most a tenth of recomputing (its FLOPs are 1/1024 of them, the cache copies are the rest);
RoPE or ALiBi within 1.5× plain attention; the running state no slower than the quadratic form.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

import numpy as np
from _smoke import sized
from engine_attention import paired_medians

import engine

HEADS, T, E = sized((8, 1024, 64), (2, 32, 8))
BLOCK = sized(128, 8)
REPEATS = sized(9, 1)


def cases() -> list[tuple[str, Callable[[], object], Callable[[], object], str, Callable[[float], bool]]]:
    """(name, operation, dense counterpart, goal as printed, goal as a test of the ratio)."""
    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal((1, HEADS, T, E)) for _ in range(3))
    positions = np.arange(T)
    cache = engine.KVCache()
    cache.append(k[..., :-1, :], v[..., :-1, :])
    last = (q[..., -1:, :], k[..., -1:, :], v[..., -1:, :])

    def decode_step() -> object:
        # step() appends; a shallow copy each call keeps t = 1024 on every repeat (without a window
        # the append makes new arrays, so the cached ones are left as they were).
        return copy.copy(cache).step(*last)

    def dense(causal: bool) -> Callable[[], object]:
        return lambda: engine.scaled_dot_product_attention(q, k, v, is_causal=causal)

    # ALiBi's bias with the causal mask folded in: attn_mask and is_causal do not combine.
    alibi = np.where(engine.causal_mask(T), engine.alibi_bias(HEADS, T), -np.inf)  # (H, T, T)
    return [
        ("tiled", lambda: engine.tiled_attention(q, k, v, BLOCK, BLOCK), dense(False), "≤ 2×", lambda r: r <= 2),
        ("tiled causal", lambda: engine.tiled_attention(q, k, v, BLOCK, BLOCK, causal=True), dense(True), "≤ 2×", lambda r: r <= 2),
        ("decode t=1024", decode_step, dense(True), "≤ 0.1×", lambda r: r <= 0.1),
        (
            "rotary",
            lambda: engine.scaled_dot_product_attention(engine.apply_rotary(q, positions), engine.apply_rotary(k, positions), v, is_causal=True),
            dense(True), "≤ 1.5×", lambda r: r <= 1.5,
        ),
        ("alibi", lambda: engine.scaled_dot_product_attention(q, k, v, attn_mask=alibi), dense(True), "≤ 1.5×", lambda r: r <= 1.5),
        (
            "linear state",
            lambda: engine.linear_attention_state(q, k, v, causal=True),
            lambda: engine.linear_attention(q, k, v, causal=True), "≤ 1×", lambda r: r <= 1,
        ),
    ]


def main() -> None:
    """One row per operation: its median ms, its dense counterpart's, their ratio beside the goal."""
    print(f"{HEADS} heads, T={T}, E={E}, float64, tiles {BLOCK}×{BLOCK}; median of {REPEATS} runs, timed in alternation")
    print(f"{'operation':<16}{'op ms':>10}{'dense ms':>10}{'ratio':>8}  goal")
    for name, run, floor, goal, meets in cases():
        run_s, floor_s = paired_medians(run, floor, repeats=REPEATS)
        ratio = run_s / floor_s
        print(f"{name:<16}{1000 * run_s:>10.2f}{1000 * floor_s:>10.2f}{ratio:>8.2f}  {goal} {'ok' if meets(ratio) else 'over'}")


if __name__ == "__main__":
    main()
