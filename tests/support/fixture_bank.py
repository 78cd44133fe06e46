"""The small question pack the app's tests use, so that editing the bundled bank never breaks them.

One question per type, plus what the tests need: hints, misconceptions with labels, a causal
weight matrix for the heatmap, a wide (8×16) weight matrix, a long prompt and a spoken question.
Code questions, which run the sandbox, are a pack of their own beside it.
"""

from __future__ import annotations

from functools import cache

from places import TESTS
from quiz.bank import Bank, load_bank

PACK = TESTS / "fixtures" / "pack"
CODE_PACK = TESTS / "fixtures" / "code"


@cache
def fixture_bank() -> Bank:
    """The fixture pack alone (with the bundled claims it cites), loaded once per test run."""
    bank = load_bank([PACK])
    assert not bank.report.errors, [str(e) for e in bank.report.errors]
    return bank


@cache
def code_fixture_bank() -> Bank:
    """The code questions' fixture pack alone, loaded once per test run."""
    bank = load_bank([CODE_PACK])
    assert not bank.report.errors, [str(e) for e in bank.report.errors]
    return bank
