"""Confine the sandbox's child with Linux Landlock before the candidate's code runs: files may be read
only under the directories named (Python's standard library, numpy), read and written only in the
run's own directory, TCP neither bound nor connected, and no signal sent or abstract socket reached
outside the process.

So a solution cannot open the engine's or the quiz's sources, another user's history or the
terminal, nor talk to the network. Under bubblewrap, `private_folder`, `no_user_namespaces` and
`drop_capabilities` first give the run a tmpfs bounded in size and in number of files and forbid
new user namespaces, then give up the capabilities that took. Landlock needs no privilege (Linux 5.13 and later); where the
kernel has none, `confine` says so and changes nothing, and the sandbox reports the run unconfined.
Standard library only: the harness loads this file by path, with nothing of the quiz importable.
"""

from __future__ import annotations

import ctypes
import os
from collections.abc import Iterable

# Syscall numbers: the same on every architecture of the unified table (x86-64, arm64, riscv64, …).
CREATE_RULESET, ADD_RULE, RESTRICT_SELF = 444, 445, 446
CREATE_RULESET_VERSION = 1 << 0
RULE_PATH_BENEATH = 1
PR_SET_NO_NEW_PRIVS = 38

# Filesystem rights (linux/landlock.h), by the ABI version that introduced them.
READ_FILE, READ_DIR = 1 << 2, 1 << 3
FS_RIGHTS_BY_ABI = {
    1: (1 << 13) - 1,  # execute, write, read, read_dir, remove and make of every kind of file
    2: (1 << 14) - 1,  # + refer (link or rename across directories)
    3: (1 << 15) - 1,  # + truncate
    5: (1 << 16) - 1,  # + ioctl on devices
}
NET_BIND_TCP, NET_CONNECT_TCP = 1 << 0, 1 << 1  # ABI 4
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1 << 0, 1 << 1  # ABI 6
EXECUTE = 1 << 0
READ_ONLY = READ_FILE | READ_DIR
# Never made in the run directory: a FIFO or a link in place of a result would block or redirect the parent's read.
SPECIAL_FILES = (1 << 6) | (1 << 9) | (1 << 10) | (1 << 11) | (1 << 12)  # character device, socket, FIFO, block device, symlink


# A private run folder, and every capability given up after mounting it (bubblewrap grants two for that).
MS_NOSUID, MS_NODEV, MS_NOEXEC = 2, 4, 8
PR_CAPBSET_READ, PR_CAPBSET_DROP, PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 23, 24, 47, 4
CAP_SETPCAP, CAP_LAST = 8, 63
MAX_USER_NAMESPACES = "/proc/sys/user/max_user_namespaces"
CAPABILITY_VERSION_3 = 0x20080522


class CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


class RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64), ("scoped", ctypes.c_uint64)]


class PathBeneathAttr(ctypes.Structure):
    _pack_ = 1  # the kernel's struct is packed: 12 bytes
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def _libc() -> ctypes.CDLL:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return libc


def abi_version() -> int:
    """The kernel's Landlock ABI version, 0 where there is none (not Linux, too old, or turned off)."""
    try:
        version = int(_libc().syscall(ctypes.c_long(CREATE_RULESET), None, ctypes.c_size_t(0), ctypes.c_uint32(CREATE_RULESET_VERSION)))
    except (OSError, AttributeError):  # no libc to load, or no syscall() in it
        return 0
    return max(version, 0)


def _fs_rights(abi: int) -> int:
    return FS_RIGHTS_BY_ABI[max(version for version in FS_RIGHTS_BY_ABI if version <= abi)]


def confine(readable: Iterable[str], writable: str) -> int:
    """Restrict this process (and any it could start) for good; the ABI version applied, 0 when none could be.

    `readable` directories may be read beneath; `writable` may also be written beneath, with
    regular files and folders only (no FIFO, socket, device or symlink is made there). A
    directory that does not exist is left out. Raises OSError when the kernel refuses a step
    after the ruleset was made, so that a half-made confinement is never taken for a whole one.
    """
    abi = abi_version()
    if abi < 1:
        return 0
    libc, handled = _libc(), _fs_rights(abi)
    attr = RulesetAttr(handled_access_fs=handled)
    size = ctypes.sizeof(ctypes.c_uint64)  # ABI 1–3 know only the filesystem rights
    if abi >= 4:
        attr.handled_access_net, size = NET_BIND_TCP | NET_CONNECT_TCP, 2 * ctypes.sizeof(ctypes.c_uint64)
    if abi >= 6:
        attr.scoped, size = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL, ctypes.sizeof(RulesetAttr)
    ruleset = int(libc.syscall(ctypes.c_long(CREATE_RULESET), ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0)))
    if ruleset < 0:
        raise OSError(ctypes.get_errno(), "landlock_create_ruleset: " + os.strerror(ctypes.get_errno()))
    try:
        for path, rights in [*((p, READ_ONLY) for p in readable), (writable, handled & ~EXECUTE & ~SPECIAL_FILES)]:
            _allow(libc, ruleset, path, rights & handled)
        if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS): " + os.strerror(ctypes.get_errno()))
        if libc.syscall(ctypes.c_long(RESTRICT_SELF), ctypes.c_int(ruleset), ctypes.c_uint32(0)) != 0:
            raise OSError(ctypes.get_errno(), "landlock_restrict_self: " + os.strerror(ctypes.get_errno()))
    finally:
        os.close(ruleset)
    return abi


def _allow(libc: ctypes.CDLL, ruleset: int, path: str, rights: int) -> None:
    """Allow `rights` beneath `path`; a path that does not exist is skipped."""
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return
    try:
        beneath = PathBeneathAttr(allowed_access=rights, parent_fd=fd)
        rule = (ctypes.c_int(RULE_PATH_BENEATH), ctypes.byref(beneath), ctypes.c_uint32(0))
        status = libc.syscall(ctypes.c_long(ADD_RULE), ctypes.c_int(ruleset), *rule)
        if status != 0:
            raise OSError(ctypes.get_errno(), f"landlock_add_rule({path}): " + os.strerror(ctypes.get_errno()))
    finally:
        os.close(fd)


def private_folder(path: str, max_bytes: int, max_files: int) -> None:
    """Mount a new tmpfs on `path` holding at most `max_bytes` of data and `max_files` files and
    folders (itself included): the bound on what the code can make there, in count as in size.
    Needs CAP_SYS_ADMIN in this process's user namespace (bubblewrap's --cap-add); OSError without."""
    libc = _libc()
    options = f"size={max_bytes},nr_inodes={max_files},mode=0700".encode()
    if libc.mount(b"tmpfs", path.encode(), b"tmpfs", ctypes.c_ulong(MS_NOSUID | MS_NODEV | MS_NOEXEC), options) != 0:
        raise OSError(ctypes.get_errno(), f"mount tmpfs on {path}: " + os.strerror(ctypes.get_errno()))


def no_user_namespaces() -> None:
    """Allow no new user namespace below this one, so that the code cannot gain capabilities in one of
    its own (and mount a tmpfs without bounds there). Needs CAP_SYS_RESOURCE here; OSError without."""
    with open(MAX_USER_NAMESPACES, "w") as limit:
        limit.write("0")


def drop_capabilities() -> None:
    """Give up every capability for good (bounding, ambient, effective, permitted and inheritable sets)
    and gain none on exec; OSError when one is still held afterwards."""
    libc = _libc()
    for cap in [*(c for c in range(CAP_LAST + 1) if c != CAP_SETPCAP), CAP_SETPCAP]:  # CAP_SETPCAP drops the others
        libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)  # EINVAL past the kernel's last capability: nothing to drop
    libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS): " + os.strerror(ctypes.get_errno()))
    header, cleared = CapHeader(CAPABILITY_VERSION_3, 0), (CapData * 2)()
    if libc.capset(ctypes.byref(header), cleared) != 0:
        raise OSError(ctypes.get_errno(), "capset: " + os.strerror(ctypes.get_errno()))
    held = (CapData * 2)()
    if libc.capget(ctypes.byref(header), held) != 0:
        raise OSError(ctypes.get_errno(), "capget: " + os.strerror(ctypes.get_errno()))
    bounding = [cap for cap in range(CAP_LAST + 1) if libc.prctl(PR_CAPBSET_READ, cap, 0, 0, 0) == 1]
    if bounding or any(data.effective or data.permitted or data.inheritable for data in held):
        raise OSError("capabilities still held after dropping them")
