"""A variant's budgets: elements across every evaluation, parameter values, and CPU time."""

import gc
import itertools
import os
import subprocess
import sys
import time

import numpy as np
import pytest

from quiz.expressions import ExpressionError, compile_expression
from quiz.expressions.budget import MAX_PARAM_ELEMENTS, MAX_VARIANT_ELEMENTS, Budget, BudgetExceeded
from quiz.expressions.cpu_clock import SPEED_VARIABLE, CpuClock, clock_speed, cpu_time_outside_collections
from quiz.expressions.limits import MAX_ELEMENTS


class SteppingClock:
    """A CPU clock that advances `step` seconds each time it is read: time without sleeping."""

    def __init__(self, step: float) -> None:
        self.now = itertools.count(step=step)

    def __call__(self) -> float:
        return next(self.now)


def test_elements_are_counted_across_evaluations_of_one_budget():
    # Each evaluation stays under the per-step cap; together they pass the variant's budget.
    expression = compile_expression("sum(ones(2**20) + 1)")
    budget = Budget()
    evaluations = MAX_VARIANT_ELEMENTS // (2 * MAX_ELEMENTS)  # each makes two arrays of 2**20
    for _ in range(evaluations - 1):
        expression.evaluate({}, budget)
    with pytest.raises(ExpressionError, match="element budget"):
        expression.evaluate({}, budget)


def test_without_a_budget_each_evaluation_has_its_own():
    expression = compile_expression("sum(ones(2**20) + 1)")
    for _ in range(MAX_VARIANT_ELEMENTS // (2 * MAX_ELEMENTS) + 2):
        assert expression.evaluate({}) == 2**21


def test_the_time_budget_stops_a_long_evaluation_between_steps():
    # 300 small steps; the clock says each read is a tenth of a second later.
    source = "[" + ", ".join(["sum(x)"] * 100) + "]"
    expression = compile_expression(source, ["x"])
    budget = Budget(seconds=1.0, clock=SteppingClock(0.1), check_interval=0)
    with pytest.raises(ExpressionError, match="CPU-time budget of 1 s") as caught:
        expression.evaluate({"x": np.ones(3)}, budget)
    assert "cannot evaluate" in str(caught.value)


def test_time_outside_running_blocks_is_not_counted():
    clock = SteppingClock(10.0)
    budget = Budget(seconds=1.0, clock=clock, check_interval=0)
    for _ in range(5):
        clock()  # time passing while nothing runs: a learner reading the question
    budget.check_time()
    with budget.running(), pytest.raises(BudgetExceeded, match="CPU-time"):
        budget.check_time()


def test_time_used_adds_up_over_runs():
    budget = Budget(seconds=0.8, clock=SteppingClock(0.3), check_interval=0)
    with budget.running():
        pass  # 0.3 s
    with budget.running():
        pass  # 0.6 s
    budget.check_time()
    with budget.running(), pytest.raises(BudgetExceeded) as caught:
        budget.check_time()  # 0.6 + the 0.3 s this run has taken so far
    assert caught.value.budget == "time"


def test_parameter_values_have_their_own_small_budget():
    budget = Budget()
    budget.draw(MAX_PARAM_ELEMENTS - 1)
    budget.draw(1)
    with pytest.raises(BudgetExceeded, match="at most 16,384") as caught:
        budget.draw(1)
    assert caught.value.budget == "parameters"


def test_a_new_draw_starts_with_fresh_elements_but_the_same_clock():
    budget = Budget(seconds=0.2, clock=SteppingClock(0.3), check_interval=0)
    budget.draw(MAX_PARAM_ELEMENTS)
    with budget.running():
        budget.new_draw()
        budget.draw(MAX_PARAM_ELEMENTS)
        with pytest.raises(BudgetExceeded, match="CPU-time"):
            budget.check_time()


def test_the_default_clock_counts_the_work_done_while_running():
    budget = Budget(check_interval=0)
    with budget.running():
        start = time.process_time()
        while time.process_time() - start < 0.05:
            pass
    assert budget.seconds_used >= 0.05


class ProcessClock:
    """A process CPU clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.slow
def test_collecting_garbage_is_not_charged_to_a_budget():
    # A full collection walks every object in the process, however little the variant made. Here
    # each collection takes 5 s of the process's clock (a collector hooked in after the clock's
    # own callbacks), far longer than the budget, none of it the variant's.
    process = ProcessClock()

    def slow_collection(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            process.now += 5.0

    with CpuClock(process) as clock:
        gc.callbacks.append(slow_collection)
        try:
            budget = Budget(seconds=0.1, clock=clock, check_interval=0)
            with budget.running():
                process.now += 0.01  # what the variant itself does
                before = process.now
                gc.collect()
                collecting = process.now - before
                budget.check_time()
        finally:
            gc.callbacks.remove(slow_collection)
    assert collecting >= 5.0, "the collection must be long enough to use the budget up"
    assert budget.seconds_used == pytest.approx(0.01)
    assert clock.collecting_seconds == pytest.approx(collecting)


def test_a_faster_clock_runs_the_budget_out_after_that_share_of_the_work():
    process = ProcessClock()
    with CpuClock(process, speed=10) as clock:
        budget = Budget(seconds=1.0, clock=clock, check_interval=0)
        with budget.running():
            process.now += 0.09
            budget.check_time()  # 0.9 s on the budget's clock
            process.now += 0.02
            with pytest.raises(BudgetExceeded, match="CPU-time budget of 1 s"):
                budget.check_time()
    assert budget.seconds_used == pytest.approx(1.1)
    with pytest.raises(ValueError):
        CpuClock(speed=0)  # never slower


@pytest.mark.parametrize(
    ("value", "speed"),
    [("", 1), ("1", 1), ("10", 10), (" 250 ", 250), ("1000", 1000), ("0", 1), ("-5", 1), ("0.5", 1), ("2.5", 1),
     ("1001", 1), ("99999999", 1), ("fast", 1), ("²", 1), ("1e3", 1)],
)  # fmt: skip
def test_the_speed_setting_can_only_make_the_clock_faster(value, speed):
    assert clock_speed({SPEED_VARIABLE: value}) == speed


def test_the_process_clock_runs_at_the_speed_its_environment_sets():
    code = "from quiz.expressions.cpu_clock import PROCESS_CPU_CLOCK as c; print(c.speed)"
    for value, speed in (("40", "40"), ("0.01", "1")):
        env = {**os.environ, SPEED_VARIABLE: value}
        run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
        assert run.stdout.split() == [speed]


@pytest.mark.slow
def test_the_collector_is_left_out_of_the_cpu_clock_only():
    collected_before = cpu_time_outside_collections()
    process_before = time.process_time()
    heap = [[] for _ in range(500_000)]
    gc.collect()
    del heap
    process = time.process_time() - process_before
    outside = cpu_time_outside_collections() - collected_before
    assert 0 < outside < process  # building the lists counts; collecting them does not
