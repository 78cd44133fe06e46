"""Answer-key self-test of code questions: CPU per seed of `grade_engine` for each task, beside a floor.

`grade_engine` draws each check's probes (redrawn until the mistakes the check reveals show),
runs the engine and every modelled mistake on them, and grades the engine's outputs as an
answer; `quiz validate --strict --seeds 50` does it for every seed of every code question
(issue 13: 4.3 s of the bank's self-test). The floor is what any self-test has to compute: each
check's inputs drawn once and the engine's reference for every call, nothing else.
Several checkouts can be measured in one run, in alternation so that they share the machine's
load; each figure is the best of the rounds (CPU time, one BLAS thread).
Run: .venv/bin/python bench/code_selftest.py [--seeds N] [--rounds R] [CHECKOUT ...]
(each CHECKOUT is the root of a worktree whose quiz a child process imports; default: this one)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from _smoke import sized

ROOT = Path(__file__).resolve().parent.parent


def measure(seeds: int) -> dict[str, object]:
    """Per task: CPU ms per seed of grade_engine and of the floor, over seeds 0..seeds-1."""
    import quiz
    from quiz.code.drawing import check_rng
    from quiz.code.run import grade_engine
    from quiz.code.tasks import TASKS

    def floor(task_id: str, seed: int) -> None:
        task = TASKS[task_id]
        policy = task.default_policy()
        for check in task.checks:
            for spec in task.draw(check, check_rng(seed, check)):
                for call in spec.calls:
                    task.reference(call, policy)

    def per_seed_ms(work: Callable[[str, int], object], task_id: str) -> float:
        start = time.process_time()
        for seed in range(seeds):
            work(task_id, seed)
        return (time.process_time() - start) / seeds * 1000

    figures = {}
    for task_id in TASKS:
        grade_engine(task_id, seed=seeds)  # a seed outside the measured ones warms what is imported lazily
        figures[task_id] = [per_seed_ms(lambda t, s: grade_engine(t, seed=s), task_id), per_seed_ms(floor, task_id)]
    return {"quiz": str(Path(quiz.__file__).parent.parent), "tasks": figures}


def child(checkout: Path, seeds: int) -> dict[str, object]:
    """`measure` in a fresh interpreter importing the quiz of `checkout`."""
    # bench/ after the checkout, for _smoke: -P leaves this script's folder off the path
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(checkout), str(ROOT / "bench")]), "OPENBLAS_NUM_THREADS": "1"}
    command = [sys.executable, "-P", __file__, "--child", "--seeds", str(seeds)]
    out = subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout
    result: dict[str, object] = json.loads(out)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkouts", nargs="*", type=Path, default=[ROOT])
    parser.add_argument("--seeds", type=int, default=sized(20, 1))
    parser.add_argument("--rounds", type=int, default=sized(3, 1))
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.seeds)))
        return
    best: dict[Path, dict[str, list[float]]] = {checkout: {} for checkout in args.checkouts}
    imported: dict[Path, object] = {}
    for _ in range(args.rounds):
        for checkout in args.checkouts:  # alternate, so that each sees the same load
            result = child(checkout, args.seeds)
            imported[checkout] = result["quiz"]
            for task_id, row in result["tasks"].items():  # type: ignore[attr-defined]
                kept = best[checkout].setdefault(task_id, row)
                best[checkout][task_id] = [min(a, b) for a, b in zip(kept, row)]
    print(f"grade_engine per seed (CPU ms, best of {args.rounds} rounds of seeds 0-{args.seeds - 1}); floor: inputs + references")
    for checkout in args.checkouts:
        print(f"{checkout} (imports quiz from {imported[checkout]})")
        total = [0.0, 0.0]
        for task_id, (cost, floor) in best[checkout].items():
            print(f"  {task_id:<22}{cost:8.2f} ms   floor {floor:6.2f} ms   {cost / floor:5.1f}x the floor")
            total = [total[0] + cost, total[1] + floor]
        print(f"  {'every task, one seed each':<22}{total[0]:8.2f} ms   floor {total[1]:6.2f} ms   {total[0] / total[1]:5.1f}x the floor")


if __name__ == "__main__":
    main()
