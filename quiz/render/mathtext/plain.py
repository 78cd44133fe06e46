"""Markdown as the plain text a reader sees, maths included, for the command line and tests."""

from functools import cache

from markdown_it import MarkdownIt
from markdown_it.token import Token

from quiz.render.mathtext.markdown import make_markdown_parser


def markdown_to_plain(markdown: str) -> str:
    """The text a reader of `markdown` sees, without its markup, maths as Unicode.

    Lists keep their markers, table rows show as cells joined by ` | `, code as written; HTML is
    left out, as Textual's Markdown widget leaves it out.
    """
    writer = _PlainWriter()
    for token in _parser().parse(markdown):
        writer.add(token)
    return writer.text()


@cache
def _parser() -> MarkdownIt:
    return make_markdown_parser()


class _PlainWriter:
    """Collects lines, indenting those inside list items and marking those inside quotes."""

    def __init__(self) -> None:
        self._lines: list[str] = []
        self._prefixes: list[str] = []  # what continues each open list item or quote
        self._marker: str | None = None  # a list item's marker, for its first line
        self._row: list[str] | None = None

    def add(self, token: Token) -> None:
        """Take the next token of the document."""
        kind = token.type
        if kind == "list_item_open":
            # An ordered item's number is in `info` and its "." or ")" in `markup`.
            marker = f"{token.info}{token.markup} " if token.info else "- "
            self._marker = "".join(self._prefixes) + marker
            self._prefixes.append(" " * len(marker))
        elif kind == "blockquote_open":
            self._prefixes.append("> ")
        elif kind in ("list_item_close", "blockquote_close"):
            self._prefixes.pop()
        elif kind == "tr_open":
            self._row = []
        elif kind == "tr_close":
            self._write(" | ".join(self._row or []))
            self._row = None
        elif kind == "inline":
            text = _inline_text(token.children or [])
            if self._row is not None:
                self._row.append(text)
            else:
                self._write(text)
        elif kind in ("fence", "code_block"):
            self._write(token.content.rstrip("\n"))
        elif kind == "hr":
            self._write("---")
        if token.nesting <= 0 and token.level == 0:
            self._lines.append("")  # a blank line after each top-level block

    def text(self) -> str:
        """Everything written, with single blank lines between blocks."""
        text = "\n".join(self._lines).strip("\n")
        while "\n\n\n" in text:
            text = text.replace("\n\n\n", "\n\n")
        return text

    def _write(self, text: str) -> None:
        for line in text.split("\n"):
            prefix = self._marker if self._marker is not None else "".join(self._prefixes)
            self._lines.append((prefix + line).rstrip())
            self._marker = None


def _inline_text(children: list[Token]) -> str:
    parts = []
    for child in children:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type == "softbreak":
            parts.append(" ")
        elif child.type == "hardbreak":
            parts.append("\n")
        elif child.type == "image":
            parts.append(_inline_text(child.children or []))
    return "".join(parts)
