"""What every question type provides: the unit of change when a type is added or altered.

A type is its model (the dataclass authors write in YAML, in `quiz.models.questions` with the other
types' models), its rules beyond the model's fields if it has any (checked as a pack loads, in
`quiz.types.rules` with the other types' rules, so that loading imports no type's behaviour) and
one module under `quiz/types/` holding a `QuestionType`, which reads a typed response, grades it,
reveals the answer and writes the type's text and JSON forms. The registry (`quiz.types.registry`)
finds it by its `type` name and imports its module on first use; the app finds the type's answer
widget by the same name. Nothing outside a type's model, rules and module tests which type a
question is.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from typing import Any, ClassVar, Final, Generic, TypeVar

from quiz.answer_text import Invalid
from quiz.base.fieldwise import Fieldwise, record
from quiz.expressions import Expression
from quiz.format.compile import CompiledQuestion
from quiz.format.diagnostics import Location
from quiz.format.model import QuestionBase, Text
from quiz.grading.result import Result, Verdict
from quiz.render.plain_data import json_ready
from quiz.variants.variant import Variant

Evaluate = Callable[[Expression, str], Any]
"""Evaluates a compiled expression for the variant being drawn; `what` names it in errors."""

TRIVIAL: Final = "trivial answer: "
"""How `QuestionType.clashes` names a trivial answer (zero, an input, the key doubled …) that grades
as correct, beside the misconceptions' names: `trivial_clash` and `read_trivial_clash`."""
TRIVIAL_FIXES: Final = {
    "tolerance": "tighten the tolerance (the default accepts any answer worked by hand to three figures)",
    "draw": "draw the parameters, or add a constraint, so that the key stays away from it",
}
"""The fix for a trivial answer graded as right: beyond the default tolerance of the key, the
question's tolerance is too loose; within it, the draw put the key next to the guess."""


def trivial_clash(what: str, fix: str) -> str:
    """The clash name of the trivial answer `what`, with the key of its fix in TRIVIAL_FIXES."""
    return f"{TRIVIAL}{what}; {fix}"


def read_trivial_clash(name: str) -> tuple[str, str] | None:
    """(what, the fix in words) of a trivial answer's clash name; None for a misconception's name."""
    if not name.startswith(TRIVIAL):
        return None
    what, _, fix = name[len(TRIVIAL):].rpartition("; ")
    return what, TRIVIAL_FIXES[fix]


@record
class Problem(Fieldwise):
    """A problem a self-test found with one variant's answer key.

    `what` reads the same on every seed it recurs on, so a self-test over many seeds reports it
    once with a count; `values` are this seed's figures and `advice` says what to change.
    """

    location: Location | None
    what: str
    values: str = ""
    advice: str = ""


@record
class Mistake(Fieldwise):
    """A named mistake of a question as it stands in one variant, for authors' tools (`quiz show --answer`)."""

    name: str
    label: Text | None
    value: Any
    """What the mistake gives, as JSON-ready data: a misconception's value, or the ids of the two
    steps of a critical pair in the wrong order."""
    shown: str
    """`value` as text."""
    credit: float
    """The most a response making this mistake scores: a misconception's credit, a critical pair's cap."""
    feedback: Text | None
    """What a learner making this mistake is told."""


Q = TypeVar("Q", bound=QuestionBase, covariant=True)
"""The model of a question type: `QuestionType[ChoiceQuestion]` handles choice questions."""


class QuestionType(ABC, Generic[Q]):
    """The behaviour of one question type; `model` is the dataclass its YAML converts to."""

    name: ClassVar[str]
    model: type[Q]
    scaffold: ClassVar[str]
    """A commented question of this type for `quiz new` to start from, with `<ID>`, `<TOPIC>` and
    `<CLAIM>` to fill in; as written it passes `quiz validate --strict`."""
    scaffold_topic: ClassVar[str]
    """The topic the scaffold's content belongs to, used when none is asked for."""

    def question_of(self, holder: Variant | CompiledQuestion) -> Q:
        """The question of a variant (or a compiled question) of this type, as this type's model.

        The registry picks a question's type by its `type` field, so a mismatch is a bug.
        """
        question = holder.question
        if not isinstance(question, self.model):
            raise TypeError(f"{question.id} is a {question.type} question, not a {self.name} one")
        return question

    def key(self, compiled: CompiledQuestion, evaluate: Evaluate) -> tuple[Any, dict[str, Any]]:
        """The variant's answer key and each misconception's value, computed from its values.

        Types whose key is fixed in the question (true/false, order, ...) have none to compute.
        """
        return None, {}

    def accepted(self, compiled: CompiledQuestion, evaluate: Evaluate) -> dict[str, Any]:
        """Each other accepted convention's answer for the variant, by name (none by default)."""
        return {}

    @abstractmethod
    def read(self, variant: Variant, text: str) -> Any | Invalid:
        """The response `text` gives (as typed on the command line), or an Invalid saying why not."""

    @abstractmethod
    def grade(self, variant: Variant, response: Any, hints_used: int = 0) -> Result:
        """Score `response` (what `read` or the answer widget gives) against the variant."""

    @abstractmethod
    def revealed_answer(self, variant: Variant) -> Any:
        """The answer shown when the learner gives up, as `Result.answer` holds it."""

    def give_up(self, variant: Variant, hints_used: int = 0) -> Result:
        """The learner asked for the answer: it is shown and the attempt scores 0."""
        return Result(score=0.0, verdict=Verdict.REVEALED, raw_score=0.0, hints_used=hints_used, answer=self.revealed_answer(variant))

    @abstractmethod
    def answer_text(self, variant: Variant, lang: str) -> str:
        """The answer key as a learner reads it (Markdown with $...$ maths)."""

    @abstractmethod
    def answer_json(self, variant: Variant, lang: str) -> Any:
        """The answer key for tools: what `quiz grade` accepts back, as JSON-ready data."""

    @abstractmethod
    def how_to_answer(self, variant: Variant, lang: str) -> list[str]:
        """Lines telling the learner what to give: the shape and tolerance, the options, ..."""

    @abstractmethod
    def response_text(self, variant: Variant, response: Any) -> str:
        """`response` written back as text that `read` reads as the same response."""

    def response_json(self, response: Any) -> Any:
        """`response` as JSON-ready data, for history and `--json` output."""
        return json_ready(sorted(response) if isinstance(response, frozenset) else response)

    def extra_json(self, variant: Variant, lang: str) -> dict[str, Any]:
        """Fields of this type added to the variant's JSON (`quiz show --json`)."""
        return {}

    def graded_json(self, variant: Variant, response: Any, lang: str) -> dict[str, Any]:
        """Fields of this type added to a graded response's JSON (`quiz grade --json`)."""
        return {}

    def with_requests(self, asked: list[str], text: str) -> str | None:
        """The answer `text` with the figures `asked` for first, as `read` reads it (`quiz grade
        --ask`); None for a type that has no figures to ask for."""
        return None

    def starter(self, variant: Variant) -> str | None:
        """The file an answer starts from, for types answered by editing one (`quiz show --starter`)."""
        return None

    def reference_solution(self, variant: Variant) -> str | None:
        """A worked solution to show beside the candidate's once they pass or give up (a code task's); None for most types."""
        return None

    def rule(self, variant: Variant, lang: str) -> str | None:
        """A grading rule shown under the prompt (the tolerance of numeric types), if any."""
        return None

    def marked_response(self, variant: Variant, result: Result, response: Any, lang: str) -> str | None:
        """What was right and wrong in the learner's response ("Your answer: [0.88 ✓, 0.2 ✗]",
        the points missed, ...), when the type can say."""
        return None

    def mistakes(self, variant: Variant) -> list[Mistake]:
        """The question's named mistakes with what each gives in this variant (none by default)."""
        return []

    def mistake_shown(self, variant: Variant, mistake: Mistake, lang: str) -> str:
        """What `mistake` gives as a learner reads it (Markdown), for study cards: its value by
        default; a type whose values are internal ids says it in the question's own words."""
        return mistake.shown

    def clashes(self, variant: Variant) -> list[str]:
        """The misconceptions this variant would grade as right (or as close to right): such a
        variant is never served, its question is drawn again (none by default)."""
        return []

    def self_test(self, variant: Variant) -> Iterator[Problem]:
        """Problems with this variant's answer key that only this type can see."""
        return iter(())
