"""Checks across questions: every follow-up names a question of the bank, none leads back, and
no chain of follow-ups is longer than the longest mock interview."""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from quiz.bank.questions import Questions
from quiz.format.diagnostics import Location, Report
from quiz.format.marks import located
from quiz.format.suggest import did_you_mean


def check_follow_ups(questions: Questions, report: Report, also_known: Collection[str] = ()) -> None:
    """Report follow-ups naming unknown ids, and chains of follow-ups that come back round.

    `also_known` are ids of questions reported broken elsewhere: naming one is not a second error.
    Only a question with a problem is built (its follow-ups are known without it).
    """
    for question_id in questions:
        for index, follow_up in enumerate(questions.follow_ups(question_id)):
            if follow_up not in questions and follow_up not in also_known:
                hint = did_you_mean(follow_up, list(questions))
                question = questions[question_id]
                where = located(question, "follow_ups", index) or question.source or Location(Path("<bank>"))
                report.error(where, f"{question_id}: follow_ups: no question '{follow_up}' in the bank{hint}")
    for cycle in _cycles(questions):
        first = questions[cycle[0]]
        where = located(first, "follow_ups") or first.source or Location(Path("<bank>"))
        report.error(where, f"{first.id}: follow_ups lead back round: {' → '.join([*cycle, cycle[0]])}")


def _cycles(questions: Questions) -> list[list[str]]:
    """Each cycle of follow-ups once, found by depth-first search (iterative: packs can be deep)."""
    state: dict[str, int] = {}  # 1 on the current path, 2 finished
    cycles: list[list[str]] = []
    for start in questions:
        if start in state:
            continue
        path: list[str] = []
        stack: list[tuple[str, int]] = [(start, 0)]
        while stack:
            node, index = stack.pop()
            if index == 0:
                state[node] = 1
                path.append(node)
            nexts = [n for n in questions.follow_ups(node) if n in questions]
            if index < len(nexts):
                stack.append((node, index + 1))
                child = nexts[index]
                if state.get(child) == 1:
                    cycles.append(path[path.index(child) :])
                elif child not in state:
                    stack.append((child, 0))
            else:
                state[node] = 2
                path.pop()
    return cycles


def check_chain_times(questions: Questions, report: Report, limit: float) -> None:
    """Report each follow-up that a chain reaches only past `limit` seconds of time budgets (the
    longest mock interview): no interview can follow the chain from its start that far.

    A chain starts at a question that is no other's follow-up; budgets add up along it. Builds
    every question on a chain (their times are needed). Cycles are reported by `check_follow_ups`.
    """
    followed = {f for question_id in questions for f in questions.follow_ups(question_id)}
    reported: set[tuple[str, int]] = set()
    for root in questions:
        if root in followed or not questions.follow_ups(root):
            continue
        stack: list[tuple[list[str], float]] = [([root], float(questions[root].time))]
        while stack:
            path, spent = stack.pop()
            parent = questions[path[-1]]
            for index, child in enumerate(questions.follow_ups(path[-1])):
                if child not in questions or child in path:
                    continue
                total = spent + questions[child].time
                if total <= limit:
                    stack.append(([*path, child], total))
                elif (parent.id, index) not in reported:
                    reported.add((parent.id, index))
                    where = located(parent, "follow_ups", index) or parent.source or Location(Path("<bank>"))
                    chain = " → ".join([*path, child])
                    report.error(
                        where,
                        f"{parent.id}: follow_ups: the chain {chain} needs {total:g} s of time budgets, beyond the longest mock "
                        f"interview ({limit:g} s); no interview can follow it to '{child}'",
                    )
