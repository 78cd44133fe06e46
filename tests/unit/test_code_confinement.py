"""Issue 34: the candidate's process reads only Python's standard library and numpy, writes only its
own run directory and reaches no TCP port, so it cannot load the engine from its sources, read a
learner's history or talk to the network. Real child processes, a real listening socket."""

from __future__ import annotations

import platform
import socket
import sys
import textwrap

import pytest

from places import ROOT
from quiz.code import confine
from quiz.code.sandbox import Call, Limits, run_calls

ROOMY = Limits(cpu_seconds=60, wall_seconds=120)
ABI = confine.abi_version()

PROBES = textwrap.dedent(
    """\
    import os, pathlib, socket, sys
    import numpy as np

    def can(action):
        try:
            action()
            return 1.0
        except OSError:
            return 0.0

    def reads_engine_source(path):
        # the engine's file, found from the harness's own frame as a solution could
        here = pathlib.Path(sys._getframe(1).f_code.co_filename).resolve()
        engine = here.parent.parent.parent / "engine" / "attention.py"
        return np.array([can(engine.read_bytes), float(engine.name == "attention.py")])

    def reads_path(path):
        return np.array([can(lambda: open(str(path)).read(1))])

    def lists_path(path):
        return np.array([can(lambda: os.listdir(str(path)))])

    def writes_path(path):
        return np.array([can(lambda: open(str(path), "w").write("x"))])

    def writes_own_directory(path):
        return np.array([can(lambda: open("scratch.txt", "w").write("x")), can(lambda: open("scratch.txt").read())])

    def makes_special_files(path):
        return np.array([can(lambda: os.mkfifo("report.json.fifo")), can(lambda: os.symlink("/etc/passwd", "linked"))])

    def connects(port):
        return np.array([can(lambda: socket.create_connection(("127.0.0.1", int(port)), timeout=5).close())])

    def uses_numpy_and_the_standard_library(path):
        import decimal, fractions, json  # imported after the confinement, from the standard library's files
        exact = decimal.Decimal("0.5") * 2 == fractions.Fraction(json.loads("[1]")[0])
        return np.array([float(np.linalg.norm(np.fft.fft(np.ones(4)))), float(exact)])
    """
)


@pytest.fixture(scope="module")
def outside(tmp_path_factory):
    """A file and a folder outside the run, as a learner's history file would be."""
    folder = tmp_path_factory.mktemp("learner-data")
    (folder / "history.sqlite3").write_bytes(b"SQLite format 3\0")
    return folder


@pytest.fixture(scope="module")
def listener():
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    yield server.getsockname()[1]
    server.close()


@pytest.fixture(scope="module")
def run(outside, listener):
    calls = [
        Call("reads_engine_source", ("",), max_elements=10),
        Call("reads_path", (str(outside / "history.sqlite3"),), max_elements=10),
        Call("reads_path", (str(ROOT / "questions" / "claims.yaml"),), max_elements=10),
        Call("lists_path", (str(outside),), max_elements=10),
        Call("writes_path", (str(outside / "planted.py"),), max_elements=10),
        Call("writes_own_directory", ("",), max_elements=10),
        Call("connects", (listener,), max_elements=10),
        Call("makes_special_files", ("",), max_elements=10),
        Call("uses_numpy_and_the_standard_library", ("",), max_elements=10),
    ]
    result = run_calls(PROBES, calls, limits=ROOMY)
    assert result.load_error is None
    return result


def flags(result, index):
    return result.calls[index].arrays[0].tolist()


def test_the_run_says_whether_and_how_it_was_confined(run):
    assert run.confined == ABI


def test_a_confined_solution_cannot_read_the_engine_the_history_or_the_bank(run):
    assert flags(run, 0)[1] == 1.0  # it found the path
    reads = [flags(run, 0)[0], flags(run, 1)[0], flags(run, 2)[0], flags(run, 3)[0]]
    assert reads == ([0.0] * 4 if ABI else [1.0] * 4)


def test_a_confined_solution_writes_only_in_its_own_run_directory(run, outside):
    assert flags(run, 4) == [0.0 if ABI else 1.0]
    assert (outside / "planted.py").exists() == (not ABI)
    assert flags(run, 5) == [1.0, 1.0]


def test_a_confined_solution_reaches_no_tcp_port(run):
    # Landlock rules TCP from ABI 4 on; below that the connection is made
    assert flags(run, 6) == [0.0 if ABI >= 4 else 1.0]


def test_a_confined_solution_makes_no_fifo_or_symlink_to_stand_in_for_its_results(run):
    assert flags(run, 7) == ([0.0, 0.0] if ABI else [1.0, 1.0])


def test_numpy_and_the_standard_library_still_work_under_confinement(run):
    norm, exact = flags(run, 8)
    assert norm == pytest.approx(4.0) and exact == 1.0


def test_a_kernel_that_has_landlock_confines():
    """Linux 6.7 and later have Landlock with TCP rules (ABI 4) unless it was turned off at boot; on
    such a kernel the confinement must hold, or the tests above would pass on the unconfined branch."""
    release = platform.release().split("-")[0].split(".")
    if sys.platform == "linux" and tuple(int(part) for part in release[:2] if part.isdigit()) >= (6, 7):
        assert ABI >= 4
    else:
        assert ABI >= 0
