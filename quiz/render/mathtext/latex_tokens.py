"""LaTeX maths source split into tokens: commands, numbers, spaces, braces, scripts, characters."""

import re
from typing import NamedTuple

# A command is a backslash with a run of letters or any one other character; a lone backslash at
# the very end is a command with no name. Numbers keep their decimal point so `0.25` is one token.
_TOKEN = re.compile(r"\\([A-Za-z]+|.?)|(\d+(?:\.\d+)?)|(\s+)|(.)", re.DOTALL)
_SPECIAL = {"{": "open", "}": "close", "^": "sup", "_": "sub", "&": "amp"}


class LatexToken(NamedTuple):
    """One token: `kind` is cmd, number, space, open, close, sup, sub, amp or char."""

    kind: str
    value: str

    @property
    def signature(self) -> str:
        """What a parser waiting for this token looks for: `\\end`, `)`, `close`."""
        if self.kind == "cmd":
            return "\\" + self.value
        if self.kind == "char":
            return self.value
        return self.kind


def tokenize(latex: str) -> list[LatexToken]:
    """Every token of `latex`, in order; any text tokenizes."""
    tokens = []
    for match in _TOKEN.finditer(latex):
        command, number, space, char = match.groups()
        if command is not None:
            # `\ ` and a backslash before a line break are both a control space.
            tokens.append(LatexToken("cmd", " " if command.isspace() else command))
        elif number is not None:
            tokens.append(LatexToken("number", number))
        elif space is not None:
            tokens.append(LatexToken("space", " "))
        else:
            tokens.append(LatexToken(_SPECIAL.get(char, "char"), char))
    return tokens
