"""A Markdown parser whose `$...$` and `$$...$$` maths come out as Unicode text tokens.

Textual's Markdown widget silently drops token types it does not know, so maths must reach it as
plain text and paragraphs; a plain Markdown parser would instead read `_` and `*` inside a formula
as emphasis.
"""

from collections.abc import Callable
from typing import Any, Final

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.dollarmath.index import math_inline_dollar

from quiz.render.mathtext.latex import latex_to_unicode

_INLINE_MATHS = frozenset({"math_inline", "math_inline_double"})
_BLOCK_MATHS = frozenset({"math_block", "math_block_label"})
DOLLAR_MATHS: Final = {
    # Pandoc's rule for prose with prices: `$5 and $10` is not maths, since a closing `$`
    # must not be followed by a digit nor an opening one followed by a space.
    "allow_space": False,
    "allow_digits": False,
    "allow_blank_lines": False,
    "double_inline": True,
}
"""How `$...$` and `$$...$$` maths is found in question texts, wherever they are rendered."""

InlineRule = Callable[[StateInline, bool], bool]


def use_dollar_maths(parser: MarkdownIt, **options: Any) -> None:
    """Find maths in `parser`'s input by the `DOLLAR_MATHS` rules; `options` go to the plugin."""
    parser.use(dollarmath_plugin, **DOLLAR_MATHS, **options)
    rule = math_inline_dollar(DOLLAR_MATHS["allow_space"], DOLLAR_MATHS["allow_digits"], DOLLAR_MATHS["double_inline"])
    parser.inline.ruler.at("math_inline", _opening_at_the_start(rule))


def _opening_at_the_start(rule: InlineRule) -> InlineRule:
    """`rule`, also right for a `$` that opens the text.

    The plugin looks for a digit before an opening `$` at `src[pos - 1]`, which at position 0 is
    the text's last character: `$x$ が 0` was left as prose, dollars and all. At position 0 it
    is given the text with a line break after it, so "before" is a character that is no digit.
    """

    def rule_anywhere(state: StateInline, silent: bool) -> bool:
        if state.pos > 0:
            return rule(state, silent)
        source = state.src
        state.src = source + "\n"
        try:
            return rule(state, silent)
        finally:
            state.src = source

    return rule_anywhere


def make_markdown_parser() -> MarkdownIt:
    """Textual's default "gfm-like" parser, plus dollar maths rendered to Unicode text.

    Pass it as `Markdown(text, parser_factory=make_markdown_parser)`.
    """
    parser = MarkdownIt("gfm-like")
    use_dollar_maths(parser)
    # After linkify, so no formula becomes a link; before text_join, which merges our text tokens.
    parser.core.ruler.before("text_join", "maths_to_text", _maths_to_text)
    parser.core.ruler.before("text_join", "cjk_line_joins", _join_cjk_lines)
    return parser


def is_cjk(char: str) -> bool:
    """Han, kana, and the punctuation and full-width forms Japanese is set in: no spaces between."""
    code = ord(char)
    return (
        0x3000 <= code <= 0x30FF  # CJK punctuation, hiragana, katakana
        or 0x3400 <= code <= 0x4DBF  # CJK extension A
        or 0x4E00 <= code <= 0x9FFF  # CJK unified ideographs
        or 0xF900 <= code <= 0xFAFF  # compatibility ideographs
        or 0xFF00 <= code <= 0xFFEF  # full-width and half-width forms
    )


def _join_cjk_lines(state: StateCore) -> None:
    """Core rule: a line break inside a Japanese paragraph joins the lines without a space.

    Markdown turns a source line break into a space, which is right between English words but
    shows as a stray gap in Japanese (「注意重みは いくつ」). So a soft break between two CJK
    characters, after CJK punctuation such as 。、」, or before full-width punctuation such as
    （ (「0.98 （約 1）」), is dropped.
    """
    for token in state.tokens:
        if not token.children:
            continue
        children = token.children
        kept = []
        for n, child in enumerate(children):
            if child.type == "softbreak" and 0 < n < len(children) - 1:
                before, after = children[n - 1].content, children[n + 1].content
                if before and after and _joins(before[-1], after[0]):
                    continue
            kept.append(child)
        token.children = kept


def _joins(last: str, first: str) -> bool:
    """Whether a line ending in `last` and one starting with `first` join without a space."""
    return (is_cjk(last) and (is_cjk(first) or last in _CLOSING)) or first in _PUNCTUATION


_CLOSING = frozenset("。、，．」』）〕】！？：；")
_PUNCTUATION = _CLOSING | frozenset("「『（〔【")


def _maths_to_text(state: StateCore) -> None:
    """Core rule: every maths token becomes text (inline) or a paragraph of text (block)."""
    tokens: list[Token] = []
    for token in state.tokens:
        if token.type in _BLOCK_MATHS:
            tokens.extend(_paragraph(token))
            continue
        if token.children:
            token.children = _inline_children(token.children)
        tokens.append(token)
    state.tokens = tokens


def _inline_children(children: list[Token]) -> list[Token]:
    converted = []
    for child in children:
        if child.type in _INLINE_MATHS:
            # An inline formula stays on its line, even an aligned one written over several.
            text = latex_to_unicode(child.content).replace("\n", " ")
            child = Token("text", "", 0, content=text, level=child.level)
        elif child.children:  # an image's alt text is inline tokens too
            child.children = _inline_children(child.children)
        converted.append(child)
    return converted


def _paragraph(token: Token) -> list[Token]:
    """A displayed formula as a paragraph, one line of text per line of the formula."""
    text = latex_to_unicode(token.content)
    if token.type == "math_block_label":
        text += f" ({token.info})"
    children: list[Token] = []
    for number, line in enumerate(text.split("\n")):
        if number:
            children.append(Token("hardbreak", "br", 0, level=token.level + 1))
        children.append(Token("text", "", 0, content=line, level=token.level + 1))
    inline = Token("inline", "", 0, map=token.map, level=token.level + 1, content=text, children=children, block=True)
    return [
        Token("paragraph_open", "p", 1, map=token.map, level=token.level, block=True),
        inline,
        Token("paragraph_close", "p", -1, level=token.level, block=True),
    ]
