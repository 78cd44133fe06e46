"""A question's explanation, drawn as one widget so it can show in the same frame as the verdict.

Textual's Markdown widget parses in a thread and mounts a widget per block (two per code block),
which took most of the way from submitting an answer to its feedback. Explanations are nearly
always paragraphs (with maths already in Unicode and inline code) and the values they quote as
code blocks: those are drawn here as one Static holding a Rich group. Anything else (lists,
tables, headings, links) still goes to the Markdown widget, so nothing an author writes is lost.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from markdown_it import MarkdownIt
from markdown_it.token import Token
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.style import Style
from rich.text import Text as RichText
from textual.color import Color, ColorParseError
from textual.widget import Widget
from textual.widgets import Static

from quiz.render.mathtext import make_markdown_parser
from quiz.ui.widgets.maths import MathMarkdown

BLOCKS = {"paragraph_open", "paragraph_close", "inline", "fence", "code_block"}
INLINE_STYLES = {"em": "italic", "strong": "bold", "s": "strike"}
INLINE = {"text", "softbreak", "hardbreak", "code_inline"} | {f"{tag}_{end}" for tag in INLINE_STYLES for end in ("open", "close")}


@cache
def parser() -> MarkdownIt:
    """One parser for every explanation (building one costs more than parsing a short text)."""
    return make_markdown_parser()


def is_plain(tokens: list[Token]) -> bool:
    """Whether the document is only paragraphs of text, emphasis and inline code, and code blocks."""
    return all(token.type in BLOCKS and all(child.type in INLINE for child in token.children or []) for token in tokens)


@dataclass(frozen=True)
class ParsedExplanation:
    """An explanation's Markdown and its tokens, parsed ahead of the answer (see FeedbackBasis)."""

    markdown: str
    tokens: list[Token]


def parse_explanation(markdown: str) -> ParsedExplanation:
    """`markdown` parsed once, for `explanation_widget`."""
    return ParsedExplanation(markdown, parser().parse(markdown))


def explanation_widget(explanation: str | ParsedExplanation, *, id: str) -> Widget:
    """The explanation as one Static when it is plain (see `is_plain`), else as Markdown."""
    parsed = explanation if isinstance(explanation, ParsedExplanation) else parse_explanation(explanation)
    return PlainExplanation(parsed.tokens, id=id) if is_plain(parsed.tokens) else MathMarkdown(parsed.markdown, id=id)


class PlainExplanation(Static):
    """Paragraphs that wrap, and code blocks that never do (a matrix row must stay one line),
    indented and shaded as the Markdown widget draws them."""

    DEFAULT_CSS = """
    PlainExplanation {
        padding: 0 2;
    }
    """

    def __init__(self, tokens: list[Token], *, id: str) -> None:
        super().__init__(id=id)
        self.tokens = tokens

    @property
    def plain(self) -> str:
        """The text shown, without styles and unwrapped: paragraphs and code blocks one per line."""
        return "\n".join(str(text) for text in self._texts(Style(), Style()))

    def render(self) -> Group:
        # Built at render time: inline code and the code blocks' shading follow the current theme.
        blocks: list[RenderableType] = []
        for text in self._texts(self._code_style(), self._fence_style()):
            if blocks:
                blocks.append(RichText(""))  # a blank line between blocks, as Markdown's margin
            blocks.append(Padding(text, (1, 2), style=text.style, expand=True) if text.no_wrap else text)
        return Group(*blocks)

    def _texts(self, code: Style, fence: Style) -> list[RichText]:
        """Each block's text: paragraphs wrap; code blocks (styled `fence`) never do."""
        texts = []
        for token in self.tokens:
            if token.type == "inline":
                texts.append(_paragraph(token.children or [], code))
            elif token.type in ("fence", "code_block"):
                texts.append(RichText(token.content.rstrip("\n"), style=fence, no_wrap=True, overflow="ellipsis"))
        return texts

    def _code_style(self) -> Style:
        try:
            return Style(color=Color.parse(self.app.theme_variables.get("text-warning", "")).rich_color)
        except ColorParseError:
            return Style(bold=True)

    def _fence_style(self) -> Style:
        """A code block's shading, as Textual's Markdown draws a fence: black 10 % over the
        background on a dark theme, white 30 % on a light one, none in the terminal's own colours."""
        if self.app.native_ansi_color:
            return Style()
        shade = Color(0, 0, 0, 0.1) if self.app.current_theme.dark else Color(255, 255, 255, 0.3)
        return Style(bgcolor=(self.background_colors[1] + shade).rich_color)


def _paragraph(children: list[Token], code: Style) -> RichText:
    """One paragraph's inline tokens as wrapping text (a soft break is a space, as in Markdown)."""
    text = RichText()
    open_styles: list[str] = []
    for child in children:
        kind = child.type
        if kind == "text":
            text.append(child.content, style=" ".join(open_styles))
        elif kind == "code_inline":
            text.append(child.content, style=code)
        elif kind == "softbreak":
            text.append(" ")
        elif kind == "hardbreak":
            text.append("\n")
        elif kind.endswith("_open"):
            open_styles.append(INLINE_STYLES[kind.removesuffix("_open")])
        elif open_styles:
            open_styles.pop()
    return text
