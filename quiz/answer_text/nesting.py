"""Matches brackets and parentheses into a tree, so later stages see each group as one item."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, TypeAlias

from quiz.answer_text.outcome import Rejected
from quiz.answer_text.tokens import Kind, Token

MAX_DEPTH: Final = 50
"""Deepest nesting of brackets and parentheses; it also bounds the readers' recursion."""

_CLOSING: Final = {Kind.OPEN_PAREN: Kind.CLOSE_PAREN, Kind.OPEN_BRACKET: Kind.CLOSE_BRACKET}


@dataclass(frozen=True)
class Group:
    """A run of items between an opening `(` or `[` and its matching closing token."""

    opening: Token
    items: tuple[Item, ...]
    closing: Token

    @property
    def kind(self) -> Kind:
        """`OPEN_PAREN` or `OPEN_BRACKET`."""
        return self.opening.kind

    @property
    def text(self) -> str:
        """The opening bracket, for messages."""
        return self.opening.text

    @property
    def column(self) -> int:
        """Original column of the opening bracket."""
        return self.opening.column

    @property
    def spaced(self) -> bool:
        """Whether whitespace precedes the opening bracket."""
        return self.opening.spaced

    @property
    def start(self) -> int:
        """Index of the opening bracket in the normalised text."""
        return self.opening.start

    @property
    def end(self) -> int:
        """Index just past the closing bracket in the normalised text."""
        return self.closing.end


Item: TypeAlias = Token | Group


def nest(tokens: Sequence[Token]) -> tuple[Item, ...]:
    """`tokens` with every bracketed run replaced by a `Group`, checking that brackets pair up."""
    open_groups: list[tuple[Token, list[Item]]] = []
    current: list[Item] = []
    for token in tokens:
        if token.kind in _CLOSING:
            if len(open_groups) == MAX_DEPTH:
                raise Rejected("parse.too_deep", token.column, limit=MAX_DEPTH)
            open_groups.append((token, current))
            current = []
        elif token.kind in (Kind.CLOSE_PAREN, Kind.CLOSE_BRACKET):
            if not open_groups:
                raise Rejected("parse.unmatched", token.column, bracket=token.text)
            opening, outer = open_groups.pop()
            if _CLOSING[opening.kind] is not token.kind:
                raise Rejected(
                    "parse.mismatched",
                    token.column,
                    bracket=token.text,
                    opening=opening.text,
                    opening_column=opening.column,
                )
            outer.append(Group(opening, tuple(current), token))
            current = outer
        else:
            current.append(token)
    if open_groups:
        opening, _ = open_groups[-1]
        raise Rejected("parse.unclosed", opening.column, bracket=opening.text)
    return tuple(current)
