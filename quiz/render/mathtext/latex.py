"""One LaTeX formula as readable Unicode text, for terminals that cannot typeset maths.

The parser follows TeX's grouping (braces, one-token arguments, scripts binding to what precedes
them) closely enough to know where parentheses are needed; `layout` then writes the pieces out.
"""

import unicodedata

from quiz.render.mathtext import symbols
from quiz.render.mathtext.latex_tokens import LatexToken, tokenize
from quiz.render.mathtext.layout import (
    ATOM,
    BIG,
    BLANK,
    BRACKET,
    COMPOUND,
    EMPTY,
    OPERATOR,
    SPACE,
    Piece,
    environment,
    join,
    limits,
    operand,
    script,
    tidy,
)
from quiz.render.mathtext.scripts import to_subscript, to_superscript

_MAX_NESTING = 50  # far deeper than any formula; deeper input is shown flat instead

_BRACKETS = {
    "(": ")", "[": "]", "|": "|", "\\{": "\\}", "\\lbrace": "\\rbrace", "\\langle": "\\rangle",
    "\\lvert": "\\rvert", "\\lVert": "\\rVert", "\\|": "\\|", "\\lceil": "\\rceil",
    "\\lfloor": "\\rfloor",
}  # fmt: skip
_OPERATOR_CHARS = frozenset("+-−=<>,;:/*!.?|").union(symbols.BINARY.values())  # typed as Unicode too
_ENVIRONMENT_STOPS = frozenset({"amp", "\\\\", "\\end"})
_FRACTIONS = frozenset("frac dfrac tfrac cfrac".split())
_ROOTS = {"": "√", "2": "√", "3": "∛", "4": "∜"}


class _TooDeep(Exception):
    """Nesting beyond _MAX_NESTING."""


def latex_to_unicode(latex: str) -> str:
    """One formula, without its dollars, as Unicode text (`\\sqrt{d_k}` → `√dₖ`); never raises.

    Unknown commands keep their name without the backslash, so nothing the author wrote is lost.
    """
    tokens = tokenize(latex)
    try:
        text = join(_Parser(tokens).sequence(frozenset())).text
    except _TooDeep:
        text = "".join(_token_text(token) for token in tokens if token.kind not in ("open", "close"))
    return tidy(text)


class _Parser:
    """Reads tokens left to right into pieces; each method consumes what it renders."""

    def __init__(self, tokens: list[LatexToken]) -> None:
        self._tokens = tokens
        self._position = 0
        self._depth = 0

    def sequence(self, stops: frozenset[str]) -> list[Piece]:
        """Pieces up to, not including, a token whose signature is in `stops`, or to the end."""
        self._enter()
        pieces: list[Piece] = []
        while (token := self._peek()) is not None and token.signature not in stops:
            if self._at_script():
                while pieces and pieces[-1].kind == SPACE:
                    pieces.pop()
                pieces.append(self._scripts(pieces.pop() if pieces else EMPTY))
            else:
                pieces.extend(self._item(stops))
        self._depth -= 1
        return pieces

    def _enter(self) -> None:
        self._depth += 1
        if self._depth > _MAX_NESTING:
            raise _TooDeep

    def _peek(self, ahead: int = 0) -> LatexToken | None:
        index = self._position + ahead
        return self._tokens[index] if index < len(self._tokens) else None

    def _take(self) -> LatexToken:
        token = self._tokens[self._position]
        self._position += 1
        return token

    def _skip(self, token: LatexToken) -> bool:
        if self._peek() != token:
            return False
        self._position += 1
        return True

    def _skip_spaces(self) -> None:
        while self._skip(LatexToken("space", " ")):
            pass

    def _at_script(self) -> bool:
        """Whether a script comes next, skipping the spaces before it (TeX ignores them)."""
        ahead = 0
        while (token := self._peek(ahead)) is not None and token.kind == "space":
            ahead += 1
        if token is None or not (token.kind in ("sup", "sub") or token == ("char", "'")):
            return False
        self._position += ahead
        return True

    def _item(self, stops: frozenset[str]) -> list[Piece]:
        token = self._take()
        if token.kind == "space" or token == ("char", "~"):
            return [BLANK]
        if token.kind == "number":
            return [Piece(token.value, ATOM)]
        if token.kind == "open":
            return [self._group_rest()]
        if token.kind == "close":  # an unbalanced brace: shown rather than lost
            return [Piece("}", OPERATOR)]
        if token.kind == "amp":  # an alignment mark outside any environment
            return []
        if token.kind == "cmd":
            return self._command(token.value, stops)
        if token.signature in _BRACKETS:
            return self._bracket(token, stops)
        return [Piece(token.value, OPERATOR if token.value in _OPERATOR_CHARS else ATOM)]

    def _scripts(self, base: Piece) -> Piece:
        lower: list[Piece] = []
        upper: list[Piece] = []
        while self._at_script():
            token = self._take()
            if token.kind == "sub":
                lower.append(self._argument())
            elif token.kind == "sup":
                upper.append(self._argument())
            else:
                upper.append(Piece("′", ATOM))
        below = join(lower) if lower else None
        above = join(upper) if upper else None
        if base.kind == BIG:
            return Piece(limits(base.text, below, above), OPERATOR)
        text = base.text
        if below is not None:
            text += script(below, to_subscript, "_")
        if above is not None:
            text += script(above, to_superscript, "^")
        return Piece(text, ATOM if base.kind == BRACKET else base.kind)

    def _group_rest(self) -> Piece:
        """The group whose `{` was just taken."""
        pieces = self.sequence(frozenset({"close"}))
        self._skip(LatexToken("close", "}"))
        return join(pieces)

    def _argument(self) -> Piece:
        """One TeX argument: a group, a command, or a single character or digit."""
        self._enter()
        self._skip_spaces()
        token = self._peek()
        if token is None or token.kind in ("close", "amp", "sup", "sub"):
            piece = EMPTY
        elif token.kind == "open":
            self._take()
            piece = self._group_rest()
        elif token.kind == "number" and len(token.value) > 1:
            # TeX reads one digit: `\frac12` is 1/2, and the rest stays for later.
            self._tokens[self._position] = LatexToken("number", token.value[1:])
            piece = Piece(token.value[0], ATOM)
        elif token.kind == "cmd":
            self._take()
            piece = join(self._command(token.value, frozenset({"close"})))
        else:
            piece = join(self._item(frozenset({"close"})))
        self._depth -= 1
        return piece

    def _text_argument(self) -> str:
        """An argument read as prose: `\\text{if } x` keeps its words and spaces."""
        self._skip_spaces()
        token = self._peek()
        if token is None:
            return ""
        self._take()
        if token.kind != "open":
            return _token_text(token)
        depth = 1
        parts = []
        while (token := self._peek()) is not None:
            self._take()
            depth += {"open": 1, "close": -1}.get(token.kind, 0)
            if depth == 0:
                break
            if token.kind not in ("open", "close"):
                parts.append(_token_text(token))
        return "".join(parts)

    def _bracket(self, opener: LatexToken, stops: frozenset[str]) -> list[Piece]:
        closer = _BRACKETS[opener.signature]
        inside = self.sequence(stops | {closer})
        token = self._peek()
        if token is None or token.signature != closer:  # unmatched, as in [0, 1): no pair
            return [Piece(_token_text(opener), OPERATOR), *inside]
        self._take()
        return [Piece(_token_text(opener) + join(inside).text + _token_text(token), BRACKET)]

    def _command(self, name: str, stops: frozenset[str]) -> list[Piece]:
        if "\\" + name in _BRACKETS:
            return self._bracket(LatexToken("cmd", name), stops)
        if name == "\\":
            return [Piece("\n", SPACE)]
        if name in ("left", "right"):
            self._skip(LatexToken("char", "."))  # `\left.` is an invisible delimiter
            return []
        if name in symbols.IGNORED or not name:
            return []
        if name in symbols.SPACES:
            return [Piece(symbols.SPACES[name], SPACE)] if symbols.SPACES[name] else []
        if name in symbols.ORDINARY:
            # TeX drops the space that ends a command name: `\partial p` is ∂p.
            if self._peek() == ("space", " ") and _starts_quantity(self._peek(1)):
                self._take()
            return [Piece(symbols.ORDINARY[name], ATOM)]
        if name in symbols.BINARY:
            return [Piece(f" {symbols.BINARY[name]} ", OPERATOR)]
        if name in symbols.DELIMITERS:
            return [Piece(symbols.DELIMITERS[name], OPERATOR)]
        if name in symbols.FUNCTION_WORDS:
            # `\log{x}` and `\ln65504` still need the space TeX would put there.
            gap = [BLANK] if _starts_quantity(self._peek()) else []
            return [Piece(name, ATOM), *gap]
        if name in symbols.BIG_OPERATORS:
            return [Piece(symbols.BIG_OPERATORS[name], BIG)]
        return [self._command_with_arguments(name)]

    def _command_with_arguments(self, name: str) -> Piece:
        if name == "sqrt":
            return self._root()
        if name in _FRACTIONS:
            numerator, denominator = self._argument(), self._argument()
            return Piece(f"{operand(numerator)}/{operand(denominator)}", COMPOUND)
        if name == "binom":
            n, k = self._argument(), self._argument()
            return Piece(f"({n.text} choose {k.text})", BRACKET)
        if name == "mathbb":
            return Piece(symbols.double_struck(self._argument().text), ATOM)
        if name in symbols.TRANSPARENT:
            self._skip(LatexToken("char", "*"))  # \operatorname*{argmax}
            inner = self._argument()
            return Piece(inner.text, ATOM if inner.text.isalnum() else inner.kind)
        if name in symbols.TEXT:
            return Piece(self._text_argument(), ATOM)
        if name in symbols.ACCENTS:
            inner = self._argument()
            if len(inner.text) == 1:
                # Precomposed where Unicode has it (ŷ): terminals draw those better than combining marks.
                return Piece(unicodedata.normalize("NFC", inner.text + symbols.ACCENTS[name]), ATOM)
            return Piece(f"{name}({inner.text})" if inner.text else name, ATOM)
        if name in symbols.DROPPED_ARGUMENTS:
            for _ in range(symbols.DROPPED_ARGUMENTS[name]):
                self._text_argument()
            return EMPTY
        if name == "not":
            relation = self._argument().text.strip()
            negated = symbols.NEGATED.get(relation, relation + "\u0338") if relation else ""
            return Piece(f" {negated} ", OPERATOR)
        if name == "begin":
            return self._environment()
        if name == "end":  # an \end with no \begin
            self._text_argument()
            return EMPTY
        return self._unknown(name)

    def _root(self) -> Piece:
        index = ""
        if self._skip(LatexToken("char", "[")):
            index = join(self.sequence(frozenset({"]", "close"}))).text
            self._skip(LatexToken("char", "]"))
        radicand = self._argument()
        sign = _ROOTS.get(index) or (to_superscript(index) or f"({index})") + "√"
        return Piece(sign + operand(radicand), ATOM)

    def _environment(self) -> Piece:
        name = self._text_argument().strip()
        if name == "array":
            self._text_argument()  # the column layout
        rows: list[list[str]] = [[]]
        while True:
            rows[-1].append(tidy(join(self.sequence(_ENVIRONMENT_STOPS)).text))
            token = self._peek()
            if token is None:
                break
            self._take()
            if token.signature == "\\end":
                self._text_argument()
                break
            if token.signature == "\\\\":
                rows.append([])
        while rows and not any(rows[-1]):  # a trailing \\ leaves an empty row
            rows.pop()
        return environment(name, rows)

    def _unknown(self, name: str) -> Piece:
        """An unknown command by its name, with any braced arguments: `\\foo{x}` → `foo(x)`."""
        arguments = []
        while self._skip(LatexToken("open", "{")):
            arguments.append(self._group_rest().text)
        return Piece(f"{name}({', '.join(arguments)})" if arguments else name, ATOM)


def _starts_quantity(token: LatexToken | None) -> bool:
    """Whether `token` begins something a preceding symbol or function would be applied to."""
    if token is None:
        return False
    if token.kind in ("number", "open"):
        return True
    if token.kind == "char":
        return token.value.isalpha()
    return token.kind == "cmd" and (
        token.value in symbols.ORDINARY
        or token.value in symbols.TRANSPARENT
        or token.value in symbols.TEXT
        or token.value in ("mathbb", "sqrt", *_FRACTIONS)
    )


def _token_text(token: LatexToken) -> str:
    """A token as prose shows it: a command by its symbol, else by its name."""
    if token.kind != "cmd":
        return token.value
    name = token.value
    for table in (symbols.ORDINARY, symbols.BINARY, symbols.DELIMITERS, symbols.SPACES):
        if name in table:
            return table[name]
    return "\n" if name == "\\" else name


