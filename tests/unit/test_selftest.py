"""Self-tests catch broken answer keys, misconceptions, tolerances, constraints and templates
before learners do, and say each problem once, at the line of the field at fault."""

import re
from collections import Counter

import pytest

from quiz.authoring.sample import (
    CLEAR_MIN_JUDGED,
    SAMPLE_DRAWS,
    clear_majority,
    constraint_warnings,
    draw_sample,
    first_draw_of,
    possible_values,
)
from quiz.authoring.selftest import MIN_VARIANTS, VARIETY_SEEDS, _redrawn, self_test
from quiz.expressions.budget import Budget
from quiz.format.diagnostics import Severity
from quiz.types.base import trivial_clash
from quiz.types.draw import make_variant

PACK = """\
- id: healthy
  type: number
  topic: softmax
  prompt: "p_1 for [{{ s }}, 0]?"
  explanation: "It is {{ answer }}."
  params:
    s: {decimal: [0.5, 3]}
  answer: softmax([s, 0])[0]
  misconceptions:
    - {name: no_softmax, answer: s, feedback: That is the raw score.}
- id: same-as-answer
  type: number
  topic: softmax
  prompt: "s = {{ s }}?"
  params:
    s: {integer: [1, 30]}
  answer: s
  misconceptions:
    - {name: identity, answer: s * 1, feedback: Same.}
- id: shadowed
  type: number
  topic: softmax
  prompt: "s = {{ s }}?"
  params:
    s: {integer: [1, 30]}
  answer: s
  misconceptions:
    - {name: double, answer: 2 * s, feedback: Twice.}
    - {name: also-double, answer: s + s, feedback: Twice again.}
- id: sometimes
  type: number
  topic: softmax
  prompt: "s = {{ s }}?"
  params:
    s: {integer: [1, 40]}
  answer: s
  misconceptions:
    - {name: at_least_20, answer: "maximum(s, 20)", feedback: Clipped.}
- id: infinite
  type: number
  topic: softmax
  prompt: "x {{ s }}"
  params:
    s: {integer: [1, 30]}
  answer: s * inf
- id: boom
  type: number
  topic: softmax
  prompt: "x {{ s }}"
  params:
    s: {integer: [0, 30]}
  answer: 1 / (s - s % 2)
- id: bad-template
  type: number
  topic: softmax
  prompt: "The trace is {{ attention([[1.0]], [[1.0]], [[1.0]]) }}"
  params:
    s: {integer: [1, 30]}
  answer: s
- id: tight
  type: number
  topic: softmax
  prompt: "p_1 for [{{ s }}, 0]?"
  params:
    s: {decimal: [0.5, 3]}
  answer: softmax([s, 0])[0]
  tolerance: {rtol: 0.00001, atol: 0.000001}
- id: fixed-tight
  type: vector
  topic: softmax
  prompt: "Weights of [1, 0]?"
  answer: softmax([1, 0])
  tolerance:
    rtol: 0
    atol: 0.000001
"""


def messages(diagnostics):
    return [d.message for d in diagnostics]


@pytest.fixture(scope="module")
def pack(tmp_path_factory):
    from quiz.bank import load_bank
    from quiz.format.checks import check_question
    from quiz.format.diagnostics import Report

    path = tmp_path_factory.mktemp("pack") / "pack.yaml"
    path.write_text(PACK, encoding="utf-8")
    bank = load_bank([path])
    assert bank.report.errors == []
    report = Report()
    compiled = {qid: check_question(q, bank.claims, report) for qid, q in bank.questions.items()}
    assert report.errors == []
    return compiled


def line_of(text: str, question: str) -> int:
    """The 1-based line of the first `text` after `- id: question` in PACK."""
    lines = PACK.splitlines()
    start = lines.index(f"- id: {question}")
    return next(n for n, line in enumerate(lines[start:], start + 1) if text in line)


def test_a_healthy_question_passes_every_seed(pack):
    assert self_test(pack["healthy"], 20) == []


def test_a_key_that_a_named_mistake_gives_is_an_error_at_the_key_as_no_variant_can_be_served(pack):
    """Every draw would grade the mistake as right, so every draw is refused (see
    test_misconceptions_apart.py). A key that computes a named mistake on every draw is most
    likely the wrong one (issue 32): the error stands at the answer and names the mistake."""
    error, *_ = self_test(pack["same-as-answer"], 20)
    assert error.severity is Severity.ERROR
    assert error.location.line == line_of("answer: s", "same-as-answer")
    assert error.message == (
        "same-as-answer: self-test: no variant can be made (seed 0: the answer grades the same as misconception identity on all "
        "100 draws: a key that computes a named mistake would teach it; check the answer's expression first, then identity's; "
        "20 of 20 seeds)"
    )


SOMETIMES_RIGHT = """\
- id: sometimes-right
  type: number
  topic: softmax
  prompt: "s = {{ s }}?"
  params:
    s: {decimal: [0.1, 3]}
  answer: s
  misconceptions:
    - {name: rounded, answer: floor(s), feedback: Rounded down.}
"""


def test_a_mistake_that_grades_right_on_some_draws_only_stays_at_the_mistake(compile_yaml):
    compiled = compile_yaml(SOMETIMES_RIGHT)["sometimes-right"]
    messages = [d.message for d in self_test(compiled, 40)]
    assert any("misconception rounded grades as right" in m for m in messages), messages
    assert not any("the answer grades the same" in m for m in messages)


def test_two_misconceptions_alike_are_reported_at_the_second(pack):
    [error] = self_test(pack["shadowed"], 20)
    assert error.location.line == line_of("also-double", "shadowed")
    assert "misconception also-double is within tolerance of the answer or of another misconception" in error.message
    assert re.search(r"\(seed 0: also-double \S+, double \S+;", error.message)  # names the one it looks like
    assert "20 of 20 seeds" in error.message


LOOK_ALIKES = """\
- id: look-alikes
  type: number
  topic: softmax
  prompt: "s = {{ s }}?"
  params:
    s: {integer: [1, 30]}
  answer: s
  misconceptions:
    - {name: same, answer: s * 1, feedback: The key itself.}
    - {name: also-same, answer: s + 0, feedback: The key again.}
    - {name: double, answer: 2 * s, feedback: Twice.}
"""


def test_misconceptions_equal_to_the_key_are_named_by_the_first_of_them(compile_yaml):
    compiled = compile_yaml(LOOK_ALIKES)["look-alikes"]
    error, *_ = self_test(compiled, 20)
    # `same` and `also-same` are the key on every draw: no variant can be served, and the error
    # stands at the answer, naming the first of them; `double` stands apart.
    assert error.location.line == 7
    assert "the answer grades the same as misconception same on all 100 draws" in error.message


def test_an_overlap_on_some_seeds_only_counts_those_seeds(pack):
    compiled = pack["sometimes"]
    variants = [make_variant(compiled, seed) for seed in range(20)]
    redrawn = sum(1 for v in variants if v.redrawn)
    assert 0 < redrawn < 20  # the test needs a mix
    assert all(v.inputs["s"] < 20 for v in variants)  # where at_least_20 is the key, the draw is redrawn
    [warning] = self_test(compiled, 20)
    assert warning.severity is Severity.WARNING and warning.location.line == line_of("at_least_20", "sometimes")
    assert f"misconception at_least_20 grades as right (or as the answer too coarsely rounded) on a draw of {redrawn} of 20 seeds" in warning.message


def test_problems_of_every_seed_collapse_into_one_message_each(pack):
    [error] = self_test(pack["infinite"], 20)
    assert error.message == "infinite: self-test: the answer is not finite (seed 0: answer inf; 20 of 20 seeds)"
    assert error.location.line == line_of("answer:", "infinite")
    [error] = self_test(pack["boom"], 20)
    failing = sum(1 for seed in range(20) if _fails(pack["boom"], seed))
    assert re.search(rf"no variant can be made \(seed \d+: answer: .*division by zero.*; {failing} of 20 seeds\)", error.message)
    assert error.location.line == line_of("answer:", "boom")
    texts = self_test(pack["bad-template"], 20)
    assert [m.split(" cannot")[0] for m in messages(texts)] == ["bad-template: self-test: prompt (en)", "bad-template: self-test: prompt (ja)"]
    assert {d.location.line for d in texts} == {line_of("prompt:", "bad-template")}


def _fails(compiled, seed):
    from quiz.variants.variant import VariantError

    try:
        make_variant(compiled, seed)
    except VariantError:
        return True
    return False


def test_a_tolerance_tighter_than_the_answer_as_shown_is_an_error_at_the_tolerance(pack):
    [error] = self_test(pack["tight"], 20)
    assert error.location.line == line_of("tolerance:", "tight")
    assert "the tolerance is tighter than the answer as shown (4 significant figures)" in error.message
    assert re.search(r"\(seed \d+: shown 0\.\d{4}, key 0\.\d{7}; \d+ of 20 seeds\); widen the tolerance", error.message)
    [error] = self_test(pack["fixed-tight"], 20)  # a fixed question: no seeds to speak of
    assert error.message.startswith("fixed-tight: self-test: the tolerance is tighter than the answer as shown")
    assert "(shown [0.7311, 0.2689], key [0.7310586, 0.2689414]); widen" in error.message


VARIETY = """\
- id: few
  type: number
  topic: softmax
  prompt: "s = {{{{ s }}}}"
  params:
    s: {{integer: [1, {top}]}}
  answer: s * 2
- id: choosy
  type: number
  topic: softmax
  prompt: "s = {{{{ s }}}}"
  params:
    s: {{integer: [1, 1000]}}
  constraints: ["s <= 3"]
  answer: s * 2
"""


@pytest.mark.parametrize("seeds", [2, 5, 20, 60, 250])
def test_the_variety_rule_does_not_depend_on_the_number_of_seeds(compile_yaml, seeds):
    nine = compile_yaml(VARIETY.format(top=MIN_VARIANTS - 1), "nine.yaml")
    [error] = self_test(nine["few"], seeds)
    assert error.message == (
        f"few: self-test: only {MIN_VARIANTS - 1} different variants in the first {VARIETY_SEEDS} seeds; "
        f"at least {MIN_VARIANTS} are needed; widen the parameters (more choices, a wider range or more decimals)"
    )
    assert error.location.line == 5  # params:
    twelve = compile_yaml(VARIETY.format(top=12), "twelve.yaml")
    assert self_test(twelve["few"], seeds) == []


def test_too_few_variants_behind_a_strict_constraint_asks_to_narrow(compile_yaml):
    choosy = compile_yaml(VARIETY.format(top=30))["choosy"]
    found = messages(self_test(choosy, 20))
    assert any("only 3 different variants" in m and "narrow the parameters to where the constraints hold" in m for m in found)
    assert not any("widen" in m for m in found)  # no message in the same run says the opposite


CONSTRAINTS = """\
- id: picky
  type: number
  topic: softmax
  prompt: "{{ d_k }} and {{ s }}"
  params:
    d_k: {choice: [4, 16, 64]}
    s: {decimal: [0, 10]}
  constraints:
    - d_k < 64
    - s > 7
  answer: s * d_k
- id: fair
  type: number
  topic: softmax
  prompt: "{{ d_k }} and {{ s }}"
  params:
    d_k: {choice: [4, 16, 64]}
    s: {decimal: [0, 10]}
  derived:
    t: s * 2
  constraints: ["t > 1"]
  answer: s * d_k
"""


def test_constraints_that_lose_a_value_or_most_draws_are_warnings_naming_the_parameter(compile_yaml):
    pack = compile_yaml(CONSTRAINTS)
    found = self_test(pack["picky"], 20)
    assert {d.severity for d in found} == {Severity.WARNING}
    by_line = {d.location.line: d.message for d in found}
    assert by_line[6] == (
        "picky: params.d_k: every draw with d_k = 64 is rejected by constraints[0] `d_k < 64`, "
        "so no variant uses it; drop that value or relax the constraint"
    )
    assert re.fullmatch(
        r"picky: constraints\[1\] `s > 7` keeps only \d+ of the \d+ draws the constraints before it keep \(\d+%\); "
        r"it depends on s: draw them from a range where it mostly holds, or relax it",
        by_line[10],
    )
    assert self_test(pack["fair"], 20) == []


SEQUENCED = """\
- id: sequenced
  type: number
  topic: softmax
  prompt: "{{ a }}"
  params:
    a: {decimal: [0, 10]}
  constraints: ["a > 4", "a > 6"]
  answer: a * 2
- id: alone
  type: number
  topic: softmax
  prompt: "{{ a }}"
  params:
    a: {decimal: [0, 10]}
  constraints: ["a > 6"]
  answer: a * 2
"""


def test_a_constraint_is_charged_only_with_the_draws_that_reach_it(compile_yaml):
    pack = compile_yaml(SEQUENCED)
    # `a > 6` keeps two draws in five, but two thirds of those `a > 4` keeps.
    assert self_test(pack["sequenced"], 20) == []
    [warning] = self_test(pack["alone"], 20)
    assert warning.severity is Severity.WARNING and "constraints[0] `a > 6` keeps only" in warning.message


def test_a_file_whose_self_tests_ran_long_leaves_the_rest_untested(tmp_path, monkeypatch):
    """Past a file's CPU time for self-tests, its other questions are reported, not run."""
    from quiz.authoring import validation

    monkeypatch.setattr(validation, "FILE_SECONDS", 0.0)
    path = tmp_path / "pack.yaml"
    path.write_text(PACK, encoding="utf-8")
    unchecked = validation.validate_packs([path], seeds=0)  # the loader's and checks' warnings only
    result = validation.validate_packs([path], seeds=5)
    assert result.errors == 0  # only the first question was self-tested, and it is healthy
    assert result.warnings == unchecked.warnings + result.questions - 1
    untested = [d.message for d in result.diagnostics if "not self-tested" in d.message]
    assert untested and all(m.endswith("not self-tested: this file's self-tests used their 0 s of CPU time") for m in untested)


CLOSE_CALL = """\
- id: close-call
  type: number
  topic: softmax
  prompt: "{{ s }}"
  params:
    s: {decimal: [0, 10]}
  constraints: ["s > 4"]
  answer: s * 2
"""


def test_a_sample_stops_early_only_when_the_rest_cannot_warn(compile_yaml):
    """`fair` keeps nine draws in ten, a clear majority: its sample stops at the fewest draws that
    can show one; `picky` must run to the end."""
    pack = compile_yaml(CONSTRAINTS)
    fair = draw_sample(pack["fair"], Budget(seconds=60))
    assert len(fair) == CLEAR_MIN_JUDGED
    assert fair == draw_sample(pack["fair"], Budget(seconds=60), stop_when_clean=False)[: len(fair)]  # the same stream
    assert len(draw_sample(pack["picky"], Budget(seconds=60))) == SAMPLE_DRAWS


def test_the_sample_is_each_seeds_first_draw_and_reuses_those_the_seeds_made(compile_yaml):
    """Draw i of the sample is what `make_variant` draws first for seed i: the seeds' own draws,
    with the values they computed, give the same sample as drawing them again."""
    compiled = compile_yaml(CONSTRAINTS)["picky"]
    first_draws: dict = {}
    for seed in range(50):
        make_variant(compiled, seed, on_draw=first_draw_of(seed, first_draws))
    fresh = draw_sample(compiled, Budget(seconds=60))
    assert draw_sample(compiled, Budget(seconds=60), first_draws) == fresh
    assert [draw.inputs for draw in fresh[:50]] == [first_draws[seed][0] for seed in range(50)]


KNOWN_VALUES = """\
- id: known
  type: number
  topic: softmax
  prompt: "{{ d_k }} {{ f }} {{ r }}"
  params:
    d_k: {choice: [4, 16]}
    f: {fault: [missing_scale, double_scale]}
    r: {integer: [1, 3]}
  answer: d_k * r
- id: unknown
  type: number
  topic: softmax
  prompt: "{{ n }} {{ r }}"
  params:
    n: {integer: [2, 4]}
    r: {integer: [1, n]}
  answer: n * r
"""


def test_a_sample_knows_the_values_a_discrete_parameter_can_take_when_its_bounds_are_fixed(compile_yaml):
    """Then it can stop as soon as each has been kept, without drawing every parameter first."""
    pack = compile_yaml(KNOWN_VALUES)
    assert possible_values(pack["known"]) == {
        ("d_k", "4"), ("d_k", "16"), ("f", '"missing_scale"'), ("f", '"double_scale"'), ("r", "1"), ("r", "2"), ("r", "3")
    }
    assert possible_values(pack["unknown"]) is None  # r's upper bound is drawn


def test_a_constraint_keeping_a_slight_majority_is_sampled_until_no_warning_can_come(compile_yaml):
    """`s > 4` keeps about 60 % of the draws: too close to a half for a few dozen draws to show,
    so the sample goes on until the draws left cannot turn it under half."""
    compiled = compile_yaml(CLOSE_CALL)["close-call"]
    sample = draw_sample(compiled, Budget(seconds=60))
    kept = sum(draw.kept for draw in sample)
    assert len(sample) >= SAMPLE_DRAWS / 2 and 2 * kept >= SAMPLE_DRAWS
    whole = draw_sample(compiled, Budget(seconds=60), stop_when_clean=False)
    assert constraint_warnings(compiled, sample) == constraint_warnings(compiled, whole) == []


@pytest.mark.parametrize(
    ("kept", "judged", "clear"), [(30, 30, True), (29, 30, True), (25, 30, False), (29, 29, False), (150, 200, True), (120, 200, False)]
)
def test_a_clear_majority_is_four_standard_errors_above_half(kept, judged, clear):
    assert clear_majority(kept, judged) is clear


@pytest.mark.slow
def test_an_early_stopped_sample_warns_exactly_as_the_whole_one_for_every_bundled_question():
    from quiz.bank import load_bank

    bank = load_bank()
    stopped = 0
    for question_id in bank.questions:
        compiled = bank.compiled(question_id)
        if compiled is None or not compiled.constraints:
            continue
        early, whole = draw_sample(compiled, Budget(seconds=60)), draw_sample(compiled, Budget(seconds=60), stop_when_clean=False)
        assert messages(constraint_warnings(compiled, early)) == messages(constraint_warnings(compiled, whole))
        stopped += len(early) < len(whole)
    assert stopped > 30


def test_a_seed_whose_draws_needed_both_fixes_for_one_trivial_answer_counts_once(compile_yaml):
    # Seeds 0-5 of 50 each redrew zeros twice, once for each fix: 6 seeds (12 %) is over the share
    # that warns, 3 would not be; counting names rather than seeds would say 12 of 50.
    question = compile_yaml(PACK)["healthy"].question
    names = Counter({trivial_clash("zeros", "tolerance"): 6, trivial_clash("zeros", "draw"): 6})
    (warning,) = _redrawn(question, names, Counter({"zeros": 6}), 50)
    assert "on a draw of 6 of 50 seeds" in warning.message and "tighten the tolerance" in warning.message
    assert _redrawn(question, Counter({trivial_clash("zeros", "draw"): 3, trivial_clash("zeros", "tolerance"): 3}), Counter({"zeros": 3}), 50) == []
