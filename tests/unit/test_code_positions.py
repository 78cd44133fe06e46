"""Issue 26: the RoPE, decode-step, batch-mask and ALiBi tasks' references and mistake models, each
against a computation written out another way (loops over elements, full causal attention)."""

from __future__ import annotations

import math

import numpy as np

import engine
from quiz.code import get_task
from quiz.code.kinds.positions import half_split
from quiz.code.sandbox import Call


def run(task_id: str, mistake: str | None, call: Call) -> tuple[np.ndarray, ...]:
    task = get_task(task_id)
    if mistake is None:
        return task.reference(call, task.default_policy())
    found = next(m for m in task.mistakes if m.id == mistake).run(call, task.default_policy())
    assert found is not None
    return found


def rotated_by_loops(x: np.ndarray, positions: np.ndarray, base: float, partner: str = "interleaved") -> np.ndarray:
    """x (B, H, T, d) with pair i of token t in row b turned by positions[b, t]·base^(−2i/d), one element at a time."""
    B, H, T, d = x.shape
    out = np.empty_like(x, dtype=np.float64)
    for b, h, t, i in np.ndindex(B, H, T, d // 2):
        first, second = (2 * i, 2 * i + 1) if partner == "interleaved" else (i, i + d // 2)
        angle = positions[b, t] * base ** (-2 * i / d)
        c, s = math.cos(angle), math.sin(angle)
        out[b, h, t, first] = x[b, h, t, first] * c - x[b, h, t, second] * s
        out[b, h, t, second] = x[b, h, t, first] * s + x[b, h, t, second] * c
    return out


def test_rope_turns_each_row_at_its_own_positions_as_the_formula_says():
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal((2, 3, 5, 6)), rng.standard_normal((2, 1, 5, 6))
    positions = engine.padded_position_ids([5, 3], 5, "left")  # row 1: two pads, then 0, 1, 2
    q_rot, k_rot = run("rope", None, Call("apply_rope", (q, k, positions, 500.0)))
    np.testing.assert_allclose(q_rot, rotated_by_loops(q, positions, 500.0), atol=1e-12)
    np.testing.assert_allclose(k_rot, rotated_by_loops(k, positions, 500.0), atol=1e-12)
    # a real token is turned alike whatever the padding before it: row 1's three tokens, unpadded
    alone = run("rope", None, Call("apply_rope", (q[1:, :, 2:], k[1:, :, 2:], np.arange(3)[None], 500.0)))[0]
    np.testing.assert_allclose(alone, q_rot[1:, :, 2:], atol=1e-12)
    np.testing.assert_allclose(half_split(q, positions[:, None, :], 500.0), rotated_by_loops(q, positions, 500.0, "half"), atol=1e-12)


def test_rope_theta_exponent_model_is_base_to_the_minus_i_over_d():
    rng = np.random.default_rng(1)
    q = rng.standard_normal((1, 1, 3, 4))
    positions = np.array([[3, 4, 5]])
    wrong, _ = run("rope", "rope_theta_exponent", Call("apply_rope", (q, q, positions)))
    angles = positions[0, :, None] * 10000.0 ** (-np.arange(2) / 4)  # i/d, i = 0, 1
    expected_even = q[0, 0, :, 0::2] * np.cos(angles) - q[0, 0, :, 1::2] * np.sin(angles)
    np.testing.assert_allclose(wrong[0, 0, :, 0::2], expected_even, atol=1e-12)


def decode_inputs(rng: np.random.Generator, t: int = 5) -> tuple[np.ndarray, ...]:
    """Raw q, k, v of t + 1 tokens (1, 2, t + 1, ·) and the decode call for the last one."""
    q, k, v = rng.standard_normal((1, 2, t + 1, 4)), rng.standard_normal((1, 2, t + 1, 4)), rng.standard_normal((1, 2, t + 1, 6))
    return q, k, v


def decode_call(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> Call:
    t = q.shape[-2] - 1
    k_cache = engine.apply_rotary(k[..., :t, :], np.arange(t))
    return Call("decode_step", (q[..., t:, :], k[..., t:, :], v[..., t:, :], k_cache, v[..., :t, :], t))


def test_the_decode_step_is_the_last_row_of_full_causal_attention_with_rope():
    q, k, v = decode_inputs(np.random.default_rng(2))
    positions = np.arange(q.shape[-2])
    full = engine.scaled_dot_product_attention(engine.apply_rotary(q, positions), engine.apply_rotary(k, positions), v, is_causal=True)
    [step] = run("decode_step", None, decode_call(q, k, v))
    np.testing.assert_allclose(step, full[..., -1:, :], atol=1e-12)


def test_the_decode_mistakes_are_what_their_names_say():
    q, k, v = decode_inputs(np.random.default_rng(3))
    t = q.shape[-2] - 1
    call = decode_call(q, k, v)
    # cached key j turned by 2j·θ, the new key once at t
    twice = np.concatenate([engine.apply_rotary(k[..., :t, :], 2 * np.arange(t)), engine.apply_rotary(k[..., t:, :], t)], axis=-2)
    expected = engine.scaled_dot_product_attention(engine.apply_rotary(q[..., t:, :], t), twice, v)
    np.testing.assert_allclose(run("decode_step", "decode_cache_rotated_again", call)[0], expected, atol=1e-12)
    # without its own key, the new token attends the cached ones only
    without = engine.scaled_dot_product_attention(engine.apply_rotary(q[..., t:, :], t), call.args[3], v[..., :t, :])
    np.testing.assert_allclose(run("decode_step", "decode_new_key_not_appended", call)[0], without, atol=1e-12)


def allowed_by_loops(lengths: list[int], S: int, window: int, side: str) -> np.ndarray:
    mask = np.zeros((len(lengths), 1, S, S), dtype=bool)
    for b, i, j in np.ndindex(len(lengths), S, S):
        real = j < lengths[b] if side == "right" else j >= S - lengths[b]
        mask[b, 0, i, j] = real and 0 <= i - j < window
    return mask


def test_the_batch_mask_is_the_window_and_the_real_keys_on_either_side():
    for side in ("right", "left"):
        [mask] = run("batch_mask", None, Call("batch_mask", (np.array([7, 4, 2]), 7, 3, side)))
        np.testing.assert_array_equal(mask, allowed_by_loops([7, 4, 2], 7, 3, side))
    [left] = run("batch_mask", None, Call("batch_mask", (np.array([4]), 7, 3, "left")))
    assert not left[0, 0, :3].any()  # a left pad query has no allowed key (E5)
    [wide] = run("batch_mask", "window_off_by_one", Call("batch_mask", (np.array([7]), 7, 3, "right")))
    assert wide[0, 0].sum(axis=-1).tolist() == [1, 2, 3, 4, 4, 4, 4]  # window + 1 keys once the window is full


def test_the_alibi_slopes_follow_the_paper_for_any_head_count():
    six = run("alibi_bias", None, Call("alibi_bias", (6, 1, 2)))[0][:, 0, 1]  # −m_h · |0 − 1|
    np.testing.assert_allclose(-six, [2**-2, 2**-4, 2**-6, 2**-8, 2**-1, 2**-3])
    eight = run("alibi_bias", None, Call("alibi_bias", (8, 1, 2)))[0][:, 0, 1]
    np.testing.assert_allclose(-eight, [2.0**-h for h in range(1, 9)])
    repeated = run("alibi_bias", "alibi_slopes_wrong_interleave", Call("alibi_bias", (6, 1, 2)))[0][:, 0, 1]
    np.testing.assert_allclose(-repeated, [2**-2, 2**-4, 2**-6, 2**-8, 2**-2, 2**-4])  # slopes taken twice
    assert get_task("alibi_bias").mistakes[0].run(Call("alibi_bias", (8, 3, 3)), {}) is None  # the rule for other H is not used


def test_the_signed_alibi_distance_differs_only_after_the_query():
    call = Call("alibi_bias", (5, 4, 6))
    [right], [signed] = run("alibi_bias", None, call), run("alibi_bias", "alibi_signed_distance", call)
    causal = engine.causal_mask(4, 6)
    np.testing.assert_array_equal(signed[:, causal], right[:, causal])
    assert (signed[:, ~causal] > 0).all() and (right[:, ~causal] < 0).all()
