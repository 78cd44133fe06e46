"""Variants: drawn reproducibly from (id, seed), rebuilt from stored inputs, keyed printably."""

import numpy as np
import pytest

from quiz.types.draw import constraint_outcomes, draw_inputs, make_variant, rebuild_variant
from quiz.variants.keys import generator_seed, parse_key
from quiz.variants.shuffle import display_order
from quiz.variants.variant import VariantError

PACK = """\
- id: drawn
  type: vector
  topic: softmax
  prompt: "Weights for $z = {{ z }}$ with $d_k = {{ d_k }}$?"
  params:
    d_k: {choice: [4, 16, 64]}
    n: {integer: [2, 4]}
    z: {normal: [n], decimals: 1, std: 2}
    t: {decimal: [0.5, 1.5]}
    f: {fault: [missing_scale, double_scale]}
  constraints: ["max(z) - min(z) > 0.5"]
  derived:
    p: softmax(z / sqrt(d_k))
  answer: p
- id: fixed
  type: number
  topic: softmax
  prompt: "p_1 for [4, 0]?"
  answer: softmax([4, 0])[0]
- id: impossible
  type: number
  topic: softmax
  prompt: never
  params:
    s: {integer: [1, 3]}
  constraints: ["s > 5"]
  answer: s
"""


@pytest.fixture
def pack(compile_yaml):
    return compile_yaml(PACK)


def test_same_id_and_seed_give_the_same_variant(pack):
    first, again = make_variant(pack["drawn"], 11), make_variant(pack["drawn"], 11)
    assert first.inputs == again.inputs
    np.testing.assert_array_equal(first.answer, again.answer)
    assert first.key == "drawn#11"


def test_different_seeds_give_different_variants(pack):
    drawn = {str(make_variant(pack["drawn"], seed).inputs) for seed in range(20)}
    assert len(drawn) >= 15


def test_draws_respect_their_specs_and_constraints(pack):
    for seed in range(30):
        v = make_variant(pack["drawn"], seed).inputs
        assert v["d_k"] in (4, 16, 64) and 2 <= v["n"] <= 4 and len(v["z"]) == v["n"]
        assert max(v["z"]) - min(v["z"]) > 0.5
        assert all(round(x, 1) == x for x in v["z"])
        assert 0.5 <= v["t"] <= 1.5 and round(v["t"], 1) == v["t"]
        assert v["f"] in ("missing_scale", "double_scale")


def test_answer_is_computed_by_the_engine_from_the_draw(pack):
    variant = make_variant(pack["drawn"], 5)
    z = np.array(variant.inputs["z"]) / np.sqrt(variant.inputs["d_k"])
    expected = np.exp(z - z.max()) / np.exp(z - z.max()).sum()
    np.testing.assert_allclose(variant.answer, expected, rtol=1e-12)


def test_generator_seed_is_stable_across_processes():
    # Pinned: changing this would change every learner's stored variants.
    assert generator_seed("softmax-jacobian-entry", 4711) == 7346238523038451545


GOLDEN_4711 = {"d_k": 16, "n": 4, "z": [1.3, -1.9, -2.3, -0.7], "t": 0.9, "f": "double_scale"}


def test_golden_variant_is_pinned(pack):
    """A golden variant: if numpy's generator or our drawing changes, this fails loudly."""
    variant = make_variant(pack["drawn"], 4711)
    assert variant.inputs == GOLDEN_4711


def test_rebuilding_from_stored_inputs_gives_the_same_variant(pack):
    made = make_variant(pack["drawn"], 3)
    rebuilt = rebuild_variant(pack["drawn"], 3, made.inputs)
    assert rebuilt.key == made.key
    np.testing.assert_array_equal(rebuilt.answer, made.answer)


def test_rebuilding_with_missing_inputs_is_an_error(pack):
    with pytest.raises(VariantError, match="stored inputs lack"):
        rebuild_variant(pack["drawn"], 3, {"d_k": 4})


def test_fixed_questions_have_one_variant_keyed_by_id(pack):
    a, b = make_variant(pack["fixed"], 0), make_variant(pack["fixed"], 99)
    assert a.key == b.key == "fixed" and a.answer == b.answer == pytest.approx(1 / (1 + np.exp(-4)))


def test_unsatisfiable_constraints_stop_with_a_message(pack):
    with pytest.raises(VariantError, match="constraints rejected 100 draws"):
        make_variant(pack["impossible"], 0)


def test_texts_render_the_variant_values(pack):
    variant = make_variant(pack["drawn"], 2)
    text = variant.text(variant.question.prompt, "en")
    assert f"$d_k = {variant.inputs['d_k']}$" in text and "{{" not in text


@pytest.mark.parametrize(("key", "parsed"), [("a-b#12", ("a-b", 12)), ("a_b", ("a_b", None)), (" x#0 ", ("x", 0))])
def test_parse_key(key, parsed):
    assert parse_key(key) == parsed


@pytest.mark.parametrize("key", ["", "A#1", "a#", "a#-1", "a#1#2", "a b"])
def test_parse_key_rejects_malformed_keys(key):
    with pytest.raises(ValueError):
        parse_key(key)


def test_display_order_is_a_shuffle_that_is_never_already_right(pack):
    variant = make_variant(pack["drawn"], 0)
    for count in range(2, 8):
        order = display_order(variant, count)
        assert sorted(order) == list(range(count)) and order != list(range(count))
    assert display_order(variant, 5) == display_order(variant, 5)


SCREENED = """\
id: screened
type: number
topic: softmax
prompt: "{{ s }}"
params:
  s: {decimal: [0, 3]}
derived:
  z: array([s, 0])
  p: softmax(z)
  run: attention(array([[s, 1]]), eye(2), eye(2))
constraints: ["p[0] > 0.6"]
answer: run.output[0, 0]
"""


def test_constraint_outcomes_compute_only_what_the_constraints_read_and_agree_with_the_variant(compile_yaml):
    compiled = compile_yaml(SCREENED)["screened"]
    assert [name for name, _ in compiled.screening] == ["z", "p"]  # p reads z; run is for the answer
    rng = np.random.default_rng(0)
    for _ in range(50):
        inputs = draw_inputs(compiled, rng)
        [outcome] = constraint_outcomes(compiled, inputs)
        variant = rebuild_variant(compiled, 0, inputs)  # every derived value, as a variant has them
        assert outcome == bool(variant.values["p"][0] > 0.6)
        assert variant.answer == variant.values["run"].output[0, 0]


GUARDED = """\
id: guarded
type: number
topic: softmax
prompt: "{{ inv }}"
params:
  n: {integer: [0, 3]}
derived:
  twice: 2 * n
  inv: 1 / n
  ok: n != 0
constraints: ["ok"]
answer: inv + twice
"""


def test_a_derived_value_the_constraints_guard_is_computed_only_for_the_draws_they_keep(compile_yaml):
    """`1 / n` cannot be computed when n = 0, a draw the constraint rejects: only what the
    constraints read (`ok`) is computed before they judge, so those draws do not fail the seed."""
    compiled = compile_yaml(GUARDED)["guarded"]
    judged: list[dict] = []
    for seed in range(20):
        variant = make_variant(compiled, seed, on_draw=lambda inputs, values: judged.append(values))
        assert list(variant.values) == ["n", "twice", "inv", "ok", "answer"]  # in `derived` order
        assert variant.answer == 1 / variant.inputs["n"] + 2 * variant.inputs["n"]
    assert any(values["n"] == 0 for values in judged), "no draw had n = 0: the test would prove nothing"
    assert all(list(values) == ["n", "ok"] for values in judged)  # what the constraints judged on
