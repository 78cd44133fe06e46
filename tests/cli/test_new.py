"""`quiz new`: a commented scaffold of every registered type that passes `quiz validate --strict`."""

import pytest
import yaml

from quiz.cli.main import main
from quiz.models.registry import TYPE_NAMES


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("kind", TYPE_NAMES)
def test_every_types_scaffold_passes_strict_validation_as_it_is(capsys, tmp_path, kind):
    path = tmp_path / f"{kind}.yaml"
    code, _, err = run(capsys, "new", "--type", kind, "--id", f"my-{kind}", "-o", str(path))
    assert code == 0 and f"wrote {path}" in err
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=question.schema.json\n")
    assert yaml.safe_load(text)["type"] == kind and f"id: my-{kind}\n" in text
    code, out, _ = run(capsys, "validate", "--strict", "--seeds", "30", str(path))
    assert code == 0, out
    assert out.splitlines()[-1] == "checked 1 question in 1 file: 0 errors, 0 warnings"


OTHER = "- {id: ID, type: truefalse, topic: scaling, refs: [B1], prompt: {en: S., ja: S。}, answer: true, explanation: {en: E., ja: E。}}\n"


@pytest.mark.parametrize("kind", ["number", "explain"])
def test_the_scaffold_offers_a_pushback_and_branching_follow_ups_that_validate_once_uncommented(capsys, tmp_path, kind):
    code, out, _ = run(capsys, "new", "--type", kind, "--id", "first")
    assert code == 0 and ("pushback" in yaml.safe_load(out)) is (kind != "explain")  # a spoken answer is graded after the interview
    if kind == "explain":
        chained = out.replace("# follow_ups: [another-question]", "follow_ups: [second]")
        expected = ["second"]
    else:
        chained = out.replace("# follow_ups:", "follow_ups:").replace("#   - {id: a-deeper-question", "  - {id: second")
        chained = chained.replace("#   - {id: a-narrower-question", "  - {id: third")
        expected = [{"id": "second", "when": "right"}, {"id": "third", "when": "wrong"}]
    assert yaml.safe_load(chained)["follow_ups"] == expected
    path, others = tmp_path / "first.yaml", tmp_path / "others.yaml"
    path.write_text(chained, encoding="utf-8")
    others.write_text(OTHER.replace("ID", "second") + OTHER.replace("ID", "third"), encoding="utf-8")
    code, out, _ = run(capsys, "validate", "--seeds", "5", str(path), str(others))
    assert code == 0 and out.splitlines()[-1] == "checked 3 questions in 2 files: 0 errors, 0 warnings", out


@pytest.mark.parametrize("topic", ["attention", "testing"])
def test_a_topic_given_is_used_with_one_of_its_claims(capsys, tmp_path, topic):
    code, out, _ = run(capsys, "new", "--type", "truefalse", "--id", "t", "--topic", topic.upper())
    data = yaml.safe_load(out)
    assert code == 0 and data["topic"] == topic and data["refs"][0][0] == {"attention": "A", "testing": "F"}[topic]
    path = tmp_path / "t.yaml"
    path.write_text(out, encoding="utf-8")
    assert run(capsys, "validate", "--strict", str(path))[0] == 0


def test_what_cannot_be_a_new_question_is_refused_with_a_reason(capsys, tmp_path):
    code, _, err = run(capsys, "new", "--type", "matrx", "--id", "m")
    assert code == 2 and "there is no type 'matrx' (did you mean 'matrix'?)" in err
    code, _, err = run(capsys, "new", "--type", "matrix", "--id", "My Matrix")
    assert code == 2 and "'My Matrix' cannot be an id" in err
    code, _, err = run(capsys, "new", "--type", "matrix", "--id", "causal-weights-3x3")
    assert code == 1 and "already used by the question at" in err and "masking.yaml" in err
    code, _, err = run(capsys, "new", "--type", "matrix", "--id", "m", "--topic", "masks")
    assert code == 1 and "There is no topic 'masks'" in err
    existing = tmp_path / "mine.yaml"
    existing.write_text("keep me\n", encoding="utf-8")
    code, _, err = run(capsys, "new", "--type", "matrix", "--id", "m", "-o", str(existing))
    assert code == 1 and "already exists" in err and existing.read_text(encoding="utf-8") == "keep me\n"


def test_the_help_names_every_registered_type(capsys):
    with pytest.raises(SystemExit):
        main(["new", "--help"])
    assert ", ".join(TYPE_NAMES) in " ".join(capsys.readouterr().out.split())


def test_output_into_folders_that_do_not_exist_yet_makes_them(capsys, tmp_path):
    path = tmp_path / "packs" / "mine" / "q.yaml"
    code, _, err = run(capsys, "new", "--type", "number", "--id", "deep", "-o", str(path))
    assert code == 0 and f"wrote {path}" in err and yaml.safe_load(path.read_text(encoding="utf-8"))["id"] == "deep"


def test_output_under_a_file_or_through_a_link_is_refused_and_nothing_is_written(capsys, tmp_path):
    blocker = tmp_path / "packs"
    blocker.write_text("a file, not a folder\n", encoding="utf-8")
    code, _, err = run(capsys, "new", "--type", "number", "--id", "n", "-o", str(blocker / "q.yaml"))
    assert code == 1 and f"cannot write {blocker / 'q.yaml'}: {blocker} is a file, not a folder" in err
    assert blocker.read_text(encoding="utf-8") == "a file, not a folder\n"
    target = tmp_path / "elsewhere.yaml"
    link = tmp_path / "link.yaml"
    link.symlink_to(target)  # dangling: open("x") must not create the file it points to
    code, _, err = run(capsys, "new", "--type", "number", "--id", "n", "-o", str(link))
    assert code == 1 and "already exists" in err and not target.exists()


def test_a_code_question_with_a_task_of_its_own_is_scaffolded_and_passes_strict_validation(capsys, tmp_path):
    path = tmp_path / "own.yaml"
    code, _, err = run(capsys, "new", "--type", "code", "--own-task", "--id", "my-own", "-o", str(path))
    assert code == 0 and f"wrote {path}" in err
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert "task" not in data and data["define"]["function"] == "attend_cache" and data["define"]["mistakes"][0]["name"] == "unscaled"
    code, out, _ = run(capsys, "validate", "--strict", "--seeds", "30", str(path))
    assert code == 0, out
    assert out.splitlines()[-1] == "checked 1 question in 1 file: 0 errors, 0 warnings"


def test_own_task_goes_with_the_code_type_only(capsys):
    code, out, err = run(capsys, "new", "--type", "number", "--own-task", "--id", "n")
    assert (code, out) == (2, "") and "--own-task goes with --type code" in err
