"""The evaluator's shortcuts for common values say what the plain rule says, for any value.

`check_broadcast` answers numbers without numpy and equal shapes without `broadcast_shapes`, and
`shape_of` answers numbers without building an array. They are kept for their figures (bench/fast_paths.py, and bench/README.md's
"Fast paths and their figures"); each is held here to the plain rule it stands in for.
"""

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from quiz.expressions.limits import LimitExceeded, check_elements
from quiz.expressions.shapes import check_broadcast, numeric, shape_of

SCALARS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.booleans(),
    st.none(),
    st.text(max_size=3),
    st.floats(width=32).map(np.float32),
    st.integers(min_value=-(2**63), max_value=2**63 - 1).map(np.int64),
    st.integers(min_value=-(2**31), max_value=2**31 - 1).map(np.int32),
    st.booleans().map(np.bool_),
    st.complex_numbers(allow_nan=False, max_magnitude=10),
)
SHAPES = st.lists(st.integers(min_value=0, max_value=3), max_size=3).map(tuple)
ARRAYS = st.builds(
    lambda shape, dtype: np.arange(math.prod(shape)).reshape(shape).astype(dtype),
    SHAPES,
    st.sampled_from(["float64", "float32", "int64", "bool", "complex128", "object", "U1"]),
)
VALUES = st.one_of(SCALARS, ARRAYS, ARRAYS.map(lambda a: a.tolist()))


def outcome(function, *args):
    """What a call gives: its result, or the kind and words of its refusal."""
    try:
        return ("gives", function(*args))
    except (LimitExceeded, ValueError, TypeError) as error:
        return (type(error), str(error))


def plain_shape(value):
    return numeric(value).shape


def plain_broadcast(*values):
    check_elements(math.prod(np.broadcast_shapes(*(numeric(value).shape for value in values))))


@settings(max_examples=400, deadline=None)
@given(st.lists(VALUES, min_size=1, max_size=3))
def test_the_broadcast_check_refuses_exactly_what_the_plain_rule_refuses(values):
    assert outcome(check_broadcast, *values) == outcome(plain_broadcast, *values)


@settings(max_examples=400, deadline=None)
@given(VALUES)
def test_a_shape_is_the_shape_numpy_gives(value):
    assert outcome(shape_of, value) == outcome(plain_shape, value)


def test_an_int_numpy_cannot_hold_is_refused_beside_numbers_too():
    """The number shortcut takes only ints of int64's range: a larger one still meets numpy's rule."""
    assert outcome(check_broadcast, 1.5, 2**64)[0] is LimitExceeded
    assert outcome(check_broadcast, -(2**63) - 1, 2.0)[0] is LimitExceeded
    assert outcome(check_broadcast, 1.5, 2**63 - 1) == ("gives", None)
