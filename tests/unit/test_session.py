"""Practice sessions, settings and worked tensors: the core under the app, without Textual."""

import json
import random

import numpy as np
import pytest

from quiz.bank import Selection, SelectionError, load_bank
from quiz.history.settings import Settings, load_settings, save_settings
from quiz.practice.session import PracticeSession

BANK = load_bank()


def test_selection_filters_by_topic_claim_and_difficulty():
    session = PracticeSession(BANK, Selection(topic="softmax"), rng=random.Random(0))
    ids = {session.next_question().question.id for _ in range(session.size)}
    assert ids == {q.id for q in BANK.questions.values() if q.topic == "softmax"}
    by_claim = PracticeSession(BANK, Selection(claim="C6"), rng=random.Random(0))
    assert all("C6" in by_claim.next_question().question.refs for _ in range(by_claim.size))
    assert PracticeSession(BANK, Selection(difficulty=3)).size == sum(q.difficulty == 3 for q in BANK.questions.values())


def test_a_variant_key_gives_exactly_that_variant_first():
    session = PracticeSession(BANK, Selection(key="causal-weights-3x3#3"))
    assert session.next_question().key == "causal-weights-3x3#3"


def test_unknown_id_and_empty_selection_are_errors():
    with pytest.raises(SelectionError, match="There is no question 'nope'"):
        PracticeSession(BANK, Selection(key="nope"))
    with pytest.raises(SelectionError, match="Did you mean causal-weights-3x3"):
        PracticeSession(BANK, Selection(key="causal-weight#2"))
    with pytest.raises(SelectionError, match="No question matches"):
        PracticeSession(BANK, Selection(topic="softmax", claim="G6"))


@pytest.mark.parametrize(
    ("selection", "english", "japanese"),
    [
        (Selection(topic="masking"), "There is no topic 'masking'. Topics: attention, scaling,", "「masking」というトピックはありません"),
        (Selection(claim="b44"), "There is no claim 'b44'. Did you mean B4?", "B4 のことですか"),
        (Selection(claim="Q99"), "There is no claim 'Q99'. Claims are named like", "論点は A1、B4、X3"),
        (Selection(key="two words"), "'two words' is not a question id or variant key", "問題 ID でも出題キーでもありません"),
    ],
)
def test_a_selection_the_bank_cannot_have_is_refused_in_both_languages(selection, english, japanese):
    with pytest.raises(SelectionError) as refused:
        PracticeSession(BANK, selection)
    assert str(refused.value).startswith(english)
    assert japanese in refused.value.message("ja")


class Sink(list):
    """An attempt sink that keeps what it is given."""

    def record(self, attempt):
        self.append(attempt)
        return True


def test_attempts_leave_through_the_sink_with_what_history_needs():
    attempts = Sink()
    now = [100.0]
    session = PracticeSession(BANK, Selection(key="two-key-scaled-weights"), sink=attempts, lang="ja", clock=lambda: now[0])
    variant = session.next_question()
    assert session.next_hint() is not None
    now[0] += 42.5
    result = session.submit(np.array([0.8808, 0.1192]), typed=" 0.8808  0.1192 ")
    assert result.score == pytest.approx(1 - variant.question.hint_penalty)
    [attempt] = attempts
    assert (attempt.question, attempt.key, attempt.hints, attempt.verdict, attempt.lang, attempt.mode) == (
        "two-key-scaled-weights",
        variant.key,
        1,
        "correct",
        "ja",
        "practice",
    )
    assert attempt.response == " 0.8808  0.1192 " and attempt.duration_ms == 42_500 and not attempt.revealed
    assert attempt.version == variant.question.version and json.dumps(attempt.inputs)
    assert session.answered == 1 and session.mean_score == result.score


def test_the_time_taken_is_capped_at_three_times_the_budget_and_a_reveal_is_recorded():
    attempts = Sink()
    now = [0.0]
    session = PracticeSession(BANK, Selection(key="two-key-scaled-weights"), sink=attempts, clock=lambda: now[0])
    variant = session.next_question()
    now[0] += 10 * variant.question.time
    session.reveal()
    [attempt] = attempts
    assert attempt.revealed and attempt.response is None and attempt.score == 0
    assert attempt.duration_ms == 3 * variant.question.time * 1000


def test_a_round_asks_each_question_once_then_ends_with_a_summary():
    session = PracticeSession(BANK, Selection(topic="scaling", difficulty=2), rng=random.Random(3))
    shown = []
    while (variant := session.next_question()) is not None:
        shown.append(variant.question.id)
        if len(shown) == 1:
            session.reveal()
    assert sorted(shown) == sorted(session._order) and len(shown) == session.size
    summary = session.summary()
    assert summary.shown == len(shown) and summary.answered == 1
    assert summary.missed == tuple(shown)  # one given up, the rest skipped: all missed
    assert [t.topic for t in summary.topics] == ["scaling"] and summary.topics[0].mean_score == 0


def test_a_summary_names_the_mistakes_with_their_labels():
    session = PracticeSession(BANK, Selection(key="two-key-scaled-weights"))
    variant = session.next_question()
    session.submit(variant.misconceptions["no_scaling"])
    [mistake] = session.summary().mistakes
    assert mistake.name == "no_scaling" and mistake.count == 1 and mistake.label.en
    assert session.next_question() is None and session.summary().missed == ("two-key-scaled-weights",)


def test_a_list_of_ids_is_asked_in_its_order():
    ids = ("scaled-score-variance", "two-key-scaled-weights", "causal-weights-3x3")
    session = PracticeSession(BANK, Selection(ids=ids), rng=random.Random(0))
    assert tuple(session.next_question().question.id for _ in ids) == ids
    with pytest.raises(SelectionError, match="There is no question 'nope'"):
        PracticeSession(BANK, Selection(ids=("nope",)))


def test_fresh_variant_redraws_the_same_question():
    session = PracticeSession(BANK, Selection(key="causal-weights-3x3#1"), rng=random.Random(5))
    first = session.next_question()
    second = session.fresh_variant()
    assert second.question.id == first.question.id and second.inputs != first.inputs
    assert session.result is None and session.hints_shown == 0


def test_settings_round_trip_and_survive_a_damaged_file(tmp_path):
    path = tmp_path / "settings.json"
    assert load_settings(path) == (Settings(), None)
    save_settings(Settings(language="ja", theme="nord"), path)
    assert load_settings(path) == (Settings(language="ja", theme="nord"), None)
    path.write_text("{not json", encoding="utf-8")
    settings, problem = load_settings(path)
    assert settings == Settings() and "could not read the settings" in problem
    path.write_text('{"language": "fr"}', encoding="utf-8")
    settings, problem = load_settings(path)
    assert settings.language == "en" and "unknown language" in problem
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]  # no temporary file left


def test_topic_and_claim_names_are_matched_without_regard_to_case():
    session = PracticeSession(BANK, Selection(topic="SoftMax", claim="c1"), rng=random.Random(0))
    assert all(q.topic == "softmax" and "C1" in q.refs for q in (session.next_question().question for _ in range(session.size)))


def test_practice_and_mock_sessions_are_sessions_and_the_recorder_is_a_sink():
    from quiz.history.recorder import Recorder
    from quiz.mock.session import MockSession
    from quiz.session import AttemptSink, Session

    practice = PracticeSession(BANK, Selection(key="two-key-scaled-weights"))
    assert isinstance(practice, Session)
    assert all(hasattr(MockSession, name) for name in ("submit", "last_attempt"))
    sink: AttemptSink = Recorder()  # checked by mypy where the app passes it
    assert callable(sink.record)


def test_the_type_is_looked_up_once_per_question(monkeypatch):
    """Submitting uses the type found when the question was drawn, not a second look-up."""
    import quiz.practice.session as practice_session

    session = PracticeSession(BANK, Selection(key="two-key-scaled-weights"), sink=Sink())
    session.next_question()
    monkeypatch.setattr(practice_session, "type_of", lambda question: pytest.fail("looked up again"))
    session.submit(np.array([0.8808, 0.1192]))
    assert session.last_attempt is not None and session.last_attempt.verdict == "correct"


def test_a_shuffled_round_starts_with_a_question_of_its_easiest_level_then_goes_on_shuffled():
    everything = BANK.select(Selection())
    easiest = min(BANK.questions[i].difficulty for i in everything)
    firsts, seconds = set(), set()
    for seed in range(40):
        session = PracticeSession(BANK, Selection(), rng=random.Random(seed))
        session.next_question()
        assert session.variant.question.difficulty == easiest, seed
        firsts.add(session.variant.question.id)
        session.next_question()
        seconds.add(session.variant.question.difficulty)
    assert len(firsts) > 10  # a different warm-up on most days, not always the same question
    assert len(seconds) > 1  # after it, the round is shuffled across the levels
