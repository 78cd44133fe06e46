"""Issue 34: under bubblewrap the candidate's process lives in namespaces of its own. Nothing it starts
outlives the grade, however detached (fork and setsid through ctypes, past the audit hook it
switches off); it sees none of the parent's processes, reaches no network, writes nothing outside
its run folder, fills no more than the run folder's bounds (bytes and files), holds no capability,
and cannot raise the limits it was started under. Real bwrap, real child processes; skipped, with the reason, where bwrap cannot run."""

from __future__ import annotations

import errno
import os
import resource
import socket
import sys
import textwrap
import uuid
from pathlib import Path

import numpy as np
import pytest

from quiz.code import bubblewrap, confine
from quiz.code.sandbox import Call, Limits, confinement, run_calls
from sandbox_children import named

BWRAP, WHY = bubblewrap.probe()
pytestmark = pytest.mark.skipif(BWRAP is None, reason=f"no bubblewrap confinement here: {WHY}")

ROOMY = Limits(cpu_seconds=60, wall_seconds=120)
MARKER = f"leak{uuid.uuid4().hex[:10]}"  # a process name no other process on the machine has

ESCAPES = textwrap.dedent(
    """\
    import ctypes, os, resource, socket, sys
    import numpy as np

    sys.modules["__main__"].REFUSED_EVENTS = frozenset()  # the audit hook's list, emptied: ctypes is free
    libc = ctypes.CDLL(None, use_errno=True)

    def can(action):
        try:
            action()
            return 1.0
        except (OSError, ValueError):  # ValueError: setrlimit's refusal to raise a hard limit
            return 0.0

    def detaches(name):
        # a child in a session of its own, named so that the test finds it, asleep well past the run
        pid = libc.fork()
        if pid == 0:
            libc.setsid()
            libc.prctl(15, str(name).encode(), 0, 0, 0)  # PR_SET_NAME
            libc.sleep(1000)
            libc._exit(0)
        return np.array([float(pid)])

    def looks_for_parent(host_pid):
        host_pid = int(host_pid)
        return np.array([
            float(os.getppid() == host_pid),
            float(os.path.exists(f"/proc/{host_pid}")),
            can(lambda: open(f"/proc/{host_pid}/environ", "rb").read()),
            float(os.getpid()),
        ])

    def networks(port):
        names = [name for _, name in socket.if_nameindex()]
        return np.array([float(names == ["lo"]), can(lambda: socket.create_connection(("127.0.0.1", int(port)), timeout=5).close())])

    def writes(outside):
        return np.array([
            can(lambda: open(os.path.join(str(outside), "planted.py"), "w").write("x")),
            can(lambda: open("/planted.py", "w").write("x")),
            can(lambda: open("/run/io/config.json", "w").write("x")),
            can(lambda: open("scratch.txt", "w").write("x")),
        ])

    def fills(chunk):
        written, index = 0, 0
        try:
            while True:
                with open(f"fill{index}", "wb") as file:
                    for _ in range(8):
                        written += file.write(b"x" * int(chunk))
                        file.flush()
                index += 1
        except OSError as error:
            return np.array([float(written), float(error.errno)])

    def makes_files(x):
        made = 0
        try:
            while True:
                os.mkdir(f"d{made}") if made % 2 else open(f"f{made}", "w").close()
                made += 1
        except OSError as error:
            return np.array([float(made), float(error.errno)])

    def holds_capabilities(x):
        header, held = (ctypes.c_uint32 * 2)(0x20080522, 0), (ctypes.c_uint32 * 6)()
        libc.capget(header, held)
        mounted = libc.mount(b"tmpfs", b".", b"tmpfs", 0, b"size=1g") == 0
        bounding = sum(libc.prctl(23, cap, 0, 0, 0) == 1 for cap in range(64))  # PR_CAPBSET_READ
        own_namespace = libc.unshare(0x10000000) == 0  # CLONE_NEWUSER: capabilities anew, in a namespace of its own
        return np.array([float(sum(held)), float(mounted), float(bounding), float(own_namespace)])

    def raises_limits(x):
        lifted = []
        for which in (resource.RLIMIT_CPU, resource.RLIMIT_AS, resource.RLIMIT_FSIZE):
            soft, hard = resource.getrlimit(which)
            lifted.append(can(lambda: resource.setrlimit(which, (soft, resource.RLIM_INFINITY))))
        return np.array(lifted + [float(resource.getrlimit(resource.RLIMIT_CPU)[1])])
    """
)


def run(function: str, argument: object, limits: Limits = ROOMY) -> np.ndarray:
    result = run_calls(ESCAPES, [Call(function, (argument,), max_elements=10)], limits=limits)
    assert result.load_error is None and result.isolated, result
    assert result.calls[0].error is None, result.calls[0].error
    return result.calls[0].arrays[0]


def test_the_run_says_it_was_isolated_and_landlock_still_holds_inside():
    result = run_calls("def f(x):\n    return x\n", [Call("f", (np.zeros(1),))], limits=ROOMY)
    assert result.isolated and result.confined == confine.abi_version()
    assert confinement().level == "namespaces" and confinement().isolated


def test_a_detached_process_the_code_started_is_gone_once_the_grade_is():
    (pid,) = run("detaches", MARKER)
    assert pid > 0  # the fork was made, in the namespace
    assert named(MARKER) == []


def test_the_code_sees_none_of_the_parents_processes():
    is_parent, sees_it, reads_environ, own_pid = run("looks_for_parent", os.getpid())
    assert (is_parent, sees_it, reads_environ) == (0.0, 0.0, 0.0)
    assert own_pid == 2.0  # bwrap's reaper is 1; the harness is the namespace's first command


def test_the_code_has_no_network_but_its_own_loopback(tmp_path):
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        only_loopback, connected = run("networks", server.getsockname()[1])
    assert (only_loopback, connected) == (1.0, 0.0)


def test_the_code_writes_only_in_its_run_folder(tmp_path):
    assert run("writes", str(tmp_path)).tolist() == [0.0, 0.0, 0.0, 1.0]
    assert list(tmp_path.iterdir()) == []


def test_the_run_folder_holds_no_more_than_its_bound():
    limits = Limits(cpu_seconds=60, wall_seconds=120, run_bytes=1 << 20)
    written, code = run("fills", 64 << 10, limits)
    assert code == errno.ENOSPC and written <= 1 << 20


def test_the_run_folder_holds_no_more_files_than_its_bound():
    limits = Limits(cpu_seconds=60, wall_seconds=120, run_files=50)
    made, code = run("makes_files", 0, limits)
    assert code == errno.ENOSPC and made == 49  # the folder itself is the fiftieth


def test_no_capability_is_left_once_the_run_folder_is_mounted_nor_one_to_be_had_in_a_new_user_namespace():
    assert run("holds_capabilities", 0).tolist() == [0.0, 0.0, 0.0, 0.0]


def test_the_limits_are_set_before_the_code_starts_and_cannot_be_raised():
    lifted_cpu, lifted_memory, lifted_file, cpu_hard = run("raises_limits", 0)
    assert (lifted_cpu, lifted_memory, lifted_file) == (0.0, 0.0, 0.0)
    assert cpu_hard == ROOMY.cpu_seconds + 1


def test_bwrap_sets_the_limits_on_the_sandbox_before_its_command_runs(tmp_path):
    """Not the harness lowering them itself: the command's first instruction already runs under them."""
    for name in bubblewrap.RESULT_FILES:
        (tmp_path / name).write_bytes(b"")
    script = "import resource; open('/run/io/report.json', 'w').write(repr(resource.getrlimit(resource.RLIMIT_CPU)))"
    with open(os.devnull, "wb") as null:
        box = bubblewrap.start(
            BWRAP, tmp_path, Path(bubblewrap.__file__).with_name("harness.py"), [sys.executable, "-I", "-c", script],
            rlimits=[(resource.RLIMIT_CPU, 7, 8)], stdio=null.fileno(), env={},
        )
        try:
            assert box.process.wait(timeout=60) == 0
        finally:
            box.end()
    assert (tmp_path / "report.json").read_text() == "(7, 8)"
