"""The evidence questions' telling figures really tell: on every draw, a rule reading only the
telling figure names the drawn fault, while the figures left untold cannot separate every option."""

import math
from collections import Counter, defaultdict

import numpy as np
import pytest
from support.bank_parts import assert_self_tests_hold, part_ids, variants

from quiz.bank import load_bank
from quiz.types.evidence import figure_value

SEEDS = 200
FILE = "diagnosis-evidence.yaml"


@pytest.fixture(scope="module")
def bank():
    return load_bank()


def by_answer(bank, question_id: str, figure: str) -> dict[str, list[np.ndarray]]:
    """The figure's value on each of the first SEEDS variants, grouped by the drawn fault."""
    found: dict[str, list[np.ndarray]] = defaultdict(list)
    for variant in variants(bank, question_id, SEEDS):
        found[variant.answer].append(np.asarray(figure_value(variant, figure), dtype=float))
    return found


def test_the_file_holds_four_evidence_questions_on_diagnosis_decoding_and_positions(bank):
    ids = part_ids(bank, [FILE])
    assert len(ids) == 4 and {bank.questions[i].type for i in ids} == {"evidence"}
    assert {bank.questions[i].topic for i in ids} == {"diagnosis", "decoding", "positions"}


def test_every_evidence_question_passes_its_self_test_on_many_seeds(bank):
    assert_self_tests_hold(bank, part_ids(bank, [FILE]), seeds=60)


def scale_fault(scale: np.ndarray) -> str:
    known = {1 / math.sqrt(32): "none", 1.0: "missing_scale", 1 / 32: "double_scale", 1 / math.sqrt(128): "scale_by_d_model"}
    [name] = [name for factor, name in known.items() if np.allclose(scale, factor, rtol=5e-3)]
    return name


def weights_fault(w: np.ndarray) -> str:
    if np.triu(w, 1).max() > 0:
        return "no_causal_mask"
    if not w[-1].any():
        return "fully_masked_row"
    return "softmax_over_queries" if np.abs(w.sum(axis=-1) - 1).max() > 0.03 else "none"  # 5 roundings move a sum 0.025 at most


PREFILL_PATTERNS = {
    (True, True, True, True, False): "no_causal_mask",
    (False, True, True, True, True): "missing_scale",
    (False, False, False, False, True): "fully_masked_row",
    (True, True, True, True, True): "softmax_over_queries",
}
ROPE_PATTERNS = {
    (False,) * 6: "values_rotated",
    (False, False, False, True, True, True): "new_at_zero",
    (False, True, True, True, True, True): "keys_rotated_twice",
}


@pytest.mark.parametrize(
    ("question_id", "figure", "rule"),
    [
        ("evidence-which-scale", "scale", scale_fault),
        ("evidence-causal-head", "weights", weights_fault),
        ("evidence-prefill-against-decode", "gap", lambda gap: PREFILL_PATTERNS[tuple(gap > 0)]),
        ("evidence-rope-in-the-decoder", "weight_gap", lambda gap: ROPE_PATTERNS[tuple(gap > 0)]),
    ],
)
def test_the_telling_figure_alone_names_the_drawn_fault_on_every_draw(bank, question_id, figure, rule):
    question = bank.questions[question_id]
    assert [f.id for f in question.figures if f.telling] == [figure]
    found = by_answer(bank, question_id, figure)
    assert set(found) == set(question.params["f"].choice and (str(c.value) for c in question.params["f"].choice))  # each fault drawn
    for answer, values in found.items():
        assert Counter(rule(value) for value in values) == Counter({answer: len(values)}), question_id


@pytest.mark.parametrize(
    ("question_id", "figure", "alike"),
    [
        ("evidence-causal-head", "row_sums", ("none", "no_causal_mask")),
        ("evidence-prefill-against-decode", "row_sums", ("no_causal_mask", "missing_scale")),
        ("evidence-rope-in-the-decoder", "output_gap", ("keys_rotated_twice", "values_rotated")),
    ],
)
def test_a_figure_left_untold_shows_the_same_pattern_for_two_faults(bank, question_id, figure, alike):
    """What the `why` texts say the other figures cannot do."""
    found = by_answer(bank, question_id, figure)
    patterns = [{tuple(np.round(v, 2) != 1) if figure == "row_sums" else tuple(v > 0) for v in found[a]} for a in alike]
    assert patterns[0] & patterns[1], (question_id, figure)


@pytest.mark.parametrize("figure", ["entropy", "max_weight"])
def test_how_sharp_the_rows_are_cannot_name_the_scale_fault_as_the_activations_scale_varies(bank, figure):
    """The scale question's `why`: a symptom of sharpness depends on the inputs as much as on the
    factor, so every fault's range of it meets another fault's."""
    found = by_answer(bank, "evidence-which-scale", figure)
    ranges = {answer: (min(v.mean() for v in values), max(v.mean() for v in values)) for answer, values in found.items()}
    for answer, (low, high) in ranges.items():
        others = [other for other in ranges if other != answer]
        assert any(low <= ranges[other][1] and ranges[other][0] <= high for other in others), (figure, answer)
