"""Where a field of a question stands in its pack, as self-test and validation messages name it."""

from __future__ import annotations

from pathlib import Path

from quiz.format.diagnostics import Location
from quiz.format.marks import located
from quiz.format.model import Misconception, QuestionBase
from quiz.models.questions import Figure


def field_location(question: QuestionBase, name: str | None) -> Location:
    """Where a field named as messages name it (`answer`, `derived.w`, `params.s`,
    `constraints[0]`, `misconceptions.no_scaling`) stands; the question's start otherwise."""
    start = question.source or Location(Path("<question>"))
    if not name:
        return start
    head, _, rest = name.partition(".")
    if head.startswith("constraints["):
        return located(question, "constraints", int(head[len("constraints[") : -1])) or start
    if head == "figures":  # figures.<id>.value: an evidence question's figure, found by its id
        figure_id = rest.partition(".")[0]
        figures: tuple[Figure, ...] = getattr(question, "figures", ())
        for figure in figures:
            if figure.id == figure_id and figure.marks is not None:
                return figure.marks.at("value")
    if head == "misconceptions":
        misconceptions: tuple[Misconception, ...] = getattr(question, "misconceptions", ())
        for misconception in misconceptions:
            if misconception.name == rest and misconception.marks is not None:
                return misconception.marks.start
    return located(question, head, rest or None) or start
