"""What number, vector and matrix questions share: a key the engine computes, graded within tolerance.

A response within |a − b| ≤ atol + rtol·|b| of the key, element by element, scores 1; otherwise a
response within the same tolerance of a misconception's value gets that misconception's credit.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any, ClassVar, Final

import numpy as np

from quiz.answer_text import Invalid, describe_shape
from quiz.base.numbers import format_array_inline, format_number
from quiz.format.compile import CompiledQuestion
from quiz.format.diagnostics import Location
from quiz.format.marks import located
from quiz.format.model import QuestionBase, Tolerance
from quiz.grading.result import Result, Verdict, finish
from quiz.grading.tolerance import allowed_error, within
from quiz.locale.i18n import tr
from quiz.models.questions import NumericQuestion, VectorQuestion
from quiz.render.plain_data import json_ready
from quiz.types.base import Evaluate, Mistake, Problem, QuestionType, trivial_clash
from quiz.variants.variant import Variant, VariantError, quoted

MAX_ELEMENTS: Final = 64
"""The most numbers a learner is asked to type."""
OUTSIDE: Final = 1.1
"""How far outside the tolerance the self-test's near-miss is placed, as a multiple of the allowed error."""
SHOWN_DIGITS: Final = 4
"""Significant figures the answer key is shown with (`format_number`'s default)."""
TYPED_DIGITS: Final = (SHOWN_DIGITS, 3)
"""Significant figures a learner is taken to type a value they computed to."""
EXACT: Final = Tolerance(rtol=0.0, atol=1e-9)
"""The tolerance of a shape answer: a size is a whole number, right or wrong (1e-9: float slack only)."""


def is_shape_answer(question: QuestionBase) -> bool:
    """Is the answer an array's shape (`shape_answer: true`), typed as `7x18` and graded exactly?"""
    return isinstance(question, VectorQuestion) and question.shape_answer


def tolerance_of(question: NumericQuestion) -> Tolerance:
    """The tolerance a question is graded with: its own, or exact for a shape answer."""
    return EXACT if is_shape_answer(question) else question.tolerance


def tolerance_rule(question: NumericQuestion, lang: str) -> str:
    """The grading rule in words ("every element" only for vectors and matrices)."""
    if is_shape_answer(question):
        return tr("grade.tolerance_rule_shape", lang)
    tolerance = question.tolerance
    return tr(
        "grade.tolerance_rule_scalar" if question.type == "number" else "grade.tolerance_rule",
        lang,
        atol=format_number(tolerance.effective_atol),
        rtol=format_number(tolerance.effective_rtol * 100) + "%",
    )


def _significant_figures(x: float) -> int:
    """How many significant figures the shortest exact form of `x` has (`0.12` → 2, `100` → 1, `3.05` → 3)."""
    # The digits of the shortest repr, without sign, point, exponent, leading or trailing zeros
    # (at least one: 0 has one), as Decimal(repr(x)).normalize() keeps them.
    digits = repr(float(x)).partition("e")[0].replace("-", "").replace(".", "").strip("0")
    return max(1, len(digits))


def rounds_to_response(key: Any, response: Any) -> bool:
    """Is each element of the learner's answer the key rounded to as many significant figures as they gave?

    That is, the key lies within half a unit of the last figure given, counted at the key's own
    magnitude (a tie either way): for the key 0.8808, 0.9 and 0.88 are such answers, but 1 is not
    (to one figure the key is 0.9). Such an answer is right as far as it goes but too coarse for
    the tolerance: the learner is told to give more significant figures, not simply that it is
    wrong. A 0 has no significant figure.
    """
    if isinstance(key, float) and isinstance(response, float):  # a number question's: no arrays needed
        return math.isfinite(key) and math.isfinite(response) and _rounds_to(float(key), float(response))
    keys = np.atleast_1d(np.asarray(key, dtype=np.float64)).ravel()
    given = np.atleast_1d(np.asarray(response, dtype=np.float64)).ravel()
    if keys.shape != given.shape or not (np.isfinite(given).all() and np.isfinite(keys).all()):
        return False
    return all(_rounds_to(k, g) for k, g in zip(keys.tolist(), given.tolist()))


def _rounds_to(k: float, g: float) -> bool:
    """Is `k` within half a unit of `g`'s last significant figure, at `k`'s magnitude?"""
    if g == 0 or k == 0:
        return False
    unit = 10.0 ** (math.floor(math.log10(abs(k))) - _significant_figures(g) + 1)
    return abs(k - g) <= 0.5 * unit * (1 + 1e-9)


def with_unit(shown: str, question: NumericQuestion) -> str:
    """A value as shown, with the question's unit after it when it declares one."""
    return shown if question.unit is None else f"{shown} {question.unit}"


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


class NumericType(QuestionType[NumericQuestion]):
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

    def accepted(self, compiled: CompiledQuestion, evaluate: Evaluate) -> dict[str, Any]:
        found = {}
        for accepted, expression in compiled.accepted:
            what = f"also_accepted.{accepted.name}"
            found[accepted.name] = self._checked(compiled, evaluate(expression, what), what)
        return found

    def _checked(self, compiled: CompiledQuestion, value: Any, what: str) -> float | np.ndarray:
        question = compiled.question
        where = question.source
        try:
            array = np.asarray(value, dtype=np.float64)
        except (TypeError, ValueError, OverflowError):  # OverflowError: an int past a float's range
            raise VariantError(question.id, f"{what} gave {quoted(value)}, not a number or an array of numbers", what, location=where) from None
        if array.ndim != self.rank:
            expected = ("a number", "a vector", "a matrix")[self.rank]
            raise VariantError(question.id, f"{what} gave shape {array.shape}; a {question.type} question needs {expected}", what, location=where)
        if array.size > MAX_ELEMENTS:
            raise VariantError(question.id, f"{what} has {array.size} elements; a learner can type at most {MAX_ELEMENTS}", what, location=where)
        if self.rank == 0:
            return float(array)
        array.setflags(write=False)
        return array

    def read(self, variant: Variant, text: str) -> Any | Invalid:
        # The parser reads the raw text itself: its own normalising keeps columns exact and never
        # lets NFKC turn `3²` into 32. Imported here: a start shows a question before reading an answer.
        from quiz.answer_text.units import parse_in_unit

        question = self.question_of(variant)
        parsed = parse_in_unit(text, np.shape(variant.answer), question.unit, sizes=is_shape_answer(question))
        return parsed if isinstance(parsed, Invalid) else parsed.value

    def grade(self, variant: Variant, response: Any, hints_used: int = 0) -> Result:
        question = self.question_of(variant)
        tolerance = tolerance_of(question)
        marks = within(response, variant.answer, tolerance)
        element_marks = marks if marks.ndim else None
        if marks.all():
            return finish(question, 1.0, hints_used, marks=element_marks, answer=variant.answer)
        for accepted in question.also_accepted:
            other = within(response, variant.accepted[accepted.name], tolerance)
            if other.all():
                marks_other = other if other.ndim else None
                return finish(question, 1.0, hints_used, marks=marks_other, answer=variant.answer, details={"convention": accepted.name})
        for misconception in question.misconceptions:
            if within(response, variant.misconceptions[misconception.name], tolerance).all():
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
        close = tolerance is not EXACT and rounds_to_response(variant.answer, response)
        return finish(question, 0.0, hints_used, marks=element_marks, answer=variant.answer, details={"close": close} if close else {})

    def revealed_answer(self, variant: Variant) -> Any:
        return variant.answer

    def answer_text(self, variant: Variant, lang: str) -> str:
        """The key as shown; beside it, with their labels, the other conventions also accepted."""
        question = self.question_of(variant)

        def shown(value: Any) -> str:
            return with_unit(format_array_inline(value, SHOWN_DIGITS), question)

        if not question.also_accepted:
            return shown(variant.answer)
        others = [
            tr("grade.also_accepted", lang, answer=shown(variant.accepted[a.name]), label=variant.text(a.label, lang)) for a in question.also_accepted
        ]
        return "; ".join([tr("grade.in_convention", lang, answer=shown(variant.answer), label=variant.text(question.convention, lang)), *others])

    def answer_json(self, variant: Variant, lang: str) -> Any:
        return variant.answer

    def how_to_answer(self, variant: Variant, lang: str) -> list[str]:
        question = self.question_of(variant)
        what = describe_shape(np.shape(variant.answer), lang)
        lines = [tr("show.answer_with", lang, what=what)]
        if question.unit is not None:
            from quiz.answer_text.units import examples, unit_named

            declared = unit_named(question.unit)
            assert declared is not None  # the question's rules refuse an unknown unit
            lines.append(tr("show.answer_unit", lang, unit=declared.symbol, examples=examples(declared)))
        return [*lines, tolerance_rule(question, lang)]

    def response_text(self, variant: Variant, response: Any) -> str:
        return _exact_text(np.asarray(response, dtype=np.float64))

    def extra_json(self, variant: Variant, lang: str) -> dict[str, Any]:
        question = self.question_of(variant)
        tolerance, rule = tolerance_of(question), tolerance_rule(question, lang)
        extra: dict[str, Any] = {"tolerance": {"rtol": tolerance.effective_rtol, "atol": tolerance.effective_atol, "rule": rule}}
        if question.also_accepted:
            extra["also_accepted"] = [
                {"name": a.name, "label": variant.text(a.label, lang), "answer": json_ready(variant.accepted[a.name])} for a in question.also_accepted
            ]
        return extra

    def rule(self, variant: Variant, lang: str) -> str | None:
        return tolerance_rule(self.question_of(variant), lang)

    def marked_response(self, variant: Variant, result: Result, response: Any, lang: str) -> str | None:
        if result.marks is None or response is None:
            return None
        return tr("grade.your_answer", lang, answer=marked_answer(response, result.marks))

    def mistakes(self, variant: Variant) -> list[Mistake]:
        return [
            Mistake(
                m.name,
                m.label,
                json_ready(variant.misconceptions[m.name]),
                format_array_inline(variant.misconceptions[m.name], SHOWN_DIGITS),
                m.credit,
                m.feedback,
            )
            for m in self.question_of(variant).misconceptions
        ]

    def clashes(self, variant: Variant) -> list[str]:
        """The misconceptions whose value, as computed or as a learner types it to TYPED_DIGITS
        significant figures, grades as correct or as the key too coarsely rounded; then, named
        `TRIVIAL` + what, the trivial answers (zero, one, an input, the key doubled …) that grade as
        correct without being the key: a guess must never be marked right."""
        found = []
        key = np.asarray(variant.answer, dtype=np.float64)
        named = []
        right = [np.asarray(v, dtype=np.float64) for v in variant.accepted.values()]
        for misconception in self.question_of(variant).misconceptions:
            value = np.asarray(variant.misconceptions[misconception.name], dtype=np.float64)
            if value.shape != key.shape or not np.isfinite(value).all():
                continue  # the self-test reports these; no learner can type them
            named.append(value)
            for typed in (value, *(_to_figures(value, digits) for digits in TYPED_DIGITS)):
                result = self.grade(variant, float(typed) if typed.ndim == 0 else typed)
                if result.verdict is Verdict.CORRECT or result.details.get("close"):
                    found.append(misconception.name)
                    break
        if np.isfinite(key).all():
            found += self._trivial_clashes(variant, key, named, right)
        return found

    def _trivial_clashes(self, variant: Variant, key: np.ndarray, named: list[np.ndarray], right: list[np.ndarray]) -> list[str]:
        """The trivial answers (see `trivial_answers`) that grade as correct without being the key
        itself or another accepted convention's answer (half the key may be the multiply-adds), and
        that no named mistake gives (its own clash covers those), each with its fix."""
        tolerance = tolerance_of(self.question_of(variant))
        found = []
        for what, value in trivial_answers(variant, key):
            if any(np.allclose(value, r, rtol=1e-9, atol=1e-12) for r in (key, *right) if r.shape == value.shape):
                continue
            if named and _overlapping(value, named, tolerance):
                continue
            if self.grade(variant, float(value) if value.ndim == 0 else value).verdict is Verdict.CORRECT:
                found.append(trivial_clash(what, "draw" if within(value, key, Tolerance()).all() else "tolerance"))
        return found

    def self_test(self, variant: Variant) -> Iterator[Problem]:
        """The key is finite, grades as correct as computed and as shown (rounded), a near miss
        just outside the tolerance does not, and every misconception is finite, of the key's
        shape and beyond the tolerance of the key and of every other misconception."""
        question = self.question_of(variant)
        key = np.asarray(variant.answer, dtype=np.float64)
        if not np.isfinite(key).all():
            yield Problem(_answer_at(question), "the answer is not finite", f"answer {_figures(key)}")
            return
        if is_shape_answer(question) and (not (key == np.round(key)).all() or (key < 1).any()):
            yield Problem(_answer_at(question), "a shape answer's sizes are not all whole numbers of 1 or more", f"answer {_figures(key)}")
        if self.grade(variant, variant.answer).verdict is not Verdict.CORRECT:
            yield Problem(_answer_at(question), "the answer key does not grade as correct", f"answer {_figures(key)}")
        yield from self._check_as_shown(variant, question)
        error = allowed_error(key, tolerance_of(question))
        for sign, side in ((1, "above"), (-1, "below")):
            if self.grade(variant, key + sign * OUTSIDE * error).verdict is Verdict.CORRECT:
                yield Problem(_tolerance_at(question), f"an answer 1.1× the tolerance {side} the key still grades as correct")
        right = [("answer", key)]  # the right answers a misconception must stay apart from
        for accepted in question.also_accepted:
            at = accepted.marks.start if accepted.marks else accepted.answer.location
            value = np.asarray(variant.accepted[accepted.name], dtype=np.float64)
            if value.shape != key.shape:
                shapes = f"{accepted.name} {value.shape}, answer {key.shape}"
                yield Problem(at, f"accepted convention {accepted.name} does not have the answer's shape", shapes)
            elif not np.isfinite(value).all():
                yield Problem(at, f"accepted convention {accepted.name} is not finite", f"{accepted.name} {_figures(value)}")
            else:
                right.append((f"accepted convention {accepted.name}", value))
        seen: dict[str, np.ndarray] = {}
        for misconception in question.misconceptions:
            name = misconception.name
            at = misconception.marks.start if misconception.marks else misconception.answer.location
            value = np.asarray(variant.misconceptions[name], dtype=np.float64)
            if value.shape != key.shape:
                yield Problem(at, f"misconception {name} does not have the answer's shape", f"{name} {value.shape}, answer {key.shape}")
                continue
            if not np.isfinite(value).all():
                yield Problem(at, f"misconception {name} is not finite", f"{name} {_figures(value)}")
                continue
            # One problem per misconception, whatever it meets on each seed, so a pair of
            # look-alikes does not also report each one's clash with the key.
            alike = [*right, *seen.items()]
            met = [alike[i] for i in _overlapping(value, [other_value for _, other_value in alike], tolerance_of(question))]
            if met:
                figures = ", ".join(f"{n} {_figures(v)}" for n, v in [(name, value), *met])
                also = ", an accepted convention" if question.also_accepted else ""
                what = f"misconception {name} is within tolerance of the answer{also} or of another misconception"
                yield Problem(at, what, figures, "add a constraint that separates them")
            seen[name] = value

    def _check_as_shown(self, variant: Variant, question: NumericQuestion) -> Iterator[Problem]:
        """The key as learners see it (rounded as `answer_text` shows it) must grade as correct."""
        shown = format_array_inline(variant.answer, SHOWN_DIGITS)
        response = self.read(variant, shown)
        if isinstance(response, Invalid):
            yield Problem(_answer_at(question), "the answer as shown cannot be read back as an answer", f"shown {shown}: {response.message('en')}")
        elif self.grade(variant, response).verdict is not Verdict.CORRECT:
            yield Problem(
                _tolerance_at(question),
                f"the tolerance is tighter than the answer as shown ({SHOWN_DIGITS} significant figures): "
                "a learner who types the key as shown is marked wrong",
                f"shown {shown}, key {_figures(np.asarray(variant.answer))}",
                f"widen the tolerance (sigfigs: {SHOWN_DIGITS} accepts what is shown)",
            )


def trivial_answers(variant: Variant, key: np.ndarray) -> list[tuple[str, np.ndarray]]:
    """(what it is, its value) for the wrong answers a guess or a slip gives, each of the key's shape."""
    answers = [("zero", np.zeros_like(key)), ("one", np.ones_like(key))]
    if key.ndim and key.shape[-1] > 1:
        answers.append(("uniform weights", np.full_like(key, 1 / key.shape[-1])))
    answers += [("the key with its sign flipped", -key), ("twice the key", 2 * key), ("half the key", key / 2)]
    if key.ndim == 2 and key.shape[0] == key.shape[1] > 1:
        answers.append(("the key transposed", key.T))
    for name, value in variant.inputs.items():
        array = np.asarray(value)
        if array.shape == key.shape and array.dtype.kind in "biuf":
            answers.append((f"the input {name} itself", array.astype(np.float64)))
    return answers


def _answer_at(question: NumericQuestion) -> Location | None:
    """Where the answer stands, for a problem found with it (looked up only then)."""
    return located(question, "answer") or question.answer.location


def _tolerance_at(question: NumericQuestion) -> Location | None:
    """Where the tolerance stands (the answer when it has none written), for a problem found with it."""
    return located(question, "tolerance") or _answer_at(question)


def _overlapping(value: np.ndarray, others: list[np.ndarray], tolerance: Tolerance) -> list[int]:
    """The indexes of `others` (each of `value`'s shape) that `value` is within tolerance of, or
    that are within tolerance of `value`, element by element (the rule is not symmetric), all at
    once, as a stack."""
    stacked = np.stack(others)  # (len(others), *value.shape)
    each = tuple(range(1, stacked.ndim))  # the elements of one value
    near = within(value, stacked, tolerance).all(axis=each) | within(stacked, value, tolerance).all(axis=each)
    return [int(i) for i in np.flatnonzero(near)]


def _to_figures(value: np.ndarray, digits: int) -> np.ndarray:
    """`value` rounded to `digits` significant figures, element by element, as a learner writes it."""
    return np.asarray([float(f"{x:.{digits}g}") for x in value.ravel().tolist()]).reshape(value.shape)


def _figures(value: np.ndarray) -> str:
    """A value in messages to authors: more digits than learners see, so near values differ."""
    return format_array_inline(value, 7)
