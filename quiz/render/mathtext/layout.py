"""How rendered pieces of a formula combine into text: parentheses, scripts, limits, matrices.

Each piece knows whether it reads as a single quantity (`dₖ`, `√x`, `f(x)`) or a compound one
(`QKᵀ`, `a + b`); that decides `√x` against `√(x + y)` and `a/b` against `(QKᵀ)/√dₖ`.
"""

import re
from collections.abc import Callable

from quiz.base.fieldwise import Fieldwise, record
from quiz.render.mathtext.scripts import to_subscript, to_superscript

# Kinds of rendered piece.
ATOM = "atom"  # one quantity: x, 42, dₖ, √x, ∞
BRACKET = "bracket"  # a matched pair and its contents: (x + y), [1, 0]
COMPOUND = "compound"  # several quantities: QKᵀ, a/b
OPERATOR = "operator"  # +, =, ·, ≤
BIG = "big"  # Σ, Π, ∫ before their limits
SPACE = "space"

_PREFIXES = frozenset("∂∇")  # `∂pᵢ` still reads as one quantity
_MATRICES = frozenset("matrix pmatrix bmatrix Bmatrix vmatrix Vmatrix smallmatrix array".split())


@record
class Piece(Fieldwise):
    """Rendered text and its kind, which says how it combines with its neighbours."""

    text: str
    kind: str


EMPTY = Piece("", ATOM)
BLANK = Piece(" ", SPACE)


def join(pieces: list[Piece]) -> Piece:
    """Pieces as one: outer spaces dropped, and a single quantity only if it reads as one."""
    start, end = 0, len(pieces)
    while start < end and pieces[start].kind == SPACE:
        start += 1
    while end > start and pieces[end - 1].kind == SPACE:
        end -= 1
    inner = pieces[start:end]
    if not inner:
        return EMPTY
    if len(inner) == 1:
        return inner[0]
    return Piece("".join(piece.text for piece in inner), ATOM if _reads_as_one(inner) else COMPOUND)


def _reads_as_one(pieces: list[Piece]) -> bool:
    """One quantity, perhaps after ∂ or ∇, perhaps applied to a bracket: ∂pᵢ, f(x), 𝔼[x]."""
    if any(piece.kind == SPACE for piece in pieces):
        return False
    if len(pieces) > 1 and pieces[0].text in _PREFIXES:
        pieces = pieces[1:]
    if len(pieces) == 2 and pieces[1].kind == BRACKET:
        pieces = pieces[:1]
    return len(pieces) == 1 and pieces[0].kind in (ATOM, BRACKET)


def operand(piece: Piece) -> str:
    """A fraction's part or a root's radicand, in parentheses unless it is one quantity."""
    return piece.text if piece.kind in (ATOM, BRACKET) else f"({piece.text})"


def script(piece: Piece, convert: Callable[[str], str | None], mark: str) -> str:
    """A sub- or superscript in Unicode script characters, else `_x`, `^x` or `^(x + 1)`."""
    text = tidy(piece.text)
    if not text:
        return ""
    converted = convert(text)
    if converted is not None:
        return converted
    single = text.isalnum() or (piece.kind in (ATOM, BRACKET) and not any(c.isspace() for c in text))
    return mark + (text if single else f"({text})")


def limits(symbol: str, below: Piece | None, above: Piece | None) -> str:
    """A big operator with its limits: `Σᵢ₌₁^dₖ` when the lower limit has subscripts, else `Σ(i..n)`."""
    upper = "" if above is None else script(above, to_superscript, "^")
    if below is None:
        return symbol + upper
    lowered = to_subscript(tidy(below.text))
    if lowered is not None:
        return symbol + lowered + upper
    span = tidy(below.text) + ("" if above is None else ".." + tidy(above.text))
    return f"{symbol}({span})"


def environment(name: str, rows: list[list[str]]) -> Piece:
    """A matrix inline as nested lists, cases in braces, aligned equations one per line."""
    if name in _MATRICES:
        nested = "[" + ", ".join("[" + ", ".join(row) + "]" for row in rows) + "]"
        return Piece({"vmatrix": f"det{nested}", "Vmatrix": f"‖{nested}‖"}.get(name, nested), ATOM)
    if name == "cases":
        return Piece("{" + "; ".join(", ".join(filter(None, row)) for row in rows) + "}", BRACKET)
    return Piece("\n".join(" ".join(filter(None, row)) for row in rows), COMPOUND)


def tidy(text: str) -> str:
    """Runs of spaces made one, none next to a line break or just inside a bracket."""
    text = re.sub(r"[^\S\n]+", " ", text)
    text = re.sub(r" ?\n ?", "\n", text)
    text = re.sub(r"([(\[{⟨]) ", r"\1", text)
    text = re.sub(r" ([)\]}⟩])", r"\1", text)
    return text.strip()
