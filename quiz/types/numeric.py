"""What number, vector and matrix questions share: a key the engine computes, graded within tolerance.

A response within |a − b| ≤ atol + rtol·|b| of the key, element by element, scores 1; otherwise a
response within the same tolerance of a misconception's value gets that misconception's credit.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

import numpy as np

from quiz.answers import Invalid, describe_shape, parse_answer
from quiz.format.compile import CompiledQuestion
from quiz.format.convert import Where
from quiz.format.diagnostics import Report
from quiz.format.model import Expr, Misconception, Parametric, QuestionBase, Tolerance, doc, error_at
from quiz.format.yaml_source import YamlMap
from quiz.grading.result import Result, Verdict, finish
from quiz.grading.tolerance import allowed_error, within
from quiz.i18n import tr
from quiz.render.numbers import format_array_inline, format_number
from quiz.types.base import Evaluate, QuestionType
from quiz.variants.variant import Variant, VariantError

MAX_ELEMENTS: Final = 64
"""The most numbers a learner is asked to type."""
OUTSIDE: Final = 1.1
"""How far outside the tolerance the self-test's near-miss is placed, as a multiple of the allowed error."""


@dataclass(frozen=True, kw_only=True)
class NumericQuestion(Parametric, QuestionBase):
    """A question answered with a number, a vector or a matrix."""

    answer: Expr = field(metadata=doc("The correct answer: an expression the engine evaluates, or a literal."))
    tolerance: Tolerance = field(default_factory=Tolerance, metadata=doc("How close an answer must be."))
    misconceptions: tuple[Misconception, ...] = field(default=(), metadata=doc("Named wrong answers with feedback."))

    def check_type(self, where: Where, raw: YamlMap, report: Report) -> bool:
        names = [m.name for m in self.misconceptions]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            return error_at(where, raw, "misconceptions", f"misconception names must be unique: {', '.join(duplicates)}", report)
        return True


def tolerance_rule(question: NumericQuestion, lang: str) -> str:
    """The grading rule in words ("every element" only for vectors and matrices)."""
    tolerance = question.tolerance
    return tr(
        "grade.tolerance_rule_scalar" if question.type == "number" else "grade.tolerance_rule",
        lang,
        atol=format_number(tolerance.effective_atol),
        rtol=format_number(tolerance.effective_rtol * 100) + "%",
    )


def _decimals(x: float) -> int:
    """How many decimal places the shortest exact form of `x` has (`0.12` → 2, `3` → 0, `1e-05` → 5)."""
    mantissa, _, exponent = repr(float(x)).partition("e")
    places = len(mantissa.partition(".")[2].rstrip("0"))
    return max(0, places - int(exponent or 0))


def rounds_to_response(key: Any, response: Any) -> bool:
    """Is each element of the learner's answer the key rounded to the places they gave?

    That is, the key lies within half a unit of the answer's last place (a tie either way). Such
    an answer is right as far as it goes but too coarse for the tolerance: the learner is told to
    give more significant figures, not simply that it is wrong. A 0 has no significant figure.
    """
    keys = np.atleast_1d(np.asarray(key, dtype=np.float64)).ravel()
    given = np.atleast_1d(np.asarray(response, dtype=np.float64)).ravel()
    if keys.shape != given.shape or not np.isfinite(given).all():
        return False
    half_units = [0.5 * 10.0 ** -_decimals(g) for g in given]
    return all(g != 0 and abs(k - g) <= half * (1 + 1e-9) for k, g, half in zip(keys, given, half_units))


def marked_answer(response: Any, marks: np.ndarray) -> str:
    """The learner's vector or matrix with ✓ or ✗ after each element."""
    values = np.asarray(response, dtype=np.float64)

    def cell(value: float, ok: bool) -> str:
        return f"{format_number(value)} {'✓' if ok else '✗'}"

    if values.ndim == 1:
        return "[" + ", ".join(cell(v, m) for v, m in zip(values, marks)) + "]"
    return "[" + ", ".join("[" + ", ".join(cell(v, m) for v, m in zip(row, mrow)) + "]" for row, mrow in zip(values, marks)) + "]"


def _exact_text(value: np.ndarray) -> str:
    """`value` in brackets with each number's shortest exact form, so it reads back bit for bit."""
    if value.ndim:
        return "[" + ", ".join(_exact_text(part) for part in value) + "]"
    return repr(float(value) + 0.0)  # + 0.0: no "-0.0"


class NumericType(QuestionType):
    """Shared behaviour of the numeric types; `rank` is the key's number of dimensions."""

    rank: ClassVar[int]

    def key(self, compiled: CompiledQuestion, evaluate: Evaluate) -> tuple[Any, dict[str, Any]]:
        assert compiled.answer is not None
        answer = self._checked(compiled, evaluate(compiled.answer, "answer"), "answer")
        misconceptions = {}
        for misconception, expression in compiled.misconceptions:
            what = f"misconceptions.{misconception.name}"
            misconceptions[misconception.name] = self._checked(compiled, evaluate(expression, what), what)
        return answer, misconceptions

    def _checked(self, compiled: CompiledQuestion, value: Any, what: str) -> float | np.ndarray:
        question = compiled.question
        try:
            array = np.asarray(value, dtype=np.float64)
        except (TypeError, ValueError):
            raise VariantError(question.id, f"{what} gave {value!r}, not a number or an array of numbers") from None
        if array.ndim != self.rank:
            expected = ("a number", "a vector", "a matrix")[self.rank]
            raise VariantError(question.id, f"{what} gave shape {array.shape}; a {question.type} question needs {expected}")
        if array.size > MAX_ELEMENTS:
            raise VariantError(question.id, f"{what} has {array.size} elements; a learner can type at most {MAX_ELEMENTS}")
        if self.rank == 0:
            return float(array)
        array.setflags(write=False)
        return array

    def read(self, variant: Variant, text: str) -> Any | Invalid:
        # The parser reads the raw text itself: its own normalising keeps columns exact and never
        # lets NFKC turn `3²` into 32.
        parsed = parse_answer(text, np.shape(variant.answer))
        return parsed if isinstance(parsed, Invalid) else parsed.value

    def grade(self, variant: Variant, response: Any, hints_used: int = 0) -> Result:
        question: NumericQuestion = variant.question  # type: ignore[assignment]
        marks = within(response, variant.answer, question.tolerance)
        element_marks = marks if marks.ndim else None
        if marks.all():
            return finish(question, 1.0, hints_used, marks=element_marks, answer=variant.answer)
        for misconception in question.misconceptions:
            if within(response, variant.misconceptions[misconception.name], question.tolerance).all():
                return finish(
                    question,
                    misconception.credit,
                    hints_used,
                    marks=element_marks,
                    misconception=misconception.name,
                    label=misconception.label,
                    feedback=(misconception.feedback,),
                    answer=variant.answer,
                )
        close = rounds_to_response(variant.answer, response)
        return finish(question, 0.0, hints_used, marks=element_marks, answer=variant.answer, details={"close": close} if close else {})

    def revealed_answer(self, variant: Variant) -> Any:
        return variant.answer

    def answer_text(self, variant: Variant, lang: str) -> str:
        return format_array_inline(variant.answer)

    def answer_json(self, variant: Variant, lang: str) -> Any:
        return variant.answer

    def how_to_answer(self, variant: Variant, lang: str) -> list[str]:
        what = describe_shape(np.shape(variant.answer), lang)
        return [tr("show.answer_with", lang, what=what), tolerance_rule(variant.question, lang)]  # type: ignore[arg-type]

    def response_text(self, variant: Variant, response: Any) -> str:
        return _exact_text(np.asarray(response, dtype=np.float64))

    def extra_json(self, variant: Variant, lang: str) -> dict[str, Any]:
        tolerance = variant.question.tolerance  # type: ignore[attr-defined]
        rule = tolerance_rule(variant.question, lang)  # type: ignore[arg-type]
        return {"tolerance": {"rtol": tolerance.effective_rtol, "atol": tolerance.effective_atol, "rule": rule}}

    def rule(self, variant: Variant, lang: str) -> str | None:
        return tolerance_rule(variant.question, lang)  # type: ignore[arg-type]

    def marked_response(self, variant: Variant, result: Result, response: Any, lang: str) -> str | None:
        if result.marks is None or response is None:
            return None
        return tr("grade.your_answer", lang, answer=marked_answer(response, result.marks))

    def self_test(self, variant: Variant) -> Iterator[str]:
        question: NumericQuestion = variant.question  # type: ignore[assignment]
        key = np.asarray(variant.answer, dtype=np.float64)
        if not np.isfinite(key).all():
            yield f"the answer is not finite: {variant.answer!r}"
            return
        if self.grade(variant, variant.answer).score != 1.0:
            yield "the answer key does not grade as correct"
        error = allowed_error(key, question.tolerance)
        for sign, side in ((1, "above"), (-1, "below")):
            if self.grade(variant, key + sign * OUTSIDE * error).verdict is Verdict.CORRECT:
                yield f"an answer 1.1x the tolerance {side} the key still grades as correct"
        for misconception in question.misconceptions:
            value = np.asarray(variant.misconceptions[misconception.name], dtype=np.float64)
            name = misconception.name
            if value.shape != key.shape:
                yield f"misconception {name} has shape {value.shape}, the answer {key.shape}"
            elif not np.isfinite(value).all():
                yield f"misconception {name} is not finite"
            elif within(value, key, question.tolerance).all():
                yield f"misconception {name} equals the answer within tolerance; add a constraint that separates them"
            elif (matched := self.grade(variant, value).misconception) != name:
                yield f"misconception {name}'s own value grades as {matched or 'no misconception'}"
