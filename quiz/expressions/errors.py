"""The one error type the expression language raises, with a caret under the culprit."""

_WINDOW = 100  # characters of a long source line shown around the caret


class ExpressionError(Exception):
    """A question pack expression could not be compiled or evaluated.

    `column` is the 1-based character offset inside `source` where known. Callers that
    know the file and line (the YAML loader) prefix them; this type knows neither.
    """

    def __init__(self, message: str, source: str, column: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.source = source
        self.column = column

    def __str__(self) -> str:
        if self.column is None:
            return self.message
        line, caret = caret_lines(self.source, self.column)
        return f"{self.message}\n  {line}\n  {caret}"


def caret_lines(source: str, column: int) -> tuple[str, str]:
    """The source line holding 1-based offset `column`, and a caret line pointing at it."""
    offset = min(max(column - 1, 0), len(source))
    start = source.rfind("\n", 0, offset) + 1
    end = source.find("\n", offset)
    line = source[start : end if end >= 0 else len(source)]
    position = offset - start
    # A very long line is cut to a window around the caret, marked with ellipses.
    if len(line) > _WINDOW:
        left = max(0, min(position - _WINDOW // 2, len(line) - _WINDOW))
        shown = line[left : left + _WINDOW]
        prefix = "…" if left > 0 else ""
        suffix = "…" if left + _WINDOW < len(line) else ""
        line, position = prefix + shown + suffix, position - left + len(prefix)
    return line, " " * position + "^"
