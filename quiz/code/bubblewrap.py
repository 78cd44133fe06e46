"""Start the sandbox's child under bubblewrap (`bwrap`): its own user, PID, network, IPC, UTS and mount
namespaces, no capabilities, and a root that holds only the Python runtime, numpy, the system
libraries, the harness and the run's own files.

Inside, the candidate's process sees none of the parent's processes (a /proc of its own), reaches no
network (an empty network namespace), reads nothing but what is mounted, and writes only a private
tmpfs bounded in size and in number of files (RUN, mounted by the harness) and the two result files the parent made for it. Ending the namespace's
first process ends every process in it, so nothing the code starts survives the run: see `Box`.
Where bwrap is missing or fails its probe the sandbox runs its child without it (`probe` says why).
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import resource
import select
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

# Where the run's files appear inside the sandbox.
IO = "/run/io"  # the parent's run folder, read-only but for the two result files
RUN = "/run/work"  # the candidate's working directory: a private tmpfs
HARNESS_DIR = "/run/harness"  # harness.py and confine.py, and nothing else of the quiz
RESULT_FILES = ("report.json", "outputs.npz")
SYSTEM_LIBRARIES = ("/usr/lib", "/usr/lib64", "/lib", "/lib64", "/lib32", "/usr/lib32")
PROBE_SECONDS = 20.0  # a start-up with numpy's import, on a loaded machine
INFO_SECONDS = 10.0  # bwrap says its namespace's first process once the namespaces are made


def executable() -> str | None:
    """The bwrap on PATH, or None."""
    return shutil.which("bwrap")


def _runtime_mounts() -> list[str]:
    """Read-only binds of the interpreter, numpy and the system libraries, at their own paths.

    The venv's pyvenv.cfg and interpreter name are bound so that the child finds numpy where the
    parent does; of the venv's site-packages only numpy (and its bundled libraries) is there.
    """
    import numpy  # the parent's numpy: the one the child must find

    numpy_dir = os.path.dirname(os.path.abspath(str(numpy.__file__)))
    binds = [sys.base_prefix, numpy_dir, numpy_dir + ".libs"]  # the standard library is under base_prefix
    if sys.prefix != sys.base_prefix:
        binds += [os.path.join(sys.prefix, "pyvenv.cfg"), sys.executable]
    args: list[str] = []
    for path in SYSTEM_LIBRARIES:
        if os.path.islink(path):  # merged /usr: /lib -> usr/lib
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    for path in dict.fromkeys(binds):  # in order, once each
        if os.path.exists(path):
            args += ["--ro-bind", path, path]
    return args


def command(bwrap: str, io_dir: Path, harness: Path, info_fd: int, block_fd: int, argv: Sequence[str]) -> list[str]:
    """bwrap's command line for `argv` (the harness's, with its paths as the sandbox sees them)."""
    return [
        bwrap,
        "--unshare-all",  # PID, network, IPC, UTS and cgroup namespaces
        "--unshare-user",  # and a user namespace, required (not only tried): no capability outside it
        "--die-with-parent",
        "--new-session",  # no terminal to push input into (TIOCSTI)
        "--cap-drop",
        "ALL",
        # Kept only to mount the run folder with its bounds and to allow no user namespace inside (see
        # confine.private_folder, no_user_namespaces), then all given up before the candidate's code
        # runs (confine.drop_capabilities). They hold in this user namespace only: none lifts a limit.
        # (bwrap's own --disable-userns would nest a user namespace in which the mount is refused.)
        "--cap-add",
        "CAP_SYS_ADMIN",
        "--cap-add",
        "CAP_SYS_RESOURCE",
        "--cap-add",
        "CAP_SETPCAP",
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        *_runtime_mounts(),
        "--ro-bind",
        str(harness),
        f"{HARNESS_DIR}/harness.py",
        "--ro-bind",
        str(harness.with_name("confine.py")),
        f"{HARNESS_DIR}/confine.py",
        "--ro-bind",
        str(io_dir),
        IO,
        *(arg for name in RESULT_FILES for arg in ("--bind", str(io_dir / name), f"{IO}/{name}")),
        "--dir",
        RUN,  # where the harness mounts its run folder
        "--remount-ro",
        "/",  # the root's own tmpfs: no file made beside the mounts
        "--chdir",
        IO,
        "--info-fd",
        str(info_fd),
        "--block-fd",
        str(block_fd),
        "--",
        *argv,
    ]


@dataclass
class Box:
    """A started bwrap: its process, and the first process of its PID namespace (held by a pidfd).

    Killing that first process makes the kernel kill every process in the namespace, however the
    code detached them (fork, setsid, a new process group); `end` does it and waits until it is done.
    """

    process: subprocess.Popen[bytes]
    namespace: int | None  # a pidfd for the namespace's first process; None when it was gone already

    def end(self, wait_seconds: float = 5.0) -> None:
        """Kill the namespace and bwrap, and wait for both (up to `wait_seconds` for the namespace)."""
        if self.namespace is not None:
            with contextlib.suppress(ProcessLookupError, OSError):
                signal.pidfd_send_signal(self.namespace, signal.SIGKILL)
            select.select([self.namespace], [], [], wait_seconds)  # readable once it has exited
            os.close(self.namespace)
            self.namespace = None
        with contextlib.suppress(ProcessLookupError):
            self.process.kill()
        self.process.wait()


def start(
    bwrap: str,
    io_dir: Path,
    harness: Path,
    argv: Sequence[str],
    *,
    rlimits: Sequence[tuple[int, int, int]],
    stdio: int,
    env: dict[str, str],
) -> Box:
    """Start `argv` in a new sandbox, its resource limits (`rlimits`: which, soft, hard) set on the
    namespace's first process before the command is executed, so that the code starts under them and,
    without capabilities in the first user namespace, cannot raise them. OSError when it cannot start."""
    info_r, info_w = os.pipe()
    block_r, block_w = os.pipe()
    try:
        process = subprocess.Popen(
            command(bwrap, io_dir, harness, info_w, block_r, argv),
            stdin=subprocess.DEVNULL,
            stdout=stdio,
            stderr=stdio,
            env=env,
            pass_fds=(info_w, block_r),
            start_new_session=True,
        )
    except BaseException:
        for fd in (info_r, block_w):
            os.close(fd)
        raise
    finally:
        os.close(info_w)
        os.close(block_r)
    box = Box(process, None)
    try:
        pid = _first_pid(info_r)
        box.namespace = os.pidfd_open(pid)
        for which, soft, hard in rlimits:
            resource.prlimit(pid, which, (soft, hard))
        os.write(block_w, b"1")
    except BaseException:
        box.end()
        raise
    finally:
        os.close(info_r)
        os.close(block_w)
    return box


def _first_pid(info_fd: int) -> int:
    """The host pid of the namespace's first process, from bwrap's --info-fd; OSError when bwrap
    ended or said nothing usable in time."""
    deadline, data = time.monotonic() + INFO_SECONDS, b""
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not select.select([info_fd], [], [], remaining)[0]:
            raise OSError("bwrap did not start its sandbox")
        chunk = os.read(info_fd, 4096)
        if not chunk:
            break
        data += chunk
    try:
        pid = json.loads(data)["child-pid"]
    except (ValueError, KeyError, TypeError):
        raise OSError("bwrap did not start its sandbox") from None
    if not isinstance(pid, int) or isinstance(pid, bool) or pid <= 0:
        raise OSError("bwrap did not start its sandbox")
    return pid


PROBE = f"""
import importlib.util, sys
spec = importlib.util.spec_from_file_location("confine", "{HARNESS_DIR}/confine.py")
confine = importlib.util.module_from_spec(spec)
spec.loader.exec_module(confine)
confine.private_folder("{RUN}", 1 << 20, 16)
confine.no_user_namespaces()
confine.drop_capabilities()
import numpy
open("{IO}/report.json", "w").write("ok")
"""
"""What the harness does first under bubblewrap, and numpy's import: a sandbox that passes runs the harness."""


@functools.cache
def probe() -> tuple[str | None, str]:
    """(bwrap's path, "") when a sandbox starts here, mounts its run folder, gives up its capabilities
    and imports numpy; (None, why) when not. Run once per process: the answer does not change while it runs."""
    bwrap = executable()
    if bwrap is None:
        return None, "bubblewrap (bwrap) is not installed"
    import tempfile

    try:
        with tempfile.TemporaryDirectory(prefix="quiz-probe-") as folder:
            io_dir = Path(folder)
            for name in RESULT_FILES:
                (io_dir / name).write_bytes(b"")
            argv = [sys.executable, "-I", "-B", "-c", PROBE]
            with open(os.devnull, "wb") as null:
                harness = Path(__file__).with_name("harness.py")
                box = start(bwrap, io_dir, harness, argv, rlimits=(), stdio=null.fileno(), env={"PATH": os.defpath})
                try:
                    code = box.process.wait(timeout=PROBE_SECONDS)
                except subprocess.TimeoutExpired:
                    code = None
                finally:
                    box.end()
            if code != 0 or (io_dir / "report.json").read_text() != "ok":
                return None, f"bubblewrap could not start a sandbox here (exit status {code})"
    except OSError as error:
        return None, f"bubblewrap could not start a sandbox here ({error.strerror or error})"
    return bwrap, ""
