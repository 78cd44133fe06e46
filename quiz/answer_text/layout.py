"""Lays the items of an answer out as rows of elements: a scalar, a vector or a matrix.

Rows end at `;` or a line break; elements end at `,` or at whitespace, with MATLAB's rule: a
space separates elements unless it sits next to a binary operator on both sides, so `1 -2` is
two elements, `1 - 2` and `1 - -2` one, `1 -2*3` two (1 and -6). A space after a function
name or `√` never separates (`sqrt (2)`). Square brackets around the whole answer are optional;
a matrix may also be written as bracketed rows (`[[1, 2], [3, 4]]`, `[1 2] [3 4]`).
Parentheses around a whole element act as brackets when they hold more than one element
(`(1, 2)`), and as grouping otherwise. Empty rows and a trailing comma are ignored; empty
elements (`1,,2`) are not. Since a comma separates elements, a decimal comma is not read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from quiz.answer_text.expression import FUNCTION_NAMES
from quiz.answer_text.nesting import Group, Item
from quiz.answer_text.outcome import Rejected
from quiz.answer_text.tokens import Kind

Element = tuple[Item, ...]
"""The items of one scalar expression."""

# Tokens that need an operand after them, so whitespace after them never starts a new element.
_WANTS_OPERAND: Final = frozenset({Kind.PLUS, Kind.MINUS, Kind.TIMES, Kind.DIVIDE, Kind.POWER, Kind.ROOT})
_SEPARATORS: Final = frozenset({Kind.COMMA, Kind.SEMICOLON, Kind.NEWLINE})


@dataclass(frozen=True)
class Cells:
    """The elements of an answer in rows; `ndim` is 0 (a bare scalar), 1 (a vector) or 2."""

    rows: tuple[tuple[Element, ...], ...]
    ndim: int


@dataclass(frozen=True)
class _Nested:
    """A bracketed list of rows found where an element was expected."""

    rows: list[list[Element]]
    column: int


def arrange(items: Sequence[Item]) -> Cells:
    """Split `items` into rows of scalar elements and decide the answer's dimensionality."""
    rows = _split_rows(items)
    if not rows:
        raise Rejected("parse.empty")
    if len(rows) == 1 and len(rows[0]) == 1:
        only = _classify(rows[0][0])
        if not isinstance(only, _Nested):
            return Cells(((only,),), ndim=0)
        if not only.rows:
            raise Rejected("parse.empty")
        rows = only.rows
    cells = [[_classify(element) for element in row] for row in rows]
    nested = [cell for row in cells for cell in row if isinstance(cell, _Nested)]
    if not nested:
        return _rectangular(rows, ndim=1 if len(rows) == 1 else 2)
    one_list_per_row = all(len(row) == 1 for row in cells)
    if len(nested) == sum(map(len, cells)) and (len(cells) == 1 or one_list_per_row):
        return _rectangular([_flat_row(cell) for cell in nested], ndim=2)
    raise Rejected("parse.nesting", nested[0].column)


def _split_rows(items: Sequence[Item]) -> list[list[Element]]:
    """Rows of elements, splitting at separators and at whitespace that separates."""
    rows: list[list[Element]] = []
    row: list[Element] = []
    element: list[Item] = []
    for index, item in enumerate(items):
        if item.kind is Kind.COMMA:
            if not element:
                raise Rejected("parse.empty_element", item.column)
            row.append(tuple(element))
            element = []
        elif item.kind in _SEPARATORS:
            if element:
                row.append(tuple(element))
                element = []
            if row:
                rows.append(row)
                row = []
        else:
            following = items[index + 1] if index + 1 < len(items) else None
            if element and item.spaced and _separates(element[-1], item, following):
                row.append(tuple(element))
                element = []
            element.append(item)
    if element:
        row.append(tuple(element))
    if row:
        rows.append(row)
    return rows


def _separates(before: Item, after: Item, following: Item | None) -> bool:
    """Whether whitespace between `before` and `after` starts a new element (MATLAB's rule)."""
    if before.kind in _WANTS_OPERAND:
        return False
    if before.kind is Kind.NAME and before.text.lower() in FUNCTION_NAMES:
        return False
    if after.kind in (Kind.TIMES, Kind.DIVIDE, Kind.POWER):
        return False
    if after.kind in (Kind.PLUS, Kind.MINUS):
        # `1 - 2` is a subtraction, `1 -2` a new element starting with a sign.
        return following is not None and not following.spaced and following.kind not in _SEPARATORS
    return True


def _classify(element: Element) -> Element | _Nested:
    """A nested list when the element is one bracketed group of elements, else the expression."""
    if len(element) != 1 or not isinstance(element[0], Group):
        return element
    group = element[0]
    rows = _split_rows(group.items)
    if group.kind is Kind.OPEN_PAREN and len(rows) <= 1 and sum(map(len, rows)) <= 1:
        # Grouping: `(1+2)` is the expression inside; `()` is left for the expression reader to reject.
        return _classify(rows[0][0]) if rows else element
    return _Nested(rows, group.column)


def _flat_row(nested: _Nested) -> list[Element]:
    """The elements of a bracketed matrix row, which must be one row of scalars."""
    if not nested.rows:
        raise Rejected("parse.empty_element", nested.column)
    if len(nested.rows) > 1:
        raise Rejected("parse.nesting", nested.column)
    row: list[Element] = []
    for element in nested.rows[0]:
        cell = _classify(element)
        if isinstance(cell, _Nested):
            raise Rejected("parse.nesting", cell.column)
        row.append(cell)
    return row


def _rectangular(rows: Sequence[Sequence[Element]], ndim: int) -> Cells:
    """`rows` as cells, provided every row has as many elements as the first."""
    width = len(rows[0])
    for number, row in enumerate(rows, start=1):
        if len(row) != width:
            column = row[0][0].column
            raise Rejected("parse.ragged", column, first=width, row=number, count=len(row))
    return Cells(tuple(tuple(row) for row in rows), ndim)
