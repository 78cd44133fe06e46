"""Every YAML example in docs/authoring.md loads, compiles and self-tests cleanly."""

import re
from pathlib import Path

import pytest

from quiz.bank import load_bank
from quiz.format.diagnostics import Report
from quiz.format.checks import check_question
from quiz.authoring.selftest import self_test
from quiz.types.registry import TYPE_NAMES

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "authoring.md"
# Whole question files start with `id:` (or `- id:` for a list); other blocks are fragments.
EXAMPLES = re.findall(r"```yaml\n((?:- )?id:.*?)```", GUIDE.read_text(encoding="utf-8"), flags=re.S)


def test_the_guide_has_an_example_of_every_type():
    text = "\n".join(EXAMPLES)
    for kind in TYPE_NAMES:
        assert re.search(rf"^\s*-? ?type: {kind}$", text, flags=re.M), kind


@pytest.mark.parametrize("example", EXAMPLES, ids=[f"example-{i}" for i in range(len(EXAMPLES))])
def test_example_is_a_valid_question_file(tmp_path, example):
    path = tmp_path / "example.yaml"
    path.write_text(example, encoding="utf-8")
    bank = load_bank([path])
    report = Report()
    report.extend(bank.report)
    assert len(bank) >= 1, [str(d) for d in report.errors]
    for question in bank.questions.values():
        compiled = check_question(question, bank.claims, report)
        assert compiled is not None, [str(d) for d in report.errors]
        assert self_test(compiled, 5) == []
    assert report.errors == [], [str(d) for d in report.errors]
