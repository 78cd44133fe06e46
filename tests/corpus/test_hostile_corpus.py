"""The hostile corpus (tests/hostile/, see its README): every pack through `quiz validate`,
`quiz list --bank`, `quiz show` and `quiz grade`, every answer through `quiz grade`, as real
processes under a memory limit. Each uses at most LIMIT_SECONDS of CPU time and ends with the exit
code its header expects and a message naming the file, never a traceback, and the bundled
questions still list beside it. Every settings file starts the real app with usable settings.

The limit is on the process's own CPU time, not the wall clock: on a machine that other tests (or
other jobs) keep busy, a process can wait for a core longer than it runs. A wall-clock guard,
HANG_FACTOR times longer, still catches a process that blocks (a FIFO read never returns and
costs no CPU). bench/hostile_packs.py gives the wall-clock figures.

The packs built to use up a variant's CPU time (TIME_BOUND) run with the budget clock
10 or 100 times faster (QUIZ_CPU_CLOCK_SPEED), so their budget runs out after a small fraction
of their work however fast the machine is, and the test checks it was the time budget that
stopped them.

Each process's environment is made when it starts, from the test's: the autouse fixture's
temporary data, config and cache folders, never the developer's own.

Processes write to files rather than pipes, so two can run at once without either blocking.
"""

from __future__ import annotations

import json
import os
import re
import resource
import sqlite3
import subprocess
import sys
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from hostile_flood import unknown_field_flood
from places import TESTS
from quiz.bank import load_bank
from quiz.base import locations
from quiz.history.settings import load_settings, settings_path
from quiz.ui.app import make_app
from quiz.ui.screens.home import HomeScreen
from quiz.ui.screens.settings import SettingsScreen

pytestmark = pytest.mark.slow  # real `quiz` processes, one per pack and command

CORPUS = TESTS / "hostile"
LIMIT_SECONDS = 10
HANG_FACTOR = 6
MEMORY_BYTES = 512 * 2**20
BUNDLED = list(load_bank([locations.bundled_bank_dir()]).questions)
TIME_BOUND = {
    "c1-constraint-products": 100, "c1-float16-products": 100, "c1-float16-products-unsatisfiable": 100,
    "c1-int64-products": 100, "c1-misconception-products": 100, "c6-prompt-out-of-time": 100,
    "c1-template-products": 10,
}  # fmt: skip
"""Packs whose variants run out of CPU time (the others of c1 run out of elements or draws first),
and how much faster their budget clock runs: at 100 the 1 s budget is 10 ms of CPU, a fraction of
one float16 product. c1-template-products' draw (H and V, a few ms) must fit in the budget and
only its prompt (60 products) must not: at 10, its budget is 100 ms."""


def process_env(clock_speed: int = 1) -> dict[str, str]:
    """The environment of a `quiz` process, made now from the test's (its folders included)."""
    # One BLAS thread: the address space a process needs then depends on the code, not the machine.
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    env.pop("QUIZ_CPU_CLOCK_SPEED", None)
    if clock_speed != 1:
        env["QUIZ_CPU_CLOCK_SPEED"] = str(clock_speed)
    return env


@dataclass(frozen=True)
class Pack:
    """A corpus pack and what its header expects: `# id:`, `# expect:` and `# answer:` lines."""

    path: Path
    key: str
    expect: dict[str, str]
    answer: str

    @property
    def id(self) -> str:
        return self.key.partition("#")[0]


def read_pack(path: Path) -> Pack:
    header = dict(re.findall(rb"^# (\w+): (.*)$", path.read_bytes(), flags=re.M))
    expect = dict(item.split("=") if "=" in item else (item, "yes") for item in header[b"expect"].decode().split())
    return Pack(path, header[b"id"].decode(), expect, header.get(b"answer", b"1").decode())


PACKS = [read_pack(path) for path in sorted(CORPUS.glob("*.yaml"))]
ANSWERS = sorted(CORPUS.glob("c8-*.json"))
SETTINGS = sorted((CORPUS / "settings").glob("c9-*"))


def limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))


@dataclass
class Run:
    args: tuple[str, ...]
    code: int
    out: str
    err: str
    cpu_seconds: float
    limit: float

    def names(self, path: Path) -> bool:
        return path.name in self.out or path.name in self.err


class Quiz:
    """Started `quiz` processes under the limits; `finish` waits for each and reads its output."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.count = 0

    def start(
        self, *args: str, limit: float = LIMIT_SECONDS, clock_speed: int = 1
    ) -> tuple[subprocess.Popen[bytes], tuple[str, ...], Path, float, float]:
        self.count += 1
        out = self.folder / f"run-{self.count}"
        env = process_env(clock_speed)
        with open(f"{out}.out", "wb") as stdout, open(f"{out}.err", "wb") as stderr:
            process = subprocess.Popen([sys.executable, "-m", "quiz", *args], stdout=stdout, stderr=stderr, env=env, preexec_fn=limit_memory)
        return process, args, out, time.monotonic(), limit

    def finish(self, started: tuple[subprocess.Popen[bytes], tuple[str, ...], Path, float, float]) -> Run:
        process, args, out, start, limit = started
        cpu_seconds = wait_for_cpu_seconds(process, deadline=start + limit * HANG_FACTOR)
        if cpu_seconds is None:
            process.kill()
            process.wait()
            pytest.fail(f"quiz {' '.join(args)[:200]} still running after {limit * HANG_FACTOR} s")
        text = [Path(f"{out}.{stream}").read_text(encoding="utf-8", errors="replace") for stream in ("out", "err")]
        return Run(args, process.returncode, *text, cpu_seconds, limit)

    def run(self, *args: str, limit: float = LIMIT_SECONDS, clock_speed: int = 1) -> Run:
        return self.finish(self.start(*args, limit=limit, clock_speed=clock_speed))


def speed_for(packs: list[Pack]) -> int:
    """The budget clock's speed for a process running `packs`: faster only for TIME_BOUND ones."""
    speeds = {TIME_BOUND.get(p.path.stem, 1) for p in packs}
    assert len(speeds) == 1, "a process runs packs of one clock speed"
    return speeds.pop()


def ran_out_of_time(run: Run) -> bool:
    return "CPU-time budget of 1 s" in run.out + run.err


def wait_for_cpu_seconds(process: subprocess.Popen[bytes], deadline: float) -> float | None:
    """Reap `process` and return the CPU time it used (user + system), or None if it is still
    running at `deadline` (monotonic). os.wait4 gives this one child's usage, where getrusage's
    RUSAGE_CHILDREN would mix in every child reaped so far."""
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid == process.pid:
            process.returncode = os.waitstatus_to_exitcode(status)
            return usage.ru_utime + usage.ru_stime
        if time.monotonic() > deadline:
            return None
        time.sleep(0.01)


@pytest.fixture
def quiz(tmp_path) -> Quiz:
    return Quiz(tmp_path)


def no_traceback(run: Run) -> None:
    assert "Traceback" not in run.err and "internal error" not in run.err, run.err[-2000:]
    assert run.cpu_seconds < run.limit, f"{run.cpu_seconds:.1f} s of CPU time"


def test_quiz_processes_use_the_tests_folders_not_the_users(quiz, isolated_user_dirs):
    run = quiz.run("paths", "--json")
    assert run.code == 0, run.err
    paths = json.loads(run.out)
    assert Path(paths["settings"]).parent == isolated_user_dirs / "config"
    assert Path(paths["history"]).parent == Path(paths["packs"]).parent == isolated_user_dirs / "data"
    assert Path(paths["cache"]) == isolated_user_dirs / "cache"


def test_the_corpus_covers_every_class_of_the_issue():
    classes = {path.name.split("-")[0] for path in CORPUS.rglob("c*-*")}
    assert classes >= {"c1", "c2", "c4", "c5", "c6", "c7", "c8", "c9", "c10"}
    assert len(PACKS) + len(ANSWERS) + len(SETTINGS) >= 80


# Self-tests of the CPU-heavy packs take seconds each: those run one per process, and so do the
# time-bound ones, on a faster budget clock than the others.
VALIDATE_GROUPS = [[p] for p in PACKS if p.path.name.startswith("c1-") or p.path.stem in TIME_BOUND] + [
    [p for p in PACKS if p.path.name.startswith(prefix) and p.path.stem not in TIME_BOUND] for prefix in ("c2-", "c4-", "c5-", "c6-", "c7-", "c10-")
]


@pytest.mark.parametrize("group", VALIDATE_GROUPS, ids=[g[0].path.stem if len(g) == 1 else g[0].path.name.split("-")[0] for g in VALIDATE_GROUPS])
def test_validate_names_every_bad_file(quiz, group):
    run = quiz.run("validate", *(str(p.path) for p in group), clock_speed=speed_for(group))
    no_traceback(run)
    if speed_for(group) != 1:
        assert ran_out_of_time(run), run.out[-2000:]
    failing = [p for p in group if p.expect["validate"] == "1"]
    assert run.code == (1 if failing else 0), run.out[-2000:]
    for pack in failing:
        assert re.search(rf"{re.escape(pack.path.name)}(:\d+)*: error: ", run.out), (pack.path.name, run.out[-3000:])
    for pack in group:
        if pack.expect["validate"] == "0" and pack.path.name.startswith("c7-"):  # usable, but told
            assert re.search(rf"{re.escape(pack.path.name)}:\d+:\d+: warning: .*control characters", run.out), pack.path.name


def test_bundled_questions_still_list_beside_the_whole_corpus(quiz):
    run = quiz.run("list", *(arg for p in PACKS for arg in ("--bank", str(p.path))))
    no_traceback(run)
    assert run.code == 0, run.err[-2000:]
    listed = {line.split()[0] for line in run.out.splitlines()[:-1]}
    assert set(BUNDLED) <= listed
    for pack in PACKS:
        if pack.expect["list"] == "listed":
            assert pack.id in listed, pack.path.name
        else:
            assert re.search(rf"quiz: skipped: .*{re.escape(pack.path.name)}", run.err), pack.path.name


@pytest.mark.parametrize("pack", PACKS, ids=[p.path.stem for p in PACKS])
def test_show_and_grade_end_with_a_located_message(quiz, pack):
    bank = ("--bank", str(pack.path))
    commands = {"show": ("show", pack.key, "--answer", *bank), "grade": ("grade", pack.key, "--answer", pack.answer, *bank)}
    speed = speed_for([pack])
    if pack.path.name.startswith("c1-"):  # each burns its CPU budget: one at a time, so neither waits on the other
        runs = {name: quiz.run(*args, clock_speed=speed) for name, args in commands.items()}
    else:
        started = {name: quiz.start(*args, clock_speed=speed) for name, args in commands.items()}
        runs = {name: quiz.finish(process) for name, process in started.items()}
    for name, run in runs.items():
        no_traceback(run)
        if speed != 1 and (name == "show" or run.code != 0):  # what stopped it is shown (grade shows no prompt)
            assert ran_out_of_time(run), (run.args, run.out[-1000:], run.err[-1000:])
        assert run.code == int(pack.expect[name]), (run.args, run.out[-1000:], run.err[-1000:])
        if run.code != 0:
            assert run.names(pack.path), (run.args, run.err[-1000:])
    if "located" in pack.expect:  # a text that could not be filled in shows where it stands
        shown = runs[pack.expect["located"]].out
        assert re.search(rf"⚠ .*{re.escape(pack.path.name)}:\d+:\d+: ", shown), shown[-1000:]


@pytest.mark.parametrize("path", ANSWERS, ids=[p.stem for p in ANSWERS])
def test_hostile_answers_are_graded_or_refused(quiz, path):
    case = json.loads(path.read_text(encoding="utf-8"))
    run = quiz.run("grade", case["key"], "--answer", case["answer"])
    no_traceback(run)
    assert run.code == case["exit"], (run.out, run.err)
    if run.code == 3:
        assert run.err.startswith("quiz: cannot read the answer: ")


def test_generated_hostile_files(quiz, tmp_path):
    """What a repository cannot hold: a FIFO, a device, a file over 1 MiB, a name with ESC."""
    made = tmp_path / "made"
    made.mkdir()
    os.mkfifo(made / "fifo.yaml")
    (made / "zero.yaml").symlink_to("/dev/zero")
    (made / "big.yaml").write_text("# " + "x" * (1024 * 1024) + "\n", encoding="utf-8")
    (made / "name\x1b]0;title\x07.yaml").write_text("id: [unclosed\n", encoding="utf-8")
    (made / "flood.yaml").write_text(unknown_field_flood(), encoding="utf-8")
    validate = quiz.run("validate", *(str(p) for p in sorted(made.iterdir())))
    listing = quiz.run("list", "--bank", str(made / "fifo.yaml"), "--bank", str(made / "zero.yaml"), "--bank", str(made))
    for run in (validate, listing):
        no_traceback(run)
        assert "\x1b" not in run.out + run.err
    assert validate.code == 1 and listing.code == 0
    assert "big.yaml: error: cannot read file: it is 1,048,579 bytes; the limit is 1,048,576" in validate.out
    assert "name]0;title.yaml:2:1: error: invalid YAML" in validate.out
    assert len(re.findall(r"flood\.yaml:\d+:\d+: error: ", validate.out)) == 20
    assert "flood.yaml: error: " in validate.out and "more problems in this file are not listed" in validate.out
    assert set(BUNDLED) <= {line.split()[0] for line in listing.out.splitlines()[:-1]}


# Exporting writes every bundled question's variants as well (about 3 s of CPU time): a longer
# limit for the whole export. Its budget clock runs only a little faster: the bundled variants
# (40 ms at most) stay well within their budgets, c1-products (some 400 float16 products) not.
EXPORT_LIMIT_SECONDS = 40
EXPORT_CLOCK_SPEED = 4
EXPORTED = ["c1-float16-products", "c6-prompt-out-of-time", "c6-option-label", "c7-prompt-title"]


def test_export_anki_writes_a_deck_with_located_messages_and_names_what_it_left_out(quiz, tmp_path):
    deck = tmp_path / "deck.apkg"
    packs = [CORPUS / f"{name}.yaml" for name in EXPORTED]
    banks = (arg for p in packs for arg in ("--bank", str(p)))
    run = quiz.run("export-anki", "-o", str(deck), *banks, limit=EXPORT_LIMIT_SECONDS, clock_speed=EXPORT_CLOCK_SPEED)
    no_traceback(run)
    assert run.code == 0, run.err[-2000:]
    assert "\x1b" not in run.out + run.err
    assert re.search(r"not exported: c1-products#0: .*CPU-time budget of 1 s", run.err), run.err[-2000:]
    assert "not exported: c1-products: seeds 1 to 2 left out" in run.err
    with zipfile.ZipFile(deck) as package:
        (tmp_path / "collection.anki2").write_bytes(package.read("collection.anki2"))
    connection = sqlite3.connect(tmp_path / "collection.anki2")
    notes = {fields.split("\x1f")[0]: fields for (fields,) in connection.execute("SELECT flds FROM notes")}
    connection.close()
    broken = set(re.findall(r"not exported: ([\w-]+): has errors", run.err))  # named, as validate names them
    assert set(BUNDLED) - broken <= {key.partition("#")[0] for key in notes}
    assert not any(key.startswith("c1-products") for key in notes)
    assert re.search(r"⚠ \S*c6-prompt-out-of-time\.yaml:11:1: ", notes["c6-slow#0"])
    assert re.search(r"⚠ \S*c6-option-label\.yaml:12:6: ", notes["c6-option#0"])


@pytest.mark.parametrize("path", SETTINGS, ids=[p.stem for p in SETTINGS])
async def test_every_settings_file_starts_the_app(isolated_user_dirs, path):
    target = settings_path()
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(path.read_bytes())
    settings, problem = load_settings()
    assert settings.language in ("en", "ja") and (problem is None or str(target) in problem)
    app = make_app(bank=load_bank([CORPUS / "c7-prompt-colour.yaml"]))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("f8")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
    assert target.read_bytes() == path.read_bytes()  # nothing chosen, nothing rewritten
