"""Grading: the tolerance rule at its boundaries, misconceptions, partial credit and hints."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quiz.format.model import Tolerance
from quiz.grading.result import Verdict
from quiz.grading.tolerance import within
from quiz.types.draw import make_variant
from quiz.types.grade import give_up, grade
from quiz.types.numeric import _overlapping
from quiz.types.order import ordered_pairs

PACK = """\
- id: p1
  type: number
  topic: softmax
  prompt: "p_1 for scores [4, 0] after scaling by 1/sqrt(4)?"
  hints: [Divide by 2 first., Then use the logistic function.]
  answer: softmax([4 / sqrt(4), 0])[0]
  misconceptions:
    - name: no_scaling
      answer: softmax([4, 0])[0]
      feedback: You forgot to divide by sqrt(d_k).
    - name: divide_by_d_k
      answer: softmax([4 / 4, 0])[0]
      feedback: That divides by d_k.
      credit: 0.5
- id: weights
  type: vector
  topic: softmax
  prompt: Weights?
  answer: [0.881, 0.119]
  tolerance: {decimals: 2}
- id: pick
  type: choice
  topic: scaling
  prompt: Why scale?
  options:
    - {text: Uniform weights, feedback: "No: that is not the aim."}
    - {text: Keep score variance near one, correct: true}
    - {text: Faster matmuls}
- id: several
  type: multi
  topic: diagnosis
  prompt: Check which?
  options:
    - {text: Fully masked rows, correct: true}
    - {text: Overflow in float16, correct: true}
    - {text: Learning-rate warm-up}
    - {text: Non-finite inputs, correct: true}
- id: steps
  type: order
  topic: implementation
  prompt: Order the steps.
  items: [scores, scale, mask, softmax, weighted sum]
- id: tf
  type: truefalse
  topic: scaling
  prompt: Scaling makes attention uniform.
  answer: false
- id: talk
  type: explain
  topic: scaling
  prompt: Why sqrt(d_k)?
  model_answer: Var(q.k) = d_k.
  rubric: [independence assumption, variance d_k, divide by sqrt to get 1, not to make uniform]
"""


@pytest.fixture
def variants(compile_yaml):
    return {qid: make_variant(c, 0) for qid, c in compile_yaml(PACK).items()}


def logistic(x: float) -> float:
    return 1 / (1 + np.exp(-x))


def test_the_key_and_answers_worked_by_hand_are_correct(variants):
    v = variants["p1"]
    assert v.answer == pytest.approx(logistic(2), rel=1e-12)
    for typed in (logistic(2), 0.881, 0.8808, 0.88079708):
        result = grade(v, typed)
        assert (result.score, result.verdict) == (1.0, Verdict.CORRECT)


def test_tolerance_boundary_is_inclusive_and_just_outside_fails():
    tolerance = Tolerance(rtol=0.01, atol=0.001)
    key = 2.0
    allowed = 0.001 + 0.01 * 2.0
    assert within(key + allowed, key, tolerance) and within(key - allowed, key, tolerance)
    assert not within(key + 1.1 * allowed, key, tolerance)
    assert not within(key - 1.1 * allowed, key, tolerance)


@settings(max_examples=300, deadline=None)
@given(
    st.floats(-1e6, 1e6),
    st.lists(st.floats(-1e6, 1e6), max_size=4),
    st.sampled_from([Tolerance(), Tolerance(rtol=0.0, atol=0.5), Tolerance(decimals=2), Tolerance(sigfigs=2)]),
)
def test_overlapping_numbers_are_those_within_either_way_round(value, others, tolerance):
    others = [*others, value * 1.004, value + 4e-4]  # some just inside or outside the tolerance
    expected = [i for i, other in enumerate(others) if within(value, other, tolerance) or within(other, value, tolerance)]
    assert _overlapping(np.float64(value), [np.float64(other) for other in others], tolerance) == expected


def test_overlapping_numbers_count_a_rule_met_one_way_round_only():
    tolerance = Tolerance(rtol=0.01, atol=0.0)  # 1 % of 1.0 is 0.01, of 1.0101 is 0.010101
    assert not within(1.0101, 1.0, tolerance) and within(1.0, 1.0101, tolerance)
    assert _overlapping(np.float64(1.0101), [np.float64(5.0), np.float64(1.0)], tolerance) == [1]
    assert _overlapping(np.float64(1.0), [np.float64(1.0101), np.float64(5.0)], tolerance) == [0]


@pytest.mark.parametrize(("value", "key"), [(1e308, -1e308), (np.inf, np.inf), (np.inf, 1.0), (1.0, np.inf), (np.nan, 1.0)])
def test_numbers_far_out_of_range_grade_wrong_without_a_warning(value, key):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert not within(value, key, Tolerance(rtol=0.0, atol=0.5))
        assert not within(np.array([value, 0.0]), np.array([key, 1.0]), Tolerance(rtol=0.0, atol=0.5)).any()


def test_decimals_accept_a_correctly_rounded_answer_at_the_half_way_point():
    # 0.125 rounds to 0.13 (or 0.12): exactly half a unit away, which binary rounding must not fail.
    assert within(0.13, 0.125, Tolerance(decimals=2)) and within(0.12, 0.125, Tolerance(decimals=2))
    assert not within(0.14, 0.125, Tolerance(decimals=2))


def test_a_zero_key_is_gradable_through_atol():
    assert within(0.0004, 0.0, Tolerance()) and not within(0.001, 0.0, Tolerance())


def test_misconception_is_named_with_its_feedback_and_credit(variants):
    v = variants["p1"]
    result = grade(v, logistic(4))
    assert (result.misconception, result.score, result.verdict) == ("no_scaling", 0.0, Verdict.INCORRECT)
    assert result.feedback[0].en == "You forgot to divide by sqrt(d_k)."
    result = grade(v, logistic(1))
    assert (result.misconception, result.score, result.verdict) == ("divide_by_d_k", 0.5, Verdict.PARTIAL)


def test_an_unrelated_wrong_answer_matches_no_misconception(variants):
    result = grade(variants["p1"], 0.3)
    assert (result.score, result.misconception, result.feedback) == (0.0, None, ())


def test_hints_multiply_the_score_down(variants):
    v = variants["p1"]
    assert grade(v, 0.881, hints_used=1).score == pytest.approx(0.75)
    assert grade(v, 0.881, hints_used=1).verdict is Verdict.CORRECT
    assert grade(v, logistic(1), hints_used=2).score == pytest.approx(0.25)
    assert grade(v, 0.881, hints_used=5).score == 0.0


def test_vectors_get_per_element_marks(variants):
    v = variants["weights"]
    result = grade(v, np.array([0.88, 0.2]))
    assert result.marks.tolist() == [True, False] and result.score == 0.0
    assert grade(v, np.array([0.88, 0.12])).score == 1.0  # two decimals widen the tolerance


def test_choice_gives_option_feedback(variants):
    v = variants["pick"]
    assert grade(v, "b").score == 1.0
    wrong = grade(v, "a")
    assert wrong.score == 0.0 and wrong.feedback[0].en == "No: that is not the aim."


@pytest.mark.parametrize(
    ("picked", "score"),
    [({"a", "b", "d"}, 1.0), ({"a", "b"}, 2 / 3), ({"a", "b", "c"}, 1 / 3), ({"c"}, 0.0), ({"a", "c"}, 0.0), (set(), 0.0)],
)
def test_multi_scores_right_minus_wrong_over_right(variants, picked, score):
    assert grade(variants["several"], picked).score == pytest.approx(score)


@pytest.mark.parametrize(
    ("order", "right_pairs"),
    [([0, 1, 2, 3, 4], 10), ([1, 0, 2, 3, 4], 9), ([4, 3, 2, 1, 0], 0), ([2, 0, 1, 4, 3], 7), ([0, 2, 4, 1, 3], 7)],
)
def test_order_scores_the_share_of_pairs_in_right_relative_order(variants, order, right_pairs):
    assert ordered_pairs(order) == right_pairs
    assert grade(variants["steps"], order).score == pytest.approx(right_pairs / 10)


def test_the_reversed_order_scores_nothing(variants):
    assert grade(variants["steps"], [4, 3, 2, 1, 0]).verdict is Verdict.INCORRECT


def test_order_must_list_each_item_once(variants):
    with pytest.raises(ValueError):
        grade(variants["steps"], [0, 0, 1, 2, 3])


CRITICAL = """\
- id: pipeline
  type: order
  topic: implementation
  prompt: Order the steps.
  items:
    - scores
    - scale
    - {id: mask, text: mask}
    - {id: softmax, text: softmax}
    - weighted sum
  critical:
    - pair: [mask, softmax]
      name: mask_after_softmax
      label: {en: masking after the softmax, ja: ソフトマックスの後でマスク}
      feedback: Masking after the softmax leaves rows that no longer sum to one.
- id: capped
  type: order
  topic: implementation
  prompt: Order.
  items: [{id: a, text: first}, {id: b, text: second}, third]
  critical: [{pair: [a, b], name: swapped, feedback: No., cap: 0.4}]
"""


def test_a_critical_pair_out_of_order_names_the_mistake_and_caps_the_score(compile_yaml):
    variants = {qid: make_variant(c, 0) for qid, c in compile_yaml(CRITICAL).items()}
    masked_late = grade(variants["pipeline"], [0, 1, 3, 2, 4])  # 9 of 10 pairs right, but the critical one wrong
    assert masked_late.score == 0 and masked_late.misconception == "mask_after_softmax"
    assert masked_late.label.get("ja") == "ソフトマックスの後でマスク" and "no longer sum to one" in masked_late.feedback[0].en
    assert grade(variants["pipeline"], [1, 0, 2, 3, 4]).score == pytest.approx(0.9)  # not critical: only the pair costs
    capped = grade(variants["capped"], [1, 0, 2])
    assert capped.score == pytest.approx(0.4) and capped.misconception == "swapped"


def test_an_order_question_refuses_a_critical_pair_naming_an_unknown_item(compile_yaml):
    with pytest.raises(AssertionError, match="names unknown item ids: z"):
        compile_yaml(CRITICAL.replace("pair: [a, b]", "pair: [a, z]"))


def test_a_number_right_to_the_learners_own_digits_is_close_not_just_wrong(variants):
    v = variants["p1"]  # key 0.880797...; tolerance 0.0005 + 0.5 %
    close = grade(v, 0.9)
    assert close.verdict is Verdict.INCORRECT and close.details == {"close": True}
    assert grade(v, 0.8).details == {} and grade(v, 0).details == {}


def test_a_misconception_carries_its_label(variants):
    result = grade(variants["p1"], float(variants["p1"].misconceptions["no_scaling"]))
    assert result.misconception == "no_scaling" and result.label is None  # this pack gives none


def test_truefalse_and_explain(variants):
    assert grade(variants["tf"], False).score == 1.0 and grade(variants["tf"], True).score == 0.0
    assert grade(variants["talk"], {0, 1, 3}).score == pytest.approx(0.75)
    assert grade(variants["talk"], set()).verdict is Verdict.INCORRECT


def test_giving_up_reveals_the_answer_and_scores_zero(variants):
    result = give_up(variants["several"], hints_used=1)
    assert (result.score, result.verdict, result.answer) == (0.0, Verdict.REVEALED, ["a", "b", "d"])
