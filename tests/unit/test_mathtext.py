"""Maths in Markdown rendered as Unicode text: the LaTeX rules, the parser Textual is given, plain text."""

import re
from collections.abc import Iterator

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.token import Token

from places import ROOT
from quiz.cli.main import main
from quiz.render.mathtext import latex_to_unicode, make_markdown_parser, markdown_to_plain
from quiz.sharing.html import inline_html

MATHS_TOKENS = {"math_inline", "math_inline_double", "math_block", "math_block_label"}


def rendered(cases: list[tuple[str, str]]):
    """Parametrise a test over (LaTeX, expected Unicode) pairs, each case named by its LaTeX."""
    return pytest.mark.parametrize(("latex", "expected"), cases, ids=[latex for latex, _ in cases])


@rendered(
    [
        (r"\alpha", "α"),
        (r"\beta + \gamma", "β + γ"),
        (r"\Sigma", "Σ"),
        (r"\Omega", "Ω"),
        (r"\sigma^2", "σ²"),
        (r"\varepsilon", "ε"),
    ]
)
def test_greek_letters(latex, expected):
    assert latex_to_unicode(latex) == expected


@rendered(
    [
        (r"\sqrt{x}", "√x"),
        (r"\sqrt{16}", "√16"),
        (r"\sqrt{d_k}", "√dₖ"),
        (r"\sqrt{d_{model}}", "√d_model"),
        (r"\sqrt{x + y}", "√(x + y)"),
        (r"\sqrt{QK^\top}", "√(QKᵀ)"),
        (r"\sqrt{(x + y)}", "√(x + y)"),
        (r"\sqrt[3]{8}", "∛8"),
        (r"\sqrt[n]{x}", "ⁿ√x"),
        (r"\sqrt 2", "√2"),
    ]
)
def test_square_roots_bracket_only_compound_radicands(latex, expected):
    assert latex_to_unicode(latex) == expected


@rendered(
    [
        (r"QK^\top", "QKᵀ"),
        (r"K^T", "Kᵀ"),
        (r"W_Q^{\top}", "W_Qᵀ"),
        (r"x^2", "x²"),
        (r"e^{-2}", "e⁻²"),
        (r"x^{n+1}", "xⁿ⁺¹"),
        (r"x^{(i)}", "x⁽ⁱ⁾"),
        (r"10^9", "10⁹"),
        (r"x^{2}_{i}", "xᵢ²"),  # TeX stacks them; in a line the subscript reads first
        (r"x_i^2", "xᵢ²"),
        (r"x ^ 2", "x²"),
        (r"f'(x)", "f′(x)"),
        (r"x^{\prime}", "x′"),
        (r"x^q", "x^q"),
        (r"2^{d_k}", "2^dₖ"),
        (r"e^{q \cdot k}", "e^(q · k)"),
        (r"e^{-(z_1 - z_2)}", "e^(-(z₁ - z₂))"),
        (r"x^{}", "x"),
    ]
)
def test_superscripts_use_unicode_only_when_every_character_has_one(latex, expected):
    assert latex_to_unicode(latex) == expected


@rendered(
    [
        (r"d_k", "dₖ"),
        (r"z_1", "z₁"),
        (r"x_{i+1}", "xᵢ₊₁"),
        (r"\delta_{ij}", "δᵢⱼ"),
        (r"x_{t-1}", "xₜ₋₁"),
        (r"d_{model}", "d_model"),
        (r"W_Q", "W_Q"),
        (r"W_O", "W_O"),
        (r"x_{\text{dim}}", "x_dim"),
        (r"x_{\text{out}}", "xₒᵤₜ"),
        (r"p_{i,j}", "p_(i,j)"),
    ]
)
def test_subscripts_keep_the_readable_underscore_when_unicode_lacks_a_letter(latex, expected):
    assert latex_to_unicode(latex) == expected


@rendered(
    [
        (r"\frac{a}{b}", "a/b"),
        (r"\frac12", "1/2"),
        (r"\frac{1}{\sqrt{d_k}}", "1/√dₖ"),
        (r"\frac{QK^\top}{\sqrt{d_k}}", "(QKᵀ)/√dₖ"),
        (r"\frac{a + b}{c - d}", "(a + b)/(c - d)"),
        (r"\frac{a−b}{2}", "(a−b)/2"),
        (r"\frac{\partial p_i}{\partial z_j}", "∂pᵢ/∂zⱼ"),
        (r"\frac{\exp(z_j)}{\sum_k \exp(z_k)}", "exp(zⱼ)/(Σₖ exp(zₖ))"),
        (r"\frac{\frac{a}{b}}{c}", "(a/b)/c"),
        (r"\sqrt{\frac{1}{2}}", "√(1/2)"),
        (r"\dfrac{\mathbb{E}[x]}{n}", "𝔼[x]/n"),
    ]
)
def test_fractions_bracket_only_compound_parts(latex, expected):
    assert latex_to_unicode(latex) == expected


@rendered(
    [
        (r"\sum_{i=1}^{d_k}", "Σᵢ₌₁^dₖ"),
        (r"\sum_{i=1}^{n} x_i", "Σᵢ₌₁ⁿ xᵢ"),
        (r"\sum_i p_i \log p_i", "Σᵢ pᵢ log pᵢ"),
        (r"\sum_{j \in S} x_j", "Σ(j ∈ S) xⱼ"),
        (r"\sum_{q=1}^{d_k}", "Σ(q=1..dₖ)"),
        (r"\prod_{i=1}^{n}", "Πᵢ₌₁ⁿ"),
        (r"\int_0^1 f", "∫₀¹ f"),
        (r"\sum\limits_{i}", "Σᵢ"),
        (r"\sum", "Σ"),
    ]
)
def test_big_operators_carry_their_limits(latex, expected):
    assert latex_to_unicode(latex) == expected


@rendered(
    [
        (r"\operatorname{softmax}(z)", "softmax(z)"),
        (r"\operatorname*{argmax}_j s_j", "argmaxⱼ sⱼ"),
        (r"\mathrm{Var}(s)", "Var(s)"),
        (r"\text{if } j > i", "if j > i"),
        (r"\textbf{bold} x", "bold x"),
        (r"\mathbf{x}", "x"),
        (r"\mathit{x}", "x"),
        (r"\mathbb{E}", "𝔼"),
        (r"\mathbb{R}", "ℝ"),
        (r"\mathbb{N}", "ℕ"),
        (r"\mathcal{O}(n^2)", "O(n²)"),
        (r"\hat{y}", "ŷ"),
        (r"\bar{x}", "x̄"),
        (r"\vec{ab}", "vec(ab)"),
    ]
)
def test_fonts_and_words_show_their_text(latex, expected):
    assert latex_to_unicode(latex) == expected


@rendered(
    [
        (r"a \cdot b", "a · b"),
        (r"a\cdot b", "a · b"),
        (r"3 \times 3", "3 × 3"),
        (r"a \le b", "a ≤ b"),
        (r"a \leq b", "a ≤ b"),
        (r"a \ge b", "a ≥ b"),
        (r"a \ne b", "a ≠ b"),
        (r"a \approx b", "a ≈ b"),
        (r"x \in S", "x ∈ S"),
        (r"x \to 0", "x → 0"),
        (r"x \rightarrow 0", "x → 0"),
        (r"-\infty", "-∞"),
        (r"\partial x", "∂x"),
        (r"\ln 65504", "ln 65504"),
        (r"\log{x}", "log x"),
        (r"\exp(z)", "exp(z)"),
        (r"\max_j s_j", "maxⱼ sⱼ"),
        (r"\min(a, b)", "min(a, b)"),
        (r"\max_{j \le i} s_j", "max_(j ≤ i) sⱼ"),
        (r"\left( a \right)", "(a)"),
        (r"\left.\frac{a}{b}\right|", "a/b|"),
        (r"a\!b", "ab"),
        (r"a\,b", "a b"),
        (r"a\;b", "a b"),
        (r"a \quad b", "a b"),
        (r"\{0, 1\}", "{0, 1}"),
        (r"\|x\|", "‖x‖"),
        (r"1, \ldots, n", "1, …, n"),
        (r"1, \dots, n", "1, …, n"),
        (r"x_1 \cdots x_n", "x₁ ⋯ xₙ"),
        (r"a \odot b", "a ⊙ b"),
        (r"x \sim p", "x ∼ p"),
        (r"p \propto e^{s}", "p ∝ eˢ"),
        (r"a \not= b", "a ≠ b"),
        (r"x \not\in S", "x ∉ S"),
        (r"\alpha x", "αx"),
    ]
)
def test_symbols_words_and_spacing(latex, expected):
    assert latex_to_unicode(latex) == expected


@rendered(
    [
        (r"\begin{bmatrix} 1 & 2 \\ 3 & 4 \end{bmatrix}", "[[1, 2], [3, 4]]"),
        (r"\begin{pmatrix} 1 & 2 \\ 3 & 4 \\ \end{pmatrix}", "[[1, 2], [3, 4]]"),
        (r"\begin{matrix} a & b \end{matrix}", "[[a, b]]"),
        (r"A = \begin{bmatrix} \frac{1}{2} & -\infty \end{bmatrix}", "A = [[1/2, -∞]]"),
        (r"\begin{array}{cc} 1 & 0 \\ 0 & 1 \end{array}", "[[1, 0], [0, 1]]"),
        (r"\begin{cases} 0 & j > i \\ s_{ij} & \text{otherwise} \end{cases}", "{0, j > i; sᵢⱼ, otherwise}"),
        (r"\begin{aligned} a &= b \\ c &= d \end{aligned}", "a = b\nc = d"),
    ]
)
def test_environments(latex, expected):
    assert latex_to_unicode(latex) == expected


@rendered(
    [
        (r"\foo", "foo"),
        (r"\foo{x}", "foo(x)"),
        (r"\foo{x}{y_1}", "foo(x, y₁)"),
        ("\\", ""),
        (r"x}", "x}"),
        (r"{x", "x"),
        (r"\frac{a}", "a/"),
        (r"\end{bmatrix}", ""),
        (r"[0, 1)", "[0, 1)"),
        (r"\label{eq} x", "x"),
    ]
)
def test_unknown_or_broken_input_keeps_what_was_written(latex, expected):
    assert latex_to_unicode(latex) == expected


# The formulas the task names, as a reader should see them.
@rendered(
    [
        (r"\operatorname{softmax}(QK^\top/\sqrt{d_k})V", "softmax(QKᵀ/√dₖ)V"),
        (r"\frac{\partial p_i}{\partial z_j} = p_i(\delta_{ij} - p_j)", "∂pᵢ/∂zⱼ = pᵢ(δᵢⱼ - pⱼ)"),
        (r"\sum_{i=1}^{d_k} q_i k_i", "Σᵢ₌₁^dₖ qᵢ kᵢ"),
        (r"\mathbb{E}[q_i^2 k_i^2]", "𝔼[qᵢ² kᵢ²]"),
        (r"\operatorname{Var}(s/c) = \operatorname{Var}(s)/c^2", "Var(s/c) = Var(s)/c²"),
        (r"-\infty", "-∞"),
        (r"\ln 65504 \approx 11.09", "ln 65504 ≈ 11.09"),
        (r"\mathrm{diag}(p) - pp^\top", "diag(p) - ppᵀ"),
        (r"d_{model}", "d_model"),
        (r"W_Q", "W_Q"),
        (r"x \in \mathbb{R}^{n \times d}", "x ∈ ℝ^(n × d)"),
        (r"\{0, 1\}", "{0, 1}"),
        (r"|a - b| \le atol + rtol \cdot |b|", "|a - b| ≤ atol + rtol · |b|"),
    ]
)
def test_formulas_of_the_brief(latex, expected):
    assert latex_to_unicode(latex) == expected


def test_nesting_deeper_than_any_formula_is_shown_flat():
    assert latex_to_unicode("{" * 500 + "x" + "}" * 500) == "x"
    assert latex_to_unicode(r"\sqrt" * 500 + "{x}").endswith("x")


latex_pieces = st.sampled_from(
    [*"\\{}^_&$'~ ab1.()[]|-+=", r"\frac", r"\sqrt", r"\sum", r"\left", r"\right", r"\\", r"\text",
     r"\begin{bmatrix}", r"\end{bmatrix}", r"\begin{cases}", r"\not", r"\mathbb", r"\alpha", r"\foo"]
)  # fmt: skip


@given(st.one_of(st.text(), st.lists(latex_pieces, max_size=40).map("".join)))
def test_any_text_converts_without_raising_or_leaving_a_backslash(latex):
    text = latex_to_unicode(latex)
    assert isinstance(text, str)
    assert "\\" not in text


@given(st.text())
def test_any_markdown_becomes_plain_text(markdown):
    assert isinstance(markdown_to_plain(markdown), str)


def walk(tokens: list[Token]) -> Iterator[Token]:
    """Every token, children included."""
    for token in tokens:
        yield token
        yield from walk(token.children or [])


def types(markdown: str) -> set[str]:
    return {token.type for token in walk(make_markdown_parser().parse(markdown))}


def texts(markdown: str) -> list[str]:
    return [token.content for token in walk(make_markdown_parser().parse(markdown)) if token.type == "text"]


@pytest.mark.parametrize(
    "markdown",
    [
        r"Divide $QK^\top$ by $\sqrt{d_k}$.",
        "| formula | value |\n|---|---|\n| $d_k$ | $\\sqrt{d_k}$ |",
        "- one $x_i$\n- two $y_j$",
        "1. first\n\n   $$\n   \\frac{a}{b}\n   $$\n",
        "> quoted $\\alpha$\n>\n> $$x^2$$",
        "# Heading $\\Sigma$",
        "$$\n\\sum_i p_i\n$$",
        "$$x^2$$ (eq1)",
        "inline double $$y_1$$ maths",
        "![alt $x^2$](picture.png)",
    ],
    ids=["paragraph", "table", "list", "block-in-list", "quote", "heading", "block", "label", "double", "image"],
)
def test_no_maths_token_reaches_the_widget(markdown):
    assert not types(markdown) & MATHS_TOKENS


def test_inline_maths_becomes_its_unicode_text():
    assert texts(r"Divide $QK^\top$ by $\sqrt{d_k}$.") == ["Divide QKᵀ by √dₖ."]


def test_table_cells_hold_the_unicode_text():
    assert texts("| a | b |\n|---|---|\n| $x_i$ | $\\{0, 1\\}$ |") == ["a", "b", "xᵢ", "{0, 1}"]


def test_block_maths_becomes_a_paragraph_with_a_line_per_row():
    tokens = make_markdown_parser().parse("$$\n\\begin{aligned} a &= b \\\\ c &= d \\end{aligned}\n$$")
    assert [token.type for token in tokens] == ["paragraph_open", "inline", "paragraph_close"]
    assert [(child.type, child.content) for child in tokens[1].children] == [
        ("text", "a = b"),
        ("hardbreak", ""),
        ("text", "c = d"),
    ]


def test_markdown_inside_maths_is_not_markup():
    markdown = r"$a_1 * b_2 * c$ and $x_{i}$, $\{ y \}$"
    assert not types(markdown) & {"em_open", "strong_open"}
    assert texts(markdown) == ["a₁ * b₂ * c and xᵢ, {y}"]


@pytest.mark.parametrize(
    "prose",
    ["It costs $5 and $10.", "From $5 to $ 6.", r"An escaped \$x\$ stays.", "A lone $ sign."],
)
def test_dollars_in_prose_are_not_maths(prose):
    assert not types(prose) & MATHS_TOKENS
    assert "$" in markdown_to_plain(prose)


def test_the_parser_keeps_textuals_tables_and_strikethrough():
    parser = make_markdown_parser()
    rules = parser.block.ruler.get_active_rules() + parser.inline.ruler.get_active_rules()
    assert {"table", "strikethrough"} <= set(rules)
    assert types("~~gone~~ $x$") >= {"s_open", "text"}


def test_plain_text_keeps_the_structure_a_reader_sees():
    markdown = "\n".join(
        [
            "# Scaling",
            "",
            r"Divide by $\sqrt{d_k}$ and `keep $x$` as code.",
            "",
            "- one $a_1$",
            "- two",
            "  1. nested $b^2$",
            "",
            "| $x$ | $y$ |",
            "|---|---|",
            "| 1 | 2 |",
            "",
            "$$",
            r"\frac{a}{b}",
            "$$",
        ]
    )
    assert markdown_to_plain(markdown) == "\n".join(
        [
            "Scaling",
            "",
            "Divide by √dₖ and keep $x$ as code.",
            "",
            "- one a₁",
            "- two",
            "  1. nested b²",
            "",
            "x | y",
            "1 | 2",
            "",
            "a/b",
        ]
    )


def bank_texts() -> Iterator[str]:
    """Every string of the bundled question files and of the YAML examples in the authoring guide."""
    files = sorted((ROOT / "questions").glob("*.yaml"))
    documents = [yaml.safe_load(path.read_text(encoding="utf-8")) for path in files]
    guide = MarkdownIt("commonmark").parse((ROOT / "docs" / "authoring.md").read_text(encoding="utf-8"))
    documents += [yaml.safe_load(block.content) for block in guide if block.type == "fence" and block.info == "yaml"]
    yield from strings_in(documents)


def strings_in(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)


# A rendered placeholder is a number, array or name; one number stands for all of them here.
PLACEHOLDER = re.compile(r"\{\{.*?\}\}")
BANK_TEXTS = sorted({PLACEHOLDER.sub("7", text) for text in bank_texts() if "$" in text})
BANK_FORMULAS = sorted({formula for text in BANK_TEXTS for formula in re.findall(r"\$([^$]+)\$", text)})


def test_the_bank_has_formulas():
    assert len(BANK_FORMULAS) > 20


@pytest.mark.parametrize("formula", BANK_FORMULAS)
def test_every_bank_formula_converts_fully(formula):
    text = latex_to_unicode(formula)
    assert text.strip()
    assert "\\" not in text


@pytest.mark.parametrize("markdown", BANK_TEXTS)
def test_every_bank_text_shows_its_maths(markdown):
    assert not types(markdown) & MATHS_TOKENS
    # A formula the parser did not take as maths would show its dollars.
    assert "$" not in markdown_to_plain(markdown)


@pytest.mark.parametrize(
    ("source", "shown"),
    [
        ("注意重みは\nいくつですか。", "注意重みはいくつですか。"),  # between kana: joined
        ("聞かれました。\n次に", "聞かれました。次に"),  # after 。: joined
        ("係数 $d_k$ を\n求めます", "係数 dₖ を求めます"),  # maths beside it does not matter
        ("two English\nwords", "two English words"),  # English keeps its space
        ("値は\n0.5 です", "値は 0.5 です"),  # a kana before a digit: Latin text keeps the space
        ("標準偏差 3.933\n（約 4）", "標準偏差 3.933（約 4）"),  # full-width punctuation needs no space
    ],
)
def test_a_line_break_inside_japanese_joins_without_a_space(source, shown):
    assert markdown_to_plain(source) == shown


@pytest.mark.parametrize("markdown", ["$x$ が 0", "$x$ is 0", "$d_k$ は 64", "$x$\n\nand 2"])
def test_maths_opening_a_text_that_ends_in_a_digit_shows_without_dollars(markdown):
    """The plugin read an opening `$` at the start as preceded by the text's last character."""
    assert not types(markdown) & MATHS_TOKENS
    assert "$" not in markdown_to_plain(markdown)
    assert "\\(" in inline_html(markdown.split("\n")[0])  # the flashcards' parser finds it too


CJK_GAP = re.compile(r"(?<=[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]) (?=[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef])|(?<=[。、）]) ")


@pytest.mark.slow
def test_bundled_japanese_texts_show_no_gap_their_source_does_not_have():
    """Every gap between Japanese characters (or after 。、）) on screen is a space the author typed."""
    shown = 0
    for path in sorted((ROOT / "questions").glob("*.yaml")):
        for text in japanese_strings(yaml.safe_load(path.read_text(encoding="utf-8"))):
            source = PLACEHOLDER.sub("7", text)
            for gap in CJK_GAP.finditer(plain := markdown_to_plain(source)):
                around = plain[gap.start() - 1 : gap.end() + 1]
                assert around in source, (path.name, around, plain)
            shown += "\n" in source.strip()
    assert shown > 100  # many texts wrap their lines in the YAML


def test_quiz_show_prints_a_wrapped_japanese_question_without_gaps(capsys):
    """The prompt's source lines break after 「足し、」 and 「なので、」: both join without a space."""
    assert main(["show", "float16-fully-masked-row", "--lang", "ja"]) == 0
    out = capsys.readouterr().out
    assert "パディングマスクを足し、行の最大値を引かずに" in out
    assert "パディングだけなので、あるクエリ行ではすべてのキーがマスクされています。その行の" in out


def japanese_strings(value: object) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "ja" and isinstance(item, str):
                yield item
            else:
                yield from japanese_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from japanese_strings(item)
