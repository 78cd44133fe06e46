"""Repeating key/value heads for grouped-query attention, and the gradient's way back."""

import numpy as np
import pytest

from engine import repeat_kv_heads, sum_kv_head_groups


def test_query_head_i_reads_key_value_head_i_div_groups():
    x = np.arange(2 * 3 * 2 * 1).reshape(2, 3, 2, 1)  # batch 2, 3 key/value heads, T 2, D 1
    repeated = repeat_kv_heads(x, 2)
    assert repeated.shape == (2, 6, 2, 1)
    for head in range(6):
        np.testing.assert_array_equal(repeated[:, head], x[:, head // 2])


def test_one_group_changes_nothing():
    x = np.random.default_rng(0).standard_normal((3, 4, 2))
    np.testing.assert_array_equal(repeat_kv_heads(x, 1), x)


def test_summing_the_groups_is_the_adjoint_of_repeating():
    # ⟨repeat(x), y⟩ = ⟨x, sum_groups(y)⟩ for all x, y: the chain rule through the repeat.
    rng = np.random.default_rng(1)
    for groups in (1, 2, 3):
        x = rng.standard_normal((2, 2, 5, 3))
        y = rng.standard_normal((2, 2 * groups, 5, 3))
        lhs = np.sum(repeat_kv_heads(x, groups) * y)
        rhs = np.sum(x * sum_kv_head_groups(y, groups))
        np.testing.assert_allclose(lhs, rhs, rtol=1e-12)


@pytest.mark.parametrize("shape, groups", [((4, 2), 2), ((2, 4, 2), 0)])
def test_refuses_what_has_no_head_axis_or_no_group(shape, groups):
    with pytest.raises(ValueError, match="repeat_kv_heads"):
        repeat_kv_heads(np.ones(shape), groups)
