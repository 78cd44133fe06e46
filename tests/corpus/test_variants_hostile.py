"""Hostile packs at draw time (issue classes 1, 2, 4 and 6): every one ends in a VariantError
that names the field and the budget, or a located message in place of a text; never a crash."""

import itertools
import re
from dataclasses import replace

import pytest

from places import TESTS
from quiz.authoring.selftest import self_test
from quiz.expressions.budget import Budget
from quiz.expressions.cpu_clock import PROCESS_CPU_CLOCK
from quiz.types.draw import make_variant
from quiz.variants.variant import VariantError

CPU_BURNER = """\
- id: burner
  type: number
  topic: softmax
  prompt: x
  params:
    n: {integer: [1, 2]}
  derived:
    H: array(ones((1024, 1024)), dtype="float16")
    V: array(ones((1024, 16)), dtype="float16")
    a: sum(H @ V) + sum(H @ V) + sum(H @ V) + sum(H @ V) + sum(H @ V) + sum(H @ V) + sum(H @ V) + sum(H @ V)
    b: sum(H @ V) + sum(H @ V) + sum(H @ V) + sum(H @ V) + sum(H @ V) + sum(H @ V) + sum(H @ V) + sum(H @ V)
    c: sum(H @ V) + sum(H @ V) + sum(H @ V) + sum(H @ V) + sum(H @ V) + sum(H @ V) + sum(H @ V) + sum(H @ V)
    d: sum(H @ V) + sum(H @ V) + sum(H @ V) + sum(H @ V) + sum(H @ V) + sum(H @ V) + sum(H @ V) + sum(H @ V)
    g: sum(H @ V) + sum(H @ V) + sum(H @ V) + sum(H @ V) + sum(H @ V) + sum(H @ V) + sum(H @ V) + sum(H @ V)
    f: sum(H @ V) + sum(H @ V) + sum(H @ V) + sum(H @ V) + sum(H @ V) + sum(H @ V) + sum(H @ V) + sum(H @ V)
  constraints: ["{constraint}"]
  answer: n
"""


STEPS = 20
"""Steps a draw of CPU_BURNER may take in the tests that count its budget in steps: past H and V,
into its first product."""

FAST_CPU_CLOCK = 100
"""How many times faster the process's budget clock runs for `fast_cpu_clock`: the 1 s budget
is 10 ms of CPU, under a tenth of one float16 product on any machine the tests run on."""


class StepClock:
    """A budget clock that counts its readings: each is one second after the last."""

    def __init__(self) -> None:
        self.readings = 0

    def __call__(self) -> float:
        self.readings += 1
        return float(self.readings)


@pytest.fixture
def fast_cpu_clock(monkeypatch):
    """The process's budget clock FAST_CPU_CLOCK times faster (QUIZ_CPU_CLOCK_SPEED in a process),
    so CPU_BURNER runs out of its real budgets after a fraction of its work on any machine."""
    monkeypatch.setattr(PROCESS_CPU_CLOCK, "speed", FAST_CPU_CLOCK)


def one(compile_yaml, text: str):
    [compiled] = compile_yaml(text).values()
    return compiled


@pytest.mark.parametrize("constraint", ["True", "a < 0"])  # kept, or rejected on a value that costs as much
def test_many_products_under_the_step_limits_stop_at_the_time_budget(compile_yaml, constraint):
    compiled = one(compile_yaml, CPU_BURNER.replace("{constraint}", constraint))
    # The budget counted in steps: the clock is read before every step, each reading a second on.
    clock = StepClock()
    budget = Budget(seconds=STEPS, clock=clock, check_interval=0)
    with pytest.raises(VariantError, match=rf"derived\.[a-dfg]: .*CPU-time budget of {STEPS} s") as caught:
        make_variant(compiled, 0, budget)
    assert caught.value.location is not None and caught.value.location.line == 1
    # Stopped at the first step past the budget (a reading on starting and one on stopping beside).
    assert STEPS < budget.seconds_used <= STEPS + 2
    assert clock.readings <= STEPS + 3


def test_a_slow_question_stops_its_self_test(compile_yaml, fast_cpu_clock):
    compiled = one(compile_yaml, CPU_BURNER.replace("{constraint}", "True"))
    problems = [d.message for d in self_test(compiled, 20)]
    assert any("CPU-time budget of 1 s" in p for p in problems)
    assert re.fullmatch(r"burner: self-test: stopped after seed \d+: a variant must stay well within its budgets", problems[-1])


@pytest.mark.parametrize(
    ("params", "fragment"),
    [
        ("P: {normal: [64, 64, 64, 64]}", "params.P: the parameters would hold 16,777,216 values"),
        ("A: {normal: [64, 64, 4]}\n    B: {normal: [1]}", "params.B: the parameters would hold 16,385 values"),
        ("P: {normal: [65]}", "params.P: each dimension must be between 1 and 64"),
        ("P: {decimal: [0, inf]}", "params.P: a bound must be a finite number"),
        ("P: {decimal: [0, nan]}", "params.P: a bound must be a finite number"),
        ("P: {decimal: [0, 1e300]}", "params.P: a bound must be a finite number within ±10^15"),
        ("P: {integer: [0, 10**30]}", "params.P: a bound must be a finite number within ±10^15"),
        ("P: {integer: [0, 2**4000]}", "params.P: a bound must be a finite number within ±10^15"),
        ("P: {integer: [zeros(3), 1]}", "params.P: a bound must be a number, got array"),
        ("P: {integer: ['\"a\"', 1]}", "params.P: a bound must be a number, got a"),
        ("P: {integer: [0.5, 1]}", "params.P: expected a whole number, got 0.5"),
        ("P: {decimal: [0, 1], step: 5e-324}", "params.P: steps of 4.94066e-324 from 0 to 1 make more than"),
        ("P: {decimal: [2, 1]}", "params.P: min 2.0 is above max 1.0"),
    ],
)
def test_parameter_draws_that_cannot_be_made_are_errors_naming_the_field(compile_yaml, params, fragment):
    compiled = one(compile_yaml, f"- id: q\n  type: number\n  topic: softmax\n  prompt: x\n  params:\n    {params}\n  answer: 1\n")
    with pytest.raises(VariantError) as caught:
        make_variant(compiled, 0)
    assert fragment in caught.value.message


def test_a_std_of_minus_zero_is_zero(compile_yaml):
    """Found by the fuzzer: numpy refused -0.0 as a negative scale."""
    pack = "- id: q\n  type: number\n  topic: softmax\n  prompt: x\n  params:\n    P: {normal: [2], std: -0}\n  answer: sum(P)\n"
    compiled = one(compile_yaml, pack)
    assert make_variant(compiled, 0).inputs["P"] == [0.0, 0.0]


def test_the_largest_allowed_parameters_draw(compile_yaml):
    compiled = one(compile_yaml, "- id: q\n  type: number\n  topic: softmax\n  prompt: x\n  params:\n    P: {normal: [64, 64]}\n  answer: sum(P)\n")
    assert len(make_variant(compiled, 0).inputs["P"]) == 64


@pytest.mark.parametrize("answer", ["2**4000", "[1, [2, 3]]", "'attention([[1.0]], [[1.0]], [[1.0]])'"], ids=["huge-int", "ragged", "record"])
def test_answers_that_are_not_floats_are_errors(compile_yaml, answer):
    compiled = one(compile_yaml, f"- id: q\n  type: number\n  topic: softmax\n  prompt: x\n  answer: {answer}\n")
    with pytest.raises(VariantError, match="not a number"):
        make_variant(compiled, 0)


RUNTIME_TEXT = """\
- id: late
  type: number
  topic: softmax
  prompt: "{{ zeros(4097) if n == 7 else n }}"
  hints: ["{{ 1 / (n - 7) }}"]
  params:
    n: {integer: [1, 8]}
  answer: n
"""


def test_a_text_that_fails_at_run_time_shows_a_located_message(compile_yaml):
    compiled = one(compile_yaml, RUNTIME_TEXT)
    seed = next(s for s in range(200) if make_variant(compiled, s).inputs["n"] == 7)
    variant = make_variant(compiled, seed)
    prompt = variant.text(variant.question.prompt, "en")
    assert prompt.startswith("⚠ ") and "pack.yaml:4:3" in prompt and "4,096 elements are too many to show" in prompt
    assert "division by zero" in variant.text(variant.question.hints[0], "en")
    assert "埋め込めません" in variant.text(variant.question.prompt, "ja")
    with pytest.raises(VariantError, match="too many to show"):
        variant.fill(variant.question.prompt, "en")
    fine = make_variant(compiled, next(s for s in range(200) if make_variant(compiled, s).inputs["n"] != 7))
    assert fine.text(fine.question.prompt, "en") == str(fine.inputs["n"])


def test_self_tests_check_every_text_of_every_seed(compile_yaml):
    compiled = one(compile_yaml, RUNTIME_TEXT)
    problems = [d.message for d in self_test(compiled, 20)]
    assert any("prompt (en) cannot be filled in" in p and "too many to show" in p for p in problems)
    assert any("hints[0] (ja) cannot be filled in (seed" in p and "cannot evaluate `1 / (n - 7)`: division by zero" in p for p in problems)


def test_texts_share_the_variant_budget(compile_yaml):
    """Each filled-in text spends from what drawing left: once it is spent, texts show why."""
    pack = "- id: q\n  type: number\n  topic: softmax\n  prompt: '{{ 1 }}'\n  hints: ['{{ 2 }}', '{{ 3 }}', '{{ 4 }}']\n  answer: 1\n"
    compiled = one(compile_yaml, pack)
    clock = itertools.count(step=0.3)  # each reading of the CPU clock is 0.3 s later
    variant = replace(make_variant(compiled, 0), budget=Budget(seconds=1.0, clock=lambda: next(clock), check_interval=0))
    texts = [variant.text(text, "en") for text in (variant.question.prompt, *variant.question.hints)]
    # A text reads the clock three times: on starting, before its one step, on finishing.
    assert texts[:2] == ["1", "2"]
    assert all("CPU-time budget of 1 s" in text and text.startswith("⚠ ") for text in texts[2:])
    # A value already filled in is not computed again: it costs nothing, so it still shows.
    assert variant.text(variant.question.prompt, "ja") == "1"


def test_a_worked_value_too_large_to_show_is_left_out(compile_yaml, capsys):
    from quiz.cli.main import main
    from quiz.variants.worked import worked_values

    pack = TESTS / "hostile" / "c10-worked-value-huge.yaml"
    compiled = one(compile_yaml, pack.read_text(encoding="utf-8"))
    assert [w.name for w in worked_values(make_variant(compiled, 1)).featured] == ["w"]
    assert main(["show", "c10-big-worked#1", "--answer", "--bank", str(pack)]) == 0
    out = capsys.readouterr().out
    assert "the small one" in out and "the big one" not in out and len(out) < 5_000
