"""The question-type registry: every type is complete, and its text forms read back as themselves."""

import inspect
import json
import re

import numpy as np
import pytest

from places import ROOT
from quiz.answer_text import Invalid
from quiz.authoring.scaffold import scaffold
from quiz.bank import load_bank
from quiz.code import reference_solution
from quiz.format.checks import check_question
from quiz.format.diagnostics import Report
from quiz.format.model import QuestionBase
from quiz.grading.result import Verdict
from quiz.locale.i18n import LANGUAGES, catalogue
from quiz.models.registry import QUESTION_TYPES, TYPE_NAMES
from quiz.render.plain_data import json_ready
from quiz.types.base import QuestionType
from quiz.types.draw import make_variant
from quiz.types.registry import TYPES, type_of
from quiz.ui.answer_widgets.base import AnswerWidget
from quiz.ui.answer_widgets.registry import WIDGETS, widget_class

GUIDE = (ROOT / "docs" / "authoring.md").read_text(encoding="utf-8")
GUIDE_EXAMPLES = re.findall(r"```yaml\n((?:- )?id:.*?)```", GUIDE, flags=re.S)


def test_every_type_is_registered_under_the_name_its_model_declares():
    assert tuple(TYPES) == TYPE_NAMES and len(QUESTION_TYPES) == len(TYPES)


@pytest.mark.parametrize("name", TYPE_NAMES)
def test_every_registered_type_is_complete(compile_yaml, name):
    """What adding a type takes: a model, a reader and a grader, a widget, labels in both
    languages, a scaffold for `quiz new` and an example in docs/authoring.md."""
    kind = TYPES[name]
    # The model: the dataclass its YAML converts to, told apart by `type`.
    assert issubclass(kind.model, QuestionBase) and kind.model.__dataclass_fields__["type"].default == name
    assert isinstance(kind, QuestionType) and kind.name == name
    assert not inspect.isabstract(type(kind)), f"{name} leaves abstract methods"
    # The reader and the grader: the type's own scaffold, its key typed back, grades correct.
    compiled = compile_yaml(scaffold(name, f"my-{name}", None, load_bank().claims), f"{name}.yaml")[f"my-{name}"]
    variant = make_variant(compiled, 0)
    response = kind.read(variant, full_marks_typed(kind, variant))
    assert not isinstance(response, Invalid), response
    assert kind.grade(variant, response).verdict is Verdict.CORRECT
    assert kind.how_to_answer(variant, "en") and kind.how_to_answer(variant, "ja")
    # The app's widget, found by the same name.
    assert issubclass(widget_class(name), AnswerWidget)
    # Its name as learners read it, in natural words of each language.
    labels = {lang: catalogue(lang).get(f"ui.type_{name}") for lang in LANGUAGES}
    assert all(labels.values()) and len(set(labels.values())) == len(LANGUAGES), labels
    # An example in the authors' guide (test_docs.py checks each passes validate --strict).
    assert any(re.search(rf"^\s*-? ?type: {name}$", example, flags=re.M) for example in GUIDE_EXAMPLES), name


def full_marks_typed(kind, variant) -> str:
    """A full-marks answer as a learner types it: the key `quiz show --json` gives, or for a
    spoken answer every rubric point ticked."""
    if kind.name == "explain":  # the key of a spoken question is its model answer, not a response
        return " ".join(str(n + 1) for n in range(len(variant.question.rubric)))
    if kind.name == "code":  # no solution travels in a pack: the task's reference solution is the answer
        return reference_solution(variant.question.task)
    return typed(kind.answer_json(variant, "en"))


def test_the_widget_registry_knows_no_type_the_core_does_not():
    assert set(WIDGETS) == set(TYPES)


def _bundled_variants():
    bank = load_bank()
    # A code question's answer is a file run in the sandbox, not a key written back as text: its
    # reference solutions go through `quiz grade --file` in tests/unit/test_code_questions.py.
    for question in (q for q in bank.questions.values() if q.type != "code"):
        compiled = check_question(question, bank.claims, Report())
        assert compiled is not None
        for seed in range(3):
            yield make_variant(compiled, seed)


@pytest.mark.parametrize("variant", list(_bundled_variants()), ids=lambda v: v.key)
def test_the_key_for_tools_and_the_revealed_answer_read_back_and_grade_correct(variant):
    kind = type_of(variant.question)
    response = kind.read(variant, full_marks_typed(kind, variant))  # what `quiz grade --answer` reads
    assert not isinstance(response, Invalid), response
    again = kind.read(variant, kind.response_text(variant, response))
    assert np.array_equal(again, response) if kind.name in ("number", "vector", "matrix") else again == response
    assert kind.grade(variant, response).verdict is Verdict.CORRECT


def typed(answer_json):
    """The JSON key as a learner would type it: a word, or a list of words or numbers separated by spaces."""
    if isinstance(answer_json, str):
        return answer_json
    if isinstance(answer_json, list) and all(isinstance(x, str | int) for x in answer_json):
        return " ".join(str(x) for x in answer_json)
    return json.dumps(json_ready(answer_json))
