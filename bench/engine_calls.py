"""Per-call cost of the engine on the tiny arrays the bank's self-test feeds it (issue 13).

The self-test makes tens of thousands of calls on arrays of 2x3 to 8x16, so what counts there
is the overhead around the arithmetic, not the arithmetic. Each call is printed in µs beside a
floor measured in the same run: the bare numpy operations it cannot avoid (Q Kᵀ, exp, sum,
divide, P V for attention; the matching ones for the others). Medians of many batches, the
call and its floor timed in alternation so that both see the same load.
Run: .venv/bin/python bench/engine_calls.py [--repeats N]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy loads: measure one core

import argparse
from collections.abc import Callable

import numpy as np
from _smoke import sized  # siblings: bench/ is first on the path
from engine_attention import paired_medians

import engine

BATCH = sized(200, 2)  # calls per timed batch: long enough for the clock, short enough to alternate often

Case = tuple[str, Callable[[], object], Callable[[], object]]


def cases() -> list[Case]:
    """(name, the engine's call, its floor) on seeded inputs: q 3x4, k 5x4, v 5x2 unless named."""
    rng = np.random.default_rng(0)
    q, k, v = rng.standard_normal((3, 4)), rng.standard_normal((5, 4)), rng.standard_normal((5, 2))
    grad = rng.standard_normal((3, 2))
    mask = rng.random((3, 5)) < 0.7
    mask[:, 0] = True  # every query keeps a key
    qb, kb, vb = (rng.standard_normal((2, 4, 3, 8)) for _ in range(3))
    qh, kh, vh = (rng.standard_normal((2, 3, 4)) for _ in range(3))
    z = rng.standard_normal((3, 5))
    p = engine.softmax(z)

    def forward_floor(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> Callable[[], object]:
        """Q Kᵀ, exp, the row sums, the division and P V: attention without a single check."""

        def floor() -> object:
            e = np.exp(q @ k.swapaxes(-2, -1))
            return (e / np.add.reduce(e, axis=-1, keepdims=True)) @ v

        return floor

    def backward_floor() -> object:
        """The forward floor's weights, then Pᵀ G, G Vᵀ, the softmax's backward, dZ K and dZᵀ Q."""
        e = np.exp(q @ k.T)
        w = e / np.add.reduce(e, axis=-1, keepdims=True)
        d_w = grad @ v.T
        d_z = w * (d_w - np.add.reduce(d_w * w, axis=-1, keepdims=True))
        return w.T @ grad, d_z @ k, d_z.T @ q

    def softmax_floor() -> object:
        e = np.exp(z)
        return e / np.add.reduce(e, axis=-1, keepdims=True)

    def log_softmax_floor() -> object:
        return z - np.log(np.add.reduce(np.exp(z), axis=-1, keepdims=True))

    def entropy_floor() -> object:
        return -np.add.reduce(p * np.log(p), axis=-1)

    return [
        ("attention", lambda: engine.attention(q, k, v), forward_floor(q, k, v)),
        ("attention bool mask", lambda: engine.attention(q, k, v, mask), forward_floor(q, k, v)),
        ("attention causal", lambda: engine.attention(q, k, v, is_causal=True), forward_floor(q, k, v)),
        ("attention 2x4x3x8", lambda: engine.attention(qb, kb, vb), forward_floor(qb, kb, vb)),
        ("sdpa", lambda: engine.scaled_dot_product_attention(q, k, v), forward_floor(q, k, v)),
        (
            "sdpa 2x4x3x8 causal",
            lambda: engine.scaled_dot_product_attention(qb, kb, vb, is_causal=True),
            forward_floor(qb, kb, vb),
        ),
        ("softmax 3x5", lambda: engine.softmax(z), softmax_floor),
        ("log_softmax 3x5", lambda: engine.log_softmax(z), log_softmax_floor),
        ("entropy 3x5", lambda: engine.entropy(p), entropy_floor),
        ("attention_backward", lambda: engine.attention_backward(q, k, v, grad), backward_floor),
        ("head_stats 2x3x4", lambda: engine.head_stats(qh, kh, vh), forward_floor(qh, kh, vh)),
    ]


def main() -> None:
    """Print one row per call: µs per call, µs of its floor, and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=sized(31, 1), help="timed batches per call (median)")
    args = parser.parse_args()
    print(f"numpy {np.__version__}; engine from {os.path.dirname(os.path.dirname(engine.__file__))}")
    print(f"median of {args.repeats} batches of {BATCH} calls, each beside its floor")
    print(f"{'call':<24}{'µs/call':>9}{'floor µs':>10}{'ratio':>8}")
    for name, run, floor in cases():
        call_s, floor_s = paired_medians(run, floor, args.repeats, BATCH)
        call_us, floor_us = 1e6 * call_s, 1e6 * floor_s
        print(f"{name:<24}{call_us:>9.1f}{floor_us:>10.1f}{call_us / floor_us:>8.1f}")


if __name__ == "__main__":
    main()
