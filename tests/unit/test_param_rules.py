"""Parameter rules beyond redrawing (issue 32): weighted choices, multiples and divisors, distinct values.

Each rule draws straight from the values it allows, so no variant is redrawn for it, a rule no value
meets is an error naming the parameter, and a parameter without rules draws exactly as before.
"""

from collections import Counter
from pathlib import Path
from textwrap import dedent

import numpy as np
import pytest

from quiz.bank import load_bank
from quiz.format.checks import check_question
from quiz.format.diagnostics import Report
from quiz.types.draw import make_variant
from quiz.types.draw_rules import divisors_between, index_skipping, multiples_between, weighted_index
from quiz.variants.variant import VariantError

HEAD = """\
- id: q
  type: number
  topic: softmax
  prompt: "{{ answer }}"
  answer: 0
  params:
"""
SEEDS = range(300)


def pack(params: str, extra: str = "") -> str:
    return HEAD + dedent(params).strip("\n").replace("\n", "\n    ").join(["    ", "\n"]) + extra


def draws(compile_yaml, params: str, name: str, extra: str = "") -> list:
    question = compile_yaml(pack(params, extra))["q"]
    return [make_variant(question, seed).inputs[name] for seed in SEEDS]


def findings(tmp_path: Path, params: str) -> list[str]:
    """Every error loading and checking the pack gives, as text."""
    path = tmp_path / "pack.yaml"
    path.write_text(pack(params), encoding="utf-8")
    bank = load_bank([path])
    report = Report()
    for question in bank.questions.values():
        check_question(question, bank.claims, report)
    return [str(e) for e in [*bank.report.errors, *report.errors]]


def test_multiple_of_makes_the_group_count_divide_the_head_count(compile_yaml):
    question = compile_yaml(pack("n_kv: {choice: [1, 2, 4]}\nn_q: {integer: [n_kv, 16], multiple_of: n_kv}"))["q"]
    pairs = [make_variant(question, seed).inputs for seed in SEEDS]
    assert all(p["n_q"] % p["n_kv"] == 0 and p["n_kv"] <= p["n_q"] <= 16 for p in pairs)
    # Every multiple in range is reached, not only a few: n_kv = 4 gives 4, 8, 12 and 16.
    assert {p["n_q"] for p in pairs if p["n_kv"] == 4} == {4, 8, 12, 16}


def test_divisor_of_draws_only_divisors_within_the_bounds(compile_yaml):
    values = draws(compile_yaml, "n_q: {choice: [12, 32]}\nn_kv: {integer: [2, n_q], divisor_of: n_q}", "n_kv")
    assert set(values) == {2, 3, 4, 6, 12, 8, 16, 32}
    question = compile_yaml(pack("n_q: {choice: [12, 32]}\nn_kv: {integer: [2, n_q], divisor_of: n_q}"))["q"]
    assert all((v := make_variant(question, s).inputs)["n_q"] % v["n_kv"] == 0 for s in SEEDS)


def test_distinct_from_keeps_a_second_position_off_the_first(compile_yaml):
    question = compile_yaml(pack("i: {integer: [0, 3]}\nj: {integer: [0, 3], distinct_from: i}"))["q"]
    pairs = [(v.inputs["i"], v.inputs["j"]) for v in (make_variant(question, s) for s in SEEDS)]
    assert all(i != j for i, j in pairs)
    assert len(set(pairs)) == 12  # all 4 × 3 ordered pairs of different positions


def test_distinct_from_a_list_and_on_a_decimal_grid_and_a_choice(compile_yaml):
    values = draws(compile_yaml, "a: {integer: [1, 5]}\nb: {integer: [1, 5]}\nc: {integer: [1, 5], distinct_from: [a, b]}", "c")
    question = compile_yaml(pack("a: {integer: [1, 5]}\nb: {integer: [1, 5]}\nc: {integer: [1, 5], distinct_from: [a, b]}"))["q"]
    assert all((v := make_variant(question, s).inputs)["c"] not in (v["a"], v["b"]) for s in SEEDS)
    assert set(values) == {1, 2, 3, 4, 5}
    question = compile_yaml(pack("t: {decimal: [0.1, 0.4]}\nu: {decimal: [0.1, 0.4], distinct_from: t}"))["q"]
    assert all((v := make_variant(question, s).inputs)["u"] != v["t"] for s in SEEDS)
    question = compile_yaml(pack("d: {choice: [4, 16, 64]}\nd2: {choice: [4, 16, 64], distinct_from: d}"))["q"]
    assert all((v := make_variant(question, s).inputs)["d2"] != v["d"] for s in SEEDS)


def test_weights_set_how_often_each_choice_is_drawn(compile_yaml):
    counts = Counter(draws(compile_yaml, "d_k: {choice: [16, 64], weights: [3, 1]}", "d_k"))
    # 300 draws at 3 : 1: 225 expected; 4 standard deviations (7.5 each) either side.
    assert 195 <= counts[16] <= 255 and counts[64] == 300 - counts[16]
    faults = Counter(draws(compile_yaml, "f: {fault: [missing_scale, double_scale], weights: [1, 9]}", "f"))
    assert faults["missing_scale"] < faults["double_scale"]


def test_distinct_normal_draws_never_tie(compile_yaml):
    # Rounded to whole numbers with a std of 1, eight numbers almost always tie somewhere.
    tied = draws(compile_yaml, "z: {normal: [8], decimals: 0}", "z")
    assert any(len(set(z)) < 8 for z in tied)
    distinct = draws(compile_yaml, "z: {normal: [8], decimals: 0, std: 20, distinct: true}", "z")
    assert all(len(set(z)) == 8 for z in distinct)


def test_a_parameter_without_rules_draws_as_before(compile_yaml):
    # Stored variants are rebuilt from their seed: a rule-free parameter must consume the
    # generator as it always did. These values were drawn before rules existed.
    question = compile_yaml(pack("n: {integer: [1, 1000]}\nt: {decimal: [0, 100]}\nc: {choice: [1, 2, 3, 4, 5, 6, 7]}"))["q"]
    first = make_variant(question, 0).inputs
    even = "c: {choice: [1, 2, 3, 4, 5, 6, 7], weights: [1, 1, 1, 1, 1, 1, 1]}"
    ruled = make_variant(compile_yaml(pack(f"n: {{integer: [1, 1000]}}\nt: {{decimal: [0, 100]}}\n{even}"))["q"], 0).inputs
    assert (ruled["n"], ruled["t"]) == (first["n"], first["t"])  # a rule changes only its own parameter's draw
    assert first == PINNED_DRAW


PINNED_DRAW = {"n": 770, "t": 29.4, "c": 4}  # drawn by the code before rules existed


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ("n: {integer: [5, 7], multiple_of: 4}", "params.n: no whole number from 5 to 7 is a multiple of 4"),
        ("n: {integer: [5, 7], divisor_of: 8}", "params.n: no whole number from 5 to 7 is a divisor of 8"),
        ("i: {integer: [1, 1]}\nj: {integer: [1, 1], distinct_from: i}", "params.j: no whole number from 1 to 1 is different from 1"),
        ("n: {integer: [1, 4], multiple_of: 0}", "params.n.multiple_of: 0 has no multiples but 0"),
        ("n: {integer: [1, 4], divisor_of: 10**12}", "params.n.divisor_of: the number must be a whole number other than 0 within ±1,000,000,000"),
        ("d: {choice: [4]}\nd2: {choice: [4], distinct_from: d}", "params.d2: every choice is among distinct_from's values"),
        ("t: {decimal: [0.1, 0.1]}\nu: {decimal: [0.1, 0.1], distinct_from: t}", "params.u: every value from 0.1 to 0.1 is among distinct_from's"),
        ("z: {normal: [64], decimals: 0, std: 0.1, distinct: true}", "params.z: 64 numbers with 0 decimals tied in each of 100 draws"),
    ],
)
def test_a_rule_no_value_meets_is_an_error_at_the_parameter(compile_yaml, params, message):
    question = compile_yaml(pack(params))["q"]
    with pytest.raises(VariantError) as caught:
        make_variant(question, 0)
    assert message in str(caught.value)


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ("d: {integer: [1, 4], weights: [1, 2]}", "params.d: weights applies to choice or fault parameters, not to integer"),
        ("d: {choice: [1, 2], multiple_of: 2}", "params.d: multiple_of applies to integer parameters, not to choice"),
        ("z: {normal: [3], distinct_from: 1}", "params.z: distinct_from applies to integer or decimal or choice parameters, not to normal"),
        ("n: {integer: [1, 3], distinct: true}", "params.n: distinct applies to normal parameters, not to integer"),
        ("d: {choice: [1, 2, 3], weights: [1, 2]}", "params.d: weights has 2 numbers for 3 values; give one weight per value"),
        ("d: {choice: [1, 2], weights: [1, 0]}", "params.d: each weight must be a positive number, got 0"),
        ("f: {fault: [all], weights: [1]}", "params.f: weights need the faults named one by one, not [all]"),
        ("n: {integer: [1, 3], multiple_of: m}", "params.n.multiple_of: unknown name `m`"),
    ],
)
def test_a_rule_written_wrong_is_reported_where_it_stands(tmp_path, params, message):
    found = findings(tmp_path, params)
    assert any(message in f for f in found), found


def test_rule_arithmetic_against_brute_force():
    rng = np.random.default_rng(0)
    for low, high, step in [(-7, 20, 3), (5, 7, 4), (0, 0, 5), (-10, -1, 2)]:
        first, count = multiples_between(low, high, step)
        assert [first + i * step for i in range(count)] == [v for v in range(low, high + 1) if v % step == 0]
    for number in (1, 12, -18, 97, 360, 10**9):
        expected = [v for v in range(-40, 41) if v != 0 and number % v == 0]
        assert divisors_between(number, -40, 40) == expected
    seen = Counter(index_skipping(rng, 6, [1, 4, 4, 9, -1]) for _ in range(4000))
    assert set(seen) == {0, 2, 3, 5} and min(seen.values()) > 850  # uniform over what is left
    assert index_skipping(rng, 2, [0, 1]) is None
    assert index_skipping(rng, 10**15, [0]) in range(1, 10**15)
    assert weighted_index(rng, [1, 5], [False, False]) is None
    assert {weighted_index(rng, [1, 5, 2], [True, False, True]) for _ in range(200)} == {0, 2}
