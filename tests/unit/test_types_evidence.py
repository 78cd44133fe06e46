"""The evidence type: reading requests and an answer, the grading rule, and what it records."""

import pytest

from quiz.answer_text import Invalid
from quiz.grading.result import Verdict
from quiz.types.draw import make_variant, rebuild_variant
from quiz.types.evidence import TYPE, EvidenceResponse, figure_value, mark
from quiz.types.options import letters

PACK = """\
id: ev
type: evidence
topic: diagnosis
time: 100
params:
  f: {choice: [missing_scale, double_scale]}
  Q: {normal: [2, 6, 16]}
  K: {normal: [2, 6, 16]}
derived:
  stats: head_stats(Q, K, K, fault=f)
figures:
  - id: scale
    label: {en: Applied scale, ja: 掛かった係数}
    value: stats.score_std_scaled / stats.score_std_raw
    cost: 0.3
    telling: true
    why: {en: It is the factor itself., ja: 係数そのものです。}
  - id: nans
    label: NaN weights
    value: stats.weights_nan
    cost: 0.1
  - id: top
    label: Largest weight
    value: stats.max_weight
    seconds: 20
answer: f
options:
  - id: missing_scale
    text: No factor
    feedback: {en: Sharp rows., ja: 鋭い行。}
  - id: double_scale
    text: Divided by d_k
    feedback: {en: Flat rows., ja: 平坦な行。}
prompt: Name the fault.
"""


@pytest.fixture
def variant(compile_yaml):
    return make_variant(compile_yaml(PACK)["ev"], 3)


def right(variant):
    return variant.answer


def wrong(variant):
    return next(i for i in ("missing_scale", "double_scale") if i != variant.answer)


def letter_of(variant, option_id):
    return letters(variant, [option_id])[0]


def test_requests_then_an_answer_read_in_order_and_a_bare_letter_asks_nothing(variant):
    b = letter_of(variant, right(variant))
    assert TYPE.read(variant, f"ask nans top; answer {b}") == EvidenceResponse(("nans", "top"), right(variant))
    assert TYPE.read(variant, f"ask nans; ask scale nans; answer {b}") == EvidenceResponse(("nans", "scale"), right(variant))
    assert TYPE.read(variant, b) == EvidenceResponse((), right(variant))


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("ask entropy; answer a", "response.unknown_figure"),
        ("ask scale", "response.evidence_answer"),
        ("ask scale; a; b", "response.evidence_answer"),
    ],
)
def test_an_unknown_figure_or_no_single_answer_is_invalid_saying_why(variant, text, key):
    read = TYPE.read(variant, text)
    assert isinstance(read, Invalid) and read.key == key


def test_the_response_written_back_reads_as_the_same_response(variant):
    response = EvidenceResponse(("top", "scale"), wrong(variant))
    assert TYPE.read(variant, TYPE.response_text(variant, response)) == response
    assert TYPE.response_json(response) == {"asked": ["top", "scale"], "answer": wrong(variant)}


def test_a_telling_figure_asked_first_is_free_and_the_right_fault_then_earns_the_full_mark(variant):
    result = TYPE.grade(variant, EvidenceResponse(("scale",), right(variant)))
    assert result.score == 1.0 and result.verdict is Verdict.CORRECT
    assert result.details == {"asked": ["scale"], "telling_first": True, "best_first": "scale"}
    assert result.feedback[-1].en == "Good first request: Applied scale. It is the factor itself."


def test_each_other_request_costs_its_share_and_seconds_count_against_the_time(variant):
    # nans 0.1, then top: 20 s of the question's 100 s is 0.2 of the mark
    result = TYPE.grade(variant, EvidenceResponse(("nans", "top"), right(variant)))
    assert result.score == pytest.approx(0.7) and result.verdict is Verdict.PARTIAL
    # a telling figure asked for second costs its 0.3 like any other
    assert mark(variant.question, ("nans", "scale")) == pytest.approx(0.6)
    assert result.feedback[-1].en == "Best first request: Applied scale. It is the factor itself."
    assert result.feedback[-1].ja == "最初に尋ねるべき値：掛かった係数。係数そのものです。"


def test_a_guess_scores_blind_credit_and_no_amount_of_asking_scores_below_it(variant):
    question = variant.question
    assert TYPE.grade(variant, EvidenceResponse((), right(variant))).score == question.blind_credit == 0.5
    assert mark(question, ("top", "scale", "nans")) == 0.5  # 1 − 0.6 would be 0.4


def test_the_wrong_fault_scores_zero_whatever_was_asked_with_its_own_feedback_first(variant):
    result = TYPE.grade(variant, EvidenceResponse(("scale",), wrong(variant)))
    assert result.score == 0.0 and result.verdict is Verdict.INCORRECT
    assert result.feedback[0].en in ("Sharp rows.", "Flat rows.") and result.answer == right(variant)


def test_a_figure_is_measured_on_the_variant_and_stays_the_same_when_rebuilt_from_history(variant):
    value = figure_value(variant, "scale")
    expected = 1.0 if right(variant) == "missing_scale" else 1 / 16
    assert value == pytest.approx([expected, expected])
    rebuilt = rebuild_variant(variant.compiled, variant.seed, variant.inputs)
    assert figure_value(rebuilt, "scale") == pytest.approx(value)


def test_show_lists_the_figures_and_their_costs_but_never_their_values(variant):
    lines = TYPE.how_to_answer(variant, "en")
    assert "  scale: Applied scale (costs 0.3 of the mark)" in lines
    assert "  top: Largest weight (costs 20 s, 0.2 of the mark)" in lines
    figures = TYPE.extra_json(variant, "en")["figures"]
    assert [f["id"] for f in figures] == ["scale", "nans", "top"] and all("value" not in f and "telling" not in f for f in figures)


def test_the_answer_for_tools_is_the_best_play_and_grades_as_fully_right(variant):
    text = TYPE.answer_json(variant, "en")
    assert text == f"ask scale; answer {letter_of(variant, right(variant))}"
    assert TYPE.grade(variant, TYPE.read(variant, text)).score == 1.0


def test_the_marked_response_lists_each_request_with_its_value_and_cost(variant):
    response = EvidenceResponse(("nans", "scale"), right(variant))
    text = TYPE.marked_response(variant, TYPE.grade(variant, response), response, "en")
    assert text.splitlines() == ["Figures you asked for, in order:", "  1. NaN weights = [0, 0] (−0.1)", text.splitlines()[2]]
    assert text.splitlines()[2].startswith("  2. Applied scale = [") and text.endswith("(−0.3)")


def test_the_self_test_passes_every_seed(compile_yaml):
    compiled = compile_yaml(PACK)["ev"]
    for seed in range(20):
        assert list(TYPE.self_test(make_variant(compiled, seed))) == []
