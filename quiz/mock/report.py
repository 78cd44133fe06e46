"""The report of a mock interview (being written)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from quiz.bank import Bank
from quiz.history.mocks import StoredMock


@dataclass(frozen=True)
class MockReport:
    """What a sitting gave."""

    stored: StoredMock


def build_report(bank: Bank, stored: StoredMock, earlier: Sequence[StoredMock]) -> MockReport:
    """The report of `stored`, compared with `earlier` sittings."""
    return MockReport(stored)
