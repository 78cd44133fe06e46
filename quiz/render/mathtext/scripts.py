"""Unicode superscript and subscript characters, used only when a whole script has them."""

import re
from typing import Final

# A subscript written in plain text: `_{...}`, or one or two letters or digits ending a word
# (`δ_ij`, `q_i`, `d_k`), never the start of a longer name (`d_model`).
_PLAIN_SUBSCRIPT: Final = re.compile(r"_(?:\{([^{}]*)\}|([A-Za-z0-9]{1,2})(?![A-Za-z0-9_]))")

_SUPERSCRIPTS = dict(
    zip(
        "0123456789+-−=()"
        "abcdefghijklmnoprstuvwxyz"
        "ABDEGHIJKLMNOPRTUVW"
        "βγδθφχ⊤⊺′″",
        "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾"
        "ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻ"
        "ᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂ"
        "ᵝᵞᵟᶿᵠᵡᵀᵀ′″",  # a transpose sign becomes ᵀ; a prime is already raised
        strict=True,
    )
)

_SUBSCRIPTS = dict(
    zip(
        "0123456789+-−=()aehijklmnoprstuvxβγρφχ",
        "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓᵦᵧᵨᵩᵪ",
        strict=True,
    )
)


def to_superscript(text: str) -> str | None:
    """`text` in superscript characters, or None when one of its characters has none."""
    return _convert(text, _SUPERSCRIPTS)


def to_subscript(text: str) -> str | None:
    """`text` in subscript characters, or None when one of its characters has none."""
    return _convert(text, _SUBSCRIPTS)


def _convert(text: str, table: dict[str, str]) -> str | None:
    # Spaces inside a script are layout only (`n + 1`), and a raised or lowered space does not exist.
    compact = "".join(text.split())
    if not compact or any(char not in table for char in compact):
        return None
    return "".join(table[char] for char in compact)


def scripts_in_text(text: str) -> str:
    """Plain text with its subscripts drawn as Unicode, as in the claims file: `δ_ij` → δᵢⱼ,
    `q_i` → qᵢ, `Σ_{i=1}` → Σᵢ₌₁; a subscript with a character that has no such form is kept as written."""
    return _PLAIN_SUBSCRIPT.sub(lambda match: to_subscript(match.group(1) or match.group(2)) or match.group(0), text)
