"""The question-type registry: every type is complete, and its text forms read back as themselves."""

import inspect

import numpy as np
import pytest

from quiz.bank import load_bank
from quiz.format.checks import check_question
from quiz.format.diagnostics import Report
from quiz.grading.result import Verdict
from quiz.i18n import LANGUAGES, catalogue
from quiz.types.base import QuestionType
from quiz.types.registry import QUESTION_TYPES, TYPE_NAMES, TYPES, type_of
from quiz.ui.answers.base import AnswerWidget
from quiz.ui.answers.registry import WIDGETS
from quiz.variants.draw import make_variant


def test_every_type_is_registered_under_the_name_its_model_declares():
    for name, kind in TYPES.items():
        assert kind.name == name
        assert kind.model.__dataclass_fields__["type"].default == name
    assert tuple(TYPES) == TYPE_NAMES and len(QUESTION_TYPES) == len(TYPES)


@pytest.mark.parametrize("name", TYPE_NAMES)
def test_every_type_implements_the_whole_protocol(name):
    kind = TYPES[name]
    assert isinstance(kind, QuestionType)
    assert not inspect.isabstract(type(kind)), f"{name} leaves abstract methods"


@pytest.mark.parametrize("name", TYPE_NAMES)
def test_every_type_has_a_widget_and_labels_in_both_languages(name):
    assert issubclass(WIDGETS[name], AnswerWidget)
    for lang in LANGUAGES:
        assert catalogue(lang).get(f"ui.type_{name}"), (name, lang)


def test_the_widget_registry_knows_no_type_the_core_does_not():
    assert set(WIDGETS) == set(TYPES)


def _bundled_variants():
    bank = load_bank()
    for question in bank.questions.values():
        compiled = check_question(question, bank.claims, Report())
        assert compiled is not None
        for seed in range(3):
            yield make_variant(compiled, seed)


@pytest.mark.parametrize("variant", list(_bundled_variants()), ids=lambda v: v.key)
def test_the_revealed_answer_written_as_text_reads_back_and_grades_correct(variant):
    kind = type_of(variant.question)
    typed = kind.answer_json(variant, "en")
    if kind.name == "explain":  # the key of a spoken question is its model answer, not a response
        typed = list(range(len(variant.question.rubric)))
        response = frozenset(typed)
    else:
        response = kind.read(variant, kind.response_text(variant, _as_response(kind, variant, typed)))
    again = kind.read(variant, kind.response_text(variant, response))
    assert np.array_equal(again, response) if kind.name in ("number", "vector", "matrix") else again == response
    assert kind.grade(variant, response).verdict is Verdict.CORRECT


def _as_response(kind, variant, answer_json):
    """The response that `answer_json` describes, in the form the grader takes."""
    if kind.name == "multi":
        return frozenset(answer_json)
    if kind.name == "order":
        return tuple(range(len(variant.question.items)))
    return answer_json


@pytest.mark.parametrize("name", TYPE_NAMES)
def test_every_type_has_a_scaffold_on_a_known_topic(name):
    kind = TYPES[name]
    assert kind.scaffold.startswith("id: <ID>\n") and f"\ntype: {name}\n" in kind.scaffold
    assert kind.scaffold_topic in load_bank().claims.topics
