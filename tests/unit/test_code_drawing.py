"""The inputs code checks draw: reproducible from the seed on any machine, and chosen so mistakes show."""

from __future__ import annotations

import contextlib
import math
import os
import subprocess
import sys

import numpy as np
import pytest

import engine
from quiz.code import TASKS, drawing
from quiz.code.drawing import Gaps, draw_check, excess, separates
from quiz.code.inputs import FLOAT16_EXP_LIMIT, lively
from quiz.code.probes import NoLeak
from quiz.code.run import plan

DIGEST = """
import hashlib, sys
import numpy as np
from quiz.code import TASKS
from quiz.code.run import plan
digest = hashlib.sha256()
for task_id in sorted(TASKS):
    for check, probes in plan(task_id, seed=int(sys.argv[1])).probes.items():
        for probe in probes:
            for call in probe.calls:
                for arg in call.args:
                    digest.update(np.ascontiguousarray(arg).tobytes() if isinstance(arg, np.ndarray) else repr(arg).encode())
print(digest.hexdigest())
"""


def input_digest(seed: int, hash_seed: str) -> str:
    """The digest of every task's inputs for `seed`, drawn in a fresh process with its own hash seed."""
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "OPENBLAS_NUM_THREADS": "1"}
    out = subprocess.run([sys.executable, "-c", DIGEST, str(seed)], env=env, check=True, capture_output=True, text=True)
    return out.stdout.strip()


def test_the_same_seed_draws_the_same_inputs_in_any_process_and_another_seed_others():
    first, second = input_digest(11, "1"), input_digest(11, "2")
    assert first == second
    assert input_digest(12, "1") != first


def test_choosing_fewer_checks_leaves_each_checks_inputs_as_they_were():
    everything = plan("attention", seed=4).probes
    alone = plan("attention", seed=4, checks=["causal_leak"]).probes
    for mine, theirs in zip(everything["causal_leak"][0].calls, alone["causal_leak"][0].calls):
        for a, b in zip(mine.args, theirs.args):
            np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("task_id", sorted(TASKS))
def test_every_revealed_mistake_shows_on_its_check_for_fifty_seeds(task_id):
    task = TASKS[task_id]
    policy = task.default_policy()
    mistakes = [m.id for m in task.mistakes if m.applies(policy)]
    for seed in range(50):
        for check in task.checks:
            revealed = [m for m in mistakes if m in task.reveals.get(check, ())]
            assert separates(draw_check(task, check, seed, policy), revealed), (seed, check)


@pytest.mark.parametrize("task_id", sorted(TASKS))
def test_gaps_measured_together_are_each_pair_s_excess(task_id):
    """Separation measures pairs of outputs in one operation where it can: the same figures as one by one."""
    for seed in range(5):
        for probe in plan(task_id, seed=seed).ordered():
            gaps, names = Gaps(probe), [None, *probe.mistakes]
            for first in names:
                for second in names:
                    expected = excess(probe, gaps.outputs(first), gaps.outputs(second))
                    assert gaps.between(first, second) == expected, (seed, first, second)



def probe_arrays(task_id: str, seed: int) -> list[tuple[str, np.ndarray]]:
    """Every array of the task's probes for `seed`, named by check, probe, mistake and call."""
    found = []
    for check, probes in plan(task_id, seed=seed).probes.items():
        for n, probe in enumerate(probes):
            for name, outputs in [("engine", probe.references), *probe.mistakes.items()]:
                for call, output in enumerate(outputs):
                    found += [(f"{check}/{n}/{name}/{call}/{i}", array) for i, array in enumerate(output)]
    return found


@pytest.mark.parametrize("task_id", sorted(TASKS))
def test_work_shared_within_a_call_gives_what_each_mistake_computes_alone(task_id, monkeypatch):
    """The reference and the mistakes of one call share their common engine runs
    (`quiz.code.shared`); without the sharing, every array of every probe is the same, bit for bit."""
    shared = {seed: probe_arrays(task_id, seed) for seed in range(3)}
    monkeypatch.setattr(drawing, "one_call", contextlib.nullcontext)
    for seed, arrays in shared.items():
        alone = probe_arrays(task_id, seed)
        assert [name for name, _ in alone] == [name for name, _ in arrays]
        for (name, mine), (_, theirs) in zip(alone, arrays):
            assert mine.dtype == theirs.dtype and np.array_equal(mine, theirs, equal_nan=True), (seed, name)

def attention_calls(seed: int, check: str):
    return [call for probe in draw_check(TASKS["attention"], check, seed, {"empty_rows": "zero"}) for call in probe.calls]


@pytest.mark.parametrize("seed", range(20))
def test_attention_scores_are_lively_and_shapes_tell_axes_apart(seed):
    for check in ("output", "shapes", "boolean_mask", "additive_mask", "fully_masked_rows"):
        for call in attention_calls(seed, check):
            q, k = call.args[:2]
            assert q.shape[-1] > 1  # d_k ≠ 1: a scale of 1/√d_k differs from none
            assert lively(q @ k.swapaxes(-2, -1) / math.sqrt(q.shape[-1]))
    [shapes] = attention_calls(seed, "shapes")
    q, k, v = shapes.args
    assert q.ndim == 4 and q.shape[-2] != k.shape[-2] and k.shape[-1] != v.shape[-1]


@pytest.mark.parametrize("seed", range(20))
def test_masks_allow_and_forbid_in_every_row_and_empty_rows_are_empty(seed):
    for call in attention_calls(seed, "boolean_mask"):
        mask = np.broadcast_to(call.args[3], (*call.args[0].shape[:-1], call.args[1].shape[-2]))
        assert mask.any(axis=-1).all() and (~mask).any(axis=-1).all()
    [call] = attention_calls(seed, "fully_masked_rows")
    assert (~call.args[3].any(axis=-1)).sum() == 2


@pytest.mark.parametrize("seed", range(20))
def test_large_scores_overflow_an_unshifted_exp_in_every_row(seed):
    float32, float16 = attention_calls(seed, "large_scores")
    for call, limit in ((float32, math.log(np.finfo(np.float64).max)), (float16, FLOAT16_EXP_LIMIT)):
        q, k = (x.astype(np.float64) for x in call.args[:2])
        scaled = q @ k.T / math.sqrt(q.shape[-1])
        assert (scaled.max(axis=-1) > limit).all()
        assert np.isfinite(engine.scaled_dot_product_attention(*call.args)).all()
    assert (float32.args[0].dtype, float16.args[0].dtype) == (np.float32, np.float16)


@pytest.mark.parametrize("seed", range(20))
def test_the_leak_probe_changes_every_input_after_t_and_nothing_before(seed):
    [probe] = draw_check(TASKS["attention"], "causal_leak", seed, {"empty_rows": "zero"})
    assert isinstance(probe.criterion, NoLeak)
    t = probe.criterion.after
    first, second = probe.calls
    for a, b in zip(first.args[:3], second.args[:3]):
        np.testing.assert_array_equal(a[: t + 1], b[: t + 1])
        assert (a[t + 1 :] != b[t + 1 :]).all()
    np.testing.assert_array_equal(first.args[3], engine.causal_mask(first.args[0].shape[0]))


def test_the_online_softmax_inputs_leave_a_shorter_last_block():
    for seed in range(20):
        [probe] = draw_check(TASKS["online_attention"], "output", seed, {})
        _, k, _, block = probe.calls[0].args
        assert k.shape[-2] % block != 0
