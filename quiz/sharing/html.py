"""Question texts as HTML for flashcards: Markdown rendered, HTML escaped, maths left to MathJax.

A pack's texts are Markdown with `$...$` maths. For Anki, maths becomes MathJax's `\\( \\)` and
`\\[ \\]` (found by the same rules the app uses, so `$5 and $10` stays prose), anything that looks
like HTML in a pack is escaped (a pack is data and never writes markup), and a matrix value is
typeset as a matrix instead of the terminal's bracket art.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml

from quiz.base.numbers import format_number, format_value
from quiz.format.model import Text
from quiz.render.mathtext.markdown import use_dollar_maths
from quiz.variants.variant import Variant


def _mathjax(content: str, options: dict[str, Any]) -> str:
    opening, closing = (r"\[", r"\]") if options["display_mode"] else (r"\(", r"\)")
    return f"{opening}{escapeHtml(content)}{closing}"


@cache
def _parser() -> MarkdownIt:
    parser = MarkdownIt("commonmark", {"html": False}).enable("table")  # html False: raw HTML is escaped
    use_dollar_maths(parser, renderer=_mathjax)
    return parser


def markdown_html(markdown: str) -> str:
    """A Markdown text (with `$...$` maths) as HTML for a flashcard."""
    html: str = _parser().render(markdown)
    return html.strip()


def inline_html(markdown: str) -> str:
    """One line of Markdown as inline HTML (no paragraph around it)."""
    html: str = _parser().renderInline(markdown)
    return html.strip()


def card_value(value: object) -> str:
    """How a `{{ expr }}` value shows on a card: a matrix as a typeset matrix, others as in the app."""
    if isinstance(value, list | np.ndarray):
        array = np.asarray(value)
        if array.ndim == 2 and array.size and array.dtype.kind in "biuf":
            rows = [" & ".join(format_number(x) for x in row) for row in array.tolist()]
            return "\n\n$$\\begin{bmatrix}" + r" \\ ".join(rows) + "\\end{bmatrix}$$\n\n"
    return format_value(value)


def variant_html(variant: Variant, text: Text | None, lang: str) -> str:
    """A text of the variant in `lang`, its values filled in for a card, as HTML; a text that
    cannot be filled in shows where it stands and why (see `Variant.text`)."""
    if text is None:
        return ""
    return markdown_html(variant.text(text, lang, format_value=card_value))
