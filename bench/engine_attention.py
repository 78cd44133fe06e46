"""Times the engine's forward and backward passes beside the matmuls they cannot avoid.

16 heads, L = S = 256, E = Ev = 64, float32 and float64. The floor is measured in the same
run: 2 matmuls forward (Q Kᵀ, P V) and 5 backward (Q Kᵀ recomputed, Pᵀ dO, dO Vᵀ, dZ K, dZᵀ Q).
Goals: forward ≤ 2.5× its floor, backward ≤ 2× its floor. Prints the median of several repeats,
the engine and its floor timed in alternation.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable

import numpy as np
from _smoke import sized

import engine

HEADS, L, S, E = sized((16, 256, 256, 64), (2, 16, 16, 8))
REPEATS = sized(21, 1)
GOALS = {"forward": 2.5, "backward": 2.0}


def paired_medians(run: Callable[[], object], floor: Callable[[], object], repeats: int = REPEATS, batch: int = 1) -> tuple[float, float]:
    """Median seconds per call of `run` and of `floor`, batches of `batch` calls timed in alternation.

    Alternating makes both see the same load, which matters on a machine shared with others.
    """
    run()  # warm-up: first calls pay for imports and allocations
    floor()
    times: dict[Callable[[], object], list[float]] = {run: [], floor: []}
    for _ in range(repeats):
        for call, samples in times.items():
            start = time.perf_counter()
            for _ in range(batch):
                call()
            samples.append((time.perf_counter() - start) / batch)
    return statistics.median(times[run]), statistics.median(times[floor])


def cases(dtype: type[np.floating]) -> dict[str, tuple[Callable[[], object], Callable[[], object]]]:
    """For each pass, (the engine's call, the bare matmuls it needs) on random inputs of `dtype`."""
    rng = np.random.default_rng(0)
    q, k, v, d_out = (rng.standard_normal((HEADS, n, E)).astype(dtype) for n in (L, S, S, L))
    p = engine.softmax(q @ k.swapaxes(-2, -1))  # stands in for the weights and their gradient
    kt, vt = k.swapaxes(-2, -1), v.swapaxes(-2, -1)

    def forward_floor() -> object:
        """Q Kᵀ, then the weights times V."""
        return (q @ kt) @ v

    def backward_floor() -> object:
        """Q Kᵀ again, dV = Pᵀ dO, dP = dO Vᵀ, dQ ∝ dZ K, dK ∝ dZᵀ Q."""
        return q @ kt, p.swapaxes(-2, -1) @ d_out, d_out @ vt, p @ k, p.swapaxes(-2, -1) @ q

    return {
        "forward": (lambda: engine.scaled_dot_product_attention(q, k, v), forward_floor),
        "backward": (lambda: engine.attention_backward(q, k, v, d_out), backward_floor),
    }


def main() -> None:
    """Print one table row per pass and dtype: engine time, floor time, their ratio and the goal."""
    blas_env = {name: os.environ.get(name, "(unset)") for name in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")}
    print(f"numpy {np.__version__}; " + ", ".join(f"{k}={v}" for k, v in blas_env.items()))
    print(f"{HEADS} heads, L=S={L}, E={E}; median of {REPEATS} runs")
    print(f"{'pass':<10}{'dtype':<9}{'engine ms':>10}{'floor ms':>10}{'ratio':>8}{'goal':>7}")
    for dtype in (np.float32, np.float64):
        for name, (run, floor) in cases(dtype).items():
            engine_s, floor_s = paired_medians(run, floor)
            engine_ms, floor_ms = 1000 * engine_s, 1000 * floor_s
            ratio = engine_ms / floor_ms
            verdict = "ok" if ratio <= GOALS[name] else "over"
            print(
                f"{name:<10}{np.dtype(dtype).name:<9}{engine_ms:>10.2f}{floor_ms:>10.2f}"
                f"{ratio:>8.2f}{GOALS[name]:>6.1f}× {verdict}"
            )


if __name__ == "__main__":
    main()
