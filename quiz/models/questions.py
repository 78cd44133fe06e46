"""The question model of every type: the dataclasses authors write in YAML, their fields only.

The loader converts YAML into these (see `quiz.format.convert`), the bank cache stores them as
data (`quiz.bank.codec`) and the JSON Schema is generated from them; a part with a YAML form of
its own (an order item) says how to read it. What a type does with its question (the rules
beyond its fields, drawing, grading, its text forms) is its behaviour, in its own module under
`quiz/types/`, which the registry imports on first use: a warm start reads every question from
the cache and imports the behaviour of the types it shows, no other.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any, ClassVar, Final, Literal

from quiz.base.fieldwise import Fieldwise, record
from quiz.code.checks import CHECKS
from quiz.code.interfaces import TASK_IDS
from quiz.format.diagnostics import Report
from quiz.format.marks import Marks, Where
from quiz.format.model import (
    ID_PATTERN,
    INTERNAL,
    Accepted,
    Expr,
    Misconception,
    Option,
    Parametric,
    QuestionBase,
    Text,
    Tolerance,
    doc,
    error_at,
)
from quiz.format.scalars import INVALID, describe
from quiz.format.yaml_data import YamlMap
from quiz.models.authored import AuthoredTask

MAX_OPTIONS: Final = 26
"""The most options a choice or multi question has: one letter each."""
CHECK_IDS: Final = CHECKS


@record(kw_only=True)
class NumericQuestion(Parametric, QuestionBase):
    """A question answered with a number, a vector or a matrix."""

    answer: Expr = field(metadata=doc("The correct answer: an expression the engine evaluates, or a literal."))
    tolerance: Tolerance = field(default_factory=Tolerance, metadata=doc("How close an answer must be."))
    misconceptions: tuple[Misconception, ...] = field(default=(), metadata=doc("Named wrong answers with feedback."))
    unit: str | None = field(
        default=None,
        metadata=doc(
            "The unit the answer is in (B, MiB, GB, s, ms, FLOPs, TFLOPs, ...), for a number question: learners may answer "
            "in any unit of the same kind (1.5 GiB, 3.2e9 bytes, 12 ms), converted before grading."
        ),
    )
    convention: Text | None = field(
        default=None,
        metadata=doc("The convention `answer` is in, as learners read it (\"FLOPs as 2mnk\"); needed with `also_accepted`."),
    )
    also_accepted: tuple[Accepted, ...] = field(
        default=(),
        metadata=doc(
            "Other conventions whose answers are right too, each with a name, a label and its answer "
            "(when the prompt allows either: interleaved or half-split RoPE pairs, FLOPs or multiply-adds)."
        ),
    )


@record(kw_only=True)
class NumberQuestion(NumericQuestion):
    """A question answered with one number."""

    type: Literal["number"] = "number"


@record(kw_only=True)
class VectorQuestion(NumericQuestion):
    """A question answered with a vector of numbers."""

    type: Literal["vector"] = "vector"
    shape_answer: bool = field(
        default=False,
        metadata=doc(
            "True when the answer is an array's shape: learners may type `7x18, 7x8` or `(7, 18), (7, 8)`, "
            "and sizes are graded exactly (the tolerance does not apply)."
        ),
    )


@record(kw_only=True)
class MatrixQuestion(NumericQuestion):
    """A question answered with a matrix of numbers."""

    type: Literal["matrix"] = "matrix"


@record(kw_only=True)
class ChoiceQuestion(Parametric, QuestionBase):
    """Pick the one correct option: marked `correct: true`, or named by an `answer` expression."""

    type: Literal["choice"] = "choice"
    options: tuple[Option, ...] = field(
        metadata=doc("The options (shown shuffled for each variant unless `shuffle: false`).", minItems=2, maxItems=MAX_OPTIONS)
    )
    shuffle: bool = field(
        default=True,
        metadata=doc("Show the options in a new order for each variant (default true); false keeps the order written, for 'none of the above'."),
    )
    answer: Expr | None = field(
        default=None, metadata=doc("For a parametric question: an expression giving the correct option's id.", referenced=True)
    )

    @property
    def shuffles(self) -> bool:
        return self.shuffle


@record(slots=True, kw_only=True)
class Figure(Fieldwise):
    """One figure an evidence question lets the candidate ask for: a value the engine measured on the run."""

    yaml_label: ClassVar[str] = "figure"
    id: str = field(metadata=doc("A short id the candidate asks for it by (`--ask entropy`); history records it.", pattern=ID_PATTERN.pattern))
    label: Text = field(metadata=doc("What the figure is, in a few words, as the list of figures shows it."))
    value: Expr = field(metadata=doc("An expression over the parameters and derived values giving the figure: a number, a vector or a small matrix."))
    cost: float = field(default=0.0, metadata=doc("Share of the mark asking for it costs, from 0 to 1 (default 0).", minimum=0, maximum=1))
    seconds: int = field(
        default=0, metadata=doc("Interview time asking for it costs, in seconds (default 0): it costs seconds ÷ `time` of the mark.", minimum=0)
    )
    telling: bool = field(
        default=False, metadata=doc("True for a figure that tells the options apart on its own: asking for one first costs nothing.")
    )
    why: Text | None = field(default=None, metadata=doc("Why this figure tells (required on a telling figure): shown in the feedback."))
    marks: Marks | None = field(default=None, compare=False, metadata=INTERNAL)


@record(kw_only=True)
class EvidenceQuestion(Parametric, QuestionBase):
    """Ask for figures measured on a faulty run, one at a time, then name the fault; requests cost part of the mark."""

    type: Literal["evidence"] = "evidence"
    figures: tuple[Figure, ...] = field(metadata=doc("The figures the candidate may ask for, in the order listed.", minItems=2, maxItems=MAX_OPTIONS))
    options: tuple[Option, ...] = field(
        metadata=doc("The faults to name from (shown shuffled for each variant unless `shuffle: false`).", minItems=2, maxItems=MAX_OPTIONS)
    )
    shuffle: bool = field(default=True, metadata=doc("Show the options in a new order for each variant (default true)."))
    answer: Expr | None = field(
        default=None, metadata=doc("For a drawn fault: an expression giving the right option's id (else mark one `correct: true`).", referenced=True)
    )
    blind_credit: float = field(
        default=0.5, metadata=doc("The mark for the right fault named without asking for any figure (default 0.5): a guess.", minimum=0, maximum=1)
    )

    @property
    def shuffles(self) -> bool:
        return self.shuffle


@record(kw_only=True)
class MultiQuestion(QuestionBase):
    """Pick every correct option; score max(0, (right − wrong) / number of right options)."""

    type: Literal["multi"] = "multi"
    options: tuple[Option, ...] = field(metadata=doc("The options; mark each correct one `correct: true`.", minItems=2, maxItems=MAX_OPTIONS))
    shuffle: bool = field(
        default=True,
        metadata=doc("Show the options in a new order for each variant (default true); false keeps the order written, for 'none of the above'."),
    )

    @property
    def shuffles(self) -> bool:
        return self.shuffle


@record(slots=True)
class OrderItem(Fieldwise):
    """One step: its text, and an id when a critical pair names it (`{id: mask, text: ...}`)."""

    text: Text
    id: str | None = None

    @classmethod
    def from_yaml(cls, value: object, where: Where, report: Report) -> object:
        if not (isinstance(value, YamlMap) and "text" in value):
            text = Text.from_yaml(value, where, report)
            return cls(text) if isinstance(text, Text) else INVALID
        ok = True
        for key in value:
            if key not in ("id", "text"):
                report.error(where.child(key, value.marks[key]).location(), f"{where.field}: unknown field '{key}' in an item (id, text)")
                ok = False
        item_id = value.get("id")
        if item_id is not None and not (isinstance(item_id, str) and ID_PATTERN.fullmatch(item_id)):
            at = where.child("id", value.marks["id"]).location()
            report.error(at, f"{where.field}.id: expected a short id (lower-case letters, digits, - or _), got {describe(item_id)}")
            ok = False
        text = Text.from_yaml(value["text"], where.child("text", value.marks["text"]), report)
        if not (ok and isinstance(text, Text)):
            return INVALID
        return cls(text, item_id if isinstance(item_id, str) else None)  # ok: item_id is None or a valid id

    @classmethod
    def json_schema(cls) -> dict[str, Any]:
        return {
            "description": "A step: its text, or {id, text} when a critical pair names it.",
            "anyOf": [
                Text.json_schema(),
                {
                    "type": "object",
                    "properties": {
                        "id": {
                            "type": "string",
                            "pattern": f"^{ID_PATTERN.pattern}$",
                            "description": "A short id a critical pair names, such as mask.",
                        },
                        "text": Text.json_schema(),
                    },
                    "required": ["text"],
                    "additionalProperties": False,
                },
            ],
        }


@record(slots=True, kw_only=True)
class CriticalPair(Fieldwise):
    """Two steps whose order matters most: putting the second before the first is a named mistake."""

    yaml_label: ClassVar[str] = "critical pair"
    pair: tuple[str, ...] = field(
        metadata=doc("[first, then]: the ids of two items; `first` must come before `then`.", minItems=2, maxItems=2, reason="[first, then]")
    )
    name: str = field(metadata=doc("The mistake's short id (history and statistics use it), such as mask_after_softmax.", pattern=ID_PATTERN.pattern))
    label: Text | None = field(default=None, metadata=doc("The mistake in a few words, as learners read it."))
    feedback: Text = field(metadata=doc("What the learner is told when their order makes this mistake."))
    cap: float = field(
        default=0.0,
        metadata=doc("The most an order making this mistake can score, from 0 up to, not including, 1 (default 0).", minimum=0, exclusiveMaximum=1),
    )
    marks: Marks | None = field(default=None, compare=False, metadata=INTERNAL)

    def check(self, where: Where, raw: YamlMap, report: Report) -> None:
        if len(self.pair) == 2 and self.pair[0] == self.pair[1]:
            message = f"a critical pair needs two different item ids, [first, then]; this one names '{self.pair[0]}' twice"
            error_at(where, raw, "pair", message, report)
        if not ID_PATTERN.fullmatch(self.name):
            error_at(where, raw, "name", f"critical pair name '{self.name}' must be lower-case letters, digits, - or _", report)


@record(kw_only=True)
class OrderQuestion(QuestionBase):
    """Put the steps in order; scored by the share of pairs of steps in the right relative order."""

    type: Literal["order"] = "order"
    items: tuple[OrderItem, ...] = field(
        metadata=doc("The steps, written in the correct order (they are shuffled when shown).", minItems=2, maxItems=12)
    )
    critical: tuple[CriticalPair, ...] = field(default=(), metadata=doc("Pairs of steps whose wrong order is a named mistake that caps the score."))

    @property
    def shuffles(self) -> bool:
        return True


@record(kw_only=True)
class TrueFalseQuestion(QuestionBase):
    """Is the statement in the prompt true?"""

    type: Literal["truefalse"] = "truefalse"
    answer: bool = field(metadata=doc("true or false."))


@record(kw_only=True)
class ExplainQuestion(Parametric, QuestionBase):
    """Answer aloud or in writing, then tick the rubric points the model answer shows you made.

    It may draw numbers like any other question ("why do these {{ n }} scores saturate?"): the
    prompt, model answer and rubric are templates over the draw.
    """

    type: Literal["explain"] = "explain"
    model_answer: Text = field(metadata=doc("A model answer, shown after the learner answers."))
    rubric: tuple[Text, ...] = field(metadata=doc("The points a good answer makes; the score is the share ticked.", minItems=1))


@record(kw_only=True)
class CodeQuestion(QuestionBase):
    """Write a function in numpy; fixed checks run it on drawn inputs and name the mistake it makes."""

    type: Literal["code"] = "code"
    # Literal of a runtime tuple: the loader and `quiz schema` read the allowed ids from it, which mypy
    # cannot follow (valid-type); the ids are checked where they are read.
    task: Literal[TASK_IDS] | None = field(  # type: ignore[valid-type]
        default=None, metadata=doc("The function kind to write, from the built-in tasks; it fixes the functions' names and parameters.")
    )
    define: AuthoredTask | None = field(
        default=None, metadata=doc("Instead of `task`: a function of the pack's own, defined as data (its inputs, reference and wrong variants).")
    )
    checks: tuple[Literal[CHECK_IDS], ...] | None = field(  # type: ignore[valid-type]
        default=None, metadata=doc("The checks to run, from those the task has (default: all of them).")
    )
    policy: dict[str, str] = field(
        default_factory=dict, metadata=doc("What the checks expect where a choice is stated: empty_rows (zero or nan) for attention and softmax.")
    )
    starter: str | None = field(default=None, metadata=doc("The Python the candidate starts from (default: each function's def line)."))

    @property
    def is_parametric(self) -> bool:
        """The checks' inputs are drawn afresh for each variant, from its seed."""
        return True

    @property
    def task_id(self) -> str:
        """The task's id: the built-in task's, or `own:` and the question's id for a task it defines
        (never a built-in id, whose labels of its own would then apply)."""
        return self.task if self.task is not None else f"own:{self.id}"
