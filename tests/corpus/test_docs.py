"""docs/authoring.md stays true: every example passes `quiz validate --strict`, its expression
reference is the one generated from the registry, and packs written to the earlier format load."""

import re

import pytest

from places import ROOT
from quiz.authoring.reference import BEGIN, END, expression_reference
from quiz.cli.main import main
from quiz.expressions.functions import FUNCTIONS
from quiz.models.registry import TYPE_NAMES

GUIDE = ROOT / "docs" / "authoring.md"
TEXT = GUIDE.read_text(encoding="utf-8")
# Whole question files start with `id:` (or `- id:` for a list, `pack:` for a pack file); other
# blocks are fragments.
EXAMPLES = re.findall(r"```yaml\n((?:(?:- )?id:|pack:).*?)```", TEXT, flags=re.S)


def test_the_guide_has_an_example_of_every_type():
    text = "\n".join(EXAMPLES)
    for kind in TYPE_NAMES:
        assert re.search(rf"^\s*-? ?type: {kind}$", text, flags=re.M), kind


@pytest.mark.parametrize("example", EXAMPLES, ids=[f"example-{i}" for i in range(len(EXAMPLES))])
def test_example_passes_strict_validation(tmp_path, capsys, example):
    path = tmp_path / "example.yaml"
    path.write_text(example, encoding="utf-8")
    code = main(["validate", "--strict", "--seeds", "20", str(path)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.splitlines()[-1].endswith(": 0 errors, 0 warnings"), out


def test_the_expression_reference_is_generated_from_the_registry():
    block = TEXT[TEXT.index(BEGIN) + len(BEGIN) : TEXT.index(END)]
    assert block.strip() == expression_reference().strip(), (
        "docs/authoring.md's expression reference is out of date: run "
        "`python -m quiz.authoring.reference --write docs/authoring.md`"
    )
    for name in FUNCTIONS:
        assert f"`{name}" in block, name


def test_the_guide_documents_every_command_an_author_uses():
    for command in ("quiz new", "quiz validate --watch", "quiz show", "quiz coverage", "quiz paths", "quiz schema", "quiz export-anki"):
        assert command in TEXT, command
    assert "# yaml-language-server: $schema=" in TEXT


def test_a_pack_written_to_the_format_documented_before_is_still_valid(capsys):
    old = ROOT / "tests" / "data" / "documented-before-issue-12.yaml"
    assert main(["validate", str(old)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == "checked 8 questions in 1 file: 0 errors, 3 warnings"
    assert all("has no label" in line for line in out.splitlines()[:-1])
