"""The report of a mock interview: scores overall, per topic and per claim, each question as it
went, the trend over the candidate's earlier mocks, and what to practise next.

Built from what history keeps of a sitting (`StoredMock`), so the report shown at the end and the
one `quiz mock --report` writes later are the same. A spoken answer not yet self-graded counts
nowhere until it is; questions not reached or with no answer count as 0; a challenge met
(pushback) counts as one more answer. Follow-ups carry their depth in the chain. A question is missed
when it was asked and not answered correctly (no answer included); the practice command selects
exactly those. Texts are written at render time (quiz.mock.report_text), in either language.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from quiz.bank import Bank
from quiz.format.model import Text
from quiz.history.mocks import SpokenRow, StoredMock, chain_depth
from quiz.history.pushbacks import PushbackRow
from quiz.history.records import AttemptRecord
from quiz.mock.compose import drawn_variant
from quiz.mock.options import MockOptionsError, parse_mock_key
from quiz.mock.sitting import plan_from_json
from quiz.session.pushback import pushback_case, pushback_for
from quiz.types.registry import type_of
from quiz.variants.variant import Variant

AWAITING = "awaiting_self_grade"
"""The verdict of a spoken answer not yet self-graded (not a verdict history stores)."""
PRACTISE_NEXT = 3


@dataclass(frozen=True)
class QuestionLine:
    """One question of the sitting, as it went."""

    position: int
    question: str
    key: str
    topic: str
    claims: tuple[str, ...]
    follow_up_of: str | None
    variant: Variant | None
    """The variant asked (None when the bank no longer has the question): the key and texts."""
    answer: str | None
    """The candidate's answer as typed (notes, for a spoken one)."""
    verdict: str
    score: float | None
    """None while awaiting self-grades."""
    misconception: str | None
    misconception_label: Text | None
    seconds: float | None
    budget: float
    self_grades: tuple[tuple[Text, str], ...] | None = None
    """Each checklist point with its level, for a self-graded spoken answer."""
    depth: int = 0
    """How deep in its chain of follow-ups: 0 for a planned question, 1 for its follow-up, ..."""
    pushback: PushbackLine | None = None
    """The challenge put to this answer and how it was met, when one was."""
    by_clock: bool = False
    """Handed in by the interview's clock (what was typed when time ran out), not by the candidate."""

    @property
    def over_time(self) -> bool:
        return self.seconds is not None and self.seconds > self.budget

    @property
    def over_by(self) -> float:
        """Seconds past the budget (0 within it)."""
        return max(0.0, self.seconds - self.budget) if self.seconds is not None else 0.0

    @property
    def missed(self) -> bool:
        """Not answered correctly, or a right answer given up (or a wrong one kept) under pushback."""
        wobbled = self.pushback is not None and self.pushback.row.verdict != "correct"
        return self.verdict not in ("correct", "not_reached", AWAITING) or wobbled


@dataclass(frozen=True)
class PushbackLine:
    """A challenge put to an answer: its text, how it was met, and which case that was (quiz.session.pushback)."""

    text: Text | None
    """None when the variant is not drawn (scores alone) or the bank no longer has the challenge."""
    row: PushbackRow
    case: str


@dataclass(frozen=True)
class Scores:
    """A sitting's overall, per-topic and per-claim mean scores (over the questions that count)."""

    overall: float | None
    topics: Mapping[str, float]
    claims: Mapping[str, float]
    counts: Mapping[str, int] = field(default_factory=dict)
    """How many questions count for each topic."""


@dataclass(frozen=True)
class TrendPoint:
    """An earlier finished sitting's scores."""

    mock: str
    key: str
    started_ms: int
    scores: Scores


@dataclass(frozen=True)
class MockReport:
    """What a sitting gave, compared with the candidate's earlier ones."""

    stored: StoredMock
    lines: tuple[QuestionLine, ...]
    scores: Scores
    trend: tuple[TrendPoint, ...]
    practise_next: tuple[str, ...]
    """Up to three topics, weakest first."""
    missed: tuple[str, ...]
    """Question ids asked and not answered correctly, in the order asked."""
    slow: tuple[str, ...] = ()
    """Question ids answered correctly but over their time budget, in the order asked."""

    @property
    def final(self) -> bool:
        """Every spoken answer is self-graded and the sitting is over."""
        return self.stored.row.status == "finished" and not any(line.verdict == AWAITING for line in self.lines)

    def count(self, verdict: str) -> int:
        return sum(1 for line in self.lines if line.verdict == verdict)

    @property
    def over_time(self) -> int:
        return sum(1 for line in self.lines if line.over_time)

    @property
    def over_seconds(self) -> float:
        """Seconds over budget, summed over the questions that ran over."""
        return sum(line.over_by for line in self.lines)

    @property
    def to_practise(self) -> tuple[str, ...]:
        """The questions worth practising again: those missed, then those right but over time."""
        return self.missed + self.slow

    @property
    def practice_command(self) -> str | None:
        """The command that starts a practice round on exactly the questions to practise."""
        return f"quiz practice --ids {','.join(self.to_practise)}" if self.to_practise else None

    @property
    def compared(self) -> TrendPoint | None:
        """The last earlier sitting of the same kind as this one (`mock_kind`): what `change` is against."""
        kind = mock_kind(self.stored.row.key)
        return next((p for p in reversed(self.trend) if kind is not None and mock_kind(p.key) == kind), None)

    @property
    def change(self) -> tuple[float | None, dict[str, float]]:
        """Overall and per-topic change since the last earlier sitting of the same kind (None/empty
        without one): a 10-minute drill on one topic says nothing about a 45-minute interview."""
        compared = self.compared
        if compared is None or self.scores.overall is None:
            return None, {}
        last = compared.scores
        overall = None if last.overall is None else self.scores.overall - last.overall
        topics = {t: s - last.topics[t] for t, s in self.scores.topics.items() if t in last.topics}
        return overall, topics


def mock_kind(key: str) -> tuple[object, ...] | None:
    """What two mocks must share to be compared: everything their keys carry but the seed and the
    bank check (minutes, number of questions, level, leaning, topics); None for a key not readable."""
    try:
        options, _ = parse_mock_key(key)
    except MockOptionsError:
        return None
    return (options.minutes, options.questions, options.difficulty, options.adaptive, options.topics)


def build_report(bank: Bank, stored: StoredMock, earlier: Sequence[StoredMock] = ()) -> MockReport:
    """The report of `stored`, with the trend over `earlier` finished sittings (oldest first)."""
    lines = question_lines(bank, stored)
    scores = score_lines(lines)
    trend = tuple(TrendPoint(m.row.id, m.row.key, m.row.started_ms, score_lines(question_lines(bank, m, detail=False))) for m in earlier)
    topic_order = list(bank.claims.topics)
    weak = sorted(
        (t for t, s in scores.topics.items() if s < 1.0),
        key=lambda t: (scores.topics[t], -scores.counts.get(t, 0), topic_order.index(t) if t in topic_order else len(topic_order), t),
    )
    missed = tuple(dict.fromkeys(line.question for line in lines if line.missed))
    slow = tuple(dict.fromkeys(line.question for line in lines if line.over_time and line.question not in missed))
    return MockReport(stored, lines, scores, trend, tuple(weak[:PRACTISE_NEXT]), missed, slow)


def question_lines(bank: Bank, stored: StoredMock, *, detail: bool = True) -> tuple[QuestionLine, ...]:
    """Each question of the sitting: asked ones in order, then those never reached. Without
    `detail` (enough for scores) no variant is drawn again."""
    attempts = {a.question: a for a in stored.attempts}
    spoken = {s.question: s for s in stored.spoken}
    asked = {a.question: a for a in stored.asked}
    depths = {row.question: chain_depth(stored.asked, n) for n, row in enumerate(stored.asked)}
    met = {p.attempt: p for p in stored.pushbacks}
    order = [a.question for a in stored.asked]
    order += [str(q["question"]) for q in stored.row.plan if q["question"] not in asked]
    order += [a.question for a in stored.attempts if a.question not in order]
    planned = {str(q["question"]): q for q in stored.row.plan}
    by_clock = _handed_in_by_clock(stored)
    lines = []
    for position, question_id in enumerate(order, 1):
        row = asked.get(question_id)
        seed = row.seed if row is not None else int(planned[question_id]["seed"]) if question_id in planned else attempts[question_id].seed
        budget = row.budget if row is not None else float(planned[question_id]["budget"]) if question_id in planned else 0.0
        question = bank.questions.get(question_id)
        variant = drawn_variant(bank, question_id, seed) if detail else None
        attempt, said = attempts.get(question_id), spoken.get(question_id)
        if attempt is None and said is None:
            continue  # asked when the process was killed, the sitting not yet resumed
        duration = attempt.duration_ms if attempt is not None else said.duration_ms if said is not None else None
        label = _label(variant, attempt.misconception) if attempt is not None else None
        lines.append(
            QuestionLine(
                position=position, question=question_id, key=variant.key if variant is not None else f"{question_id}#{seed}",
                topic=question.topic if question is not None else "", claims=tuple(question.refs) if question is not None else (),
                follow_up_of=row.follow_up_of if row is not None else None, variant=variant,
                answer=attempt.response if attempt is not None else said.notes if said is not None else None,
                verdict=attempt.verdict if attempt is not None else AWAITING,
                score=attempt.score if attempt is not None else None,
                misconception=attempt.misconception if attempt is not None else None, misconception_label=label,
                seconds=None if duration is None else duration / 1000, budget=budget, self_grades=_self_grades(variant, said),
                depth=depths.get(question_id, 0), pushback=_pushback(variant, attempt, met),
                by_clock=question_id == by_clock,
            )
        )  # fmt: skip
    return tuple(lines)


_MS = 0.001
"""Durations are stored to the millisecond: an answer this close to the deadline was handed in at it."""


def _handed_in_by_clock(stored: StoredMock) -> str | None:
    """The question whose answer the clock handed in: in a finished sitting, the last one asked,
    answered (not left empty) when its time shown plus the time taken reaches the interview's length."""
    if not stored.asked or stored.row.status != "finished":
        return None
    last = stored.asked[-1]
    attempt = next((a for a in reversed(stored.attempts) if a.question == last.question), None)  # the last, as question_lines reads it
    said = next((s for s in reversed(stored.spoken) if s.question == last.question), None)
    duration = attempt.duration_ms if attempt is not None else said.duration_ms if said is not None else None
    if duration is None or (attempt is not None and attempt.verdict == "no_answer"):
        return None
    try:
        length = plan_from_json(stored.row).options.seconds  # read with the options' own rules
    except MockOptionsError:
        return None
    return last.question if last.shown_s + duration / 1000 >= length - _MS else None


def score_lines(lines: Sequence[QuestionLine]) -> Scores:
    """Mean scores over the lines that have one (awaiting self-grades do not count yet); a
    challenge met counts as one more answer to its question's topic and claims."""
    counted = [(line, line.score) for line in lines if line.score is not None]
    counted += [(line, line.pushback.row.score) for line in lines if line.pushback is not None]
    by_topic: dict[str, list[float]] = defaultdict(list)
    by_claim: dict[str, list[float]] = defaultdict(list)
    for line, score in counted:
        assert score is not None
        if line.topic:
            by_topic[line.topic].append(score)
        for claim in line.claims:
            by_claim[claim].append(score)
    overall = sum(score or 0.0 for _, score in counted) / len(counted) if counted else None
    return Scores(
        overall,
        {t: sum(s) / len(s) for t, s in sorted(by_topic.items())},
        {c: sum(s) / len(s) for c, s in sorted(by_claim.items())},
        {t: len(s) for t, s in by_topic.items()},
    )


def _label(variant: Variant | None, name: str | None) -> Text | None:
    """The learner-facing label of the mistake `name` made in `variant` (never the internal name)."""
    if variant is None or name is None:
        return None
    return next((m.label for m in type_of(variant.question).mistakes(variant) if m.name == name), None)


def _pushback(variant: Variant | None, attempt: AttemptRecord | None, met: Mapping[str, PushbackRow]) -> PushbackLine | None:
    """The challenge put to `attempt` and how it was met; None when none was."""
    row = met.get(attempt.id) if attempt is not None else None
    if row is None or attempt is None:
        return None
    pushback = pushback_for(variant, attempt) if variant is not None else None
    return PushbackLine(None if pushback is None else pushback.text, row, pushback_case(attempt.verdict == "correct", row))


def _self_grades(variant: Variant | None, said: SpokenRow | None) -> tuple[tuple[Text, str], ...] | None:
    if variant is None or said is None or said.levels is None:
        return None
    rubric: tuple[Text, ...] = getattr(variant.question, "rubric", ())
    return tuple(zip(rubric, said.levels, strict=False))
