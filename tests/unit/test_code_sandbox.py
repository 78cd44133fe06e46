"""The code sandbox with real child processes: every way a candidate's file can misbehave comes back
as a value located at the candidate's line, within the limits, and leaves no process behind."""

from __future__ import annotations

import os
import textwrap
import threading

import numpy as np
import pytest

from quiz.code.sandbox import Call, Limits, run_calls
from sandbox_children import wait_for_harness_child

# The product's limits are 5 s of CPU and 10 s of wall clock; the behaviour is the same with smaller ones.
# No test times itself, and none depends on how fast the machine is: a test about one limit sets it
# small and the other far above what the code needs of it (an endless loop uses up 1 s of CPU well
# within 30 s of wall clock even on a loaded machine; a sleep uses no CPU at all); a test about
# something else gets limits its code cannot reach on any machine.
ROOMY = Limits(cpu_seconds=60, wall_seconds=120)
CPU_BOUND = Limits(cpu_seconds=1, wall_seconds=30)
WALL_BOUND = Limits(cpu_seconds=60, wall_seconds=2)

# One file, one function per misbehaviour, all called in a single child (the module fixture).
# Each function's first line is the line its problem is reported on: see LINE below.
MISBEHAVING = textwrap.dedent(
    """\
    import ctypes, multiprocessing, os, resource, subprocess, sys
    import numpy as np

    def divide(x):
        return x + [1][2]

    def fork_bomb(x):
        while True: os.fork()

    def spawn(x):
        subprocess.run(["true"])

    def shell(x):
        return os.system("true")

    def pool(x):
        multiprocessing.Process(target=print).start()

    def c_fork(x):
        ctypes.CDLL(None).fork()

    def kill_parent(x):
        os.kill(os.getppid(), 9)

    def lift_limit(x):
        resource.setrlimit(resource.RLIMIT_AS, (-1, -1))

    def ten_gigabytes(x):
        return np.ones(10 * 10**9, dtype=np.uint8)

    def half_gigabyte(x):
        return np.array([np.ones(512 * 2**20, dtype=np.uint8).sum()])

    def exits(x):
        sys.exit(4)

    def hard_exit(x):
        os._exit(0)

    def reads_input(x):
        return input("q? ")

    def reads_stdin(x):
        return sys.stdin.read()

    def recurse(x):
        return recurse(x)

    def imports_engine(x):
        from engine import scaled_dot_product_attention

    def returns_list(x):
        return [1.0, 2.0]

    def returns_objects(x):
        return np.array([None, 1])

    def returns_one_of_two(x):
        return np.zeros(2)

    def returns_huge(x):
        return np.zeros(10**7)

    def chatty(x):
        for i in range(100_000):
            print("line", i, "\\x1b[2J")
        return x

    def changes_directory(x):
        os.chdir("/")
        return x

    def writes_into_its_argument(x):
        x *= 100
        return x

    def sees_no_quiz(x):
        return np.array([any(m.split(".")[0] in ("quiz", "engine") for m in sys.modules)])

    numbers = 3
    """
)
LINE = {
    name: number
    for number, text in enumerate(MISBEHAVING.splitlines(), start=2)
    if text.startswith("def ")
    for name in [text[4 : text.index("(")]]
}  # the line after each `def`: its body's first line


def call(name: str, returns: int = 1) -> Call:
    return Call(name, (np.arange(3.0),), returns=returns, max_elements=1000)


NAMES = list(LINE)


@pytest.fixture(scope="module")
def misbehaviour():
    calls = [call(name, returns=2 if name == "returns_one_of_two" else 1) for name in NAMES]
    calls += [call("writes_into_its_argument"), call("missing"), call("numbers")]
    result = run_calls(MISBEHAVING, calls, limits=ROOMY)  # the product's memory and output limits
    assert result.load_error is None
    return dict(zip([*NAMES, "writes_into_its_argument (again)", "missing", "numbers"], result.calls)), result


@pytest.mark.parametrize(
    "name, kind, detail",
    [
        ("divide", "exception", "IndexError: list index out of range"),
        ("fork_bomb", "refused", "os.fork"),
        ("spawn", "refused", "subprocess.Popen"),
        ("shell", "refused", "os.system"),
        ("pool", "refused", "os.fork"),
        ("c_fork", "refused", "ctypes.dlopen"),
        ("kill_parent", "refused", "os.kill"),
        ("lift_limit", "refused", "resource.setrlimit"),
        ("ten_gigabytes", "memory", "MemoryError"),
        ("exits", "exit", "4"),
        ("hard_exit", "os_exit", "0"),
        ("reads_input", "stdin", "EOFError"),
        ("reads_stdin", "stdin", "EOFError"),
        ("recurse", "recursion", "RecursionError"),
        ("imports_engine", "forbidden_import", "engine"),
    ],
)
def test_a_misbehaving_function_is_an_error_at_its_line(misbehaviour, name, kind, detail):
    results, _ = misbehaviour
    error = results[name].error
    assert results[name].arrays is None
    assert (error.kind, error.line, error.function) == (kind, LINE[name], name)
    assert error.detail.startswith(detail)
    assert error.text == MISBEHAVING.splitlines()[LINE[name] - 1].strip()
    assert "harness" not in error.detail + error.text


@pytest.mark.parametrize(
    "name, expected, got",
    [
        ("returns_list", "array", "list"),
        ("returns_objects", "numeric", "object"),
        ("returns_one_of_two", "tuple", "ndarray"),
        ("returns_huge", "size", "10000000"),
    ],
)
def test_a_wrong_return_type_says_what_was_expected_and_what_came(misbehaviour, name, expected, got):
    error = misbehaviour[0][name].error
    assert (error.kind, error.detail, error.got) == ("bad_return", expected, got)


def test_half_a_gigabyte_fits_under_the_limit(misbehaviour):
    results, _ = misbehaviour
    assert results["half_gigabyte"].arrays[0][0] == 512 * 2**20


def test_printed_output_is_cut_and_its_control_characters_escaped(misbehaviour):
    results, run = misbehaviour
    np.testing.assert_array_equal(results["chatty"].arrays[0], np.arange(3.0))
    assert run.output_truncated and len(run.output) <= ROOMY.output_chars
    assert "line 0 \\x1b[2J\nline 1 " in run.output
    assert "\x1b" not in run.output


def test_results_come_back_after_the_code_changes_directory(misbehaviour):
    np.testing.assert_array_equal(misbehaviour[0]["changes_directory"].arrays[0], np.arange(3.0))


def test_each_call_gets_fresh_arguments(misbehaviour):
    results, _ = misbehaviour
    for name in ("writes_into_its_argument", "writes_into_its_argument (again)"):
        np.testing.assert_array_equal(results[name].arrays[0], np.arange(3.0) * 100)


def test_a_missing_or_uncallable_function_is_named(misbehaviour):
    results, _ = misbehaviour
    assert (results["missing"].error.kind, results["missing"].error.detail) == ("missing_function", "missing")
    assert (results["numbers"].error.kind, results["numbers"].error.detail) == ("not_callable", "numbers")


def test_the_child_holds_nothing_of_the_quiz(misbehaviour):
    assert not misbehaviour[0]["sees_no_quiz"].arrays[0][0]


def test_a_syntax_error_names_its_line_and_column():
    result = run_calls("import numpy as np\n\ndef f(x):\n    return x +\n", [call("f")], limits=ROOMY)
    error = result.load_error
    assert (error.kind, error.line, error.column, error.text) == ("syntax", 4, 15, "return x +")
    assert result.calls == ()


def test_an_exception_while_loading_names_its_line():
    source = "import numpy as np\nWIDTH = np.zeros(3)\nHALF = WIDTH['half']\n"
    error = run_calls(source, [call("f")], limits=ROOMY).load_error
    assert (error.kind, error.line, error.function) == ("exception", 3, "<module>")
    assert error.detail.startswith("IndexError")


@pytest.mark.slow
def test_an_endless_loop_stops_at_the_cpu_limit_at_its_line():
    source = "def f(x):\n    total = 0\n    while True:\n        total += 1\n"
    result = run_calls(source, [call("f"), call("f")], limits=CPU_BOUND)
    first, second = result.calls
    assert first.error.kind == "cpu_limit" and first.error.line in (3, 4)
    assert second.error == first.error  # the budget is spent: the next call is not made


@pytest.mark.slow
def test_a_loop_that_swallows_the_limit_is_killed_all_the_same():
    source = "def f(x):\n    while True:\n        try:\n            sum(range(10**10))\n        except BaseException:\n            pass\n"
    result = run_calls(source, [call("f")], limits=CPU_BOUND)
    assert (result.load_error.kind, result.load_error.limit) == ("cpu_limit", "1")


@pytest.mark.slow
def test_waiting_stops_at_the_wall_clock_limit_and_the_process_is_gone():
    source = "import time\ndef f(x):\n    time.sleep(100)\n"
    pids: list[int] = []
    finder = threading.Thread(target=lambda: pids.append(wait_for_harness_child()))  # its pid, seen from here
    finder.start()
    result = run_calls(source, [call("f")], limits=WALL_BOUND)
    finder.join()
    error = result.calls[0].error
    assert (error.kind, error.line) == ("wall_limit", 3)
    with pytest.raises(ProcessLookupError):
        os.kill(pids[0], 0)


@pytest.mark.slow
def test_a_wait_that_swallows_the_alarm_is_killed_with_its_process_group():
    source = "import time\ndef f(x):\n    while True:\n        try:\n            time.sleep(100)\n        except BaseException: pass\n"
    result = run_calls(source, [call("f")], limits=Limits(cpu_seconds=60, wall_seconds=2, grace_seconds=1))
    assert (result.load_error.kind, result.load_error.limit) == ("wall_limit", "2")


def test_writing_past_the_file_limit_fails_in_the_code_not_the_disk():
    source = "import os\ndef f(x):\n    while True:\n        os.write(1, b'x' * 100_000)\n"
    limits = Limits(cpu_seconds=60, wall_seconds=120, file_bytes=1_000_000)
    error = run_calls(source, [call("f")], limits=limits).calls[0].error
    assert (error.kind, error.line) == ("exception", 4)
    assert "File too large" in error.detail


def test_exit_handlers_the_code_registers_do_not_run():
    # had the sleep run, the child would have been killed at the wall limit and its results lost
    source = "import atexit, time\natexit.register(time.sleep, 100)\ndef f(x):\n    return x\n"
    result = run_calls(source, [call("f")], limits=ROOMY)
    assert result.load_error is None
    np.testing.assert_array_equal(result.calls[0].arrays[0], np.arange(3.0))


def test_a_crash_is_reported_as_one():
    source = "import os, signal\ndef f(x):\n    signal.raise_signal(signal.SIGSEGV)\n"
    error = run_calls(source, [call("f")], limits=ROOMY).load_error
    assert (error.kind, error.detail) == ("crash", "SIGSEGV")


def test_a_file_over_the_size_limit_is_not_run():
    error = run_calls("x = 1\n" * 10, [call("f")], limits=Limits(source_chars=20)).load_error
    assert (error.kind, error.detail) == ("too_long", "20")



def test_a_run_asked_to_stop_ends_soon_and_leaves_no_process():
    # The app stops a run when the learner quits or moves on: the child must not outlive it. The
    # child is confined to its own directory, so it is found from here, through /proc, once it sleeps.
    source = "import time\ndef f(x):\n    time.sleep(100)\n"
    stop, pids = threading.Event(), []

    def stop_once_running() -> None:
        pids.append(wait_for_harness_child())
        stop.set()

    stopper = threading.Thread(target=stop_once_running)
    stopper.start()
    result = run_calls(source, [call("f")], limits=Limits(cpu_seconds=1, wall_seconds=60, grace_seconds=60), stop=stop)
    stopper.join()
    assert result.load_error.kind == "stopped"
    with pytest.raises(ProcessLookupError):
        os.kill(pids[0], 0)


def test_a_run_stopped_before_it_starts_runs_nothing():
    stop = threading.Event()
    stop.set()
    assert run_calls("def f(x):\n    return x\n", [call("f")], limits=ROOMY, stop=stop).load_error.kind == "stopped"


def test_a_process_that_cannot_start_is_an_error_not_an_exception(tmp_path, monkeypatch):
    monkeypatch.setattr("sys.executable", str(tmp_path / "no-python"))
    result = run_calls("def f(x):\n    return x\n", [call("f")], limits=ROOMY)
    assert result.load_error.kind == "not_started" and "no-python" in result.load_error.detail
