"""The child side of the code sandbox: load the candidate's file, call its functions, hand back data.

`quiz.code.sandbox` runs this file as a script, `python -I -B harness.py IO_DIR [RUN_DIR]`. It
imports the standard library and numpy only, never the quiz: the candidate's process holds nothing
of ours. IO_DIR holds config.json (limits and the calls to make), inputs.npz (the arrays) and
source.py (the candidate's file); this script writes outputs.npz (arrays, no pickles) and report.json
(statuses and located errors) there, through files it opens before the code runs. The code runs in
RUN_DIR (by default IO_DIR; under bubblewrap a private tmpfs). Every problem is reported with the
line of the candidate's file it happened on; the parent turns reports into messages.

Before the candidate's file is read in, the process confines itself with Landlock (confine.py,
loaded by path): from then on it can read only the standard library and numpy, write only
RUN_DIR, and reach no TCP port, so no solution loads the engine from its sources or reads a
learner's files; the report says which Landlock ABI held (0: the kernel had none). An audit hook
refuses process creation, signals to other processes, changes to the limits and loading C
libraries through ctypes (which could call fork directly); RLIMIT_NPROC backs it for users other
than root, for whom the kernel does not enforce it. Every verdict is computed in the parent from
the arrays alone: nothing the child reports is taken for a result.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import posix
import resource
import signal
import sys
import traceback
from types import FrameType, ModuleType
from typing import Any, NoReturn  # numpy imports typing anyway: no cost to the child's start-up

# Audit events that would start or signal another process, or lift the limits set below.
REFUSED_EVENTS = frozenset(
    {
        "ctypes.dlopen",
        "os.exec",
        "os.fork",
        "os.forkpty",
        "os.kill",
        "os.killpg",
        "os.posix_spawn",
        "os.spawn",
        "os.system",
        "resource.prlimit",
        "resource.setrlimit",
        "signal.pthread_kill",
        "subprocess.Popen",
    }
)
NUMERIC_KINDS = "biuf"  # bool, signed and unsigned integers, floats: what np.save writes without pickle
MESSAGE_CHARS = 600  # an exception's message is cut to this many characters
# Kinds whose report carries the exception's bare argument (event, module, exit code), not `Type: message`
BARE_DETAIL = frozenset({"refused", "forbidden_import", "os_exit", "exit"})

Json = dict[str, Any]  # a JSON object: config.json, report.json, and the reports in them


class CpuLimit(BaseException):
    """Raised at the CPU-time limit (SIGXCPU); a BaseException, so `except Exception` cannot swallow it."""


class WallLimit(BaseException):
    """Raised at the wall-clock limit (SIGALRM), for code that waits rather than computes."""


class ExitCalled(BaseException):
    """Raised in place of os._exit, so that the exit is reported with its line."""


class Refused(RuntimeError):
    """An operation the sandbox does not allow (its audit event is the message)."""


class ForbiddenImport(ImportError):
    """An import of a module the candidate's code must not see (the quiz itself)."""


class NoInput(io.TextIOBase):
    """Standard input that refuses to be read: the candidate's function gets its data as arguments."""

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> str:
        raise EOFError("standard input is not available to your code")

    # input() reads through readline. The ignore: typeshed's _IOBase.readline returns bytes, and its own
    # _TextIOBase.readline (str, as here) carries the same ignore[override].
    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        raise EOFError("standard input is not available to your code")


class CappedText(io.TextIOBase):
    """Collects what print() writes, up to `cap` characters; the rest is counted as cut, not kept."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.parts: list[str] = []
        self.size = 0
        self.truncated = False

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        text = str(text)
        room = self.cap - self.size
        if len(text) > room:
            self.truncated = True
        if room > 0:
            self.parts.append(text[:room])
            self.size += min(len(text), room)
        return len(text)

    def text(self) -> str:
        return "".join(self.parts)


def set_limits(config: Json) -> None:
    """CPU time, address space, file size and processes, never above the limits we were started with."""

    def cap(which: int, soft: int, hard: int) -> None:
        _, current_hard = resource.getrlimit(which)
        if current_hard != resource.RLIM_INFINITY:
            soft, hard = min(soft, current_hard), min(hard, current_hard)
        with contextlib.suppress(ValueError, OSError):  # a limit the system will not lower: the others still hold
            resource.setrlimit(which, (soft, hard))

    cpu = max(1, round(config["cpu_seconds"]))
    cap(resource.RLIMIT_CORE, 0, 0)  # SIGXCPU's default action would dump core
    cap(resource.RLIMIT_CPU, cpu, cpu + 1)  # SIGXCPU at the soft limit, SIGKILL a second later
    cap(resource.RLIMIT_AS, config["memory_bytes"], config["memory_bytes"])
    cap(resource.RLIMIT_FSIZE, config["file_bytes"], config["file_bytes"])
    if hasattr(resource, "RLIMIT_NPROC"):  # not enforced for root: the audit hook covers that case
        cap(resource.RLIMIT_NPROC, 0, 0)


def raise_on(signum: int, error: type[BaseException]) -> None:
    """Turn signal `signum` into `error`, raised wherever the candidate's code is running."""

    def handler(_signum: int, _frame: FrameType | None) -> NoReturn:
        raise error()

    signal.signal(signum, handler)


def install_guards(forbidden_modules: list[str]) -> None:
    """Refuse process creation and imports of `forbidden_modules`; make os._exit a reported exit."""
    forbidden = frozenset(forbidden_modules)

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event in REFUSED_EVENTS:
            raise Refused(event)
        if event == "import" and args and str(args[0]).partition(".")[0] in forbidden:
            raise ForbiddenImport(str(args[0]))

    def exit_called(status: int = 0) -> NoReturn:  # named as os._exit's own parameter
        raise ExitCalled(status)

    os._exit = exit_called
    posix._exit = exit_called
    sys.addaudithook(hook)


def message_of(error: BaseException) -> str:
    """`Type: message`, cut short; str() of a candidate's exception may itself fail."""
    try:
        text = str(error)
    except Exception:
        text = ""
    name = type(error).__name__
    text = f"{name}: {text}" if text else name
    return text if len(text) <= MESSAGE_CHARS else text[: MESSAGE_CHARS - 1] + "…"


def located(kind: str, error: BaseException | None, filename: str, lines: list[str], **extra: object) -> Json:
    """A report of `error`: its kind and message, and the deepest line of the candidate's file it passed."""
    detail = "" if error is None else str(error)[:MESSAGE_CHARS] if kind in BARE_DETAIL else message_of(error)
    report: Json = {"kind": kind, "detail": detail, **extra}
    frames = traceback.extract_tb(error.__traceback__) if error is not None else []
    ours = [f for f in frames if f.filename == filename]
    if ours:
        frame = ours[-1]
        report["line"], report["function"] = frame.lineno, frame.name
        if frame.lineno and 0 < frame.lineno <= len(lines):
            report["text"] = lines[frame.lineno - 1].strip()[:MESSAGE_CHARS]
    return report


def classify(error: BaseException) -> str:
    """The report kind of an exception raised while the candidate's code ran."""
    for kind, types in (
        ("cpu_limit", CpuLimit),
        ("wall_limit", WallLimit),
        ("os_exit", ExitCalled),
        ("exit", SystemExit),
        ("refused", Refused),
        ("forbidden_import", ForbiddenImport),
        ("memory", MemoryError),
        ("recursion", RecursionError),
        ("stdin", EOFError),
    ):
        if isinstance(error, types):
            return kind
    return "exception"


def check_return(value: object, returns: int, max_elements: int, np: ModuleType) -> tuple[list[Any], Json | None]:
    """The arrays in `value`, or a report of why it is not what the function must return.

    The report's detail says what was expected (array, tuple, numeric, size) and got what came.
    """
    if returns == 1:
        items = [value]
    elif isinstance(value, (tuple, list)) and len(value) == returns:
        items = list(value)
    else:
        got = f"{type(value).__name__}[{len(value)}]" if isinstance(value, (tuple, list)) else type(value).__name__
        return [], {"kind": "bad_return", "detail": "tuple", "got": got, "count": returns}
    arrays = []
    for item in items:
        if not isinstance(item, (np.ndarray, np.generic)):
            return [], {"kind": "bad_return", "detail": "array", "got": type(item).__name__}
        array = np.asarray(item)
        if array.dtype.kind not in NUMERIC_KINDS:
            return [], {"kind": "bad_return", "detail": "numeric", "got": str(array.dtype)}
        if array.size > max_elements:
            return [], {"kind": "bad_return", "detail": "size", "got": str(array.size)}
        arrays.append(array)
    return arrays, None


def argument(spec: Json, inputs: Json) -> object:
    """A call's argument: a fresh copy of an input array, or a plain value."""
    if "array" in spec:
        return inputs[spec["array"]].copy()  # the candidate may write into its arguments
    return spec.get("value")


def main(io_dir: str, run_dir: str) -> None:
    """Read the inputs from `io_dir`, run the code in `run_dir` (the same folder, or under bubblewrap a
    private one), and write the results into `io_dir`'s report.json and outputs.npz."""
    io_dir, work = os.path.abspath(io_dir), os.path.abspath(run_dir)  # absolute: the code may change directory
    os.chdir(io_dir)
    with open("config.json", encoding="utf-8") as file:
        config = json.load(file)
    set_limits(config)
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a file past the size limit fails to write, no kill
    raise_on(signal.SIGXCPU, CpuLimit)
    raise_on(signal.SIGALRM, WallLimit)

    import numpy as np

    # kept before the candidate's code runs, which may rebind the names (os._exit always is)
    real_exit, dumps, savez, open_file = os._exit, json.dumps, np.savez, open
    with np.load("inputs.npz", allow_pickle=False) as archive:
        inputs = {name: archive[name] for name in archive.files}
    with open("source.py", encoding="utf-8", errors="replace") as file:
        source = file.read()
    # Opened now, while io_dir may be written: under bubblewrap only these two files of it can be.
    report_file = open_file(os.path.join(io_dir, "report.json"), "w", encoding="utf-8")
    outputs_file = open_file(os.path.join(io_dir, "outputs.npz"), "wb")
    confinement = load_confine()
    if config.get("private_run"):  # under bubblewrap: the run folder's bounds, then no capability left
        confinement.private_folder(work, config["run_bytes"], config["run_files"])
        confinement.no_user_namespaces()
        confinement.drop_capabilities()
    os.chdir(work)
    confined = confine_to(confinement, work, np)  # before the guards, which refuse ctypes
    filename, lines = config["filename"], source.splitlines()
    captured = CappedText(config["output_chars"])
    sys.stdout = sys.stderr = captured
    sys.stdin = NoInput()

    report: Json = {"load_error": None, "calls": [], "confined": confined}
    outputs: Json = {}
    install_guards(config["forbidden_modules"])
    # The wall clock starts with the candidate's code: a loaded machine slows our start-up, not theirs.
    signal.setitimer(signal.ITIMER_REAL, config["wall_seconds"])
    try:
        namespace = run_source(source, filename, lines, report)
        for index, call in enumerate(config["calls"]):
            if namespace is None:
                break
            status = run_call(call, namespace, inputs, filename, lines, np)
            if "arrays" in status:
                for position, array in enumerate(status.pop("arrays")):
                    outputs[f"r{index}_{position}"] = array
            report["calls"].append(status)
            if status.get("kind") in ("cpu_limit", "wall_limit"):
                break  # the budget is spent: the remaining calls are not run
    except (CpuLimit, WallLimit) as limit:  # arrived between the candidate's calls
        report["load_error"] = {"kind": classify(limit), "detail": ""}
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGXCPU, signal.SIG_IGN)
    report["output"], report["output_truncated"] = captured.text(), captured.truncated
    with outputs_file:
        savez(outputs_file, **outputs)
    with report_file:
        report_file.write(dumps(report))
    real_exit(0)  # skips whatever the candidate registered with atexit


def load_confine() -> ModuleType:
    """quiz/code/confine.py, loaded by path beside this file: nothing of the quiz is importable here."""
    import importlib.util

    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "confine.py")
    spec = importlib.util.spec_from_file_location("confine", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def confine_to(confinement: ModuleType, work: str, np: ModuleType) -> int:
    """Let the rest of this process read only the standard library and numpy, and write only `work`.
    The Landlock ABI applied, or 0 where the kernel has none or refused a step."""
    import sysconfig

    numpy_dir = os.path.dirname(os.path.abspath(str(np.__file__)))
    readable = {sysconfig.get_path("stdlib"), sysconfig.get_path("platstdlib"), numpy_dir, numpy_dir + ".libs"}
    try:
        return int(confinement.confine(sorted(readable), work))
    except OSError:
        return 0


def run_source(source: str, filename: str, lines: list[str], report: Json) -> Json | None:
    """The candidate's module namespace, or None with report["load_error"] set."""
    try:
        code = compile(source, filename, "exec")
    except SyntaxError as error:
        report["load_error"] = {
            "kind": "syntax",
            "detail": f"{type(error).__name__}: {error.msg}",
            "line": error.lineno,
            "column": error.offset,
            "text": (error.text or "").strip()[:MESSAGE_CHARS],
        }
        return None
    except (ValueError, MemoryError, RecursionError) as error:  # NUL bytes, nesting too deep to parse
        report["load_error"] = {"kind": "syntax", "detail": message_of(error)}
        return None
    namespace: Json = {"__name__": "solution", "__file__": filename, "__builtins__": __builtins__}
    try:
        exec(code, namespace)
    except BaseException as error:
        report["load_error"] = located(classify(error), error, filename, lines)
        return None
    return namespace


def run_call(call: Json, namespace: Json, inputs: Json, filename: str, lines: list[str], np: ModuleType) -> Json:
    """Call one of the candidate's functions: {"status": "ok", "arrays": [...]} or a located error."""
    function = namespace.get(call["function"])
    if function is None:
        return {"status": "error", "kind": "missing_function", "detail": call["function"]}
    if not callable(function):
        return {"status": "error", "kind": "not_callable", "detail": call["function"]}
    try:
        value = function(*(argument(spec, inputs) for spec in call["args"]))
        arrays, problem = check_return(value, call["returns"], call["max_elements"], np)
    except BaseException as error:
        return {"status": "error", **located(classify(error), error, filename, lines)}
    if problem is not None:
        return {"status": "error", **problem}
    return {"status": "ok", "arrays": arrays}


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else sys.argv[1])
