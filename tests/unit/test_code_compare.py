"""The tolerance rule and the measures of difference checks report."""

import numpy as np
import pytest

from quiz.code.compare import SAME, TOLERANCES, Tolerance, difference, excess, excess_table, mismatch, tolerance_for

RULE = Tolerance(atol=1e-3, rtol=1e-2)


def one(x):
    return (np.asarray(x, dtype=float),)


def test_an_element_passes_when_within_atol_plus_rtol_of_the_engine():
    assert difference(one([100.0]), one([101.0]), RULE).within  # 1 ≤ 0.001 + 0.01 · 101
    assert not difference(one([100.0]), one([102.0]), RULE).within  # 2 > 0.001 + 0.01 · 102
    gap = difference(one([0.0, 5.0]), one([0.0005, 5.0]), RULE)
    assert gap.max_error == pytest.approx(0.0005) and gap.excess == pytest.approx(0.0005 / (0.001 + 0.01 * 0.0005))


def test_nan_and_inf_must_stand_where_the_engine_has_them():
    assert difference(one([np.nan, 1.0]), one([np.nan, 1.0]), RULE).within
    assert difference(one([np.inf]), one([np.inf]), RULE).within
    for actual, expected in (([np.nan], [1.0]), ([1.0], [np.nan]), ([np.inf], [-np.inf]), ([np.inf], [1e300])):
        gap = difference(one(actual), one(expected), RULE)
        assert gap.nonfinite and not gap.within


def test_booleans_must_be_equal_and_shapes_must_agree():
    assert difference((np.array([True, False]),), (np.array([True, False]),), RULE).within
    assert not difference((np.array([True, True]),), (np.array([True, False]),), RULE).within
    assert not difference(one([[1.0, 2.0]]), one([1.0, 2.0]), RULE).within
    assert not difference(one([1.0]), (*one([1.0]), *one([1.0])), RULE).within


def test_excess_alone_is_the_excess_of_the_difference():
    """Drawing measures only the excess: it must be difference's, whatever the arrays hold."""
    cases = [
        (one([1.0, 2.0]), one([1.0, 2.5])),
        (one([np.nan, 1.0]), one([np.nan, 1.2])),
        (one([np.nan]), one([1.0])),
        (one([np.inf, 1.0]), one([np.inf, 1.0])),
        (one([np.inf]), one([-np.inf])),
        (one([1e308]), one([-1e308])),
        ((np.array([True, False]),), (np.array([True, True]),)),
        ((np.array([1.0, 0.0]),), (np.array([True, False]),)),
        (one([[1.0, 2.0]]), one([1.0, 2.0])),
        (one([1.0]), one([1.0]) * 2),
        ((), ()),
        ((np.array([1.0, 2.0], dtype=np.float16),), (np.array([1.01, 2.0], dtype=np.float32),)),
    ]
    for actual, expected in cases:
        with np.errstate(over="ignore"):
            assert excess(actual, expected, RULE) == difference(actual, expected, RULE).excess, (actual, expected)


def test_the_table_of_excesses_is_each_pair_s_excess_and_leaves_nan_and_inf_to_it():
    rng = np.random.default_rng(0)
    finite = [(rng.standard_normal((3, 2)), rng.standard_normal(4)) for _ in range(4)]
    with_nan = (np.array([[np.nan, 1.0], [0.0, 1.0], [2.0, 3.0]]), np.zeros(4))
    outputs = [*finite, with_nan]
    table = excess_table(outputs, RULE)
    for i, first in enumerate(finite):
        for j, second in enumerate(finite):
            assert table[i, j] == excess(first, second, RULE)
    assert np.isnan(table[-1]).all() and np.isnan(table[:, -1]).all()
    unlike = excess_table([one([1.0, 2.0]), one([1.0]), one([1.0, 2.5]), (np.array([1.0, 2.0]), np.zeros(1))], RULE)
    assert unlike[0, 2] == excess(one([1.0, 2.0]), one([1.0, 2.5]), RULE)
    assert np.isnan(unlike[[1, 3]]).all() and np.isnan(unlike[:, [1, 3]]).all()  # another shape, another count
    assert excess_table([(np.array([True]),), (np.array([False]),)], RULE) is None


def test_an_output_against_itself_is_the_same_at_once():
    output = one([np.nan, np.inf, 1.0])
    assert difference(output, output, RULE) == SAME == difference(output, tuple(a.copy() for a in output), RULE)
    assert excess(output, output, RULE) == 0.0


def test_a_mismatch_names_what_came_and_what_was_due():
    assert mismatch(one([[1.0, 2.0]]), one([1.0, 2.0])).__dict__ == {"kind": "shape", "got": "(1, 2)", "expected": "(2,)"}
    assert mismatch((np.array([1, 0]),), (np.array([True, False]),)).__dict__ == {"kind": "dtype", "got": "int64", "expected": "bool"}
    assert mismatch(one([1.0]), one([1.0]) * 3).__dict__ == {"kind": "count", "got": "1", "expected": "3"}
    assert mismatch(one([1.0]), one([2.0])) is None


@pytest.mark.parametrize(
    "wrong",
    [np.ones(3, dtype=bool), np.ones(3, dtype=np.int64), np.ones(3, dtype=np.uint8), np.ones(3, dtype=np.complex128), np.ma.ones(3)],
    ids=["bool", "int", "uint", "complex", "masked"],
)
def test_anything_but_a_plain_float_array_where_floats_are_due_is_the_wrong_form(wrong):
    """Issue 34: a boolean array of ones once passed as any output without a zero (both were cast to bool)."""
    found = mismatch((wrong,), one([0.5, 1.5, 2.5]))
    assert found is not None and found.kind == "dtype" and found.expected == "float16/float32/float64"


def test_every_float_precision_is_the_right_form_where_floats_are_due():
    for dtype in (np.float16, np.float32, np.float64):
        assert mismatch((np.ones(3, dtype=dtype),), one([1.0, 1.0, 1.0])) is None


def test_the_lowest_input_precision_sets_the_tolerance():
    half, single, double = (np.ones(2, dtype=d) for d in (np.float16, np.float32, np.float64))
    assert tolerance_for(double, single) == (TOLERANCES[np.dtype(np.float32)], "float32")
    assert tolerance_for(single, half, 3) == (TOLERANCES[np.dtype(np.float16)], "float16")
    assert tolerance_for(np.ones(2, dtype=bool), 4) == (TOLERANCES[np.dtype(np.float64)], "float64")
