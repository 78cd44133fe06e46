"""Unicode superscript and subscript characters, used only when a whole script has them."""

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
