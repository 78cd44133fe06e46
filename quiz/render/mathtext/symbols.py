"""What each LaTeX command without arguments stands for, as Unicode text."""

# TeX draws \epsilon as ϵ, but ε is the letter readers know.
GREEK = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε",
    "zeta": "ζ", "eta": "η", "theta": "θ", "vartheta": "ϑ", "iota": "ι", "kappa": "κ",
    "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "omicron": "ο", "pi": "π", "varpi": "ϖ",
    "rho": "ρ", "varrho": "ϱ", "sigma": "σ", "varsigma": "ς", "tau": "τ", "upsilon": "υ",
    "phi": "φ", "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω",
    "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π",
    "Sigma": "Σ", "Upsilon": "Υ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
}  # fmt: skip

# Symbols that read as one quantity, so a fraction or root around them needs no parentheses.
ORDINARY = {
    **GREEK,
    "infty": "∞", "partial": "∂", "nabla": "∇", "ell": "ℓ", "hbar": "ħ", "emptyset": "∅",
    "varnothing": "∅", "top": "⊤", "intercal": "⊺", "bot": "⊥", "prime": "′", "forall": "∀",
    "exists": "∃", "neg": "¬", "lnot": "¬", "Re": "ℜ", "Im": "ℑ", "aleph": "ℵ",
    "%": "%", "$": "$", "#": "#", "_": "_", "&": "&",
}  # fmt: skip

# Operators and relations: they join quantities, so they are set apart by a space either side.
BINARY = {
    "cdot": "·", "times": "×", "div": "÷", "pm": "±", "mp": "∓", "ast": "∗", "star": "⋆",
    "circ": "∘", "bullet": "•", "odot": "⊙", "otimes": "⊗", "oplus": "⊕", "setminus": "∖",
    "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "ne": "≠", "neq": "≠", "approx": "≈",
    "equiv": "≡", "sim": "∼", "simeq": "≃", "cong": "≅", "propto": "∝", "ll": "≪", "gg": "≫",
    "in": "∈", "notin": "∉", "ni": "∋", "subset": "⊂", "subseteq": "⊆", "supset": "⊃",
    "supseteq": "⊇", "cup": "∪", "cap": "∩", "land": "∧", "wedge": "∧", "lor": "∨", "vee": "∨",
    "to": "→", "rightarrow": "→", "leftarrow": "←", "gets": "←", "leftrightarrow": "↔",
    "Rightarrow": "⇒", "Leftarrow": "⇐", "Leftrightarrow": "⇔", "implies": "⟹", "iff": "⟺",
    "mapsto": "↦", "perp": "⊥", "parallel": "∥", "mid": "∣",
}  # fmt: skip

# Delimiters and punctuation: written against what they enclose or follow, spaced as written.
DELIMITERS = {
    "{": "{", "}": "}", "lbrace": "{", "rbrace": "}", "langle": "⟨", "rangle": "⟩",
    "lceil": "⌈", "rceil": "⌉", "lfloor": "⌊", "rfloor": "⌋", "|": "‖", "Vert": "‖",
    "lVert": "‖", "rVert": "‖", "vert": "|", "lvert": "|", "rvert": "|", "colon": ":",
    "ldots": "…", "dots": "…", "cdots": "⋯", "vdots": "⋮", "ddots": "⋱",
}  # fmt: skip

# `\not` before a relation: the negated relation where Unicode has one.
NEGATED = {"=": "≠", "∈": "∉", "≤": "≰", "≥": "≱", "⊂": "⊄", "⊆": "⊈", "∼": "≁", "≡": "≢"}

# Operators written as upright words (`\ln x` is "ln x").
FUNCTION_WORDS = frozenset(
    "ln log lg exp sin cos tan sec csc cot sinh cosh tanh arcsin arccos arctan "
    "max min sup inf lim liminf limsup arg det dim ker deg gcd hom Pr".split()
)

# Operators whose limits are written as scripts: `\sum_{i=1}^{n}`.
BIG_OPERATORS = {
    "sum": "Σ", "prod": "Π", "coprod": "∐", "int": "∫", "iint": "∬", "oint": "∮",
    "bigcup": "⋃", "bigcap": "⋂", "bigoplus": "⨁", "bigotimes": "⨂",
}  # fmt: skip

# Spacing commands: a gap (every gap ends up one space wide) or none.
SPACES = {",": " ", ":": " ", ";": " ", " ": " ", "quad": " ", "qquad": " ", "!": "", "enspace": " "}

# Commands that only change size or style; what follows them is rendered as it stands.
IGNORED = frozenset(
    "big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr middle "
    "displaystyle textstyle scriptstyle scriptscriptstyle limits nolimits nonumber notag".split()
)

# Commands whose one argument is maths shown as it stands (fonts, boxes).
TRANSPARENT = frozenset(
    "mathrm mathbf mathit mathsf mathtt mathnormal mathcal mathfrak mathscr boldsymbol bm "
    "operatorname mathop boxed underline overbrace underbrace".split()
)

# Commands whose one argument is prose, shown as written with its spaces.
TEXT = frozenset("text textrm textbf textit textsf texttt textnormal mbox hbox".split())

# Commands whose arguments are dropped: they carry no content a reader needs.
DROPPED_ARGUMENTS = {"label": 1, "color": 1, "phantom": 1, "hphantom": 1, "vphantom": 1}

ACCENTS = {
    "hat": "\u0302", "widehat": "\u0302", "bar": "\u0304", "overline": "\u0305",
    "tilde": "\u0303", "widetilde": "\u0303", "vec": "\u20d7", "dot": "\u0307", "ddot": "\u0308",
}  # fmt: skip

_DOUBLE_STRUCK = {"C": "ℂ", "H": "ℍ", "N": "ℕ", "P": "ℙ", "Q": "ℚ", "R": "ℝ", "Z": "ℤ"}


def double_struck(text: str) -> str:
    """`\\mathbb{...}`: letters and digits in double-struck form (ℝ, 𝔼, 𝟙)."""
    return "".join(_double_struck_char(char) for char in text)


def _double_struck_char(char: str) -> str:
    if char in _DOUBLE_STRUCK:
        return _DOUBLE_STRUCK[char]
    if "A" <= char <= "Z":
        return chr(0x1D538 + ord(char) - ord("A"))
    if "a" <= char <= "z":
        return chr(0x1D552 + ord(char) - ord("a"))
    if "0" <= char <= "9":
        return chr(0x1D7D8 + ord(char) - ord("0"))
    return char
