"""Position signals written by hand: `apply_rope(q, k, positions, base)`, RoPE at per-row positions (Y9),
and `alibi_bias(n_heads, L, S)`, ALiBi's per-head distance penalty with the paper's slopes (Y10)."""

from __future__ import annotations

import math

import numpy as np

import engine
from engine.rotary import DEFAULT_BASE
from quiz.code.compare import Output
from quiz.code.inputs import normal
from quiz.code.interfaces import INTERFACES
from quiz.code.probes import ProbeSpec
from quiz.code.sandbox import Call
from quiz.code.spec import Mistake, Policy, Task

RopeArgs = tuple[np.ndarray, np.ndarray, np.ndarray] | tuple[np.ndarray, np.ndarray, np.ndarray, float]
"""apply_rope's arguments: q (B, H, T, d), k (B, H_kv, T, d), int positions (B, T), and the base where the probe passes one."""


def rope_parts(call: Call[RopeArgs]) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """q, k, the positions broadcast over the head axis (B, 1, T), and the base."""
    q, k, positions, *rest = call.args
    return q, k, positions[:, None, :], float(rest[0]) if rest else DEFAULT_BASE


def rope_reference(call: Call[RopeArgs], policy: Policy) -> Output:
    q, k, positions, base = rope_parts(call)
    return engine.apply_rotary(q, positions, base), engine.apply_rotary(k, positions, base)


def half_split(x: np.ndarray, positions: np.ndarray, base: float) -> np.ndarray:
    """Pairs (i, i + d/2) turned by m·θ_i, as GPT-NeoX lays them out: the interleaved rotation on the features reordered."""
    d = x.shape[-1]
    order = np.stack([np.arange(d // 2), np.arange(d // 2, d)], axis=-1).reshape(d)  # 0, d/2, 1, d/2 + 1, …
    rotated = np.empty(np.broadcast_shapes(x.shape, (*positions.shape, d)))
    rotated[..., order] = engine.apply_rotary(x[..., order], positions, base)
    return rotated


def turned(how: str, x: np.ndarray, positions: np.ndarray, base: float) -> np.ndarray:
    """x rotated as the mistake `how` rotates it ("right": as the engine does)."""
    match how:
        case "half_split":
            return half_split(x, positions, base)
        case "inverse":
            return engine.undo_rotary(x, positions, base)
        case "theta_exponent":  # base^(−i/d) is (√base)^(−2i/d)
            return engine.apply_rotary(x, positions, math.sqrt(base))
        case "positions_ignored":
            return engine.apply_rotary(x, np.arange(x.shape[-2]), base)
        case "positions_from_one":
            return engine.apply_rotary(x, positions + 1, base)
    return engine.apply_rotary(x, positions, base)


def rope_mistake(how: str = "right", *, rotate_k: bool = True) -> Mistake[RopeArgs]:
    """q and k rotated `how` wrongly, or k left as it came in."""

    def run(call: Call[RopeArgs], policy: Policy) -> Output | None:
        q, k, positions, base = rope_parts(call)
        return turned(how, q, positions, base), turned(how, k, positions, base) if rotate_k else k.astype(np.float64)

    return Mistake("rope_key_not_rotated" if how == "right" else f"rope_{how}", run)


def draw_rope(check: str, rng: np.random.Generator) -> list[ProbeSpec[RopeArgs]]:
    T, d = int(rng.integers(4, 8)), int(rng.choice([4, 6, 8]))
    match check:
        case "output":  # a chunk of each sequence that starts past position 0, as in chunked prefill
            B, H = 2, 2
            starts = rng.integers(2, 20, size=B)
            positions = starts[:, None] + np.arange(T)[None, :]
            q, k = normal(rng, B, H, T, d), normal(rng, B, H, T, d)
            return [ProbeSpec((Call("apply_rope", (q, k, positions)),))]
        case "shapes":  # a left-padded float32 batch with fewer key heads and another base
            B, H, H_kv = 3, 4, 2
            lengths = rng.permutation([T, T - 1, T - 3])
            positions = engine.padded_position_ids(lengths, T, "left")
            q, k = (normal(rng, B, heads, T, 8).astype(np.float32) for heads in (H, H_kv))
            return [ProbeSpec((Call("apply_rope", (q, k, positions, 500.0)),))]
    raise ValueError(f"apply_rope has no check {check!r}")


ROPE_MISTAKES = (
    "rope_half_split",
    "rope_inverse",
    "rope_theta_exponent",
    "rope_positions_ignored",
    "rope_positions_from_one",
    "rope_key_not_rotated",
)
ROPE: Task[RopeArgs] = Task(
    INTERFACES["rope"],
    reference=rope_reference,
    draw=draw_rope,
    mistakes=(
        rope_mistake(how="half_split"),
        rope_mistake(how="inverse"),
        rope_mistake(how="theta_exponent"),
        rope_mistake(how="positions_ignored"),
        rope_mistake(how="positions_from_one"),
        rope_mistake(rotate_k=False),
    ),
    reveals={"output": ROPE_MISTAKES, "shapes": ROPE_MISTAKES},
)


AlibiArgs = tuple[int, int, int]
"""alibi_bias's arguments: the number of heads, L and S."""


def geometric(n: int, first: int = 1) -> np.ndarray:
    """2^(−8h/n) for h = first … first + n − 1: the paper's sequence for n a power of two when first = 1."""
    return 2.0 ** (-8.0 * np.arange(first, first + n) / n)


def paper_rule(n_heads: int, *, between: slice = slice(0, None, 2), first: int = 1) -> np.ndarray:
    """The paper's slopes for any H: those of the power of two 2^k below H, then picks of 2^(k+1)'s.

    The right picks are every other one starting with the first (`between` = [0::2]).
    """
    lower = 1 << (n_heads.bit_length() - 1)
    if lower == n_heads:
        return geometric(n_heads, first)
    return np.concatenate([geometric(lower, first), geometric(2 * lower, first)[between][: n_heads - lower]])


def bias_of(slopes: np.ndarray, L: int, S: int, *, signed: bool = False, sign: float = -1.0) -> np.ndarray:
    """sign · m_h · |i − j| (or · (i − j) when `signed`), (H, L, S)."""
    offset = np.arange(L)[:, None] - np.arange(S)[None, :]
    return sign * slopes[:, None, None] * (offset if signed else np.abs(offset))


def alibi_mistake(name: str, slopes: str = "right", **bias: bool | float) -> Mistake[AlibiArgs]:
    """The bias with the slopes `slopes` chooses, or the right slopes put in wrongly (`bias`)."""

    def run(call: Call[AlibiArgs], policy: Policy) -> Output | None:
        H, L, S = call.args
        power_of_two = H & (H - 1) == 0
        match slopes:
            case "power_of_two_formula" | "wrong_interleave" if power_of_two:
                return None  # the rule for other H never comes into play
            case "power_of_two_formula":
                chosen = geometric(H)
            case "wrong_interleave":
                chosen = paper_rule(H, between=slice(1, None, 2))
            case "from_zero":
                chosen = paper_rule(H, first=0)
            case "reversed":
                chosen = engine.alibi_slopes(H)[::-1]
            case _:
                chosen = engine.alibi_slopes(H)
        return (bias_of(chosen, L, S, **bias),)  # type: ignore[arg-type]

    return Mistake(name, run)


def draw_alibi(check: str, rng: np.random.Generator) -> list[ProbeSpec[AlibiArgs]]:
    L = int(rng.integers(4, 8))
    match check:
        case "output":
            return [ProbeSpec((Call("alibi_bias", (int(rng.choice([4, 8])), L, L)),))]
        case "shapes":  # head counts that are not powers of two, and L ≠ S both ways
            gap = int(rng.integers(1, 4))
            H = [int(h) for h in rng.choice([3, 5, 6, 7, 12], size=2, replace=False)]
            return [ProbeSpec((Call("alibi_bias", (H[0], L, L + gap)),)), ProbeSpec((Call("alibi_bias", (H[1], L + gap, L)),))]
    raise ValueError(f"alibi_bias has no check {check!r}")


ALIBI_SHAPES_ONLY = ("alibi_slopes_power_of_two_formula", "alibi_slopes_wrong_interleave")
ALIBI_ANY = ("alibi_sign_flipped", "alibi_signed_distance", "alibi_slopes_reversed", "alibi_slopes_from_zero")
ALIBI: Task[AlibiArgs] = Task(
    INTERFACES["alibi_bias"],
    reference=lambda call, policy: (engine.alibi_bias(*call.args),),
    draw=draw_alibi,
    mistakes=(
        alibi_mistake("alibi_slopes_power_of_two_formula", "power_of_two_formula"),
        alibi_mistake("alibi_slopes_wrong_interleave", "wrong_interleave"),
        alibi_mistake("alibi_sign_flipped", sign=1.0),
        alibi_mistake("alibi_signed_distance", signed=True),
        alibi_mistake("alibi_slopes_reversed", "reversed"),
        alibi_mistake("alibi_slopes_from_zero", "from_zero"),
    ),
    reveals={"output": ALIBI_ANY, "shapes": (*ALIBI_SHAPES_ONLY, *ALIBI_ANY)},
)
