"""The question model's building blocks: the fields every question has and the parts types share.

Each question type's own model lives in `quiz/models/questions.py`, built from these. The
loader converts YAML into them (see `convert.py`) and the JSON Schema for editors is generated
from them (see `schema.py`), so the model is the single description of the format.
`docs/authoring.md` explains it for authors, with an example of every type. The models take
their equality, hash and repr from `Fieldwise` (see `fieldwise.py`: a start compiles fewer methods).
"""

from __future__ import annotations

import math
import re
from dataclasses import field
from typing import TYPE_CHECKING, Any, ClassVar, Final, Literal

from quiz.base.fieldwise import Fieldwise, record
from quiz.format.convert import report_refused
from quiz.format.diagnostics import Location, Report
from quiz.format.marks import Marks, Where
from quiz.format.scalars import FLOAT_PATTERN, INT_PATTERN, INVALID, MAX_FLOAT_CHARS, MAX_INT_DIGITS, describe
from quiz.format.suggest import did_you_mean
from quiz.format.yaml_data import Refused, YamlList, YamlMap
from quiz.locale.i18n import LANGUAGES

ID_PATTERN: Final = re.compile(r"[a-z0-9][a-z0-9_-]*")
HINT_PENALTY: Final = 0.25
"""Default share of the score each hint used costs."""
INTERNAL: Final = {"internal": True}
"""Field metadata: set by the loader, never written by an author."""


def doc(text: str, **extra: Any) -> dict[str, Any]:
    """Field metadata carrying the description shown in the JSON Schema and the docs."""
    return {"doc": text, **extra}


@record(slots=True)
class Text(Fieldwise):
    """Markdown with `$...$` maths, in English and optionally Japanese (English is the fallback)."""

    en: str
    ja: str | None = None
    location: Location | None = field(default=None, compare=False, metadata=INTERNAL)

    def get(self, lang: str) -> str:
        """The text in `lang`, or English when that language is missing."""
        return self.ja if lang == "ja" and self.ja else self.en

    def items(self) -> list[tuple[str, str]]:
        """(language, text) pairs present."""
        return [(lang, text) for lang, text in (("en", self.en), ("ja", self.ja)) if text is not None]

    @classmethod
    def from_yaml(cls, value: object, where: Where, report: Report) -> object:
        location = where.location()
        if isinstance(value, str):
            return cls(en=str(value), location=location)
        if not isinstance(value, YamlMap):
            report.error(location, f"{where.field}: expected text or a mapping of languages (en, ja), got {describe(value)}")
            return INVALID
        ok = True
        for lang in value:
            if lang not in LANGUAGES:
                report.error(where.child(lang, value.marks[lang]).location(), f"{where.field}: unknown language '{lang}'; expected en or ja")
                ok = False
        texts = {}
        for lang in LANGUAGES:
            raw = value.get(lang)
            texts[lang] = raw if isinstance(raw, str) else None
            if isinstance(raw, Refused):
                report_refused(raw, where.child(lang, value.marks[lang]), report)
                ok = False
            elif raw is not None and not isinstance(raw, str):
                report.error(where.child(lang, value.marks[lang]).location(), f"{where.field}.{lang}: expected text, got {describe(raw)}")
                ok = False
        if value.get("en") is None:
            report.error(location, f"{where.field}: English text ('en') is required; other languages fall back to it")
            ok = False
        return cls(en=str(texts["en"] or ""), ja=None if texts["ja"] is None else str(texts["ja"]), location=location) if ok else INVALID

    @classmethod
    def json_schema(cls) -> dict[str, Any]:
        return {
            "description": "Markdown with $...$ maths: one string (English), or a mapping of languages.",
            "anyOf": [
                {"type": "string"},
                {
                    "type": "object",
                    "properties": {"en": {"type": "string"}, "ja": {"type": "string"}},
                    "required": ["en"],
                    "additionalProperties": False,
                },
            ],
        }


@record(slots=True)
class Expr(Fieldwise):
    """An expression for the restricted evaluator (`d_k`, `softmax(s / sqrt(d_k))[0]`).

    A plain number or a (nested) list of expressions is accepted too, so a fixed answer reads
    naturally: `answer: 0.881` or `answer: [0.881, 0.119]`.
    """

    source: str
    location: Location | None = field(default=None, compare=False)

    @classmethod
    def from_yaml(cls, value: object, where: Where, report: Report) -> object:
        source = _expression_source(value)
        if isinstance(source, Refused):
            return report_refused(source, where, report)
        if source is None:
            report.error(where.location(), f"{where.field}: expected an expression, a number or a list of them, got {describe(value)}")
            return INVALID
        return cls(source, where.location())

    @classmethod
    def json_schema(cls) -> dict[str, Any]:
        scalar = {"type": ["string", "number", "boolean"]}
        return {
            "description": "An expression (see Expressions in docs/authoring.md), a number, or a list of them.",
            "anyOf": [scalar, {"type": "array", "items": {"anyOf": [scalar, {"type": "array"}]}}],
        }


def _expression_source(value: object) -> str | Refused | None:
    """The expression a value or nested list of values spells, or the first part refused while
    reading (the reader bounds the nesting, so this recursion is shallow)."""
    if isinstance(value, YamlList):
        parts = [_expression_source(v) for v in value]
        refused = next((p for p in parts if isinstance(p, Refused)), None)
        if refused is not None:
            return refused
        sources = [p for p in parts if isinstance(p, str)]
        return "[" + ", ".join(sources) + "]" if len(sources) == len(parts) else None
    if isinstance(value, Refused):
        return value
    if isinstance(value, str) and value.strip():
        return str(value)
    return None


@record(slots=True)
class Scalar(Fieldwise):
    """A value in a list of choices: a number when it reads as one (and was not quoted), else text."""

    value: int | float | str

    @classmethod
    def from_yaml(cls, value: object, where: Where, report: Report) -> object:
        if not isinstance(value, str):
            report.error(where.location(), f"{where.field}: expected a number or text, got {describe(value)}")
            return INVALID
        if type(value) is not str:  # quoted: the author wants text
            return cls(str(value))
        written = value.strip()
        if INT_PATTERN.fullmatch(written) and len(written.lstrip("+-")) <= MAX_INT_DIGITS:
            return cls(int(written))
        if FLOAT_PATTERN.fullmatch(written):
            number = float(written) if len(written) <= MAX_FLOAT_CHARS else math.inf
            if not math.isfinite(number):
                report.error(where.location(), f"{where.field}: {describe(value)} is too large to be a number; quote it to keep it text")
                return INVALID
            return cls(number)
        return cls(value)

    @classmethod
    def json_schema(cls) -> dict[str, Any]:
        return {"type": ["number", "string"], "description": "A number, or text (quote a number to keep it text)."}


def error_at(where: Where, raw: YamlMap, key: str, message: str, report: Report) -> None:
    """Report `message` at `key` of `raw` (or at the mapping itself).

    A model's `check` reports what breaks its rules with this and returns None: the object is
    still made, so the checks after it run too and one `quiz validate` lists every problem. A
    `check` returns False only when the object cannot be used at all.
    """
    mark = raw.marks.get(key, raw.mark)
    report.error(Location(where.path, *mark), message)


@record(slots=True, kw_only=True)
class Tolerance(Fieldwise):
    """How close a numeric answer must be: |a − b| ≤ atol + rtol·|b| for every element.

    The defaults accept any answer worked by hand to three significant figures or three decimal
    places. `decimals` and `sigfigs` can only widen the tolerance, never narrow it, so extra
    digits are never punished.
    """

    yaml_label: ClassVar[str] = "tolerance"
    rtol: float = field(
        default=5e-3,
        metadata=doc("Relative tolerance: the share of the key's size an answer may be off by (default 0.005, that is 0.5%).", minimum=0),
    )
    atol: float = field(
        default=5e-4,
        metadata=doc(
            "Absolute tolerance: how far off an answer may be whatever the key's size (default 0.0005).",
            exclusiveMinimum=0,
            reason="so an answer of 0 can be graded",
        ),
    )
    decimals: int | None = field(default=None, metadata=doc("Also accept answers rounded to this many decimal places.", minimum=0, maximum=12))
    sigfigs: int | None = field(default=None, metadata=doc("Also accept answers rounded to this many significant figures.", minimum=1, maximum=15))

    @property
    def effective_atol(self) -> float:
        """atol, widened to half a unit in the last place when `decimals` is set."""
        return max(self.atol, 0.5 * 10.0 ** -self.decimals) if self.decimals is not None else self.atol

    @property
    def effective_rtol(self) -> float:
        """rtol, widened to half a unit in the last significant figure when `sigfigs` is set."""
        return max(self.rtol, 0.5 * 10.0 ** (1 - self.sigfigs)) if self.sigfigs is not None else self.rtol


PARAM_KINDS: Final = ("integer", "decimal", "normal", "choice", "fault")
PARAM_RULES: Final = {
    "weights": ("choice", "fault"),
    "multiple_of": ("integer",),
    "divisor_of": ("integer",),
    "distinct_from": ("integer", "decimal", "choice"),
    "distinct": ("normal",),
}
"""The rules a parameter may add to its kind, and the kinds each applies to."""
MAX_DIVIDEND: Final = 10**9
"""Largest magnitude of a `divisor_of` number: its divisors are found by trial division up to its square root."""


@record(slots=True, kw_only=True)
class Param(Fieldwise):
    """How one parameter is drawn for each variant: give exactly one of integer, decimal, normal, choice or fault.

    Bounds and shapes are expressions, so they may use the parameters declared before this one.
    """

    yaml_label: ClassVar[str] = "parameter"
    integer: tuple[Expr, ...] | None = field(
        default=None,
        metadata=doc(
            "[min, max]: a whole number drawn uniformly, both ends included.", minItems=2, maxItems=2, reason="[min, max]", referenced=True
        ),
    )
    decimal: tuple[Expr, ...] | None = field(
        default=None,
        metadata=doc(
            "[min, max]: a number on a grid of `step` (default 0.1), both ends included.",
            minItems=2,
            maxItems=2,
            reason="[min, max]",
            referenced=True,
        ),
    )
    step: float = field(default=0.1, metadata=doc("Grid step for `decimal` (default 0.1).", exclusiveMinimum=0))
    normal: tuple[Expr, ...] | None = field(
        default=None,
        metadata=doc("Shape of normal draws: [] for one number, [n] for a vector, [rows, cols] for a matrix.", maxItems=4, referenced=True),
    )
    mean: float = field(default=0.0, metadata=doc("Mean for `normal` (default 0)."))
    std: float = field(default=1.0, metadata=doc("Standard deviation for `normal` (default 1).", minimum=0))
    decimals: int = field(default=1, metadata=doc("Decimals `normal` draws are rounded to (default 1).", minimum=0, maximum=6))
    choice: tuple[Scalar, ...] | None = field(
        default=None, metadata=doc("Values to pick one from, such as [4, 16, 64].", minItems=1, referenced=True)
    )
    fault: tuple[str, ...] | None = field(
        default=None, metadata=doc("Engine faults to pick one from (their names), or [all].", minItems=1, choices="faults", referenced=True)
    )
    weights: tuple[float, ...] | None = field(
        default=None,
        metadata=doc(
            "With `choice` or `fault`: how often each value is drawn, relative to the others, one positive number per value "
            "(default: all alike).",
            minItems=1,
        ),
    )
    multiple_of: Expr | None = field(
        default=None, metadata=doc("With `integer`: draw only multiples of this whole number (`n_kv` makes `n_q % n_kv == 0` hold).")
    )
    divisor_of: Expr | None = field(
        default=None, metadata=doc(f"With `integer`: draw only divisors of this whole number (at most {MAX_DIVIDEND:,}), as `n_kv` of `n_q`.")
    )
    distinct_from: Expr | None = field(
        default=None,
        metadata=doc("With `integer`, `decimal` or `choice`: a value or a list of values (earlier parameters, say) the draw must differ from."),
    )
    distinct: bool = field(default=False, metadata=doc("With `normal`: no two of the drawn numbers are equal once rounded (no ties)."))
    marks: Marks | None = field(default=None, compare=False, metadata=INTERNAL)

    @property
    def kind(self) -> str:
        return next((k for k in PARAM_KINDS if getattr(self, k) is not None), "")

    @property
    def has_rules(self) -> bool:
        """Whether a rule narrows or weights the draw; without one, a kind draws as it always has."""
        return any(r is not None for r in (self.weights, self.multiple_of, self.divisor_of, self.distinct_from)) or self.distinct

    def check(self, where: Where, raw: YamlMap, report: Report) -> bool | None:
        given = [k for k in PARAM_KINDS if getattr(self, k) is not None]
        if len(given) != 1:  # no kind to draw by: nothing later can use this parameter
            found = ", ".join(given) if given else "none"
            message = f"{where.field}: give exactly one of {', '.join(PARAM_KINDS)} (found {found})"
            error_at(where, raw, given[1] if len(given) > 1 else "", message, report)
            return False
        ok = True
        for rule, kinds in PARAM_RULES.items():
            value = getattr(self, rule)
            if value not in (None, False) and given[0] not in kinds:
                message = f"{where.field}: {rule} applies to {' or '.join(kinds)} parameters, not to {given[0]}"
                error_at(where, raw, rule, message, report)
                ok = False
        if self.weights is not None and ok:
            ok = self._check_weights(where, raw, report)
        return None if ok else False  # limits on each field are checked as it is read (see `check_limits`)

    def _check_weights(self, where: Where, raw: YamlMap, report: Report) -> bool:
        """One positive, finite weight per value (a value never drawn is one no learner meets: remove it)."""
        assert self.weights is not None
        values = self.choice if self.choice is not None else self.fault
        assert values is not None
        if values == ("all",):
            error_at(where, raw, "weights", f"{where.field}: weights need the faults named one by one, not [all]", report)
            return False
        if len(self.weights) != len(values):
            message = f"{where.field}: weights has {len(self.weights)} numbers for {len(values)} values; give one weight per value"
            error_at(where, raw, "weights", message, report)
            return False
        bad = [w for w in self.weights if not (0 < w < math.inf)]
        if bad:
            message = f"{where.field}: each weight must be a positive number, got {bad[0]:g}; remove a value that should never be drawn"
            error_at(where, raw, "weights", message, report)
            return False
        return True

    @classmethod
    def schema_extra(cls) -> dict[str, Any]:
        return {"oneOf": [{"required": [k]} for k in PARAM_KINDS]}


@record(slots=True, kw_only=True)
class Misconception(Fieldwise):
    """A named wrong answer the engine computes, with feedback and optional partial credit."""

    yaml_label: ClassVar[str] = "misconception"
    name: str = field(metadata=doc("A short id such as no_scaling or divide_by_d_k (history and statistics use it).", pattern=ID_PATTERN.pattern))
    label: Text | None = field(default=None, metadata=doc("The mistake in a few words, as learners read it (\"forgot the 1/√dₖ scale\")."))
    answer: Expr = field(metadata=doc("The wrong answer this mistake produces."))
    feedback: Text = field(metadata=doc("What the learner is told when their answer matches."))
    credit: float = field(default=0.0, metadata=doc("Partial credit from 0 up to, not including, 1 (default 0).", minimum=0, exclusiveMaximum=1))
    marks: Marks | None = field(default=None, compare=False, metadata=INTERNAL)

    def check(self, where: Where, raw: YamlMap, report: Report) -> None:
        if not ID_PATTERN.fullmatch(self.name):
            error_at(where, raw, "name", f"misconception name '{self.name}' must be lower-case letters, digits, - or _", report)


@record(slots=True, kw_only=True)
class Accepted(Fieldwise):
    """Another convention whose answer is also right (multiply-adds beside 2mnk FLOPs), with its label."""

    yaml_label: ClassVar[str] = "accepted convention"
    name: str = field(metadata=doc("A short id such as multiply_adds or half_split.", pattern=ID_PATTERN.pattern))
    label: Text = field(metadata=doc("The convention in a few words, as learners read it (\"counted as multiply-adds, mnk\")."))
    answer: Expr = field(metadata=doc("The right answer in this convention."))
    marks: Marks | None = field(default=None, compare=False, metadata=INTERNAL)

    def check(self, where: Where, raw: YamlMap, report: Report) -> None:
        if not ID_PATTERN.fullmatch(self.name):
            error_at(where, raw, "name", f"accepted convention name '{self.name}' must be lower-case letters, digits, - or _", report)


@record(slots=True, kw_only=True)
class Option(Fieldwise):
    """One option of a `choice` or `multi` question."""

    yaml_label: ClassVar[str] = "option"
    text: Text = field(metadata=doc("What the learner reads."))
    id: str | None = field(
        default=None,
        metadata=doc("A short id (default a, b, c, ... by position); a parametric answer names it.", pattern=ID_PATTERN.pattern, referenced=True),
    )
    correct: bool = field(default=False, metadata=doc("True for a correct option of a fixed question.", referenced=True))
    feedback: Text | None = field(default=None, metadata=doc("Shown after answering when this option was picked."))
    marks: Marks | None = field(default=None, compare=False, metadata=INTERNAL)


WHEN: Final = ("right", "wrong", "any")
"""When a follow-up is asked or a pushback put: after a right answer, a wrong one (partial
credit included), or either."""


def outcome_matches(when: str, right: bool | None) -> bool:
    """Whether `when` (WHEN) applies to an answer that was right (True), wrong (False) or not graded yet (None: only `any`)."""
    return when == "any" or (right is not None and when == ("right" if right else "wrong"))


@record(slots=True)
class FollowUp(Fieldwise):
    """A question an interviewer asks next, and after which answers: `id`, or `{id: X, when: right}`."""

    id: str
    when: str = "any"

    @classmethod
    def from_yaml(cls, value: object, where: Where, report: Report) -> object:
        if isinstance(value, str):
            return cls(str(value))
        if not (isinstance(value, YamlMap) and "id" in value):
            report.error(where.location(), f"{where.field}: expected a question id or {{id: ..., when: right|wrong|any}}, got {describe(value)}")
            return INVALID
        ok = True
        for key in value:
            if key not in ("id", "when"):
                report.error(where.child(key, value.marks[key]).location(), f"{where.field}: unknown field '{key}' in a follow-up (id, when)")
                ok = False
        question_id, when = value["id"], value.get("when", "any")
        if not isinstance(question_id, str):
            report.error(where.child("id", value.marks["id"]).location(), f"{where.field}.id: expected a question id, got {describe(question_id)}")
            ok = False
        if when not in WHEN:
            at = where.child("when", value.marks["when"]).location()
            report.error(at, f"{where.field}.when: expected one of right, wrong, any, got {describe(when)}{did_you_mean(when, WHEN)}")
            ok = False
        return cls(str(question_id), str(when)) if ok else INVALID

    @classmethod
    def json_schema(cls) -> dict[str, Any]:
        return {
            "description": "A question id (asked after any answer), or {id, when}: asked after a right answer, a wrong one, or any.",
            "anyOf": [
                {"type": "string"},
                {
                    "type": "object",
                    "properties": {"id": {"type": "string"}, "when": {"enum": list(WHEN), "description": "right, wrong or any (default)."}},
                    "required": ["id"],
                    "additionalProperties": False,
                },
            ],
        }


@record(slots=True, kw_only=True)
class Pushback(Fieldwise):
    """A challenge put once the answer is graded ("Are you sure?"): the candidate holds the answer or revises it."""

    yaml_label: ClassVar[str] = "pushback"
    after: Literal["right", "wrong", "any"] = field(default="any", metadata=doc("Put after a right answer, a wrong one, or either (default any)."))
    text: Text = field(metadata=doc("The challenge as the interviewer puts it."))


@record(kw_only=True)
class QuestionBase(Fieldwise):
    """Fields every question has."""

    if TYPE_CHECKING:
        # Each type's model declares `type` as a field of its own (`type: Literal["choice"] = "choice"`),
        # placed after these fields in the schema; to the type checker every question has one.
        type: str

    yaml_label: ClassVar[str] = "question"
    id: str = field(metadata=doc("Stable id: progress is tied to it, so never change it once published.", pattern=ID_PATTERN.pattern))
    topic: str = field(metadata=doc("A topic id from questions/claims.yaml (scaling, softmax, implementation, ...).", choices="topics"))
    prompt: Text = field(metadata=doc("The question, in Markdown with $...$ maths and {{ expr }} values."))
    tags: tuple[str, ...] = field(default=(), metadata=doc("Free-form tags."))
    difficulty: int = field(default=2, metadata=doc("1 (warm-up) to 3 (hard); default 2.", minimum=1, maximum=3))
    time: int = field(default=120, metadata=doc("Suggested time in seconds (default 120).", minimum=10, maximum=3600))
    refs: tuple[str, ...] = field(
        default=(), metadata=doc("Claim ids from questions/claims.yaml this question covers (A1, B4, X3, ...).", choices="claims")
    )
    hints: tuple[Text, ...] = field(default=(), metadata=doc("Hints, shown one at a time."))
    hint_penalty: float = field(default=HINT_PENALTY, metadata=doc("Share of the score each hint costs (default 0.25).", minimum=0, maximum=1))
    explanation: Text | None = field(default=None, metadata=doc("The worked solution, shown after answering."))
    follow_ups: tuple[FollowUp, ...] = field(
        default=(),
        metadata=doc(
            "Questions an interviewer asks next to probe deeper: ids, or {id, when: right|wrong|any} to branch on the answer; "
            "a follow-up may have follow-ups of its own."
        ),
    )
    pushback: tuple[Pushback, ...] = field(
        default=(), metadata=doc("Challenges put once the answer is graded; the first whose `after` fits the answer is put.")
    )
    source: Location | None = field(default=None, compare=False, metadata=INTERNAL)
    version: str = field(default="", compare=False, metadata=INTERNAL)
    marks: Marks | None = field(default=None, compare=False, metadata=INTERNAL)

    def check(self, where: Where, raw: YamlMap, report: Report) -> None:
        if not ID_PATTERN.fullmatch(self.id):
            error_at(where, raw, "id", f"id '{self.id}' must be lower-case letters, digits, - or _ (it names the question in history)", report)
        # The rules of one question type are in `quiz.types.rules` (light: no behaviour), checked by
        # `quiz.types.registry.convert_question` once the question is made.

    @property
    def follow_up_ids(self) -> tuple[str, ...]:
        """The ids of the follow-ups, whatever their conditions."""
        return tuple(f.id for f in self.follow_ups)

    @property
    def is_parametric(self) -> bool:
        """Numbers are drawn afresh for each variant."""
        return bool(getattr(self, "params", None))

    @property
    def shuffles(self) -> bool:
        """Options or items are shown in an order drawn for each variant; types that shuffle say so."""
        return False

    @property
    def has_variants(self) -> bool:
        """Variants differ (drawn numbers or a shuffled order), so a variant key carries its seed."""
        return self.is_parametric or self.shuffles


@record(kw_only=True)
class Parametric(Fieldwise):
    """Fields of questions whose numbers are drawn afresh for each variant."""

    params: dict[str, Param] = field(default_factory=dict, metadata=doc("Parameters drawn for each variant, in order.", referenced=True))
    constraints: tuple[Expr, ...] = field(default=(), metadata=doc("Conditions a draw must meet; degenerate draws are redrawn."))
    derived: dict[str, Expr] = field(default_factory=dict, metadata=doc("Values computed from the parameters, in order.", referenced=True))
    worked: dict[str, Text] = field(
        default_factory=dict,
        metadata=doc(
            "Worked values to show after answering, by name (a derived value, or an attention run's step such as run.weights), "
            "each with a label in words; others are folded away."
        ),
    )
    checked_numbers: dict[str, str] = field(
        default_factory=dict,
        metadata=doc(
            "Literal decimal numbers the explanation and feedback may state although they do not change with the variant "
            "(a constant fact such as 11.09), each with the test that computes it; validate warns about any other."
        ),
    )


def option_ids(options: tuple[Option, ...]) -> list[str]:
    """Each option's id: its own, or its letter by position (a, b, c, ...)."""
    return [o.id or chr(ord("a") + i) for i, o in enumerate(options)]
