"""Numbers and arrays as text: significant figures, notation switches, inline arrays, tables."""

import math

import numpy as np
import pytest
from markdown_it import MarkdownIt

from quiz.base.numbers import format_array_inline, format_number, format_value


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0.8807970779778823, "0.8808"),
        (0.11920292202211755, "0.1192"),
        (9.820137900379085, "9.82"),
        (2.0, "2"),
        (-1.5, "-1.5"),
        (12345.6, "12346"),
        (0.0001, "0.0001"),
        (0.00001234, "1.234e-5"),
        (0.00002, "2e-5"),
        (1234567.0, "1.235e6"),
        (1e6, "1e6"),
        (999999.0, "999999"),
        (0.0, "0"),
        (-0.0, "0"),
        (math.inf, "inf"),
        (-math.inf, "-inf"),
        (math.nan, "nan"),
        (42, "42"),
        (-7, "-7"),
        (10**7, "10000000"),
        (1_007_000_000, "1007000000"),
        (np.int64(2**62), "4.612e18"),
        (10**15 - 1, "999999999999999"),
        (10**15, "1e15"),
        (2**4000, "1.318e1204"),
        (np.float32(0.1), "0.1"),
        (np.int64(3), "3"),
    ],
)
def test_format_number(value, text):
    assert format_number(value) == text


def test_format_number_takes_the_number_of_significant_figures():
    assert format_number(math.pi, digits=2) == "3.1"
    assert format_number(math.pi, digits=6) == "3.14159"
    assert format_number(1 / 3 * 1e-6, digits=2) == "3.3e-7"
    with pytest.raises(ValueError):
        format_number(1.0, digits=0)


def test_the_switch_to_scientific_notation_is_exact():
    assert format_number(math.nextafter(1e-4, 0)) == "1e-4"
    assert format_number(math.nextafter(1e6, 0)) == "1000000"  # below 1e6: the integer part is never rounded
    assert format_number(1234567.0, digits=8) == "1234567"
    assert format_number(1.5e8, digits=8) == "1.5e8"
    assert format_number(np.float64(-2.5e-3)) == "-0.0025"
    assert format_number(math.nan) == "nan"


def test_format_array_inline_writes_each_dtype_as_its_numbers():
    assert format_array_inline(np.array([1.5, 2.0], dtype=np.float32)) == "[1.5, 2]"
    assert format_array_inline(np.array([[1, -2]], dtype=np.int8)) == "[[1, -2]]"
    assert format_array_inline(np.array([0.123456, 1e-7]), digits=2) == "[0.12, 1e-7]"
    assert format_array_inline(np.array(["1.5"])) == "[1.5]"  # not numeric: element by element, as before


def test_format_array_inline():
    assert format_array_inline([[1, 2], [3, 4]]) == "[[1, 2], [3, 4]]"
    assert format_array_inline(np.array([True, False])) == "[True, False]"
    assert format_array_inline(np.zeros((2, 0))) == "[[], []]"
    assert format_array_inline(np.float64(0.5)) == "0.5"


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("as is {x}", "as is {x}"),
        (True, "True"),
        (np.bool_(False), "False"),
        (None, "None"),
        (0.8807970779778823, "0.8808"),
        (np.array([0.8807970779778823, 0.11920292202211755]), "[0.8808, 0.1192]"),
        ([1, 2.5], "[1, 2.5]"),
        ((2, 4), "(2, 4)"),
        ((3,), "(3,)"),
        ((np.array([1.0, 2.0]), 3), "([1, 2], 3)"),
        (np.ones((2, 2, 1)), "[[[1], [1]], [[1], [1]]]"),
    ],
)
def test_format_value(value, text):
    assert format_value(value) == text


def test_a_matrix_is_an_aligned_bracketed_block_between_blank_lines():
    text = format_value(np.array([[1.0, 0.25], [-3.5, 100.0], [0.0, 2.0]]))
    assert text.startswith("\n\n```text\n") and text.endswith("\n```\n\n")
    assert text.strip("\n").splitlines()[1:-1] == [
        "⎡    1  0.25 ⎤",
        "⎢ -3.5   100 ⎥",
        "⎣    0     2 ⎦",
    ]
    tokens = MarkdownIt("commonmark").parse("Q is" + text + "done")
    assert [t.type for t in tokens if t.type in ("fence", "paragraph_open")] == ["paragraph_open", "fence", "paragraph_open"]


def test_a_one_row_matrix_keeps_square_brackets():
    assert format_value(np.array([[0.5, 0.5]])).strip("\n").splitlines()[1] == "[ 0.5  0.5 ]"


def test_values_without_a_text_form_are_refused():
    with pytest.raises(TypeError):
        format_value({"a": 1})
    with pytest.raises(TypeError):
        format_value(np.array(["a"]))
