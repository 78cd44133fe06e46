"""Finding and loading packs: bundled bank, user packs, --bank paths and clashing ids."""

from pathlib import Path

import pytest

from quiz.bank import content_version, load_bank, pack_files
from quiz.base import locations
from quiz.format.yaml_source import read_yaml_file

QUESTION = """\
- id: {id}
  type: truefalse
  topic: scaling
  prompt: Scaling by 1/sqrt(d_k) makes attention uniform.
  answer: false
"""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_bundled_bank_is_found_and_loads_without_errors():
    bank = load_bank()
    assert bank.files and all(p.is_relative_to(locations.bundled_bank_dir()) for p in bank.files)
    assert bank.report.errors == []
    assert len(bank) >= 1
    assert bank.claims.claims and bank.claims.topics


@pytest.mark.slow
def test_user_packs_folder_is_loaded_by_default(isolated_user_dirs):
    write(locations.user_packs_dir() / "mine" / "extra.yaml", QUESTION.format(id="mine-1"))
    bank = load_bank()
    assert "mine-1" in bank.questions


def test_extra_paths_add_to_the_default_sources(tmp_path):
    pack = write(tmp_path / "pack.yml", QUESTION.format(id="extra-1"))
    bank = load_bank(extra=[pack])
    assert "extra-1" in bank.questions and len(bank) > 1


def test_an_id_defined_twice_names_both_files_and_lines(tmp_path):
    first = write(tmp_path / "a.yaml", QUESTION.format(id="same"))
    second = write(tmp_path / "b.yaml", QUESTION.format(id="other") + QUESTION.format(id="same"))
    bank = load_bank([tmp_path])
    assert list(bank.questions) == ["same", "other"]
    [error] = bank.report.errors
    assert (error.location.path, error.location.line) == (second, 6)
    assert f"first at {first}:1:3" in error.message


def test_a_broken_file_costs_only_its_own_questions(tmp_path):
    write(tmp_path / "good.yaml", QUESTION.format(id="good"))
    write(tmp_path / "broken.yaml", "- id: [unclosed\n")
    bank = load_bank([tmp_path])
    assert list(bank.questions) == ["good"]
    assert [e.location.path.name for e in bank.report.errors] == ["broken.yaml"]


def test_missing_source_and_empty_folder_are_reported(tmp_path):
    (tmp_path / "empty").mkdir()
    bank = load_bank([tmp_path / "absent", tmp_path / "empty"])
    assert [e.message for e in bank.report.errors] == ["no such file or folder", "no YAML question files in it"]


def test_pack_files_skip_claims_and_other_suffixes(tmp_path):
    write(tmp_path / "claims.yaml", "topics: []\nclaims: []\n")
    write(tmp_path / "notes.txt", "x")
    keep = write(tmp_path / "sub" / "q.yaml", QUESTION.format(id="q"))
    assert pack_files(tmp_path) == [keep]


def test_content_version_ignores_formatting_but_not_wording(tmp_path):
    a = write(tmp_path / "a.yaml", "id: x\nprompt: Hello\ntype: truefalse\n")
    b = write(tmp_path / "b.yaml", "# a comment\ntype:   truefalse\nid: x\nprompt: 'Hello'\n")
    c = write(tmp_path / "c.yaml", "id: x\nprompt: Hello!\ntype: truefalse\n")
    versions = [content_version(read_yaml_file(p)) for p in (a, b, c)]
    assert versions[0] == versions[1] != versions[2]


def test_loaded_questions_carry_source_and_version(tmp_path):
    path = write(tmp_path / "a.yaml", QUESTION.format(id="one") + QUESTION.format(id="two"))
    bank = load_bank([path])
    one, two = bank.questions.values()
    assert (one.source.line, two.source.line) == (1, 6)
    assert one.version and one.version != two.version


def test_a_claim_with_an_unknown_topic_is_reported_at_its_line(tmp_path):
    from quiz.format.claims import load_claims
    from quiz.format.diagnostics import Report

    path = write(
        tmp_path / "claims.yaml",
        "topics:\n  - {id: softmax, en: Softmax, ja: ソフトマックス}\n"
        "claims:\n  - {id: C1, topic: softmax, en: a, ja: b}\n  - {id: C2, topic: sofmax, en: a, ja: b}\n",
    )
    report = Report()
    claims = load_claims(path, report)
    assert list(claims.claims) == ["C1", "C2"]
    [error] = report.errors
    assert error.location.line == 5
    assert error.message == "claim C2: unknown topic 'sofmax' (did you mean 'softmax'?)"


FOLLOW_UPS = """\
- {id: a, type: truefalse, topic: scaling, prompt: A., answer: true, follow_ups: [b]}
- {id: b, type: truefalse, topic: scaling, prompt: B., answer: true, follow_ups: [c, bb]}
- {id: c, type: truefalse, topic: scaling, prompt: C., answer: true, follow_ups: [a]}
- {id: d, type: truefalse, topic: scaling, prompt: D., answer: true, follow_ups: [a]}
"""


def test_follow_ups_must_name_questions_of_the_bank_and_never_lead_back(tmp_path):
    path = tmp_path / "pack.yaml"
    path.write_text(FOLLOW_UPS, encoding="utf-8")
    bank = load_bank([path])
    messages = [d.message for d in bank.report.errors]
    assert "b: follow_ups: no question 'bb' in the bank (did you mean 'b'?)" in messages
    assert "a: follow_ups lead back round: a → b → c → a" in messages
    assert len(messages) == 2 and len(bank) == 4  # reported, and the questions still load


def test_follow_ups_without_a_cycle_are_fine(tmp_path):
    path = tmp_path / "pack.yaml"
    path.write_text(FOLLOW_UPS.replace("follow_ups: [a]}", "follow_ups: []}").replace(", bb]", "]"), encoding="utf-8")
    assert load_bank([path]).report.errors == []


def test_every_bundled_explain_question_has_follow_ups_that_resolve():
    """An interviewer probes deeper after a spoken answer; the mock interview asks a follow-up."""
    bank = load_bank()
    explains = [q for q in bank.questions.values() if q.type == "explain"]
    assert len(explains) >= 8
    for question in explains:
        assert question.follow_ups, question.id
        assert all(f in bank.questions and f != question.id for f in question.follow_up_ids), question.id
    linked = {f for q in bank.questions.values() for f in q.follow_up_ids}
    assert len(linked) >= 40  # links run across the files, not only within explain questions


def test_a_question_over_a_reading_limit_costs_only_itself(tmp_path):
    deep = "[" * 500 + "1" + "]" * 500
    digits = "9" * 5_000
    write(
        tmp_path / "pack.yaml",
        QUESTION.format(id="before")
        + f"- id: too-deep\n  type: number\n  topic: softmax\n  prompt: x\n  answer: {deep}\n"
        + f"- id: too-difficult\n  type: truefalse\n  topic: scaling\n  prompt: x\n  answer: true\n  difficulty: {digits}\n"
        + "- id: too-long\n  type: truefalse\n  topic: scaling\n  answer: true\n  prompt: " + "x" * 30_000 + "\n"
        + QUESTION.format(id="after"),
    )
    write(tmp_path / "other.yaml", QUESTION.format(id="other"))
    bank = load_bank([tmp_path])
    assert set(bank.questions) == {"before", "after", "other"}
    lines = {e.location.line: e.message for e in bank.report.errors}
    assert "answer: nested more than" in lines[10]
    assert "difficulty: a number written with 5,000 characters" in lines[16]
    assert "prompt: a text of 30,000 characters" in lines[21]
    assert [str(s) for s in bank.skipped] == [
        f"{tmp_path / 'pack.yaml'}:6:3 (too-deep)",
        f"{tmp_path / 'pack.yaml'}:11:3 (too-difficult)",
        f"{tmp_path / 'pack.yaml'}:17:3 (too-long)",
    ]


def test_a_number_field_with_too_many_digits_is_an_error_not_a_crash(tmp_path):
    write(tmp_path / "pack.yaml", QUESTION.format(id="q") + "  time: " + "1" * 40 + "\n")
    bank = load_bank([tmp_path])
    assert "q" not in bank.questions
    [error] = bank.report.errors
    assert error.location.line == 6 and "time: a whole number here has at most 15 digits" in error.message


def test_a_flood_of_unknown_fields_lists_twenty_then_a_count(tmp_path):
    fields = "".join(f"  unknown_{i}: 1\n" for i in range(90))
    write(tmp_path / "flood.yaml", "".join(QUESTION.format(id=f"q{n}") + fields for n in range(50)))
    write(tmp_path / "good.yaml", QUESTION.format(id="good"))
    bank = load_bank([tmp_path])
    assert list(bank.questions) == ["good"]
    listed = [d for d in bank.report.diagnostics if d.location.path.name == "flood.yaml"]
    assert len(listed) == 21
    assert listed[-1].message == "4,480 more problems in this file are not listed (the first 20 are)"
    assert bank.report.error_count == 4_500
    assert len(bank.skipped) == 50
