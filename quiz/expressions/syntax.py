"""Parsing and static checks: an expression is accepted only if every node is on the allow-list.

Nothing here runs the expression, so `quiz validate` can reject a hostile one at its line.
"""

import ast
import difflib
from collections.abc import Iterable
from dataclasses import field

from quiz.base.fieldwise import Fieldwise, record
from quiz.expressions.attributes import ALLOWED_ATTRIBUTES, ARRAY_ATTRIBUTES
from quiz.expressions.errors import ExpressionError
from quiz.expressions.functions import ALLOWED_NAMES, CONSTANTS, FUNCTIONS
from quiz.expressions.limits import MAX_DEPTH, MAX_INT_BITS, MAX_NODES, MAX_SOURCE_CHARS

_SEGMENT_CHARS = 60  # longest sub-expression quoted in a message

_REFUSED_NODES: dict[type, str] = {
    ast.Lambda: "lambdas are not allowed",
    ast.ListComp: "comprehensions are not allowed",
    ast.SetComp: "comprehensions are not allowed",
    ast.DictComp: "comprehensions are not allowed",
    ast.GeneratorExp: "comprehensions are not allowed",
    ast.JoinedStr: "f-strings are not allowed; templates use {{ expr }}",
    ast.FormattedValue: "f-strings are not allowed; templates use {{ expr }}",
    ast.NamedExpr: "assignment expressions (:=) are not allowed",
    ast.Starred: "`*` unpacking is not allowed",
    ast.Dict: "dict literals are not allowed",
    ast.Set: "set literals are not allowed",
    ast.Await: "`await` is not allowed",
    ast.Yield: "`yield` is not allowed",
    ast.YieldFrom: "`yield` is not allowed",
}

BINARY_OPERATORS: dict[type, str] = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.Pow: "**",
    ast.MatMult: "@",
    ast.BitAnd: "&",
    ast.BitOr: "|",
}
"""Binary operators expressions may use, with their symbols (`&` and `|` on booleans only, elementwise)."""

_REFUSED_BINARY: dict[type, str] = {
    ast.BitXor: "`^` is XOR in Python; write `**` for a power",
    ast.LShift: "the operator `<<` is not allowed",
    ast.RShift: "the operator `>>` is not allowed",
}
_REFUSED_SYMBOLS = {ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>"}

COMPARISONS = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)
"""Comparison operators expressions may use."""

_REFUSED_COMPARISONS: dict[type, tuple[str, str]] = {
    ast.In: ("in", "`in` is not allowed"),
    ast.NotIn: ("not", "`not in` is not allowed"),
    ast.Is: ("is", "`is` is not allowed; compare with `==`"),
    ast.IsNot: ("is", "`is not` is not allowed; compare with `!=`"),
}


@record
class ParsedSource(Fieldwise):
    """A parsed expression and how to point at its nodes in the text the author wrote."""

    source: str
    tree: ast.Expression = field(repr=False, compare=False)
    _shift: int = field(repr=False, compare=False)  # leading whitespace removed before parsing
    _line_starts: tuple[int, ...] = field(repr=False, compare=False)

    @property
    def text(self) -> str:
        """The source as parsed, without its leading whitespace."""
        return self.source[self._shift :]

    def column(self, lineno: int, col_offset: int) -> int:
        """1-based character offset in `source` of an AST position (col_offset is in UTF-8 bytes)."""
        start = self._line_starts[min(max(lineno, 1), len(self._line_starts)) - 1]
        line_head = self.text[start:].encode("utf-8")[:col_offset]
        return self._shift + start + len(line_head.decode("utf-8", errors="ignore")) + 1

    def node_column(self, node: ast.AST) -> int | None:
        """Where `node` starts, if it has a position."""
        lineno, col_offset = getattr(node, "lineno", None), getattr(node, "col_offset", None)
        if lineno is None or col_offset is None:
            return None
        return self.column(lineno, col_offset)

    def end_column(self, node: ast.expr) -> int:
        """Where `node` ends (parsed expressions always carry their end)."""
        assert node.end_lineno is not None and node.end_col_offset is not None
        return self.column(node.end_lineno, node.end_col_offset)

    def segment(self, node: ast.AST) -> str:
        """The text of `node`, shortened for messages."""
        text = ast.get_source_segment(self.text, node) or ""
        text = " ".join(text.split())
        return text if len(text) <= _SEGMENT_CHARS else text[: _SEGMENT_CHARS - 1] + "…"

    def error(self, message: str, node: ast.AST | None = None, column: int | None = None) -> ExpressionError:
        """An ExpressionError at `node` (or at `column`) of this source."""
        if column is None and node is not None:
            column = self.node_column(node)
        return ExpressionError(message, self.source, column)


def parse(source: str) -> ParsedSource:
    """Parse `source` in eval mode, turning every parser failure into an ExpressionError."""
    if not isinstance(source, str):
        raise ExpressionError(f"an expression must be text, not {type(source).__name__}", str(source))
    if len(source) > MAX_SOURCE_CHARS:
        raise ExpressionError(
            f"the expression is {len(source):,} characters long; the limit is {MAX_SOURCE_CHARS:,}",
            source[:MAX_SOURCE_CHARS],
        )
    text = source.lstrip()
    if not text:
        raise ExpressionError("the expression is empty", source)
    if "\\" in source:
        # Expressions never need one, and Python's parser warns (not errs) on unknown escapes
        # in string literals, a warning that would leak to the terminal.
        raise ExpressionError("backslashes are not allowed in expressions", source, source.index("\\") + 1)
    shift = len(source) - len(text)
    line_starts = (0, *(index + 1 for index, char in enumerate(text) if char == "\n"))
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as error:
        column = None
        if error.lineno is not None and error.offset is not None:
            start = line_starts[min(max(error.lineno, 1), len(line_starts)) - 1]
            column = min(shift + start + max(error.offset, 1), len(source) + 1)
        detail = "" if error.msg == "invalid syntax" else f": {error.msg}"
        raise ExpressionError(f"invalid syntax{detail}", source, column) from None
    except (ValueError, RecursionError, MemoryError) as error:
        # Null bytes and unencodable text are ValueErrors; runaway nesting overflows the parser.
        reason = "nested too deeply" if not isinstance(error, ValueError) else str(error)
        raise ExpressionError(f"invalid expression: {reason}", source) from None
    return ParsedSource(source, tree, shift, line_starts)


def check(parsed: ParsedSource, names: Iterable[str] = ()) -> frozenset[str]:
    """Refuse anything outside the allow-list; return the declared names `parsed` uses."""
    _check_size(parsed)
    checker = _Checker(parsed, frozenset(names))
    checker.visit(parsed.tree.body)
    return frozenset(checker.used)


def _check_size(parsed: ParsedSource) -> None:
    # Iterative, so that a deep tree is refused before anything recurses over it. Each entry
    # carries the nearest node with a position (operators and contexts have none) to point at.
    count = 0
    stack: list[tuple[ast.AST, int, ast.AST]] = [(parsed.tree.body, 1, parsed.tree.body)]
    while stack:
        node, depth, anchor = stack.pop()
        count += 1
        if count > MAX_NODES:
            raise parsed.error(f"the expression has more than {MAX_NODES:,} parts")
        if depth > MAX_DEPTH:
            raise parsed.error(f"the expression is nested more than {MAX_DEPTH} levels deep", anchor)
        for child in ast.iter_child_nodes(node):
            stack.append((child, depth + 1, child if hasattr(child, "lineno") else anchor))


def _did_you_mean(name: str, candidates: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, sorted(candidates), n=1)
    return f"; did you mean `{close[0]}`?" if close else ""


class _Checker:
    """Walks a parsed tree and raises at the first node outside the allow-list."""

    def __init__(self, parsed: ParsedSource, names: frozenset[str]) -> None:
        self.parsed = parsed
        self.names = names
        self.used: set[str] = set()

    def visit(self, node: ast.AST) -> None:
        """Check `node` and everything below it."""
        method = getattr(self, f"_visit_{type(node).__name__}", None)
        if method is None:
            message = _REFUSED_NODES.get(type(node), f"{type(node).__name__} is not allowed")
            raise self.parsed.error(message, node)
        method(node)

    def _visit_Constant(self, node: ast.Constant) -> None:
        value = node.value
        if isinstance(value, complex):
            raise self.parsed.error("complex numbers are not allowed", node)
        if isinstance(value, bytes):
            raise self.parsed.error("bytes literals are not allowed", node)
        if isinstance(value, int) and value.bit_length() > MAX_INT_BITS:
            raise self.parsed.error(f"the integer exceeds the limit of {MAX_INT_BITS:,} bits", node)

    def _visit_Name(self, node: ast.Name) -> None:
        name = node.id
        self._check_identifier(name, node)
        if name in self.names:
            self.used.add(name)
        elif name in FUNCTIONS:
            raise self.parsed.error(f"`{name}` is a function; call it, as in `{name}(...)`", node)
        elif name not in CONSTANTS:
            hint = _did_you_mean(name, self.names | set(ALLOWED_NAMES))
            raise self.parsed.error(f"unknown name `{name}`{hint}", node)

    def _visit_BinOp(self, node: ast.BinOp) -> None:
        if type(node.op) not in BINARY_OPERATORS:
            symbol = _REFUSED_SYMBOLS.get(type(node.op), "")
            message = _REFUSED_BINARY.get(type(node.op), f"{type(node.op).__name__} is not allowed")
            raise self.parsed.error(message, node, self._between(node.left, node.right, symbol))
        self.visit(node.left)
        self.visit(node.right)

    def _visit_UnaryOp(self, node: ast.UnaryOp) -> None:
        self.visit(node.operand)

    def _visit_BoolOp(self, node: ast.BoolOp) -> None:
        for value in node.values:
            self.visit(value)

    def _visit_Compare(self, node: ast.Compare) -> None:
        operands = [node.left, *node.comparators]
        for op, left, right in zip(node.ops, operands, operands[1:]):
            if type(op) in _REFUSED_COMPARISONS:
                symbol, message = _REFUSED_COMPARISONS[type(op)]
                raise self.parsed.error(message, node, self._between(left, right, symbol))
        for operand in operands:
            self.visit(operand)

    def _visit_IfExp(self, node: ast.IfExp) -> None:
        self.visit(node.test)
        self.visit(node.body)
        self.visit(node.orelse)

    def _visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Attribute):
            raise self.parsed.error(
                f"methods cannot be called (`.{func.attr}(...)`); only functions such as `softmax(x)`",
                column=self._attribute_column(func),
            )
        if not isinstance(func, ast.Name):
            raise self.parsed.error("only named functions can be called, such as `softmax(x)`", func)
        self._check_identifier(func.id, func)
        if func.id in self.names:
            raise self.parsed.error(f"`{func.id}` is a value, not a function", func)
        if func.id not in FUNCTIONS:
            hint = _did_you_mean(func.id, FUNCTIONS)
            raise self.parsed.error(f"unknown function `{func.id}`{hint}", func)
        for argument in node.args:
            self.visit(argument)
        for keyword in node.keywords:
            if keyword.arg is None:
                raise self.parsed.error("`**` unpacking is not allowed", keyword)
            self._check_identifier(keyword.arg, keyword)
            self.visit(keyword.value)

    def _visit_Attribute(self, node: ast.Attribute) -> None:
        column = self._attribute_column(node)
        if node.attr.startswith("_"):
            raise self.parsed.error("attributes starting with `_` are not allowed", column=column)
        if node.attr not in ALLOWED_ATTRIBUTES:
            hint = _did_you_mean(node.attr, ALLOWED_ATTRIBUTES)
            arrays = ", ".join(f".{name}" for name in sorted(ARRAY_ATTRIBUTES))
            raise self.parsed.error(
                f"attribute `.{node.attr}` is not allowed (arrays have {arrays}; "
                f"engine results have their fields){hint}",
                column=column,
            )
        self.visit(node.value)

    def _visit_Subscript(self, node: ast.Subscript) -> None:
        self.visit(node.value)
        self.visit(node.slice)

    def _visit_Slice(self, node: ast.Slice) -> None:
        for part in (node.lower, node.upper, node.step):
            if part is not None:
                self.visit(part)

    def _visit_Tuple(self, node: ast.Tuple) -> None:
        for element in node.elts:
            self.visit(element)

    _visit_List = _visit_Tuple

    def _check_identifier(self, name: str, node: ast.AST) -> None:
        if name.startswith("_"):
            raise self.parsed.error("names starting with `_` are not allowed", node)

    def _attribute_column(self, node: ast.Attribute) -> int:
        return self.parsed.end_column(node) - len(node.attr)

    def _between(self, left: ast.expr, right: ast.expr, symbol: str) -> int | None:
        """Column of `symbol` between two operands, or of the left operand if not found."""
        start = self.parsed.end_column(left)
        end = self.parsed.column(right.lineno, right.col_offset)
        found = self.parsed.source.find(symbol, start - 1, end - 1) if symbol else -1
        return found + 1 if found >= 0 else self.parsed.node_column(left)
