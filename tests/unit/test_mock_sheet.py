"""The interviewer's sheet: deterministic, complete, and every key on it grades as correct."""

import re

import pytest

from quiz.bank import load_bank
from quiz.code import reference_solution
from quiz.grading.result import Verdict
from quiz.mock.compose import compose
from quiz.mock.options import MockOptions
from quiz.mock.sheet import interviewer_sheet, plan_variants
from quiz.render.mathtext import markdown_to_plain
from quiz.types.registry import type_of

BANK = load_bank()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_same_options_and_seed_give_the_same_bytes(lang):
    plan = compose(BANK, MockOptions(seed=5))
    assert interviewer_sheet(BANK, plan, lang).encode() == interviewer_sheet(BANK, compose(BANK, MockOptions(seed=5)), lang).encode()


@pytest.mark.parametrize("seed", range(6))
def test_every_key_printed_on_the_sheet_grades_as_correct(seed):
    plan = compose(BANK, MockOptions(minutes=60, seed=seed))
    sheet = interviewer_sheet(BANK, plan, "en")
    sections = sheet.split("\n## ")[2:]  # after the title block and the time plan
    assert len(sections) == len(plan.questions)
    for section, variant in zip(sections, plan_variants(BANK, plan)):
        assert section.split("`")[1] == variant.key
        kind = type_of(variant.question)
        if kind.name == "explain":
            assert "**Checklist" in section and section.count("- [ ] ") == len(variant.question.rubric)
            continue
        if kind.name == "code":  # the key is the checks; a reference solution passes them in the sandbox
            for check in kind.answer_json(variant, "en")["checks"]:
                assert f"- {check['label']}" in section
            reference = reference_solution(variant.question.task)
            assert kind.grade(variant, kind.read(variant, reference)).verdict is Verdict.CORRECT, variant.key
            continue
        printed = section.split("**Key:** Answer:")[1].split("\n\n**")[0].strip()
        if kind.name in ("choice", "multi", "evidence"):
            typed = " ".join(re.findall(r"(?m)^([a-z])\) ", printed))  # a multi's options one a line
            if kind.name == "evidence":  # the key names the fault; full marks also ask the best figure first
                typed = kind.answer_json(variant, "en").rsplit(" ", 1)[0] + " " + typed
        elif kind.name == "order":  # the right order, written out: typed back as the numbers shown
            shown = [markdown_to_plain(item).strip() for item in kind.extra_json(variant, "en")["items"]]
            items = [re.sub(r"^\d+\. ", "", line).strip() for line in printed.strip().splitlines()]
            typed = " ".join(str(1 + shown.index(item)) for item in items)
        else:
            typed = printed
        response = kind.read(variant, typed)
        assert kind.grade(variant, response).verdict is Verdict.CORRECT, (variant.key, printed)


def test_the_sheet_names_the_mistakes_to_listen_for_and_the_follow_ups():
    plan = compose(BANK, MockOptions(minutes=120, seed=1))
    sheet = interviewer_sheet(BANK, plan, "en")
    for variant in plan_variants(BANK, plan):
        for mistake in type_of(variant.question).mistakes(variant):  # a code task's mistakes too
            assert mistake.label.en in sheet
        for follow_up in variant.question.follow_up_ids:
            assert f"`{follow_up}`" in sheet
    assert "## Time plan" in sheet and "| 1 | `" in sheet
