"""The self-test reports the same findings however it is made faster.

Every bad pack of the tests (the hostile corpus, the fixture packs and the packs of
test_selftest.py, written to tests/data/selftest_packs/ once) is validated with 50 seeds,
as `bench/bank_selftest.py` validates the bank, and every message is compared with the reference
in tests/data/selftest_findings.txt, written by the self-test before its speed-ups (the bundled
bank has none: `test_validate` requires it to pass strictly). Findings that depend on how fast
the machine is (a CPU-time budget running out) are left out, and so are the packs built to
exhaust one (`c1-`, and the slow prompt of `c6-`).

After a deliberate change of a message, look at the difference, then rewrite the reference:
`PYTHONPATH=tests/support:tests/unit .venv/bin/python tests/corpus/test_selftest_findings.py`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from places import TESTS
from quiz.authoring.validation import validate_packs

REFERENCE = TESTS / "data" / "selftest_findings.txt"
SEEDS = 50
TIMED = ("CPU-time", "CPU time", "self-test: stopped after")
"""Words of the findings a CPU-time budget gives: when one runs out depends on the machine."""


INLINE = TESTS / "data" / "selftest_packs"
"""The packs test_selftest.py holds as strings, as files (written by the module below)."""


def bad_packs() -> list[Path]:
    """Every pack of the tests, but those built to run out of time."""
    hostile = [p for p in sorted((TESTS / "hostile").glob("*.yaml")) if not p.name.startswith("c1-")]
    hostile = [p for p in hostile if p.name != "c6-prompt-out-of-time.yaml"]
    return [*hostile, *sorted((TESTS / "fixtures").rglob("*.yaml")), *sorted(INLINE.glob("*.yaml"))]


def test_the_inline_packs_are_those_of_test_selftest():
    import test_selftest

    for name in ("PACK", "LOOK_ALIKES", "VARIETY", "CONSTRAINTS", "SEQUENCED"):
        assert (INLINE / f"{name.lower()}.yaml").read_text(encoding="utf-8") == getattr(test_selftest, name)


def findings(pack: Path) -> list[str]:
    """The messages `quiz validate --seeds 50` gives for `pack`, paths relative to tests/."""
    result = validate_packs([pack], seeds=SEEDS)
    lines = [f"{d.location}: {d.severity.name}: {d.message}" for d in result.diagnostics] + [result.summary()]
    return [line.replace(str(TESTS) + "/", "") for line in lines if not any(word in line for word in TIMED)]


def reference() -> dict[str, list[str]]:
    """The reference findings by pack (its path relative to tests/)."""
    packs: dict[str, list[str]] = {}
    for line in REFERENCE.read_text(encoding="utf-8").splitlines():
        if line.startswith("== "):
            current = packs.setdefault(line[3:], [])
        else:
            current.append(line)
    return packs


def test_the_reference_covers_every_bad_pack():
    assert sorted(reference()) == sorted(str(p.relative_to(TESTS)) for p in bad_packs())


@pytest.mark.parametrize("pack", bad_packs(), ids=lambda p: p.stem)
def test_a_bad_pack_gets_the_reference_findings(pack):
    assert findings(pack) == reference()[str(pack.relative_to(TESTS))]


if __name__ == "__main__":
    import test_selftest

    INLINE.mkdir(exist_ok=True)
    for name in ("PACK", "LOOK_ALIKES", "VARIETY", "CONSTRAINTS", "SEQUENCED"):
        (INLINE / f"{name.lower()}.yaml").write_text(getattr(test_selftest, name), encoding="utf-8")
    with REFERENCE.open("w", encoding="utf-8") as out:
        for pack in bad_packs():
            out.write(f"== {pack.relative_to(TESTS)}\n")
            out.writelines(f"{line}\n" for line in findings(pack))
    sys.exit(0)
