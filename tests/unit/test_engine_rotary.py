"""Rotary position embedding: a norm-preserving rotation whose scores depend only on the offset (Y9)."""

import numpy as np
import pytest

from engine import apply_rotary, rotary_angles, undo_rotary

RNG = np.random.default_rng(0)


def test_rotation_keeps_every_vector_norm():
    x = RNG.standard_normal((2, 3, 5, 8))
    rotated = apply_rotary(x, np.arange(5))
    np.testing.assert_allclose(np.linalg.norm(rotated, axis=-1), np.linalg.norm(x, axis=-1), rtol=1e-13)


def test_score_depends_only_on_the_offset():
    q, k = RNG.standard_normal(16), RNG.standard_normal(16)
    for m, n in ((3, 1), (10, 8), (102, 100)):  # offset 2 each time
        score = apply_rotary(q, m) @ apply_rotary(k, n)
        np.testing.assert_allclose(score, apply_rotary(q, 2) @ k, rtol=1e-10)
    assert not np.isclose(apply_rotary(q, 3) @ apply_rotary(k, 0), apply_rotary(q, 2) @ k)


def test_undo_after_apply_is_the_identity():
    x = RNG.standard_normal((2, 4, 6))
    positions = RNG.integers(0, 1000, size=(2, 4))
    np.testing.assert_allclose(undo_rotary(apply_rotary(x, positions), positions), x, rtol=1e-12, atol=1e-12)


def test_position_zero_changes_nothing():
    x = RNG.standard_normal((3, 8))
    np.testing.assert_array_equal(apply_rotary(x, np.zeros(3)), x)


def test_agrees_with_multiplying_complex_pairs_by_a_unit_phase():
    # Pair i as the complex number x_2i + i·x_2i+1, rotated by multiplying by exp(i·m·θ_i).
    d, base = 8, 500.0
    x = RNG.standard_normal((5, d))
    positions = np.array([0, 1, 7, 30, 2])
    theta = base ** (-2 * np.arange(d // 2) / d)
    pairs = (x[:, 0::2] + 1j * x[:, 1::2]) * np.exp(1j * positions[:, None] * theta)
    expected = np.stack([pairs.real, pairs.imag], axis=-1).reshape(5, d)
    np.testing.assert_allclose(apply_rotary(x, positions, base), expected, rtol=1e-12, atol=1e-12)


def test_per_sequence_positions_of_a_left_padded_batch():
    x = RNG.standard_normal((2, 3, 4, 6))  # (B, H, T, d)
    positions = np.array([[0, 0, 0, 1], [0, 1, 2, 3]])  # (B, T): sequence 0 has two leading pads
    rotated = apply_rotary(x, positions[:, None])  # (B, 1, T) broadcasts over the heads
    for b in range(2):
        np.testing.assert_array_equal(rotated[b], apply_rotary(x[b], positions[b]))


def test_angles_fall_geometrically_from_one_radian_per_position():
    angles = rotary_angles([1], 4)  # θ_0 = 1, θ_1 = 10000^(−1/2)
    np.testing.assert_allclose(angles, [[1.0, 0.01]], rtol=1e-15)


def test_odd_head_dim_is_refused():
    with pytest.raises(ValueError, match="even head_dim"):
        apply_rotary(np.ones(5), 1)
