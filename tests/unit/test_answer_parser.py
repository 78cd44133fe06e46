"""Reading learners' typed answers: every accepted form, every rejection, and hostile input.

Expected values come from independent oracles: the `math` module, Python's own float(),
and expression trees whose values are computed alongside their text.
"""

import math
import string

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quiz.answer_text import MAX_LENGTH, Invalid, Parsed, describe_shape, parse_answer
from quiz.answer_text.nesting import MAX_DEPTH
from quiz.locale.i18n import catalogue

E, PI, SQRT2 = math.e, math.pi, math.sqrt(2)
LOGISTIC_2 = E**2 / (1 + E**2)


def read(text: str, shape: tuple[int, ...] = ()) -> Parsed:
    result = parse_answer(text, shape)
    assert isinstance(result, Parsed), result
    return result


def reject(text: str, shape: tuple[int, ...] = ()) -> Invalid:
    result = parse_answer(text, shape)
    assert isinstance(result, Invalid), result
    return result


# --- numbers and scalar expressions -------------------------------------------------------

SCALARS = [
    ("42", 42.0),
    ("-2.5", -2.5),
    ("+3", 3.0),
    (".5", 0.5),
    ("5.", 5.0),
    ("1e-3", 1e-3),
    ("2.5E4", 2.5e4),
    ("1E+2", 100.0),
    ("3/4", 0.75),
    ("sqrt(2)/2", SQRT2 / 2),
    ("e^2/(1+e^2)", LOGISTIC_2),
    ("exp(2)", math.exp(2)),
    ("log(10)", math.log(10)),
    ("ln(2)", math.log(2)),
    ("abs(-3)", 3.0),
    ("pi/2", PI / 2),
    ("π/2", PI / 2),
    ("PI", PI),
    ("Sqrt(16)", 4.0),
    ("2^10", 1024.0),
    ("2**10", 1024.0),
    ("-2^2", -4.0),
    ("(-2)^2", 4.0),
    ("2^-1", 0.5),
    ("2^3^2", 2.0**9),
    ("2*-3", -6.0),
    ("-(-2)", 2.0),
    ("1+2*3", 7.0),
    ("(1+2)*3", 9.0),
    ("8/2/2", 2.0),
    ("1-2-3", -4.0),
    ("−0.5", -0.5),
    ("√2/2", SQRT2 / 2),
    ("√(3)", math.sqrt(3)),
    ("√√16", 2.0),
    ("2×3", 6.0),
    ("2·3", 6.0),
    ("2⋅3", 6.0),
    ("6÷4", 1.5),
    ("e²", E**2),
    ("2⁻¹", 0.5),
    ("10⁻³", 1e-3),
    ("½", 0.5),
    ("  0.25  ", 0.25),
    ("(0.25)", 0.25),
    ("[0.25]", 0.25),
    ("[[0.25]]", 0.25),
]


@pytest.mark.parametrize(("text", "expected"), SCALARS)
def test_scalar_forms(text, expected):
    assert read(text).value == pytest.approx(expected, rel=1e-15)


FULL_WIDTH = [
    ("０．８８１", 0.881),
    ("ー０．５", -0.5),
    ("１／４", 0.25),
    ("√２／２", SQRT2 / 2),
    ("ｅ＾２／（１＋ｅ＾２）", LOGISTIC_2),
    ("１。５", 1.5),
    ("２×３", 6.0),
    ("２　＊　３", 6.0),
    ("ｓｑｒｔ（２）", SQRT2),
    ("ｰ1", -1.0),  # the half-width prolonged sound mark
]


@pytest.mark.parametrize(("text", "expected"), FULL_WIDTH)
def test_full_width_input_from_a_japanese_input_method(text, expected):
    assert read(text).value == pytest.approx(expected, rel=1e-15)


DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u30fc\ufe63\uff0d"


@pytest.mark.parametrize("dash", list(DASHES))
def test_every_dash_reads_as_minus(dash):
    assert read(f"{dash}1").value == -1.0
    assert read(f"3{dash}1").value == 2.0


@given(st.floats(allow_nan=False, allow_infinity=False))
@settings(deadline=None, max_examples=200)
def test_a_printed_float_reads_back_exactly(number):
    assert read(repr(number)).value == number
    to_full_width = str.maketrans("0123456789.-+e", "０１２３４５６７８９．ー＋ｅ")
    assert read(repr(number).translate(to_full_width)).value == number


def expressions():
    """(text, value) pairs: fully parenthesised arithmetic with the value worked out alongside."""

    def combine(parts):
        (left, a), operator, (right, b) = parts
        value = {"+": a + b, "-": a - b, "*": a * b}[operator]
        return f"({left}{operator}{right})", value

    def negate(part):
        text, value = part
        return f"-{text}", -value

    leaves = st.integers(0, 9).map(lambda n: (str(n), float(n)))
    return st.recursive(
        leaves,
        lambda inner: st.one_of(
            st.tuples(inner, st.sampled_from("+-*"), inner).map(combine), inner.map(negate)
        ),
        max_leaves=20,
    )


@given(expressions())
@settings(deadline=None, max_examples=200)
def test_arithmetic_matches_values_computed_alongside(expression):
    text, value = expression
    assert read(text).value == value


# --- vectors and matrices -------------------------------------------------------------------

VECTOR_FORMS = [
    "[0.5, -2]",
    "0.5, -2",
    "0.5 -2",
    "0.5,-2",
    "(0.5, -2)",
    "(0.5 -2)",
    "[0.5 -2]",
    "0.5, -2,",
    "1/2, -2",
    "[0.5; -2]",
    "0.5\n-2",
    "[[0.5], [-2]]",
    "[[0.5, -2]]",
    "［０．５，　ー２］",
    "０．５、ー２",
]


@pytest.mark.parametrize("text", VECTOR_FORMS)
def test_vector_forms(text):
    parsed = read(text, (2,))
    np.testing.assert_array_equal(parsed.value, [0.5, -2.0])
    assert parsed.display == "[0.5, -2]"


def test_full_width_vector_in_brackets():
    np.testing.assert_array_equal(read("［１，　２］", (2,)).value, [1.0, 2.0])


MATLAB_WHITESPACE = [
    ("1 -2", (2,), [1, -2]),
    ("1 - 2", (), -1),
    ("1- 2", (), -1),
    ("1 - -2", (), 3),
    ("1 -2*3", (2,), [1, -6]),
    ("1 +2", (2,), [1, 2]),
    ("1 + 2", (), 3),
    ("2 *3", (), 6),
    ("2 ^ 3", (), 8),
    ("- 2", (), -2),
    ("sqrt(2) / 2", (), SQRT2 / 2),
    ("e^2/(1+e^2)", (), LOGISTIC_2),
    ("sqrt (4)", (), 2),
    ("√ 4", (), 2),
    ("1, 2 3", (3,), [1, 2, 3]),
    ("1 2*3 4", (3,), [1, 6, 4]),
    ("(1+2) (3)", (2,), [3, 3]),
    ("1\t2", (2,), [1, 2]),
    ("1\u30002", (2,), [1, 2]),
    ("1\u20032", (2,), [1, 2]),
]


@pytest.mark.parametrize(("text", "shape", "expected"), MATLAB_WHITESPACE)
def test_whitespace_separates_elements_unless_an_operator_sits_between(text, shape, expected):
    np.testing.assert_allclose(read(text, shape).value, expected, rtol=1e-15)


MATRIX_FORMS = [
    "[[1, 2], [3, 4]]",
    "[1 2; 3 4]",
    "1 2; 3 4",
    "1 2\n3 4",
    "1, 2\r\n3, 4\n",
    "\n1 2\n\n3 4\n",
    "[1 2\n 3 4]",
    "[1 2; 3 4;]",
    "[[1, 2]; [3, 4]]",
    "[1, 2] [3, 4]",
    "[1 2]\n[3 4]",
    "((1, 2), (3, 4))",
    "［［１，２］，［３，４］］",
    "１　２；３　４",
]


@pytest.mark.parametrize("text", MATRIX_FORMS)
def test_matrix_forms(text):
    parsed = read(text, (2, 2))
    np.testing.assert_array_equal(parsed.value, [[1.0, 2.0], [3.0, 4.0]])
    assert parsed.display == "[[1, 2], [3, 4]]"


def integer_rows(cols: int):
    """Two to four rows of `cols` small integers each."""
    row = st.lists(st.integers(-99, 99), min_size=cols, max_size=cols)
    return st.lists(row, min_size=2, max_size=4)


@given(st.integers(1, 4).flatmap(integer_rows))
@settings(deadline=None, max_examples=100)
def test_integer_matrices_read_back_in_every_layout(rows):
    shape = (len(rows), len(rows[0]))
    layouts = [
        "; ".join(" ".join(map(str, row)) for row in rows),
        "\n".join(", ".join(map(str, row)) for row in rows),
        "[" + ", ".join("[" + ", ".join(map(str, row)) + "]" for row in rows) + "]",
    ]
    for text in layouts:
        np.testing.assert_array_equal(read(text, shape).value, rows)


# --- shapes -------------------------------------------------------------------------------

ACCEPTED_LAYOUTS = [
    ("[[1, 2, 3]]", (3,), (3,)),
    ("1; 2; 3", (3,), (3,)),
    ("7", (1, 1), (1, 1)),
    ("7", (1,), (1,)),
    ("1 2 3", (1, 3), (1, 3)),
    ("1 2 3", (3, 1), (3, 1)),
]


@pytest.mark.parametrize(("text", "shape", "result_shape"), ACCEPTED_LAYOUTS)
def test_layouts_whose_intent_is_clear_are_reshaped(text, shape, result_shape):
    assert read(text, shape).value.shape == result_shape


def test_a_scalar_is_a_float_and_arrays_are_read_only_float64():
    assert type(read("[7]").value) is float
    vector = read("1 2", (2,)).value
    assert vector.dtype == np.float64
    with pytest.raises(ValueError):
        vector[0] = 5.0


@pytest.mark.parametrize(
    ("text", "shape", "display"),
    [
        ("0.5", (), "0.5"),
        ("sqrt(2)/2", (), "0.707106781187"),
        ("-0", (), "0"),
        ("1e-5", (), "1e-5"),
        ("1234567", (), "1234567"),
        ("0.1 + 0.2", (), "0.3"),
        ("1; -2", (2,), "[1, -2]"),
        ("1 2; 3 4", (2, 2), "[[1, 2], [3, 4]]"),
    ],
)
def test_display_shows_what_was_read(text, shape, display):
    assert read(text, shape).display == display


WRONG_SHAPES = [
    (
        "1 2",
        (),
        "Expected a number, but got a vector of 2 numbers.",
        "1 つの数値を入力してください（読み取った入力：要素数 2 のベクトル）。",
    ),
    (
        "1 2",
        (3,),
        "Expected a vector of 3 numbers, but got a vector of 2 numbers.",
        "要素数 3 のベクトルを入力してください（読み取った入力：要素数 2 のベクトル）。",
    ),
    (
        "1 2; 3 4; 5 6",
        (2, 3),
        "Expected a 2×3 matrix, but got a 3×2 matrix.",
        "2×3 の行列を入力してください（読み取った入力：3×2 の行列）。",
    ),
    (
        "5",
        (2,),
        "Expected a vector of 2 numbers, but got a number.",
        "要素数 2 のベクトルを入力してください（読み取った入力：1 つの数値）。",
    ),
]


@pytest.mark.parametrize(("text", "shape", "english", "japanese"), WRONG_SHAPES)
def test_wrong_shape_messages_in_both_languages(text, shape, english, japanese):
    invalid = reject(text, shape)
    assert invalid.key == "parse.wrong_shape"
    assert invalid.params["expected"] == shape
    assert invalid.message() == english
    assert invalid.message("ja") == japanese


@pytest.mark.parametrize(
    ("shape", "english", "japanese"),
    [
        ((), "a number", "1 つの数値"),
        ((1,), "a vector of 1 number", "要素数 1 のベクトル"),
        ((3,), "a vector of 3 numbers", "要素数 3 のベクトル"),
        ((2, 3), "a 2×3 matrix", "2×3 の行列"),
    ],
)
def test_describe_shape(shape, english, japanese):
    assert describe_shape(shape) == english
    assert describe_shape(shape, "ja") == japanese


@pytest.mark.parametrize("shape", [(0,), (-1,), (2, 2, 2), (2.0,)])
def test_a_malformed_question_shape_is_the_authors_error(shape):
    with pytest.raises(ValueError):
        parse_answer("1", shape)


# --- every invalid path -----------------------------------------------------------------------

INVALID = [
    ("", (), "parse.empty", None),
    ("  \n ", (), "parse.empty", None),
    ("[]", (2,), "parse.empty", None),
    ("1" * (MAX_LENGTH + 1), (), "parse.too_long", None),
    ("(" * (MAX_DEPTH + 1) + "1" + ")" * (MAX_DEPTH + 1), (), "parse.too_deep", MAX_DEPTH + 1),
    ("1 @ 2", (), "parse.unexpected_char", 3),
    ("１＋＠", (), "parse.unexpected_char", 3),
    ("2₃", (), "parse.unexpected_char", 2),
    ("1⒈2", (), "parse.unexpected_char", 2),
    ("1ᵉ2", (), "parse.unexpected_char", 2),
    ("1.2.3", (), "parse.bad_number", 4),
    ("25%", (), "parse.percent", 3),
    ("foo(2)", (), "parse.unknown_name", 1),
    ("x", (), "parse.unknown_name", 1),
    ("sqrt", (), "parse.function_needs_parens", 1),
    ("sqrt 2", (), "parse.function_needs_parens", 1),
    ("2pi", (), "parse.implicit_multiplication", 2),
    ("0.17b", (), "parse.unknown_name", 5),  # no `*` to suggest before a name that means nothing
    ("2sqrt(4)", (), "parse.implicit_multiplication", 2),
    ("2π", (), "parse.implicit_multiplication", 2),
    ("(2)(3)", (), "parse.implicit_multiplication", 4),
    ("*2", (), "parse.expected_operand", 1),
    ("()", (), "parse.expected_operand", 2),
    ("1 +", (), "parse.incomplete", 3),
    ("(1, 2)+1", (), "parse.unexpected_token", 3),
    ("(1+2", (), "parse.unclosed", 1),
    ("1+2)", (), "parse.unmatched", 4),
    ("[1, 2)", (2,), "parse.mismatched", 6),
    ("2*[3]", (), "parse.bracket_in_expression", 3),
    ("1/0", (), "parse.divide_by_zero", 2),
    ("1/(1-1)", (), "parse.divide_by_zero", 2),
    ("1e999", (), "parse.too_large", 1),
    ("9^9^9^9", (), "parse.too_large", 4),
    ("exp(1000)", (), "parse.too_large", 1),
    ("1e308*10", (), "parse.too_large", 6),
    ("1e308+1e308", (), "parse.too_large", 6),
    ("sqrt(-1)", (), "parse.domain", 1),
    ("log(0)", (), "parse.domain", 1),
    ("ln(-1)", (), "parse.domain", 1),
    ("√-4", (), "parse.domain", 1),
    ("(-8)^(1/3)", (), "parse.power_domain", 5),
    ("0^-1", (), "parse.power_domain", 2),
    ("1,,2", (2,), "parse.empty_element", 3),
    (", 1", (1,), "parse.empty_element", 1),
    ("[1, [2, 3]]", (3,), "parse.nesting", 5),
    ("[[[1, 2]]]", (2,), "parse.nesting", 3),
    ("1 2; 3", (2, 2), "parse.ragged", 6),
    ("0,5", (), "parse.decimal_comma", 2),
    ("1 2", (), "parse.wrong_shape", None),
]


@pytest.mark.parametrize(("text", "shape", "key", "column"), INVALID)
def test_each_invalid_path_has_its_key_column_and_messages(text, shape, key, column):
    invalid = reject(text, shape)
    assert (invalid.key, invalid.column) == (key, column)
    english, japanese = invalid.message(), invalid.message("ja")
    assert key not in english and key not in japanese  # both catalogues hold the key
    assert "{" not in english + japanese  # every placeholder was filled
    if column is not None:
        assert english.startswith(f"At character {column}:")  # "column" would read as a matrix column
        assert japanese.startswith(f"{column} 文字目：")


def test_every_rejection_message_has_a_case_above():
    messages = {key for key in catalogue("en") if key.startswith("parse.")}
    shape_words = {key for key in messages if key.startswith("parse.shape_")}
    assert {key for _, _, key, _ in INVALID} == messages - shape_words


def test_catalogues_have_the_same_parse_keys_and_placeholders():
    def fields(text):
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}

    english = {key: text for key, text in catalogue("en").items() if key.startswith("parse.")}
    japanese = {key: text for key, text in catalogue("ja").items() if key.startswith("parse.")}
    assert english.keys() == japanese.keys()
    for key, text in english.items():
        assert fields(text) == fields(japanese[key]), key


def test_messages_quote_the_character_as_typed_and_name_invisible_ones():
    assert "'＠'" in reject("１＋＠").message()
    assert "「U+200F」" in reject("\u200f1").message("ja")


def test_ragged_rows_are_named_with_their_lengths():
    invalid = reject("1 2 3\n4 5", (2, 3))
    assert invalid.message() == "At character 7: rows differ in length (row 1: 3, row 2: 2)."
    japanese = "7 文字目：行ごとの要素数が揃っていません（1 行目：3 個、2 行目：2 個）。"
    assert invalid.message("ja") == japanese


def test_implicit_multiplication_suggests_the_explicit_form():
    assert reject("2pi").params["suggestion"] == "2*pi"
    assert reject("3sqrt(2)").params["suggestion"] == "3*sqrt(2)"


# --- hostile input ----------------------------------------------------------------------------

HOSTILE = [
    "9^9^9^9",
    "1e999",
    "(" * 10_000 + "1" + ")" * 10_000,
    "(" * MAX_LENGTH,
    "1" * 1_000_000,
    "\x00",
    "1\x002",
    "\x1b[31m1",
    "\x07",
    "\u200f1",
    "\u202e1 2",
    "\ufeff1",
    "😀",
    "1😀",
    "2️⃣",
    "\ud800",
    "{column}",
    "1" + "\u0301" * 10,
]


@pytest.mark.parametrize("text", HOSTILE, ids=range(len(HOSTILE)))
@pytest.mark.parametrize("shape", [(), (3,), (2, 2)])
def test_hostile_input_is_invalid(text, shape):
    invalid = reject(text, shape)
    assert invalid.message() and invalid.message("ja")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("-" * (MAX_LENGTH - 1) + "1", -1.0),
        ("√" * (MAX_LENGTH - 2) + "16", 1.0),
        ("1^" * 999 + "1", 1.0),
    ],
    ids=["signs", "roots", "powers"],
)
def test_long_legal_runs_are_read_without_deep_recursion(text, expected):
    assert read(text).value == pytest.approx(expected)


SHAPES = st.sampled_from([(), (3,), (2, 2)])


def check_never_raises(text, shape):
    result = parse_answer(text, shape)
    if isinstance(result, Parsed):
        assert np.shape(result.value) == shape
        assert np.all(np.isfinite(result.value))
    else:
        assert result.message() and result.message("ja")


@given(st.text(), SHAPES)
@settings(deadline=None, max_examples=300)
def test_no_text_makes_the_parser_raise(text, shape):
    check_never_raises(text, shape)


FRAGMENTS = [
    *"0123456789", ".", "e", "E", "pi", "π", "sqrt", "exp", "log", "ln", "abs", "x", "√",
    "+", "-", "*", "/", "^", "**", "%", "(", ")", "[", "]", ",", ";", "\n", " ", "\t",
    "１", "．", "ー", "−", "×", "÷", "、", "。", "（", "）", "［", "］", "，",
    "²", "⁻", "½", "₂",
    "1e308", "1e-308", "0", "9^9",
]


@given(st.lists(st.sampled_from(FRAGMENTS), max_size=40).map("".join), SHAPES)
@settings(deadline=None, max_examples=500)
def test_no_answer_shaped_text_makes_the_parser_raise(text, shape):
    check_never_raises(text, shape)


@settings(max_examples=300, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False), st.sampled_from(["", "-", "+", "--", "- "]))
def test_a_signed_number_reads_as_the_grammar_gives_it(number, signs):
    """A number with its signs reads as itself, signs applied, alone or in parentheses."""
    text = signs + repr(abs(number))
    negative = signs.count("-") % 2 == 1
    expected = -abs(number) if negative else abs(number)
    value = read(text).value
    assert value == expected and math.copysign(1.0, value) == math.copysign(1.0, expected)
    assert read(f"({text})").value == value  # parenthesised: read by the full grammar


def test_ascii_answers_keep_their_columns():
    from quiz.answer_text.normalise import normalise

    assert normalise("[1, -2]").columns == (1, 2, 3, 4, 5, 6, 7)
    assert normalise("2²").text == "2^(2)"  # not ASCII: mapped as before


# --- shapes, as people write them ----------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["7x18, 7x8", "7×18, 7×8", "7 x 18, 7 X 8", "(7, 18), (7, 8)", "(7,18)(7,8)", "[7, 18], [7, 8]", "7x18; 7x8", "7 18 7 8", "７×１８、７×８"],
)
def test_a_shape_answer_reads_the_ways_people_write_shapes(text):
    parsed = parse_answer(text, (4,), sizes=True)
    assert isinstance(parsed, Parsed), parsed
    assert parsed.value.tolist() == [7.0, 18.0, 7.0, 8.0]


def test_a_shape_answer_keeps_the_column_of_what_was_typed():
    assert reject_sizes("(7, 18), (7, b)").message("en").startswith("At character 14: unknown name 'b'")


def test_an_x_between_numbers_is_a_size_separator_only_in_a_shape_answer():
    assert "unknown name 'x'" in reject("7x18", (2,)).message("en")
    assert reject_sizes("7x18").message("en") == "Expected a vector of 4 numbers, but got a vector of 2 numbers."


def reject_sizes(text: str) -> Invalid:
    result = parse_answer(text, (4,), sizes=True)
    assert isinstance(result, Invalid), result
    return result
