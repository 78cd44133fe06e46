"""Markdown with maths: Textual's Markdown widget fed by our parser, which turns `$...$` into Unicode."""

from __future__ import annotations

from textual.widgets import Markdown

from quiz.render.mathtext import make_markdown_parser


class MathMarkdown(Markdown):
    """A Markdown block whose `$...$` maths is rendered as readable Unicode (√, ᵀ, dₖ, Σ, ...)."""

    def __init__(self, markdown: str = "", *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(markdown, id=id, classes=classes, parser_factory=make_markdown_parser, open_links=False)
