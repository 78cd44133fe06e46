"""`{{ expr }}` templates: placeholders, literal braces, LaTeX left alone, errors at their place."""

import numpy as np
import pytest

from quiz.expressions import ExpressionError, compile_template

NAMESPACE = {"d_k": 4, "s": np.array([4.0, 0.0]), "Q": np.array([[1.0, 2.0], [3.0, 4.0]])}


def render(text: str, namespace=NAMESPACE) -> str:
    return compile_template(text, namespace).render(namespace)


def test_placeholders_are_replaced_by_formatted_values():
    text = "With d_k = {{ d_k }}, weights {{ softmax(s / sqrt(d_k)) }}."
    assert render(text) == "With d_k = 4, weights [0.8808, 0.1192]."


def test_a_matrix_placeholder_becomes_a_matrix_block():
    assert render("Q:{{ Q }}end") == "Q:\n\n```text\n⎡ 1  2 ⎤\n⎣ 3  4 ⎦\n```\n\nend"


def test_text_without_placeholders_renders_to_itself():
    text = "No placeholders } here {, nor }} here."
    template = compile_template(text)
    assert template.render({}) == text
    assert template.expressions == ()
    assert template.names == frozenset()


def test_latex_braces_are_left_alone():
    text = r"Scale by $\frac{1}{\sqrt{d_k}}$ = {{ 1 / sqrt(d_k) }} and $x^{2}_{ij}$."
    assert render(text) == r"Scale by $\frac{1}{\sqrt{d_k}}$ = 0.5 and $x^{2}_{ij}$."


def test_extra_opening_braces_stay_text():
    assert render(r"$2^{{{ d_k }}}$") == r"$2^{4}$"


def test_a_literal_double_brace_is_written_as_a_string_placeholder():
    assert render('Write {{ "{{" }} x }} for a placeholder.') == "Write {{ x }} for a placeholder."


def test_names_and_expressions_cover_every_placeholder():
    template = compile_template("{{ d_k }} and {{ s[0] + pi }}", NAMESPACE)
    assert template.names == {"d_k", "s"}
    assert [expression.source for expression in template.expressions] == [" d_k ", " s[0] + pi "]


def test_an_unclosed_placeholder_points_at_its_opening():
    with pytest.raises(ExpressionError) as caught:
        compile_template("fine {{ d_k }} then {{ d_k", NAMESPACE)
    assert caught.value.column == 21
    assert "never closed" in caught.value.message


def test_a_bad_placeholder_points_into_the_template():
    text = "line one\nvalue {{ d_k ^ 2 }}"
    with pytest.raises(ExpressionError) as caught:
        compile_template(text, NAMESPACE)
    error = caught.value
    assert error.source == text
    assert text[error.column - 1] == "^"
    assert str(error).splitlines()[1:] == ["  value {{ d_k ^ 2 }}", "               ^"]


def test_a_failing_placeholder_points_into_the_template_when_rendered():
    text = "a {{ s[5] }}"
    template = compile_template(text, NAMESPACE)
    with pytest.raises(ExpressionError) as caught:
        template.render(NAMESPACE)
    assert caught.value.column == 6
    assert "s[5]" in caught.value.message


def test_values_without_a_text_form_are_expression_errors():
    with pytest.raises(ExpressionError, match="cannot show"):
        render("{{ attention(Q, Q, Q) }}")
    with pytest.raises(ExpressionError, match="too many to show"):
        render("{{ zeros(100000) }}")


def test_render_takes_another_formatter():
    template = compile_template("{{ d_k }}!", NAMESPACE)
    assert template.render(NAMESPACE, format_value=lambda value: f"<{value}>") == "<4>!"


def test_a_text_holds_at_most_a_hundred_placeholders():
    from quiz.expressions.template import MAX_PLACEHOLDERS

    compile_template("{{ 1 }}" * MAX_PLACEHOLDERS)
    with pytest.raises(ExpressionError, match="at most 100 placeholders"):
        compile_template("{{ 1 }}" * (MAX_PLACEHOLDERS + 1))


def test_a_filled_in_text_has_a_length_limit():
    template = compile_template("{{ 'x' * 4000 }}" * 13)
    with pytest.raises(ExpressionError, match="longer than 50,000 characters"):
        template.render({})


def test_a_text_whose_values_are_all_shown_is_filled_in_from_them():
    template = compile_template("{{ d_k }} and {{ d_k + 1 }}", NAMESPACE)
    shown: dict[tuple[str, object], str] = {}
    first = template.render(NAMESPACE, shown=shown)
    assert template.render({}, shown=shown) == first  # nothing evaluated: an empty namespace would fail


def test_values_already_shown_still_meet_the_length_limit():
    from quiz.base.numbers import format_value

    template = compile_template("{{ 'x' * 4000 }}" * 13)
    with pytest.raises(ExpressionError, match="longer than 50,000 characters"):
        template.render({}, shown={(" 'x' * 4000 ", format_value): "x" * 4000})
