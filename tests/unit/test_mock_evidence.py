"""An evidence question in a mock interview: its requests cost score, not interview time.

The mock clock is a deadline stored with the interview (`quiz.mock.clock`); a request's `seconds`
are counted as a share of the mark, as in practice, and the question's countdown is not moved.
"""

import pytest

from mock_helpers import FakeClock, plan_of, right_answer, start
from quiz.types.evidence import EvidenceResponse

QUESTION = "evidence-prefill-against-decode"


def test_the_best_play_scores_full_marks_and_each_request_costs_score_but_never_the_clock():
    clock = FakeClock()
    session = start(plan_of(QUESTION, "decode-step-gqa-shapes", minutes=20), clock)
    variant = session.current
    assert variant.question.id == QUESTION
    best = right_answer(variant)
    assert isinstance(best, EvidenceResponse) and best.asked == ("gap",)
    clock.advance(30)
    # row sums (0.15) and the NaN count (0.1) before the telling gap, which is then charged too (0.2)
    result = session.submit(EvidenceResponse(("row_sums", "nans", "gap"), best.answer))
    assert result.score == pytest.approx(1 - 0.15 - 0.1 - 0.2) and result.verdict == "partial"
    attempt = session.last_attempt
    assert attempt is not None and attempt.response.startswith("ask row_sums nans gap; answer ")
    assert attempt.duration_ms == 30_000  # the time spent, with nothing added for the requests
