"""Follow-up chains and pushbacks in a mock interview: the chain walked on the answer that
stands (right deeper, wrong narrower), three deep on the bundled bank with a pushback in it, a
sitting resumed mid-chain and mid-challenge, the report's tree, export and import, and the
authoring errors located. Real bank files and a real history file (the test's data directory);
a clock the test moves."""

from __future__ import annotations

import io
import json
from typing import Any

import numpy as np
import pytest

from mock_helpers import BANK, FakeClock, plan_of, right_answer, start
from quiz.authoring.validation import validate_packs
from quiz.bank import Bank, load_bank
from quiz.format.model import option_ids
from quiz.history.recorder import Recorder
from quiz.history.store import History, open_history
from quiz.history.transfer import ImportProblem, export, import_file
from quiz.mock.compose import MockPlan, PlannedQuestion, bank_fingerprint, variant_seed
from quiz.mock.options import MockOptions, mock_key
from quiz.mock.report_text import report_json, report_markdown
from quiz.mock.session import MockSession
from quiz.mock.sheet import interviewer_sheet
from quiz.types.registry import type_of
from quiz.variants.variant import Variant

ROOT, DEEPER, NARROWER, BACK = "kv-cache-beam-search-gb", "decode-arithmetic-intensity", "prefill-compute-decode-bandwidth", "kv-cache-what-is-kept"


def stored_history() -> History:
    history = open_history()
    assert isinstance(history, History), str(history)
    return history


def wrong_answer(variant: Variant) -> Any:
    """A response that does not grade as correct (choice, true/false and numeric questions)."""
    kind = type_of(variant.question)
    right = kind.revealed_answer(variant)
    if kind.name == "choice":
        return next(i for i in option_ids(variant.question.options) if i not in right)  # type: ignore[attr-defined]
    if kind.name == "truefalse":
        return not right
    return np.asarray(right, dtype=float) * 3 + 7


def answer(session: MockSession, clock: FakeClock, right: bool, seconds: float = 20.0) -> None:
    variant = session.current
    assert variant is not None
    clock.advance(seconds)
    result = session.submit(right_answer(variant) if right else wrong_answer(variant))
    assert (str(result.verdict) == "correct") is right, variant.key


# -- the chain on the bundled bank ---------------------------------------------------------------


def test_a_right_answer_goes_deeper_and_a_wrong_one_to_the_narrower_question_with_its_pushback():
    clock = FakeClock()
    session = start(plan_of(ROOT, minutes=20), clock)
    answer(session, clock, right=True)
    assert session.current.question.id == DEEPER and session.depth == 1 and session.is_follow_up
    answer(session, clock, right=False)
    assert session.current.question.id == NARROWER and session.depth == 2 and session.position == (3, 3)
    answer(session, clock, right=True)
    challenge = session.challenge
    assert challenge is not None and challenge.pushback.after == "right" and session.current is None and not session.finished
    assert challenge.pushback.text.en.startswith("Are you sure? A decode step")
    clock.advance(15)
    met = session.hold()
    assert (met.choice, met.verdict, met.score, met.duration_ms) == ("hold", "correct", 1.0, 15_000)
    assert session.finished and session.challenge is None
    with stored_history() as history:
        stored = history.mock(session.mock_id)
        assert [(a.question, a.follow_up_of) for a in stored.asked] == [(ROOT, None), (DEEPER, ROOT), (NARROWER, DEEPER)]
        assert stored.pushbacks == (met,) and met.attempt == stored.attempts[-1].id
        assert len(history.attempts(mock=session.mock_id)) == 3  # the challenge is not a second attempt


def test_a_wrong_first_answer_goes_back_to_what_the_cache_holds():
    clock = FakeClock()
    session = start(plan_of(ROOT, minutes=20), clock)
    answer(session, clock, right=False)
    assert session.current.question.id == BACK and session.depth == 1


def test_abandoning_a_right_answer_under_pushback_is_wrong_and_correcting_a_wrong_one_is_right():
    clock = FakeClock()
    abandon = start(plan_of(NARROWER, minutes=5), clock)
    answer(abandon, clock, right=True)
    variant = abandon.challenge.variant
    met = abandon.revise(wrong_answer(variant))
    assert (met.choice, met.verdict, met.score) == ("revise", "incorrect", 0.0) and met.response
    clock = FakeClock()
    correct = start(plan_of(NARROWER, minutes=5), clock)
    answer(correct, clock, right=False)
    assert correct.challenge.pushback.after == "wrong"
    assert correct.revise(right_answer(correct.challenge.variant)).verdict == "correct"
    clock = FakeClock()
    keep = start(plan_of(NARROWER, minutes=5), clock)
    answer(keep, clock, right=False)
    assert keep.hold().verdict == "incorrect"


def test_the_chain_branches_on_the_answer_that_stands_after_the_pushback(tmp_path):
    bank = chain_bank(tmp_path)
    clock = FakeClock()
    session = MockSession.start(bank, plan(bank, "a", minutes=10), Recorder(), lang="en", clock=clock, wall=clock.wall)
    answer(session, clock, right=True)  # a's pushback: giving up the right answer makes it stand wrong
    session.revise(wrong_answer(session.challenge.variant))
    assert session.current.question.id == "a-narrow" and session.depth == 1


def test_a_resumed_mock_keeps_its_chain_and_puts_a_challenge_not_yet_met_again():
    clock = FakeClock()
    first = start(plan_of(ROOT, "kv-cache-what-is-kept", minutes=20), clock)
    answer(first, clock, right=True)
    again = MockSession.resume(BANK, Recorder(), first.mock_id, clock=clock, wall=clock.wall)
    assert again.current.question.id == DEEPER and again.depth == 1 and again.position == (2, 3)
    answer(again, clock, right=False)
    answer(again, clock, right=True)
    assert again.challenge is not None
    third = MockSession.resume(BANK, Recorder(), first.mock_id, clock=clock, wall=clock.wall)
    assert third.current is None and third.challenge is not None and third.depth == 2
    assert third.challenge.attempt.question == NARROWER
    third.hold()
    assert third.current.question.id == BACK and third.depth == 0  # the planned question once the chain ends
    fourth = MockSession.resume(BANK, Recorder(), first.mock_id, clock=clock, wall=clock.wall)
    assert fourth.challenge is None and fourth.current.question.id == BACK and len(fourth.stored().pushbacks) == 1


def test_time_up_during_a_challenge_leaves_the_answer_standing_ungraded_challenge():
    clock = FakeClock()
    session = start(plan_of(NARROWER, minutes=2), clock)
    answer(session, clock, right=True)
    clock.advance(200)
    session.time_out("anything")
    assert session.finished and session.challenge is None and session.stored().pushbacks == ()


# -- depth three, on a pack of its own -------------------------------------------------------------

CHAIN = """\
- {id: a, type: truefalse, topic: scaling, prompt: A., answer: true, time: 60,
   follow_ups: [{id: b, when: right}, {id: a-narrow, when: wrong}],
   pushback: [{after: right, text: {en: Are you sure?, ja: 本当ですか。}}]}
- {id: a-narrow, type: truefalse, topic: scaling, prompt: A narrower., answer: true, time: 60}
- {id: b, type: truefalse, topic: scaling, prompt: B., answer: false, time: 60, follow_ups: [{id: c, when: right}]}
- {id: c, type: truefalse, topic: scaling, prompt: C., answer: true, time: 60, follow_ups: [{id: d, when: wrong}, {id: e, when: any}]}
- {id: d, type: truefalse, topic: scaling, prompt: D., answer: true, time: 60}
- {id: e, type: truefalse, topic: scaling, prompt: E., answer: true, time: 60}
- {id: f, type: truefalse, topic: scaling, prompt: F., answer: true, time: 60}
"""


def chain_bank(tmp_path) -> Bank:
    path = tmp_path / "chain.yaml"
    path.write_text(CHAIN, encoding="utf-8")
    bank = load_bank([path])
    assert bank.report.errors == []
    return bank


def plan(bank: Bank, *question_ids: str, minutes: float) -> MockPlan:
    options = MockOptions(minutes=minutes, seed=3, questions=len(question_ids))
    questions = tuple(PlannedQuestion(i, variant_seed(3, i), float(bank.questions[i].time)) for i in question_ids)
    return MockPlan(mock_key(options, bank_fingerprint(bank)), options, questions)


def test_a_chain_three_follow_ups_deep_is_walked_branch_by_branch_and_the_report_is_its_tree(tmp_path):
    bank = chain_bank(tmp_path)
    clock = FakeClock()
    session = MockSession.start(bank, plan(bank, "a", "f", minutes=10), Recorder(), lang="ja", clock=clock, wall=clock.wall)
    walked = []
    for right in (True, True, False, True):
        walked.append((session.current.question.id, session.depth))
        answer(session, clock, right)
        if session.challenge is not None:
            session.hold()
    walked.append((session.current.question.id, session.depth))
    assert walked == [("a", 0), ("b", 1), ("c", 2), ("d", 3), ("f", 0)]
    answer(session, clock, right=True)
    assert session.finished
    report = session.report()
    assert [(line.question, line.depth, line.follow_up_of) for line in report.lines] == [
        ("a", 0, None), ("b", 1, "a"), ("c", 2, "b"), ("d", 3, "c"), ("f", 0, None)
    ]
    markdown = report_markdown(bank, report, "ja")
    assert "### 1. `a` · 正解" in markdown and "### ↳ 2. `b` · 正解 · a の追加質問" in markdown
    assert "### \u2003↳ 3. `c` · 不正解" in markdown and "### \u2003\u2003↳ 4. `d`" in markdown
    assert "- 念押し：本当ですか。" in markdown and "念押しされても正しい答えを維持できました。正解です。" in markdown
    data = report_json(bank, report, "en")
    assert [q["depth"] for q in data["questions"]] == [0, 1, 2, 3, 0]
    assert data["questions"][0]["pushback"] | {"seconds": None} == {
        "text": "Are you sure?", "choice": "hold", "response": None, "verdict": "correct", "score": 1.0, "case": "held_right", "seconds": None,
    }  # fmt: skip
    # the challenge counts as one more answer: a, its pushback, b, c (wrong), d, f
    assert report.scores.overall == pytest.approx(5 / 6) and report.missed == ("c",)


def test_the_chain_and_the_pushbacks_survive_export_and_import(tmp_path):
    bank = chain_bank(tmp_path)
    clock = FakeClock()
    session = MockSession.start(bank, plan(bank, "a", minutes=10), Recorder(), lang="en", clock=clock, wall=clock.wall)
    answer(session, clock, right=True)
    session.revise(True)
    answer(session, clock, right=True)
    out = io.StringIO()
    with stored_history() as history:
        export(history, out, "jsonl")
    [record] = [json.loads(line) for line in out.getvalue().splitlines() if '"record": "mock"' in line]
    assert [a["follow_up_of"] for a in record["asked"]] == [None, "a", "b"]
    assert [(p["question"], p["choice"], p["verdict"]) for p in record["pushbacks"]] == [("a", "revise", "correct")]
    path = tmp_path / "export.jsonl"
    path.write_text(out.getvalue(), encoding="utf-8")
    (tmp_path / "data").mkdir()
    other = open_history(tmp_path / "data" / "history.sqlite3")
    assert isinstance(other, History)
    with other:
        import_file(other, path)
        imported = other.mock(session.mock_id)
        assert imported.pushbacks == session.stored().pushbacks
        assert [(a.question, a.follow_up_of) for a in imported.asked] == [("a", None), ("b", "a"), ("c", "b")]


# -- authoring errors, located -------------------------------------------------------------------

BROKEN = """\
- {id: a, type: truefalse, topic: scaling, prompt: A., answer: true, follow_ups: [{id: b, when: rigth}, {id: nosuch, when: wrong}]}
- {id: b, type: truefalse, topic: scaling, prompt: B., answer: true, follow_ups: [{id: a, when: wrong}]}
- {id: c, type: truefalse, topic: scaling, prompt: C., answer: true, follow_ups: [c]}
- {id: d, type: truefalse, topic: scaling, prompt: D., answer: true, pushback: [{after: sometimes, text: Sure?}]}
- {id: s, type: explain, topic: scaling, prompt: S., model_answer: M., rubric: [R.], follow_ups: [{id: d, when: right}],
   pushback: [{text: Sure?}]}
- {id: l1, type: truefalse, topic: scaling, prompt: L., answer: true, time: 3600, follow_ups: [l2]}
- {id: l2, type: truefalse, topic: scaling, prompt: L., answer: true, time: 3600, follow_ups: [l3]}
- {id: l3, type: truefalse, topic: scaling, prompt: L., answer: true, time: 3600, follow_ups: [l4]}
- {id: l4, type: truefalse, topic: scaling, prompt: L., answer: true, time: 3600, follow_ups: [l5]}
- {id: l5, type: truefalse, topic: scaling, prompt: L., answer: true, time: 3600}
"""


def test_authoring_errors_in_chains_and_pushbacks_are_located(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text(BROKEN, encoding="utf-8")
    errors = [(d.location.line, d.message) for d in validate_packs([path], seeds=0).diagnostics if d.severity.value == "error"]
    assert errors == [
        (1, "a: follow_ups[0].when: expected one of right, wrong, any, got 'rigth' (did you mean 'right'?)"),
        (3, "c: follow_ups lead back round: c → c"),
        (4, "d: pushback[0].after: expected one of right, wrong, any, got 'sometimes'"),
        (5, "s: follow_ups: 'd' is asked when the answer is right, but a spoken (explain) answer is self-graded after the "
            "interview; use when: any"),
        (6, "s: pushback: a spoken (explain) answer is self-graded after the interview, so a challenge to it cannot be graded"),
        (10, "l4: follow_ups: the chain l1 → l2 → l3 → l4 → l5 needs 18000 s of time budgets, beyond the longest mock "
             "interview (14400 s); no interview can follow it to 'l5'"),
    ]  # fmt: skip


def test_an_unknown_follow_up_and_a_cycle_through_branches_are_located(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text(BROKEN.replace("when: rigth", "when: right"), encoding="utf-8")
    errors = {(d.location.line, d.message) for d in load_bank([path]).report.errors}
    assert (1, "a: follow_ups: no question 'nosuch' in the bank") in errors
    assert (1, "a: follow_ups lead back round: a → b → a") in errors


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_interviewers_sheet_prints_the_chain_as_a_tree_with_its_conditions_and_pushbacks(lang):
    sheet = interviewer_sheet(BANK, plan_of(ROOT, minutes=20), lang)
    tree = [line for line in sheet.splitlines() if line.lstrip().startswith("- `") or "- Push back" in line or "- 念押し" in line]
    right, wrong = ("(if the answer is right)", "(if the answer is wrong)") if lang == "en" else ("（正答だった場合）", "（誤答だった場合）")
    assert [line.split(":")[0].split("：")[0] for line in tree] == [
        f"- `{DEEPER}` {right}",
        f"  - `{NARROWER}` {wrong}",
        "    - Push back after a right answer" if lang == "en" else "    - 念押し（正答のあと）",
        "    - Push back after a wrong answer" if lang == "en" else "    - 念押し（誤答のあと）",
        f"- `{BACK}` {wrong}",
        "  - `decode-step-flops-with-cache`",
    ]


def test_an_export_written_before_pushbacks_imports_and_a_bad_pushback_is_a_located_problem(tmp_path):
    clock = FakeClock()
    session = start(plan_of(NARROWER, minutes=5), clock)
    answer(session, clock, right=True)
    session.hold()
    out = io.StringIO()
    with stored_history() as history:
        export(history, out, "jsonl")
    lines = out.getvalue().splitlines()
    mock_line = next(n for n, line in enumerate(lines) if '"record": "mock"' in line)
    record = json.loads(lines[mock_line])
    older = [*lines[:mock_line], json.dumps({k: v for k, v in record.items() if k != "pushbacks"}), *lines[mock_line + 1 :]]
    (tmp_path / "old.jsonl").write_text("\n".join(older) + "\n", encoding="utf-8")
    record["pushbacks"][0]["choice"] = "waver"
    bad = [*lines[:mock_line], json.dumps(record), *lines[mock_line + 1 :]]
    (tmp_path / "bad.jsonl").write_text("\n".join(bad) + "\n", encoding="utf-8")
    for name in ("old", "bad"):
        (tmp_path / name).mkdir()
        other = open_history(tmp_path / name / "history.sqlite3")
        assert isinstance(other, History)
        with other:
            if name == "old":
                import_file(other, tmp_path / "old.jsonl")
                assert other.mock(session.mock_id).pushbacks == ()
            else:
                with pytest.raises(ImportProblem) as caught:
                    import_file(other, tmp_path / "bad.jsonl")
                assert caught.value.line == mock_line + 1 and "choice must be hold or revise, got 'waver'" in caught.value.message


# -- issue 26's interview on the positions topic: a chain three deep, a pushback, an evidence question --

ROPE_CHAIN = ("rope-rotate-one-pair", "rope-score-depends-on-offset", "rope-with-kv-cache-bug", "evidence-rope-in-the-decoder")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_positions_interview_follows_its_chain_three_deep_through_a_pushback_to_an_evidence_question(lang):
    assert {BANK.questions[q].topic for q in ROPE_CHAIN} == {"positions"}
    clock = FakeClock()
    session = start(plan_of(ROPE_CHAIN[0], minutes=30), clock, lang=lang)
    walked = []
    for depth, expected in enumerate(ROPE_CHAIN):
        variant = session.current
        assert variant is not None and variant.question.id == expected and session.depth == depth, walked
        walked.append(expected)
        if expected == ROPE_CHAIN[2]:
            answer(session, clock, right=True)
            challenge = session.challenge
            assert challenge is not None and challenge.pushback.after == "right"
            clock.advance(10)
            held = session.hold()
            assert (held.choice, held.verdict, held.score) == ("hold", "correct", 1.0)
        elif expected == ROPE_CHAIN[3]:
            kind = type_of(variant.question)
            clock.advance(60)
            response = right_answer(variant)  # the best first request, then the fault
            assert response.asked and kind.grade(variant, response).score == 1.0
            session.submit(response)
        else:
            answer(session, clock, right=True)
    assert session.finished
    report = session.report()
    assert [(line.question, line.depth) for line in report.lines] == [(q, d) for d, q in enumerate(ROPE_CHAIN)]
    markdown = report_markdown(BANK, report, lang)
    assert f"### \u2003\u2003↳ 4. `{ROPE_CHAIN[3]}#" in markdown  # a variant key: id#seed
    assert BANK.questions[ROPE_CHAIN[2]].pushback[0].text.get(lang).split("?")[0] in markdown
    with stored_history() as history:
        stored = history.mock(session.mock_id)
        assert [a.follow_up_of for a in stored.asked] == [None, *ROPE_CHAIN[:3]]
        evidence_attempt = stored.attempts[-1]
        assert evidence_attempt.question == ROPE_CHAIN[3] and evidence_attempt.response.startswith("ask ")
        assert stored.pushbacks == (held,)
