"""Compile-time checks: the allow-list, messages with columns, and hostile payloads refused unrun."""

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quiz.expressions import ALLOWED_NAMES, ExpressionError, compile_expression
from quiz.expressions.limits import MAX_SOURCE_CHARS

NAMES = ("x", "y", "Q", "K", "V", "d_k", "s")


def rejection(source: str, names=NAMES) -> ExpressionError:
    with pytest.raises(ExpressionError) as caught:
        compile_expression(source, names)
    return caught.value


@pytest.mark.parametrize(
    "source",
    [
        "1 + 2.5 - 3 * 4 / 5 // 6 % 7 ** 2",
        "Q @ K.T",
        "-x + +y",
        "not x",
        "x and y or not s",
        "1 < x <= 2 != 3 == 3 > 0 >= -1",
        "x if s else y",
        "x[0]",
        "x[1:2, ::-1, None, ...]",
        "[1, 2, (3, 4)]",
        "()",
        "'text' + \"more\"",
        "True or False or None",
        "softmax(s, axis=-2)[0]",
        "attention(Q, K, V, is_causal=True).weights[0]",
        "x.T.shape[0] + x.ndim + x.size",
        "pi * e + inf - nan",
        "sum(x, axis=0)",
    ],
)
def test_allowed_constructs_compile(source):
    expression = compile_expression(source, NAMES)
    assert expression.source == source


def test_names_are_the_declared_names_used():
    expression = compile_expression("softmax(s / sqrt(d_k))[0] + pi", NAMES)
    assert expression.names == {"s", "d_k"}


def test_a_declared_name_shadows_a_constant():
    assert compile_expression("e + 1", ["e"]).names == {"e"}
    assert compile_expression("e + 1").names == frozenset()


@pytest.mark.parametrize(
    ("source", "message", "column"),
    [
        ("lambda: 0", "lambdas are not allowed", 1),
        ("[i for i in (1,)]", "comprehensions are not allowed", 1),
        ("{i: 1 for i in (1,)}", "comprehensions are not allowed", 1),
        ("sum(i for i in (1,))", "comprehensions are not allowed", 4),
        ("f'{x}'", "f-strings are not allowed", 1),
        ("(y := 1)", "assignment expressions", 2),
        ("{1: 2}", "dict literals are not allowed", 1),
        ("{1}", "set literals are not allowed", 1),
        ("sum(*x)", "`*` unpacking is not allowed", 5),
        ("sum(**x)", "`**` unpacking is not allowed", 5),
        ("await x", "`await` is not allowed", 1),
        ("(yield x)", "`yield` is not allowed", 2),
        ("x << 2", "`<<` is not allowed", 3),
        ("x in y", "`in` is not allowed", 3),
        ("x not in y", "`not in` is not allowed", 3),
        ("x is None", "`is` is not allowed", 3),
        ("1j", "complex numbers are not allowed", 1),
        ("b'a'", "bytes literals are not allowed", 1),
        ("x._private", "attributes starting with `_`", 3),
        ("x.__class__", "attributes starting with `_`", 3),
        ("_x", "names starting with `_`", 1),
        ("x.tofile", "attribute `.tofile` is not allowed", 3),
        ("x.T.dump", "attribute `.dump` is not allowed", 5),
        ("x.repeat(10)", "methods cannot be called", 3),
        ("x[0](1)", "only named functions can be called", 1),
        ("softmax", "`softmax` is a function", 1),
        ("x(1)", "`x` is a value, not a function", 1),
        ("9" * 1300, "exceeds the limit", 1),
    ],
)
def test_rejected_constructs_name_what_and_where(source, message, column):
    error = rejection(source)
    assert message in error.message
    assert error.column == column
    assert error.source == source


def test_caret_is_a_power_hint_pointing_at_the_operator():
    error = rejection("s ^ 2")
    assert error.message == "`^` is XOR in Python; write `**` for a power"
    assert error.column == 3


def test_columns_count_characters_not_bytes_and_keep_leading_space():
    assert rejection("'é' ^ 2").column == 5
    assert rejection("  x ^ 2").column == 5
    assert rejection("(x +\n y ^ 2)").column == 9


def test_unknown_names_suggest_the_closest_known_one():
    assert rejection("sofmax(s)").message == "unknown function `sofmax`; did you mean `softmax`?"
    assert rejection("d_q * 2").message == "unknown name `d_q`; did you mean `d_k`?"
    assert rejection("zzzz").message == "unknown name `zzzz`"


def test_syntax_errors_carry_a_column():
    error = rejection("softmax(s")
    assert error.message.startswith("invalid syntax")
    assert error.column == 8


def test_error_text_puts_a_caret_under_the_column():
    error = ExpressionError("bad", "x ^ 2", 3)
    assert str(error) == "bad\n  x ^ 2\n    ^"
    assert str(ExpressionError("bad", "x")) == "bad"


def test_error_text_shows_only_the_line_holding_the_column():
    error = ExpressionError("bad", "(x +\n y ^ 2)", 9)
    assert str(error) == "bad\n   y ^ 2)\n     ^"


@pytest.mark.parametrize(
    "payload",
    [
        "().__class__.__bases__[0].__subclasses__()",
        "__import__('os')",
        "open('/etc/passwd')",
        "eval('1')",
        "exec('1')",
        "getattr(x, 'T')",
        "globals()",
        "locals()",
        "vars()",
        "lambda: 0",
        "[x for x in (1,)]",
        "x.tofile('f')",
        "x.dump('f')",
        "x.repeat(10)",
        "x.__class__",
        "f'{x}'",
        "f'{x.__class__}'",
        "'{0.__class__}'.format(x)",
        "(y := 1)",
        "type(x)",
        "attention.__globals__",
        "softmax.__code__",
        "x.ctypes",
        "x.base",
        "x.flat",
        "x.data",
        "__builtins__",
        "compile('1', 'f', 'eval')",
        "breakpoint()",
        "x.shape.__class__.__mro__",
    ],
)
def test_sandbox_escape_payloads_are_refused_without_running(payload, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rejection(payload)
    assert list(tmp_path.iterdir()) == []


def test_hundred_kilobyte_source_is_refused_at_once():
    error = rejection("x + " * 25_000 + "x")
    assert str(MAX_SOURCE_CHARS) in error.message.replace(",", "")


@pytest.mark.parametrize(
    "source",
    ["[" * 150 + "]" * 150, "-" * 500 + "1", "1+" * 999 + "1", "-" * 1999 + "1", "(" * 300 + ")" * 300],
)
def test_deep_nesting_is_refused(source):
    rejection(source)


def test_empty_and_non_text_sources_are_refused():
    assert "empty" in rejection("   ").message
    assert "text" in rejection(3).message


def test_allowed_names_list_functions_and_constants():
    assert {"softmax", "attention", "sqrt", "zeros", "pi", "inf"} <= set(ALLOWED_NAMES)
    assert not {"np", "eval", "getattr", "open", "type"} & set(ALLOWED_NAMES)
    assert list(ALLOWED_NAMES) == sorted(ALLOWED_NAMES)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_raises_only_expression_error(text):
    with contextlib.suppress(ExpressionError):
        compile_expression(text, NAMES)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="xys01()[]{}.,:;+-*/%@^<>=!~ '\"_\\\n\tajf", max_size=40))
def test_token_soup_raises_only_expression_error(text):
    with contextlib.suppress(ExpressionError):
        compile_expression(text, NAMES)


def test_backslashes_are_refused_before_python_could_warn_about_escapes():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ExpressionError) as caught:
            compile_expression("'\\d' + 'x'")
    assert caught.value.message == "backslashes are not allowed in expressions"
    assert caught.value.column == 2
