"""The records' methods, written once in Fieldwise, behave as the ones @dataclass(frozen=True) writes."""

from __future__ import annotations

import copy
import dataclasses
import importlib
import inspect
import pickle
import pkgutil
from dataclasses import FrozenInstanceError, dataclass, field

import pytest

import quiz
from quiz.bank import load_bank
from quiz.base import locations
from quiz.base.fieldwise import Fieldwise, record
from quiz.format import model
from quiz.format.diagnostics import Location
from quiz.models import questions as models


@dataclass(frozen=True, kw_only=True)
class Generated:
    """Fields of every kind that matters: compared or not, hashed or not, shown or not."""

    a: int
    b: tuple[str, ...] = ()
    hidden: str = field(default="", repr=False)
    ignored: str = field(default="", compare=False)
    unhashed: int = field(default=0, hash=False)
    hashed_only: int = field(default=0, compare=False, hash=True)


@record(kw_only=True)
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


@dataclass(frozen=True)
class GeneratedMixed:
    """Positional fields, defaults, a factory, keyword-only fields and a field __init__ does not take."""

    a: int
    b: str = "b"
    c: list[int] = field(default_factory=list)
    d: int = field(default=4, kw_only=True)
    e: int = field(init=False, default=5)
    f: int = field(kw_only=True, default=6)


@record
class SharedMixed(Fieldwise):
    a: int
    b: str = "b"
    c: list[int] = field(default_factory=list)
    d: int = field(default=4, kw_only=True)
    e: int = field(init=False, default=5)
    f: int = field(kw_only=True, default=6)


CALLS = [
    ((1,), {}),
    ((1, "x"), {}),
    ((1, "x", [3]), {"d": 7, "f": 8}),
    ((), {"a": 1, "c": [2]}),
    ((), {"f": 1, "a": 2}),
    # each of these is refused, by both
    ((), {}),
    ((1, "x", [3], 4), {}),
    ((1,), {"a": 2}),
    ((1,), {"e": 9}),
    ((1,), {"nosuch": 9}),
]


@pytest.mark.parametrize(("args", "kwargs"), CALLS)
def test_fieldwise_init_takes_what_the_generated_one_takes(args, kwargs):
    try:
        generated = GeneratedMixed(*args, **kwargs)
    except TypeError:
        with pytest.raises(TypeError, match=r"SharedMixed\.__init__\(\)"):
            SharedMixed(*args, **kwargs)
        return
    shared = SharedMixed(*args, **kwargs)
    assert dataclasses.astuple(shared) == dataclasses.astuple(generated)
    assert SharedMixed(1).c is not SharedMixed(1).c  # a factory per instance


def test_signatures_match_for_type_checkers_and_the_match_statement():
    assert SharedMixed.__match_args__ == GeneratedMixed.__match_args__ == ("a", "b", "c")
    match SharedMixed(1, "y"):
        case SharedMixed(1, "y"):
            pass
        case _:
            pytest.fail("a record matches by its positional fields")


@record(slots=True)
class Slotted(Fieldwise):
    a: int
    b: tuple[int, ...] = ()


@record
class DictBelowSlots(Slotted):
    c: int = 3


@record(slots=True)
class SlotsBelowDict(SharedMixed):
    g: int = field(kw_only=True, default=7)


@record
class Normalised(Fieldwise):
    text: str | None

    def __post_init__(self) -> None:
        if self.text == "":
            object.__setattr__(self, "text", None)


MADE = [Slotted(1, (2,)), SharedMixed(1, "x", [2], d=3), Normalised("t"), DictBelowSlots(1, c=4), SlotsBelowDict(1, g=8)]


def test_fields_are_set_in_slots_and_in_the_instance_dict_alike():
    assert dataclasses.astuple(DictBelowSlots(1, c=4)) == (1, (), 4)
    assert dataclasses.astuple(SlotsBelowDict(1, g=8)) == (1, "b", [], 4, 5, 6, 8)


@pytest.mark.parametrize("made", MADE, ids=type)
def test_a_record_is_frozen(made):
    name = dataclasses.fields(made)[0].name
    before = dataclasses.astuple(made)
    with pytest.raises(FrozenInstanceError, match=f"cannot assign to field '{name}'"):
        setattr(made, name, 0)
    with pytest.raises(FrozenInstanceError):
        made.not_a_field = 0
    with pytest.raises(FrozenInstanceError, match=f"cannot delete field '{name}'"):
        delattr(made, name)
    assert dataclasses.astuple(made) == before


def test_post_init_runs_after_the_fields_are_set():
    assert Normalised("").text is None and Normalised("t").text == "t"


@pytest.mark.parametrize("made", MADE, ids=type)
def test_a_record_survives_pickling_copying_and_replace(made):
    for again in (pickle.loads(pickle.dumps(made)), copy.copy(made), copy.deepcopy(made), dataclasses.replace(made)):
        assert again == made and again is not made and type(again) is type(made)
        with pytest.raises(FrozenInstanceError):
            setattr(again, dataclasses.fields(made)[0].name, 0)
    assert dataclasses.replace(made, **{dataclasses.fields(made)[0].name: 9}) != made


def test_record_needs_fieldwise():
    with pytest.raises(TypeError, match="must inherit Fieldwise"):

        @record
        class Plain:
            a: int


def test_every_frozen_record_of_a_module_using_fieldwise_takes_them_from_it():
    """A record declared with @dataclass compiles its methods again (and, below a Fieldwise base,
    one declared eq=False alone would compare only the base's fields)."""
    classes = []
    for info in pkgutil.walk_packages(quiz.__path__, "quiz."):
        if info.name == "quiz.__main__":  # runs the command when imported
            continue
        module = importlib.import_module(info.name)
        if getattr(module, "Fieldwise", None) is Fieldwise:
            classes += [c for _, c in inspect.getmembers(module, inspect.isclass)
                        if dataclasses.is_dataclass(c) and c.__module__ == module.__name__
                        and (c.__dataclass_params__.frozen or issubclass(c, Fieldwise))]
    assert {model.QuestionBase, models.MatrixQuestion, Location} <= set(classes) and len(classes) >= 60
    for cls in classes:
        if cls.__dataclass_params__.frozen and cls.__dataclass_params__.eq is False and cls.__eq__ is object.__eq__:
            continue  # a plain frozen dataclass compared by identity on purpose
        assert issubclass(cls, Fieldwise), cls
        for name in ("__init__", "__setattr__", "__delattr__", "__eq__", "__hash__", "__repr__"):
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
