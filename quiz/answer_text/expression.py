"""Evaluates one element of an answer, a scalar expression, by recursive descent.

Grammar, loosest binding first (`log` is the natural logarithm, like `ln`):

    sum     = product (("+" | "-") product)*
    product = signed (("*" | "/") signed)*
    signed  = ("+" | "-")* power
    power   = operand (("^" | "**") ("+" | "-")* operand)*     right-associative: 2^3^2 = 2^9
    operand = ("√" ("+" | "-")*)* atom                            √√16 = 2, √-4 is rejected
    atom    = number | "e" | "pi" | function "(" sum ")" | "(" sum ")"
    function = "sqrt" | "exp" | "log" | "ln" | "abs"

A power binds tighter than a leading minus, as in maths: -2^2 = -4, while 2^-1 = 0.5. Names
are case-insensitive. Nothing is multiplied implicitly (`2pi` asks for `2*pi`). Every step is
computed in floats and checked, so overflow, division by zero and values with no real result
come back as messages rather than inf or nan. Runs of signs, roots and powers are read in
loops, so only parentheses recurse, and `nest` bounds their depth.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Final

from quiz.answer_text.nesting import Group, Item
from quiz.answer_text.outcome import Rejected
from quiz.answer_text.tokens import Kind, Token
from quiz.answer_text.wording import render_value, visible

_CONSTANTS: Final[dict[str, float]] = {"e": math.e, "pi": math.pi}

_Function = tuple[Callable[[float], float], Callable[[float], bool]]  # (function, domain)
_FUNCTIONS: Final[dict[str, _Function]] = {
    "sqrt": (math.sqrt, lambda x: x >= 0),
    "exp": (math.exp, lambda x: True),
    "log": (math.log, lambda x: x > 0),
    "ln": (math.log, lambda x: x > 0),
    "abs": (abs, lambda x: True),
}
FUNCTION_NAMES: Final = frozenset(_FUNCTIONS)

_SIGNS: Final = (Kind.PLUS, Kind.MINUS)
_SUGGESTION_CONTEXT = 24  # characters kept either side of the missing `*` in a suggestion


def evaluate(items: Sequence[Item], source: str) -> float:
    """The value of the expression `items`; `source` is the normalised text they were read from."""
    return _Reader(items, source).whole()


class _Reader:
    """A cursor over the items of one expression (a whole element or a parenthesised part)."""

    def __init__(self, items: Sequence[Item], source: str) -> None:
        self.items = items
        self.source = source
        self.position = 0

    def whole(self) -> float:
        """The value of all the items, rejecting anything left over."""
        value = self.sum()
        if self.position < len(self.items):
            self.reject_leftover(self.items[self.position])
        return value

    def peek(self) -> Item | None:
        return self.items[self.position] if self.position < len(self.items) else None

    def peek_kind(self) -> Kind | None:
        item = self.peek()
        return None if item is None else item.kind

    def take(self) -> Item:
        item = self.items[self.position]
        self.position += 1
        return item

    def sum(self) -> float:
        value = self.product()
        while self.peek_kind() in _SIGNS:
            operator = self.take()
            right = self.product()
            result = value + right if operator.kind is Kind.PLUS else value - right
            value = _finite(result, operator)
        return value

    def product(self) -> float:
        value = self.signed()
        while self.peek_kind() in (Kind.TIMES, Kind.DIVIDE):
            operator = self.take()
            right = self.signed()
            if operator.kind is Kind.TIMES:
                value = _finite(value * right, operator)
            elif right == 0:
                raise Rejected("parse.divide_by_zero", operator.column)
            else:
                value = _finite(value / right, operator)
        return value

    def signs(self) -> float:
        """Consume a run of leading signs and return their product, +1.0 or -1.0."""
        sign = 1.0
        while self.peek_kind() in _SIGNS:
            if self.take().kind is Kind.MINUS:
                sign = -sign
        return sign

    def signed(self) -> float:
        sign = self.signs()
        return sign * self.power()

    def power(self) -> float:
        # a0 ^ s1 a1 ^ s2 a2 means a0^(s1 * a1^(s2 * a2)): gather the chain, fold from the right.
        bases = [self.operand()]
        operators: list[Item] = []
        signs: list[float] = []
        while self.peek_kind() is Kind.POWER:
            operators.append(self.take())
            signs.append(self.signs())
            bases.append(self.operand())
        value = bases[-1]
        for index in reversed(range(len(operators))):
            value = _power(bases[index], signs[index] * value, operators[index])
        return value

    def operand(self) -> float:
        roots: list[tuple[Item, float]] = []  # each √ with the sign written after it: √-4
        while self.peek_kind() is Kind.ROOT:
            root = self.take()
            roots.append((root, self.signs()))
        value = self.atom()
        for root, sign in reversed(roots):
            value = _apply("sqrt", sign * value, root)
        return value

    def atom(self) -> float:
        item = self.peek()
        if item is None:
            last = self.items[-1]
            raise Rejected("parse.incomplete", last.column, token=visible(last.text))
        if isinstance(item, Group):
            self.take()
            return self.group(item)
        if item.kind is Kind.NUMBER:
            self.take()
            return item.value
        if item.kind is Kind.NAME:
            self.take()
            return self.name(item)
        raise Rejected("parse.expected_operand", item.column, token=visible(item.text))

    def group(self, group: Group) -> float:
        if group.kind is Kind.OPEN_BRACKET:
            raise Rejected("parse.bracket_in_expression", group.column)
        if not group.items:
            raise Rejected("parse.expected_operand", group.closing.column, token=group.closing.text)
        return _Reader(group.items, self.source).whole()

    def name(self, token: Token) -> float:
        name = token.text.lower()
        if name in _CONSTANTS:
            return _CONSTANTS[name]
        if name not in _FUNCTIONS:
            raise Rejected("parse.unknown_name", token.column, name=token.text)
        argument = self.peek()
        if not (isinstance(argument, Group) and argument.kind is Kind.OPEN_PAREN):
            raise Rejected("parse.function_needs_parens", token.column, name=name)
        self.take()
        return _apply(name, self.group(argument), token)

    def reject_leftover(self, item: Item) -> None:
        if isinstance(item, Group) and item.kind is Kind.OPEN_BRACKET:
            raise Rejected("parse.bracket_in_expression", item.column)
        if isinstance(item, Token) and item.kind is Kind.NAME and item.text.lower() not in _CONSTANTS and item.text.lower() not in _FUNCTIONS:
            # `0.17b`: a `*` would only lead to the next error; the name is what is wrong.
            raise Rejected("parse.unknown_name", item.column, name=item.text)
        if isinstance(item, Group) or item.kind in (Kind.NUMBER, Kind.NAME, Kind.ROOT):
            suggestion = self.suggest(item)
            raise Rejected("parse.implicit_multiplication", item.column, suggestion=suggestion)
        raise Rejected("parse.unexpected_token", item.column, token=visible(item.text))

    def suggest(self, item: Item) -> str:
        """This expression's text with the missing `*` before `item` (`2pi` gives `2*pi`)."""
        left = self.source[self.items[0].start : item.start].rstrip()
        right = self.source[item.start : self.items[-1].end]
        if len(left) > _SUGGESTION_CONTEXT:
            left = "…" + left[-_SUGGESTION_CONTEXT:]
        if len(right) > _SUGGESTION_CONTEXT:
            right = right[:_SUGGESTION_CONTEXT] + "…"
        return f"{left}*{right}"


def _finite(value: float, operator: Item) -> float:
    """`value`, unless the operation at `operator` overflowed."""
    if not math.isfinite(value):
        raise Rejected("parse.too_large", operator.column)
    return value


def _power(base: float, exponent: float, operator: Item) -> float:
    """`base` to the power `exponent`, which must be a finite real number."""
    try:
        return _finite(math.pow(base, exponent), operator)
    except OverflowError:
        raise Rejected("parse.too_large", operator.column) from None
    except ValueError:  # a negative base with a fractional exponent, or 0 to a negative power
        raise Rejected(
            "parse.power_domain",
            operator.column,
            base=render_value(base),
            exponent=render_value(exponent),
        ) from None


def _apply(name: str, argument: float, at: Item) -> float:
    """The function `name` of `argument`, checked against its domain and for overflow."""
    function, domain = _FUNCTIONS[name]
    if not domain(argument):
        raise Rejected("parse.domain", at.column, name=name, argument=render_value(argument))
    try:
        return _finite(function(argument), at)
    except OverflowError:
        raise Rejected("parse.too_large", at.column) from None
