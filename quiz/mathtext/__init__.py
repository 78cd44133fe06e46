"""Maths in Markdown made legible in a terminal: `$...$` LaTeX rendered as Unicode text."""

from quiz.mathtext.latex import latex_to_unicode
from quiz.mathtext.markdown import make_markdown_parser
from quiz.mathtext.plain import markdown_to_plain

__all__ = ["latex_to_unicode", "make_markdown_parser", "markdown_to_plain"]
