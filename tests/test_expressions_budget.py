"""A variant's budgets: elements across every evaluation, parameter values, and CPU time."""

import gc
import itertools
import time

import numpy as np
import pytest

from quiz.expressions import ExpressionError, compile_expression
from quiz.expressions.budget import MAX_PARAM_ELEMENTS, MAX_VARIANT_ELEMENTS, Budget, BudgetExceeded
from quiz.expressions.cpu_clock import cpu_time_outside_collections
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


def test_collecting_garbage_is_not_charged_to_a_budget():
    # A full collection walks every object in the process, however little the variant made:
    # with two million live lists it takes longer than this budget, none of it the variant's.
    heap = [[] for _ in range(2_000_000)]
    budget = Budget(seconds=0.1, check_interval=0)
    with budget.running():
        start = time.process_time()
        gc.collect()
        collecting = time.process_time() - start
        budget.check_time()
    assert collecting > 0.1, "the collection must be long enough to use the budget up"
    assert budget.seconds_used < collecting / 2
    del heap


def test_the_collector_is_left_out_of_the_cpu_clock_only():
    collected_before = cpu_time_outside_collections()
    process_before = time.process_time()
    heap = [[] for _ in range(500_000)]
    gc.collect()
    del heap
    process = time.process_time() - process_before
    outside = cpu_time_outside_collections() - collected_before
    assert 0 < outside < process  # building the lists counts; collecting them does not
