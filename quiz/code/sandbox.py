"""Run a candidate's Python file in a separate, limited process and bring back its functions' results.

The child is `python -I -B harness.py` (stdlib and numpy only, nothing of the quiz): no standard
input, a CPU-time and a memory limit, bounded output, process creation refused, files readable
only under the standard library and numpy and writable only in its run directory, no TCP (Linux
Landlock, where the kernel has it: `RunResult.confined`), and a wall-clock timeout. Where
bubblewrap runs (quiz.code.bubblewrap, probed once per process: `confinement()`), the child runs
in namespaces of its own (`RunResult.isolated`): its own PID namespace, ended with everything in
it after the run; no network; a root holding only the runtime and numpy; a private run folder of
a bounded size; limits set before it starts. Elsewhere its whole process group is killed after
the run. Arguments go to it and results come back as .npz files read with allow_pickle=False,
and a JSON report; nothing from the child is unpickled. Whatever the code does, the caller gets
values: results, or errors located at lines of the candidate's file.
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import math
import os
import resource
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
import unicodedata
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final, Generic, TypeVar

import numpy as np

from quiz.code import bubblewrap

HARNESS = Path(__file__).with_name("harness.py")
REPORT_BYTES = 1 << 20  # a report is statuses and short messages; anything larger is not ours
STOP_POLL_SECONDS = 0.05  # how soon a run notices it was asked to stop
# Numerical libraries start one thread per core unless told otherwise, each with its own
# buffers: one thread keeps numpy well inside the memory limit and off the other cores.
CHILD_ENV = {
    "OPENBLAS_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "NUMEXPR_NUM_THREADS": "1",
    "PATH": os.defpath,
}

Argument = np.ndarray | int | float | bool | str | None
Arguments = tuple[Argument, ...]
A = TypeVar("A", bound=Arguments, covariant=True)
"""A call's arguments as a task types them: `tuple[np.ndarray, int]` for `split_heads(x, n_heads)`."""


@dataclass(frozen=True)
class Limits:
    """What the candidate's process may use. The defaults are the product's; tests pass smaller ones.

    A run returns within wall_seconds + grace_seconds whatever the code does.
    """

    cpu_seconds: float = 5.0
    memory_bytes: int = 1 << 30
    wall_seconds: float = 10.0
    # Past the wall limit the child has had its chance to report; the grace also covers its
    # start-up (numpy's import) on a loaded machine, which the child's own alarm does not count.
    grace_seconds: float = 5.0
    output_chars: int = 4000  # printed text kept for the learner; the rest is cut
    file_bytes: int = 64 << 20  # any one file the process writes, results included
    run_bytes: int = 64 << 20  # under bubblewrap: every file the code makes in its run folder together
    run_files: int = 1000  # under bubblewrap: how many files and folders the run folder holds, itself included
    source_chars: int = 200_000


@dataclass(frozen=True)
class Call(Generic[A]):
    """One call of the candidate's function `function` with positional `args`, returning `returns` arrays.

    Generic in the arguments' tuple type, so that a task's reference and mistakes read them typed;
    the sandbox takes any call (`Call[Arguments]`).
    """

    function: str
    args: A
    returns: int = 1
    max_elements: int = 1 << 20  # a larger result is refused rather than written


@dataclass(frozen=True)
class RunError:
    """Why code did not give a result, located in the candidate's file where a line is known.

    kind: syntax, exception, exit, os_exit, cpu_limit, wall_limit, memory, recursion, stdin,
    refused (process creation and the like), forbidden_import, missing_function, not_callable,
    bad_return, too_long (the source), crash (killed by a signal), ended (exited without results),
    unreadable (results that cannot be read), not_started (no temporary directory or process),
    unisolated (code for others, FOR_OTHERS_ENV, where bubblewrap cannot confine it),
    stopped (the caller asked the run to stop: the app quit or moved on).
    For bad_return, detail is what was due (array, tuple, numeric, size) and got what came.
    """

    kind: str
    detail: str = ""  # the exception as `Type: message`, the missing name, or what was expected
    line: int | None = None
    function: str | None = None  # the candidate's function the line belongs to
    text: str = ""  # that line of the candidate's file
    got: str = ""  # for bad_return: what came back instead
    column: int | None = None  # for syntax errors
    count: int | None = None  # for bad_return of a tuple: how many arrays were due
    limit: str = ""  # for cpu_limit, wall_limit and memory: the limit reached (seconds, bytes)


@dataclass(frozen=True)
class CallResult:
    """The arrays one call returned (a 1-tuple for a single array), or why there are none."""

    arrays: tuple[np.ndarray, ...] | None
    error: RunError | None = None


@dataclass(frozen=True)
class RunResult:
    """Every call's result; `load_error` when the file itself could not be run (then no call ran)."""

    calls: tuple[CallResult, ...]
    load_error: RunError | None
    output: str  # what the code printed, control characters shown as escapes
    output_truncated: bool
    confined: int = 0
    """The Landlock ABI version the child ran under (quiz.code.confine); 0: the kernel could not confine it."""
    isolated: bool = False
    """Whether the child ran under bubblewrap, in namespaces of its own (quiz.code.bubblewrap)."""


@dataclass(frozen=True)
class Confinement:
    """How the candidate's code runs on this machine: `level` is "namespaces" (bubblewrap: its own
    PID, network and mount namespaces, Landlock inside where the kernel has it), "landlock" (Landlock
    and the in-process guards only) or "none" (the guards only); `reason` says why it is not more."""

    level: str
    reason: str = ""

    @property
    def isolated(self) -> bool:
        """Whether code from someone other than the machine's own user may be run here."""
        return self.level == "namespaces"


def confinement() -> Confinement:
    """How code runs here, probed once per process. `quiz serve` and a live interview run code
    questions for anyone but the local user only when `isolated`; the local app says once when not."""
    bwrap, why = bubblewrap.probe()
    if bwrap is not None:
        return Confinement("namespaces")
    from quiz.code import confine

    if confine.abi_version() >= 1:
        return Confinement("landlock", why)
    return Confinement("none", f"{why}; the kernel has no Landlock")


def printable(text: str, limit: int | None = None) -> str:
    """`text` safe for a terminal: control and format characters as \\x.. escapes; at most `limit` characters."""
    safe = "".join(
        char if char in "\n\t" or unicodedata.category(char) not in ("Cc", "Cf", "Cs", "Co") else _escape(char)
        for char in text
    )
    return safe if limit is None or len(safe) <= limit else safe[: limit - 1] + "…"


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _limit_of(kind: str, limits: Limits) -> str:
    """The limit a cpu_limit, wall_limit or memory error reached, for its message."""
    return {
        "cpu_limit": f"{limits.cpu_seconds:g}",
        "wall_limit": f"{limits.wall_seconds:g}",
        "memory": f"{limits.memory_bytes / 2**30:g}",
    }.get(kind, "")


FOR_OTHERS_ENV: Final = "QUIZ_CODE_FOR_OTHERS"
"""Set to 1 where the app runs code for people other than the machine's own user (a `quiz serve`
session with logins of its own or beyond loopback): code then runs only under bubblewrap."""


def run_calls(
    source: str,
    calls: Sequence[Call[Arguments]],
    *,
    filename: str = "solution.py",
    limits: Limits = Limits(),
    forbidden_modules: Sequence[str] = ("quiz", "engine"),
    stop: threading.Event | None = None,
) -> RunResult:
    """Run `source` in a child process and make `calls` to its functions, in order.

    `filename` is how tracebacks and messages name the file. `forbidden_modules` cannot be
    imported by the code (the quiz and its engine would give the answers away). Setting `stop`
    from another thread kills the child within STOP_POLL_SECONDS and gives a `stopped` error.
    """
    if len(source) > limits.source_chars:
        too_long = RunError("too_long", detail=str(limits.source_chars))
        return RunResult(calls=(), load_error=too_long, output="", output_truncated=False)
    bwrap, why = bubblewrap.probe()
    if bwrap is None and os.environ.get(FOR_OTHERS_ENV) == "1":
        # Code from someone other than the machine's own user runs only in namespaces of its own.
        refused = RunError("unisolated", detail=printable(why, 300))
        return RunResult(calls=(), load_error=refused, output="", output_truncated=False)
    try:
        with tempfile.TemporaryDirectory(prefix="quiz-code-", ignore_cleanup_errors=True) as workdir:
            work = Path(workdir)
            _write_inputs(work, source, calls, filename, limits, forbidden_modules, private_run=bwrap is not None)
            stopped, isolated = _run_child(work, bwrap, limits, stop)
            return replace(_read_results(work, calls, stopped, limits), isolated=isolated)
    except OSError as error:  # no temporary space, no process to be had: said, not raised
        not_started = RunError("not_started", detail=printable(str(error), 300))
        return RunResult(calls=(), load_error=not_started, output="", output_truncated=False)


def _write_inputs(
    work: Path,
    source: str,
    calls: Sequence[Call[Arguments]],
    filename: str,
    limits: Limits,
    forbidden: Sequence[str],
    *,
    private_run: bool,
) -> None:
    """config.json, inputs.npz and source.py for the harness."""
    arrays: dict[str, np.ndarray] = {}

    def spec(value: Argument) -> dict[str, Argument]:
        if isinstance(value, np.ndarray):
            name = f"a{len(arrays)}"
            arrays[name] = value
            return {"array": name}
        return {"value": value}

    config = {
        "filename": filename,
        "cpu_seconds": limits.cpu_seconds,
        "wall_seconds": limits.wall_seconds,
        "memory_bytes": limits.memory_bytes,
        "file_bytes": limits.file_bytes,
        "run_bytes": limits.run_bytes,
        "run_files": limits.run_files,
        "private_run": private_run,  # under bubblewrap the harness mounts its run folder with the bounds above
        "output_chars": limits.output_chars,
        "forbidden_modules": list(forbidden),
        "calls": [
            {
                "function": call.function,
                "args": [spec(arg) for arg in call.args],
                "returns": call.returns,
                "max_elements": call.max_elements,
            }
            for call in calls
        ],
    }
    np.savez(work / "inputs.npz", allow_pickle=False, **arrays)  # numeric arrays: the harness loads without pickle
    (work / "config.json").write_text(json.dumps(config), encoding="utf-8")
    (work / "source.py").write_text(source, encoding="utf-8", errors="replace")


def _run_child(work: Path, bwrap: str | None, limits: Limits, stop: threading.Event | None) -> tuple[RunError | None, bool]:
    """Run the harness to its end, under `bwrap` when given: an error when it was stopped or died
    before writing a report, and whether it ran under bubblewrap."""
    if stop is not None and stop.is_set():
        return RunError("stopped"), False
    with open(work / "stdio", "wb") as stdio:  # what the process writes below print(): kept apart, unread
        boxed = bwrap is not None
        code = _run_boxed(bwrap, work, limits, stop, stdio.fileno()) if bwrap is not None else _run_bare(work, limits, stop, stdio.fileno())
    if code is None:
        if stop is not None and stop.is_set():
            return RunError("stopped"), boxed
        return RunError("wall_limit", limit=_limit_of("wall_limit", limits)), boxed
    return _exit_error(code, limits), boxed


def _run_bare(work: Path, limits: Limits, stop: threading.Event | None, stdio: int) -> int | None:
    """The harness as a plain child in its own process group, killed as a whole: its exit status,
    None when killed at the wall limit or on `stop`."""
    child = subprocess.Popen(
        [sys.executable, "-I", "-B", str(HARNESS), str(work)],
        stdin=subprocess.DEVNULL,
        stdout=stdio,
        stderr=stdio,
        cwd=work,
        env=CHILD_ENV,
        start_new_session=True,  # its own process group, killed as a whole
    )
    try:
        code = _wait(child, limits.wall_seconds + limits.grace_seconds, stop)
    finally:
        _kill_group(child.pid)
    if code is None:
        child.wait()
    return code


def _run_boxed(bwrap: str, work: Path, limits: Limits, stop: threading.Event | None, stdio: int) -> int | None:
    """The harness under bubblewrap, its namespace ended afterwards whatever it started: its exit
    status (a signal's as the negative number, as for a plain child), None as for `_run_bare`."""
    if not os.access(sys.executable, os.X_OK):  # as Popen says of a plain child; bwrap would only exit 1
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), sys.executable)
    for name in bubblewrap.RESULT_FILES:  # made here: inside, only these two of the run folder are writable
        (work / name).write_bytes(b"")
    cpu = max(1, round(limits.cpu_seconds))
    rlimits = [
        (resource.RLIMIT_CORE, 0, 0),
        (resource.RLIMIT_CPU, cpu, cpu + 1),  # SIGXCPU at the soft limit, SIGKILL a second later
        (resource.RLIMIT_AS, limits.memory_bytes, limits.memory_bytes),
        (resource.RLIMIT_FSIZE, limits.file_bytes, limits.file_bytes),
    ]
    argv = [sys.executable, "-I", "-B", f"{bubblewrap.HARNESS_DIR}/harness.py", bubblewrap.IO, bubblewrap.RUN]
    box = bubblewrap.start(bwrap, work, HARNESS, argv, rlimits=rlimits, stdio=stdio, env=CHILD_ENV)
    try:
        code = _wait(box.process, limits.wall_seconds + limits.grace_seconds, stop)
    finally:
        box.end()
    # bwrap passes on a command killed by signal N as the exit status 128 + N
    if code is not None and code > 128 and code - 128 in signal.valid_signals():
        return -(code - 128)
    return code


def _exit_error(code: int, limits: Limits) -> RunError | None:
    """What the harness's exit status says went wrong, None when it ended as it does after reporting."""
    if code in (-signal.SIGXCPU, -signal.SIGKILL):  # the CPU limit's soft and hard signals
        return RunError("cpu_limit", limit=_limit_of("cpu_limit", limits))
    if code < 0:
        return RunError("crash", detail=signal.Signals(-code).name if -code in signal.valid_signals() else str(-code))
    if code != 0:
        return RunError("ended", detail=str(code))
    return None


def _wait(child: subprocess.Popen[bytes], seconds: float, stop: threading.Event | None) -> int | None:
    """The child's exit status, or None when `seconds` passed or `stop` was set first."""
    if stop is None:
        try:
            return child.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            return None
    deadline = time.monotonic() + seconds
    while not stop.is_set():
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None
        try:
            return child.wait(timeout=min(remaining, STOP_POLL_SECONDS))
        except subprocess.TimeoutExpired:
            continue
    return None


def _kill_group(pid: int) -> None:
    """SIGKILL every process left in the child's group (none, unless the guards were bypassed)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _read_results(work: Path, calls: Sequence[Call[Arguments]], stopped: RunError | None, limits: Limits) -> RunResult:
    """The harness's report and arrays as values; a report that cannot be read is an `ended` error."""
    if stopped is not None:
        return RunResult(calls=(), load_error=stopped, output="", output_truncated=False)
    try:
        report = _read_report(work / "report.json")
        arrays = _read_arrays(work / "outputs.npz", limits.file_bytes)
        results = tuple(_call_result(status, index, arrays, limits) for index, status in enumerate(report["calls"]))
    except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile):
        unreadable = RunError("unreadable")
        return RunResult(calls=(), load_error=unreadable, output="", output_truncated=False)
    load_error = _run_error(report["load_error"], limits) if report.get("load_error") else None
    if load_error is None and len(results) < len(calls):  # the time budget ran out at the last result
        cause = results[-1].error if results and results[-1].error else RunError("ended")
        results += (CallResult(arrays=None, error=cause),) * (len(calls) - len(results))
    output = report.get("output", "")
    return RunResult(
        calls=results,
        load_error=load_error,
        output=printable(output if isinstance(output, str) else "", limits.output_chars),
        output_truncated=bool(report.get("output_truncated")),
        confined=confined if isinstance(confined := report.get("confined"), int) and not isinstance(confined, bool) else 0,
    )


def _regular_bytes(path: Path, max_bytes: int) -> bytes:
    """The bytes of `path` if it is a regular file of at most `max_bytes`: never a FIFO that would
    block, a link to elsewhere or a device (the child's directory is the child's to fill)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(file.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_size > max_bytes:
            raise ValueError("not a regular file of a bounded size")
        return file.read(max_bytes + 1)[: max_bytes + 1]


def _read_report(path: Path) -> dict[str, Any]:
    """The child's report, its form checked: every value a later step reads has the type it expects."""
    try:
        report = json.loads(_regular_bytes(path, REPORT_BYTES).decode("utf-8"))
    except RecursionError:  # nesting no report of ours has
        raise ValueError("report nested too deeply") from None
    if not isinstance(report, dict) or not isinstance(report.get("calls"), list):
        raise ValueError("malformed report")
    if not all(isinstance(status, dict) and isinstance(status.get("status", ""), str) for status in report["calls"]):
        raise ValueError("malformed call status")
    if not isinstance(report.get("load_error"), dict | None) or not isinstance(report.get("output", ""), str):
        raise ValueError("malformed report")
    return report


def _read_arrays(path: Path, max_bytes: int) -> dict[str, np.ndarray]:
    """Every array in the .npz at `path`, refusing archives that unpack beyond `max_bytes` and any
    member whose header declares more elements than its bytes hold (np.load would allocate them)."""
    archive_bytes = io.BytesIO(_regular_bytes(path, max_bytes))
    with zipfile.ZipFile(archive_bytes) as archive:
        members = archive.infolist()
        if sum(info.file_size for info in members) > max_bytes:
            raise ValueError("results too large")
        for info in members:
            with archive.open(info) as member:
                version = np.lib.format.read_magic(member)
                read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
                shape, _, dtype = read_header(member)  # the header alone, no data
                if dtype.hasobject or math.prod(shape) * dtype.itemsize > info.file_size:
                    raise ValueError("array header does not match its data")
    archive_bytes.seek(0)
    with np.load(archive_bytes, allow_pickle=False) as loaded:
        return {name: loaded[name] for name in loaded.files}


def _call_result(status: dict[str, Any], index: int, arrays: dict[str, np.ndarray], limits: Limits) -> CallResult:
    if status.get("status") == "ok":
        returned = []
        position = 0
        while f"r{index}_{position}" in arrays:
            returned.append(arrays[f"r{index}_{position}"])
            position += 1
        return CallResult(arrays=tuple(returned))
    return CallResult(arrays=None, error=_run_error(status, limits))


def _run_error(report: dict[str, Any], limits: Limits) -> RunError:
    """A RunError from the child's report of one, every text made safe to show."""

    def text(name: str) -> str:
        value = report.get(name)
        return printable(str(value), 600) if value is not None else ""

    def number(name: str) -> int | None:
        value = report.get(name)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    kind = text("kind") or "ended"
    return RunError(
        kind=kind,
        detail=text("detail"),
        line=number("line"),
        function=text("function") or None,
        text=text("text"),
        got=text("got"),
        column=number("column"),
        count=number("count"),
        limit=_limit_of(kind, limits),
    )
