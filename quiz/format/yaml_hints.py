"""Plain-words hints for YAML syntax errors, shown beside the parser's own text.

libyaml names what it expected ("could not find expected ':'"), and usually at the line after
the slip. Authors need to hear what to look at: the indentation of the line above, an
unquoted `: ` or `#`, an unclosed quote or bracket, a tab.
"""

from __future__ import annotations

from typing import Final

_HINTS: Final = (
    ("tab", "indent with spaces: YAML does not allow tabs"),
    (
        "mapping values are not allowed",
        "a ': ' inside a value starts a new key: quote the value (\"Why: because\"), "
        "or check the indentation of this line against the line above",
    ),
    ("could not find expected ':'", "check the line above: a key needs ':' after it, and a value that goes on must be indented further"),
    ("did not find expected key", "check the indentation of this line and of the line above: the keys of one mapping line up"),
    ("did not find expected '-' indicator", "check the indentation of the line above: the items of one list line up under their '-'"),
    ("expected <block end>", "check the indentation of this line against the line above"),
    ("did not find expected ',' or ']'", "a list opened with '[' above is not closed, or a ',' is missing between its items"),
    ("did not find expected ',' or '}'", "a mapping opened with '{' above is not closed, or a ',' is missing between its entries"),
    ("unexpected end of stream", "a quote or bracket opened above is never closed"),
    (
        "unknown escape character",
        "inside double quotes a backslash starts an escape: write LaTeX in single quotes ('\\sqrt{d_k}') or double each backslash",
    ),
    ("cannot start any token", "a value cannot start with @, ` or %: quote it"),
    ("expected alphabetic or numeric character", "a value starting with * or & reads as an alias or anchor: quote it (\"*bold*\")"),
)


def yaml_hint(problem: str) -> str | None:
    """A hint in plain words for the parser's `problem` text, when one is known."""
    return next((hint for marker, hint in _HINTS if marker in problem), None)
