"""The records' equality, hash and repr, written once in Fieldwise, are what @dataclass writes."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
from dataclasses import dataclass, field

import pytest

import quiz
from quiz import locations
from quiz.bank import load_bank
from quiz.format import model
from quiz.format.diagnostics import Location
from quiz.format.fieldwise import Fieldwise
from quiz.types import models


@dataclass(frozen=True, kw_only=True)
class Generated:
    """Fields of every kind that matters: compared or not, hashed or not, shown or not."""

    a: int
    b: tuple[str, ...] = ()
    hidden: str = field(default="", repr=False)
    ignored: str = field(default="", compare=False)
    unhashed: int = field(default=0, hash=False)
    hashed_only: int = field(default=0, compare=False, hash=True)


@dataclass(frozen=True, kw_only=True, eq=False, repr=False)
class Shared(Fieldwise):
    a: int
    b: tuple[str, ...] = ()
    hidden: str = field(default="", repr=False)
    ignored: str = field(default="", compare=False)
    unhashed: int = field(default=0, hash=False)
    hashed_only: int = field(default=0, compare=False, hash=True)


VALUES = [
    {"a": 1},
    {"a": 1, "b": ("x", "y")},
    {"a": 1, "hidden": "h"},
    {"a": 1, "ignored": "i"},
    {"a": 1, "unhashed": 5},
    {"a": 1, "hashed_only": 7},
    {"a": 2, "b": ("x",), "hidden": "h", "ignored": "i", "unhashed": 3, "hashed_only": 4},
]


@pytest.mark.parametrize("one", VALUES)
@pytest.mark.parametrize("other", VALUES)
def test_fieldwise_equality_hash_and_repr_are_the_generated_ones(one, other):
    generated, shared = (Generated(**one), Generated(**other)), (Shared(**one), Shared(**other))
    assert (shared[0] == shared[1]) == (generated[0] == generated[1])
    assert (shared[0] != shared[1]) == (generated[0] != generated[1])
    assert hash(shared[0]) == hash(generated[0])  # both hash the same tuple of fields
    assert repr(shared[0]) == repr(generated[0]).replace("Generated(", "Shared(", 1)


def test_fieldwise_does_not_compare_across_classes():
    assert Shared(a=1).__eq__(Generated(a=1)) is NotImplemented
    assert Shared(a=1) != Generated(a=1)


def test_every_frozen_record_of_a_module_using_fieldwise_takes_them_from_it():
    """A record declared without eq=False or repr=False compiles its own again (and, below a
    Fieldwise base, one declared eq=False alone would compare only the base's fields)."""
    classes = []
    for info in pkgutil.walk_packages(quiz.__path__, "quiz."):
        if info.name == "quiz.__main__":  # runs the command when imported
            continue
        module = importlib.import_module(info.name)
        if getattr(module, "Fieldwise", None) is Fieldwise:
            classes += [c for _, c in inspect.getmembers(module, inspect.isclass)
                        if dataclasses.is_dataclass(c) and c.__module__ == module.__name__ and c.__dataclass_params__.frozen]
    assert {model.QuestionBase, models.MatrixQuestion, Location} <= set(classes) and len(classes) >= 60
    for cls in classes:
        if cls.__dataclass_params__.eq is False and cls.__eq__ is object.__eq__:
            continue  # compared by identity on purpose
        assert issubclass(cls, Fieldwise), cls
        for name in ("__eq__", "__hash__", "__repr__"):
            assert getattr(cls, name) is getattr(Fieldwise, name), (cls, name)


def test_bundled_questions_compare_by_their_compared_fields_alone():
    bank = load_bank([locations.bundled_bank_dir()])
    for question in bank.questions.values():
        same = dataclasses.replace(question)
        assert same == question and same is not question
        assert dataclasses.replace(question, source=Location(question.source.path, 999), version="other") == question
        assert dataclasses.replace(question, id=question.id + "-x") != question
        shown = ", ".join(f"{f.name}={getattr(question, f.name)!r}" for f in dataclasses.fields(question) if f.repr)
        assert repr(question) == f"{type(question).__qualname__}({shown})"
