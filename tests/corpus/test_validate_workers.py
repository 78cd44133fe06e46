"""`quiz validate` tests files in worker processes: the same findings as in one process, in the
same order, and a worker that dies costs nothing but time."""

from __future__ import annotations

import os

import pytest

from quiz.authoring import validation
from quiz.authoring.validation import validate_packs
from test_selftest_findings import TIMED, bad_packs

SEEDS = 5


def listing(result: validation.Validation) -> list[str]:
    lines = [f"{d.location}: {d.severity.name}: {d.message}" for d in result.diagnostics]
    return [line for line in lines if not any(word in line for word in TIMED)] + [result.summary()]


@pytest.mark.slow
def test_workers_find_what_one_process_finds_in_the_same_order():
    packs = bad_packs()
    alone = validate_packs(packs, seeds=SEEDS, workers=1)
    together = validate_packs(packs, seeds=SEEDS, workers=2)
    assert alone.files > 20 and alone.errors > 50  # many files, many findings: worth comparing
    assert listing(together) == listing(alone)
    assert (together.errors, together.warnings) == (alone.errors, alone.warnings)


PARENT = os.getpid()
TEST_FILE = validation._check_shared_file


def dying(index: int):
    """In a worker, end as a process the system kills does; here, test the file."""
    if os.getpid() != PARENT:
        os._exit(9)
    return TEST_FILE(index)


@pytest.mark.slow
def test_a_worker_that_dies_leaves_the_files_to_this_process(monkeypatch, caplog):
    monkeypatch.setattr(validation, "_check_shared_file", dying)
    packs = bad_packs()
    assert listing(validate_packs(packs, seeds=1, workers=2)) == listing(validate_packs(packs, seeds=1, workers=1))
    assert "self-test workers stopped" in caplog.text
