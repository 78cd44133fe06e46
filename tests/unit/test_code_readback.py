"""Issue 34: the parent reads back only what it can check. A solution that takes the harness's own
exit from its frames and leaves a report or results of its own making gets "the run's results could
not be read", never a crash, a hang or an allocation its bytes do not hold. Real sandbox runs."""

from __future__ import annotations

import os
import textwrap
import threading

import numpy as np
import pytest

from quiz.code import sandbox
from quiz.code.sandbox import Call, Limits, run_calls

ROOMY = Limits(cpu_seconds=60, wall_seconds=120)

FORGER = textwrap.dedent(
    """\
    import io, json, os, sys, zipfile
    import numpy as np

    def forge(x):
        frame = sys._getframe()
        while frame is not None and "real_exit" not in frame.f_locals:
            frame = frame.f_back
        real_exit = frame.f_locals["real_exit"]  # the harness's own exit, saved before this code ran
        # and the result files it opened before this code ran (under bubblewrap the only ones writable)
        report, outputs = frame.f_locals["report_file"], frame.f_locals["outputs_file"]
        {write}
        report.flush()
        outputs.flush()
        real_exit(0)
    """
)


def forged(write: str) -> sandbox.RunResult:
    source = FORGER.format(write=textwrap.indent(textwrap.dedent(write), " " * 4).strip())
    return run_calls(source, [Call("forge", (np.arange(3.0),), max_elements=10)], limits=ROOMY)


EMPTY_RESULTS = "np.savez(outputs)\n"


@pytest.mark.parametrize(
    "report",
    [
        '{"calls": [1], "load_error": null}',
        '{"calls": [], "load_error": ["not", "an", "error"]}',
        '{"calls": [{"status": 5}], "load_error": null}',
        '{"calls": "all passed", "load_error": null}',
        "[" * 50_000 + "]" * 50_000,
        '{"calls": [], "output": 7}',
    ],
    ids=["call-int", "error-list", "status-int", "calls-str", "deep", "output-int"],
)
def test_a_report_of_the_wrong_form_is_unreadable_not_a_crash(report):
    result = forged(EMPTY_RESULTS + f"report.write({report!r})\n")
    assert result.load_error is not None and result.load_error.kind == "unreadable"
    assert result.calls == ()


def test_an_array_header_declaring_more_than_its_bytes_is_unreadable_not_an_allocation():
    write = """\
        header = io.BytesIO()
        np.lib.format.write_array_header_1_0(header, {"descr": "<f8", "fortran_order": False, "shape": (2**40,)})
        with zipfile.ZipFile(outputs, "w") as archive:
            archive.writestr("r0_0.npy", header.getvalue() + bytes(64))
        report.write(json.dumps({"calls": [{"status": "ok"}], "load_error": None}))
    """
    result = forged(write)
    assert result.load_error is not None and result.load_error.kind == "unreadable"


def test_a_well_formed_forged_report_still_only_carries_arrays_the_parent_judges():
    """Forging the report gains nothing: a status says ok, but the verdict is the parent's, from the arrays."""
    write = """\
        np.savez(outputs, r0_0=np.zeros(3))
        report.write(json.dumps({"calls": [{"status": "ok"}], "load_error": None}))
    """
    result = forged(write)
    assert result.load_error is None
    np.testing.assert_array_equal(result.calls[0].arrays[0], np.zeros(3))


@pytest.mark.parametrize("kind", ["fifo", "symlink", "directory"])
def test_a_result_that_is_not_a_regular_file_is_unreadable_without_blocking(tmp_path, kind):
    """The parent's side on its own, for a kernel that lets the child make such files: a FIFO in
    place of the report would block a plain read for ever."""
    work = tmp_path / "run"
    work.mkdir()
    np.savez(work / "outputs.npz")
    report = work / "report.json"
    if kind == "fifo":
        os.mkfifo(report)
    elif kind == "symlink":
        (tmp_path / "elsewhere.json").write_text('{"calls": [], "load_error": null}')
        report.symlink_to(tmp_path / "elsewhere.json")
    else:
        report.mkdir()
    found: list[sandbox.RunResult] = []
    reader = threading.Thread(target=lambda: found.append(sandbox._read_results(work, [], None, ROOMY)), daemon=True)
    reader.start()
    reader.join(timeout=60)  # a guard against a hang, not a measure of speed: the read returns at once
    assert found and found[0].load_error.kind == "unreadable"
