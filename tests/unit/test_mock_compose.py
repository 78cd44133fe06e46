"""Composing mock interviews: reproducible from their key, covering topics, fitting the time."""

from itertools import pairwise

import pytest

from quiz.bank import SelectionError, load_bank
from quiz.mock.clock import Countdown, StoredStart, clock_text
from quiz.mock.compose import OVERLAP, WARM_UP_SECONDS, bank_fingerprint, compose
from quiz.mock.options import MockOptions, MockOptionsError, key_matches_bank, mock_key, parse_minutes, parse_mock_key

BANK = load_bank()


def _pack(tmp_path):
    """Twelve small questions over three topics, with time budgets and overlapping claims."""
    lines = []
    for n in range(12):
        topic = ("scaling", "softmax", "masking-less")[n % 3].replace("masking-less", "diagnosis")
        refs = ["B4", "B5"] if n in (0, 3) else [f"C{1 + n % 6}", f"G{1 + n % 6}"]
        lines.append(
            f"- {{id: q{n:02d}, type: truefalse, topic: {topic}, difficulty: {1 + n % 3}, time: {60 + 30 * (n % 4)},"
            f" prompt: Statement {n}., answer: true, refs: [{', '.join(refs)}]}}"
        )
    path = tmp_path / "pack.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return load_bank([path])


def test_the_same_options_give_the_same_interview_and_the_key_replays_it(tmp_path):
    bank = _pack(tmp_path)
    options = MockOptions(minutes=10, seed=3)
    first, again = compose(bank, options), compose(bank, options)
    assert first == again
    replayed, _ = parse_mock_key(first.key)
    assert compose(bank, replayed).questions == first.questions
    assert key_matches_bank(first.key, bank_fingerprint(bank))
    assert compose(bank, MockOptions(minutes=10, seed=4)).questions != first.questions


def test_a_mock_fills_its_time_covers_every_topic_and_climbs_in_difficulty(tmp_path):
    bank = _pack(tmp_path)
    plan = compose(bank, MockOptions(minutes=8, seed=1))
    assert 0 < plan.planned_seconds <= 8 * 60 * 1.1
    assert {bank.questions[q.question_id].topic for q in plan.questions} == {"scaling", "softmax", "diagnosis"}
    levels = [bank.questions[q.question_id].difficulty for q in plan.questions]
    assert levels == sorted(levels)


def test_never_two_questions_citing_mostly_the_same_claims(tmp_path):
    bank = _pack(tmp_path)
    for seed in range(20):
        ids = [q.question_id for q in compose(bank, MockOptions(minutes=60, seed=seed)).questions]
        assert not {"q00", "q03"} <= set(ids)  # both cite exactly B4 and B5
        for a in ids:
            for b in ids:
                refs_a, refs_b = set(bank.questions[a].refs), set(bank.questions[b].refs)
                assert a == b or len(refs_a & refs_b) / len(refs_a | refs_b) < OVERLAP


def test_a_number_of_questions_topics_and_difficulty_are_honoured(tmp_path):
    bank = _pack(tmp_path)
    plan = compose(bank, MockOptions(minutes=0.25, questions=2, seed=3))
    assert len(plan.questions) == 2
    plan = compose(bank, MockOptions(topics=("softmax",), difficulty=2, seed=0))
    planned = [bank.questions[q.question_id] for q in plan.questions]
    assert planned and all(question.topic == "softmax" and question.difficulty == 2 for question in planned)
    with pytest.raises(SelectionError):
        compose(bank, MockOptions(topics=("alternatives",), seed=0))


def test_adaptive_choice_leans_towards_weak_questions(tmp_path):
    bank = _pack(tmp_path)
    weak = {"q05": 50.0, "q08": 50.0}
    hits = sum({"q05", "q08"} <= {q.question_id for q in compose(bank, MockOptions(minutes=8, seed=s), weak).questions} for s in range(30))
    plain = sum({"q05", "q08"} <= {q.question_id for q in compose(bank, MockOptions(minutes=8, seed=s)).questions} for s in range(30))
    assert hits > plain and hits >= 20


@pytest.mark.slow
def test_the_bundled_bank_composes_a_default_interview():
    plan = compose(BANK, MockOptions(seed=7))
    assert plan.questions and plan.key.startswith("mock-7-30m-")
    assert all(BANK.compiled(q.question_id) is not None for q in plan.questions)


def test_code_questions_are_asked_in_mocks_with_their_own_time_budgets():
    code = {q.id for q in BANK.questions.values() if q.type == "code"}
    plans = [compose(BANK, MockOptions(minutes=60, seed=seed)) for seed in range(20)]
    asked = [q for plan in plans for q in plan.questions if q.question_id in code]
    assert sum(any(q.question_id in code for q in plan.questions) for plan in plans) >= 10
    assert all(q.budget == BANK.questions[q.question_id].time for q in asked)
    assert max(q.budget for q in asked) >= 900  # the long ones too (an implementation takes 15 minutes and more)
    assert len({q.question_id for q in asked}) >= 5  # not always the same one
    only = compose(BANK, MockOptions(minutes=30, topics=("implementation",), seed=1))
    assert any(q.question_id in code for q in only.questions)


def _follow_up_chain(question_id):
    """Every id the follow-ups of `question_id` may ask, down the chain (read from the bank's YAML)."""
    reached, stack = set(), [link.id for link in BANK.questions[question_id].follow_ups]
    while stack:
        nxt = stack.pop()
        if nxt not in reached:
            reached.add(nxt)
            stack.extend(link.id for link in BANK.questions[nxt].follow_ups)
    return reached


def _near_duplicates(a, b):
    """Same topic, and most of the later question's claims cited by the one before it."""
    left, right = set(a.refs), set(b.refs)
    return a.topic == b.topic and len(left & right) >= OVERLAP * len(right)


EVERY_TOPIC = {
    "30 minutes": {}, "15 minutes": {"minutes": 15}, "an hour": {"minutes": 60}, "level 2": {"difficulty": 2}, "6 questions": {"questions": 6},
}
FEW_TOPICS = {
    "scaling": {"topics": ("scaling",)}, "diagnosis": {"topics": ("diagnosis",)}, "softmax and diagnosis": {"topics": ("softmax", "diagnosis")},
}


@pytest.mark.parametrize("kind", [*EVERY_TOPIC, *FEW_TOPICS, "adaptive"])
def test_over_many_seeds_a_plan_fits_its_minutes_opens_with_a_warm_up_and_never_repeats_itself(kind):
    # adaptive: a learner weak at softmax and diagnosis, whose questions come first in the choice
    weak = {q.id: 3.0 for q in BANK.questions.values() if q.topic in ("softmax", "diagnosis")} if kind == "adaptive" else None
    for seed in range(25):
        options = MockOptions(seed=seed, **{**EVERY_TOPIC, **FEW_TOPICS}.get(kind, {"adaptive": True}))
        plan = compose(BANK, options, weak)
        asked = [BANK.questions[q.question_id] for q in plan.questions]
        assert plan.planned_seconds <= options.seconds, (kind, seed)
        assert options.questions is None or len(asked) == options.questions
        first, levels = asked[0], [q.difficulty for q in asked]
        assert first.difficulty == min(levels) and first.time <= WARM_UP_SECONDS and first.type not in ("explain", "code"), (kind, seed, first.id)
        assert levels == sorted(levels)
        # never three in a row on the same ground; across every topic, never even two
        runs = [_near_duplicates(a, b) for a, b in pairwise(asked)]
        assert not any(x and y for x, y in pairwise(runs)), (kind, seed, [q.id for q in asked])
        if kind in EVERY_TOPIC or kind == "adaptive":
            assert kind == "adaptive" or not any(runs), (kind, seed, [q.id for q in asked])
            # a question a planned one's follow-ups may ask is left to them
            ids = {q.id for q in asked}
            assert not any(_follow_up_chain(q.id) & ids for q in asked), (kind, seed)


def test_a_count_of_questions_longer_than_the_minutes_has_its_budgets_squeezed_to_fit():
    plan = compose(BANK, MockOptions(minutes=2, questions=4, seed=5))
    assert len(plan.questions) == 4 and plan.planned_seconds == pytest.approx(120)
    times = [BANK.questions[q.question_id].time for q in plan.questions]
    assert [q.budget / t for q, t in zip(plan.questions, times)] == pytest.approx([120 / sum(times)] * 4)


@pytest.mark.parametrize(
    ("options", "key_part"),
    [
        (MockOptions(minutes=0.25, questions=2, seed=3), "mock-3-0.25m-2q-"),
        (MockOptions(minutes=45, difficulty=2, topics=("scaling", "softmax"), seed=12, adaptive=True), "mock-12-45m-d2-a-scaling+softmax-"),
    ],
)
def test_keys_round_trip(options, key_part):
    key = mock_key(options, "f00d")
    assert key.startswith(key_part)
    parsed, _ = parse_mock_key(key)
    assert parsed == options


@pytest.mark.parametrize("bad", ["mock-3", "mock-x-30m-abcd", "mock-3-0m-abcd", "mock-3-300m-abcd", "nonsense"])
def test_bad_keys_and_options_are_refused_with_a_reason(bad):
    with pytest.raises(MockOptionsError):
        parse_mock_key(bad)


def test_minutes_accept_decimals_but_nothing_else():
    assert parse_minutes("0.25") == 0.25 and parse_minutes("30") == 30.0
    for bad in ("1e400", "nan", "inf", "a quarter"):
        with pytest.raises(MockOptionsError):
            MockOptions(minutes=parse_minutes(bad))


def test_a_countdown_reads_the_injected_clock():
    now = [100.0]
    countdown = Countdown(start=100.0, length=300.0, clock=lambda: now[0])
    assert countdown.remaining() == 300 and not countdown.warn_interview()
    now[0] = 100.0 + 241
    assert countdown.warn_interview() and countdown.warn_question() and not countdown.over()
    now[0] = 100.0 + 300
    assert countdown.over() and countdown.remaining() == 0 and not countdown.warn_interview()
    assert clock_text(59.2) == "01:00" and clock_text(0.4) == "00:01" and clock_text(3725) == "1:02:05"


def test_a_stored_start_survives_a_new_process_on_the_same_boot_and_falls_back_to_the_wall_clock():
    start = StoredStart(clock=1000.0, wall=5_000.0, boot="boot-a")
    assert start.elapsed(clock=lambda: 1090.0, wall=lambda: 9_999.0, boot="boot-a") == 90.0  # wall clock changed: ignored
    assert start.elapsed(clock=lambda: 3.0, wall=lambda: 5_120.0, boot="boot-b") == 120.0  # rebooted: the wall clock tells
    assert start.elapsed(clock=lambda: 3.0, wall=lambda: 4_000.0, boot="boot-b") == 0.0  # never negative
