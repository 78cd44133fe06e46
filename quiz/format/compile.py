"""Compile a question's expressions and templates once, checking them without running them.

Each expression is compiled with exactly the names in scope where it stands: a parameter sees
the parameters declared before it, a derived value the parameters and earlier derived values,
and answers, constraints, misconceptions and texts see them all. An unknown or misspelt name,
a forbidden construct or a hostile expression is reported at its file and line here, long
before any variant is drawn.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import fields, is_dataclass
from pathlib import Path

from quiz.base.fieldwise import Fieldwise, record
from quiz.expressions import ALLOWED_NAMES, Expression, ExpressionError, Template, compile_expression, compile_template
from quiz.format.diagnostics import Location, Report
from quiz.format.marks import located
from quiz.format.model import Accepted, Expr, Misconception, Param, Parametric, QuestionBase, Text

ANSWER_NAME = "answer"
EXPRESSION_RULES = ("multiple_of", "divisor_of", "distinct_from")
"""The rules of a parameter written as expressions (which may read earlier parameters)."""
TRACE_STEPS = ("scores", "scaled", "masked", "weights", "output")
"""The steps of an attention run that `worked:` can name (`run.weights`): the tensors the worked
values show; `checks` rejects any other."""


@record
class CompiledParam(Fieldwise):
    name: str
    spec: Param
    bounds: tuple[Expression, ...]
    """The compiled `integer`/`decimal` bounds or `normal` shape (empty for choice and fault)."""
    rules: tuple[tuple[str, Expression], ...] = ()
    """The compiled expressions of its rules with their fields (`multiple_of`, `divisor_of`, `distinct_from`)."""

    def rule(self, name: str) -> Expression | None:
        """The compiled expression of rule `name`, or None when the parameter has no such rule."""
        return next((e for r, e in self.rules if r == name), None)


@record
class CompiledQuestion(Fieldwise):
    """A question with every expression and template compiled, ready to draw variants from."""

    question: QuestionBase
    params: tuple[CompiledParam, ...] = ()
    derived: tuple[tuple[str, Expression], ...] = ()
    constraints: tuple[Expression, ...] = ()
    answer: Expression | None = None
    misconceptions: tuple[tuple[Misconception, Expression], ...] = ()
    accepted: tuple[tuple[Accepted, Expression], ...] = ()
    """The other accepted conventions with their answers compiled (numeric questions' `also_accepted`)."""
    templates: dict[str, Template] | None = None
    """Every text of the question (each language) by its source string."""
    texts: tuple[tuple[str, Text], ...] = ()
    """Every text of the question with its field label, as `texts_of` finds them (found once)."""
    screening: tuple[tuple[str, Expression], ...] = ()
    """The derived values the constraints read, directly or through others, in order: all a
    draw needs before the constraints can reject it."""
    figures: tuple[tuple[str, Expression], ...] = ()
    """An evidence question's figures by id, each value's expression compiled (see `quiz.types.evidence`)."""

    def template(self, text: str) -> Template:
        """The compiled template of one of the question's texts.

        A text from elsewhere (the interface's own, such as a code mistake's label that grading
        attaches) has no placeholders and renders as written.
        """
        assert self.templates is not None
        found = self.templates.get(text)
        return found if found is not None else compile_template(text)


def texts_of(obj: object, label: str = "") -> Iterator[tuple[str, Text]]:
    """Every Text inside a question (prompt, hints, options, feedback, ...) with its field label."""
    if isinstance(obj, Text):
        yield label, obj
    elif isinstance(obj, tuple):
        for i, item in enumerate(obj):
            yield from texts_of(item, f"{label}[{i}]")
    elif isinstance(obj, dict):
        for key, item in obj.items():
            yield from texts_of(item, f"{label}.{key}")
    elif is_dataclass(obj) and not isinstance(obj, type):
        for f in fields(obj):
            yield from texts_of(getattr(obj, f.name), f"{label}.{f.name}" if label else f.name)


class _Compiler:
    def __init__(self, question: QuestionBase, report: Report) -> None:
        self.question = question
        self.report = report
        self.ok = True

    def expression(self, expr: Expr, names: list[str], label: str) -> Expression | None:
        try:
            return compile_expression(expr.source, names)
        except ExpressionError as exc:
            self.fail(expr.location, f"{label}: {exc.message} in `{expr.source}`")
            return None

    def template(self, text: str, names: list[str], label: str, location: Location | None) -> Template | None:
        try:
            return compile_template(text, names)
        except ExpressionError as exc:
            self.fail(location, f"{label}: {exc.message}")
            return None

    def declare(self, name: str, names: list[str], label: str, location: Location | None) -> None:
        """Check a new parameter or derived name is free: not taken, reserved or a function."""
        if name in names:
            self.fail(location, f"{label}: '{name}' is already defined above")
        elif name == ANSWER_NAME:
            self.fail(location, f"{label}: '{ANSWER_NAME}' is reserved for the answer key")
        elif name in ALLOWED_NAMES or name.startswith("_") or not name.isidentifier():
            self.fail(location, f"{label}: '{name}' cannot be a name here (it is a function, a constant or not an identifier)")

    def fail(self, location: Location | None, message: str) -> None:
        self.report.error(location or self.question.source or Location(Path("<question>")), message)
        self.ok = False


def compile_question(question: QuestionBase, report: Report) -> CompiledQuestion | None:
    """Compile everything in `question`; report each problem and return None if any."""
    c = _Compiler(question, report)
    names: list[str] = []
    params: list[CompiledParam] = []
    derived: list[tuple[str, Expression]] = []
    constraints: list[Expression] = []
    if isinstance(question, Parametric):
        for name, spec in question.params.items():
            c.declare(name, names, f"params.{name}", located(question, "params", name))
            raw = spec.integer or spec.decimal or spec.normal or ()
            bounds = [c.expression(e, names, f"params.{name}.{spec.kind}") for e in raw]
            rules = tuple(
                (rule, compiled)
                for rule in EXPRESSION_RULES
                if (expr := getattr(spec, rule)) is not None and (compiled := c.expression(expr, names, f"params.{name}.{rule}")) is not None
            )
            params.append(CompiledParam(name, spec, tuple(b for b in bounds if b is not None), rules))
            names.append(name)
        for name, expr in question.derived.items():
            c.declare(name, names, f"derived.{name}", expr.location)
            compiled = c.expression(expr, names, f"derived.{name}")
            if compiled is not None:
                derived.append((name, compiled))
            names.append(name)
        for i, expr in enumerate(question.constraints):
            compiled = c.expression(expr, names, f"constraints[{i}]")
            if compiled is not None:
                constraints.append(compiled)
    # Types whose key the engine computes have an `answer` expression and may name misconceptions.
    answer_expr = getattr(question, "answer", None)
    answer = c.expression(answer_expr, names, "answer") if isinstance(answer_expr, Expr) else None
    misconceptions: list[tuple[Misconception, Expression]] = []
    for m in getattr(question, "misconceptions", ()):
        compiled = c.expression(m.answer, names, f"misconceptions.{m.name}.answer")
        if compiled is not None:
            misconceptions.append((m, compiled))
    accepted: list[tuple[Accepted, Expression]] = []
    for a in getattr(question, "also_accepted", ()):
        compiled = c.expression(a.answer, names, f"also_accepted.{a.name}.answer")
        if compiled is not None:
            accepted.append((a, compiled))
    # A code task of the pack's own: its reference and wrong variants read the inputs, its computed inputs the sizes.
    definition = getattr(question, "define", None)
    if definition is not None:
        inputs = list(definition.inputs)
        for name, spec in definition.inputs.items():
            if spec.value is not None:
                c.expression(spec.value, [*definition.sizes, *definition.choose], f"define.inputs.{name}.value")
        c.expression(definition.reference, inputs, "define.reference")
        for m in definition.mistakes:
            c.expression(m.answer, inputs, f"define.mistakes.{m.name}.answer")
    # An evidence question's figures see what its answer sees, but not the answer itself.
    figures = [
        (f.id, compiled) for f in getattr(question, "figures", ()) if (compiled := c.expression(f.value, names, f"figures.{f.id}.value")) is not None
    ]
    if isinstance(answer_expr, Expr):
        # Texts may show the variant's answer key, {{ answer }}: even when the answer expression
        # itself failed above, so that one mistake is not reported again in every text.
        names.append(ANSWER_NAME)
    templates: dict[str, Template] = {}
    texts = tuple(texts_of(question))
    for label, text in texts:
        for lang, source in text.items():
            if source not in templates:
                template = c.template(source, names, f"{label}.{lang}", text.location)
                if template is not None:
                    templates[source] = template
    if not c.ok:
        return None
    return CompiledQuestion(
        question,
        tuple(params),
        tuple(derived),
        tuple(constraints),
        answer,
        tuple(misconceptions),
        tuple(accepted),
        templates,
        texts,
        _read_by(constraints, derived),
        tuple(figures),
    )


def _read_by(expressions: list[Expression], derived: list[tuple[str, Expression]]) -> tuple[tuple[str, Expression], ...]:
    """The derived values `expressions` read, directly or through other derived values, in order."""
    needed: set[str] = set().union(*(e.names for e in expressions))
    for name, expression in reversed(derived):  # a derived value reads only those before it
        if name in needed:
            needed |= expression.names
    return tuple((name, expression) for name, expression in derived if name in needed)
