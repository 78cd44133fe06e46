"""The bank's question table: a deferred question is built on first use, once, and ids, follow-ups
and membership never build one."""

from __future__ import annotations

from pathlib import Path

from quiz.bank import load_bank
from quiz.bank.questions import Deferred, Questions

PACK = """\
- id: first
  type: truefalse
  topic: scaling
  refs: [B1]
  prompt: Scaling by 1/sqrt(d_k) makes attention uniform.
  answer: false
  follow_ups: [second]
- id: second
  type: truefalse
  topic: scaling
  refs: [B1]
  prompt: Without scaling, the softmax saturates as d_k grows.
  answer: true
"""


def test_a_deferred_question_is_built_on_first_use_and_only_once(tmp_path: Path) -> None:
    (tmp_path / "pack.yaml").write_text(PACK, encoding="utf-8")
    loaded = load_bank([tmp_path / "pack.yaml"]).questions
    built: list[str] = []

    def builder(question_id: str):
        def build():
            built.append(question_id)
            return loaded[question_id]

        return build

    questions = Questions()
    for question_id in loaded:
        questions.defer(Deferred(question_id, loaded[question_id].follow_up_ids, builder(question_id)))
    assert list(questions) == ["first", "second"] and len(questions) == 2
    assert "second" in questions and "third" not in questions
    assert questions.follow_ups("first") == ("second",) and questions.follow_ups("second") == ()
    assert built == []
    assert questions["second"] is loaded["second"] and questions.get("second") is loaded["second"]
    assert built == ["second"]
    assert [q.id for q in questions.values()] == ["first", "second"] and built == ["second", "first"]
    assert dict(questions.items()) == dict(loaded.items()) and built == ["second", "first"]
