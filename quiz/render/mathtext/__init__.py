"""Maths in Markdown made legible in a terminal: `$...$` LaTeX rendered as Unicode text."""

from quiz.render.mathtext.latex import latex_to_unicode
from quiz.render.mathtext.markdown import make_markdown_parser
from quiz.render.mathtext.plain import markdown_to_plain
from quiz.render.mathtext.scripts import scripts_in_text

__all__ = ["latex_to_unicode", "make_markdown_parser", "markdown_to_plain", "scripts_in_text"]
