"""`quiz validate --watch`: a full report, then after each save only the problems fixed and new.

The watcher is driven with a fake `sleep` that edits the real files between looks, so nothing
waits on a clock.
"""

import io

from quiz.authoring.validation import validate_packs
from quiz.authoring.watch import watch

GOOD = """\
id: w
type: truefalse
topic: scaling
refs: [B1]
prompt: {en: Scaling flattens attention., ja: スケーリングは注意を平らにする。}
answer: false
explanation: {en: It keeps the variance near one., ja: 分散を 1 付近に保つためです。}
"""


def run_watch(tmp_path, edits):
    """Watch a pack while `edits` (one function per look, or None) change it; return the output."""
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "w.yaml").write_text(GOOD.replace("topic: scaling", "topic: scalng"), encoding="utf-8")
    out = io.StringIO()
    pending = list(edits)
    slept = []

    def sleep(seconds):
        slept.append(seconds)
        edit = pending.pop(0)
        if edit is not None:
            edit(pack)

    watch([pack], lambda: validate_packs([pack], seeds=5), out, sleep=sleep, rounds=len(edits))
    assert slept == [1.0] * len(edits)
    return out.getvalue()


def test_the_first_report_is_full_then_only_changes_are_printed(tmp_path):
    def fix(pack):
        (pack / "w.yaml").write_text(GOOD, encoding="utf-8")

    def comment(pack):
        (pack / "w.yaml").write_text("# a comment\n" + GOOD, encoding="utf-8")

    def break_again(pack):
        (pack / "w.yaml").write_text(GOOD.replace("refs: [B1]", "refs: [B99]"), encoding="utf-8")

    def add_file(pack):
        (pack / "v.yaml").write_text(GOOD.replace("id: w", "id: v").replace("[B1]", "[B99]"), encoding="utf-8")

    output = run_watch(tmp_path, [None, fix, None, comment, break_again, add_file])
    w, v = tmp_path / "pack" / "w.yaml", tmp_path / "pack" / "v.yaml"
    assert output.splitlines() == [
        f"{w}:3:1: error: w: unknown topic 'scalng' (did you mean 'scaling'?)",
        "checked 1 question in 1 file: 1 error, 0 warnings",
        "watching 1 file; Ctrl+C stops",
        f"changed: {w}",
        f"  fixed: {w}:3:1: error: w: unknown topic 'scalng' (did you mean 'scaling'?)",
        "checked 1 question in 1 file: 0 errors, 0 warnings",
        f"changed: {w}",
        "  no problem fixed or new",
        "checked 1 question in 1 file: 0 errors, 0 warnings",
        f"changed: {w}",
        f"  new: {w}:4:8: error: w: unknown claim 'B99' in refs (did you mean 'B9'?)",
        "checked 1 question in 1 file: 1 error, 0 warnings",
        f"changed: {v}",
        f"  new: {v}:4:8: error: v: unknown claim 'B99' in refs (did you mean 'B9'?)",
        "checked 2 questions in 2 files: 2 errors, 0 warnings",
    ]


def test_a_problem_that_only_moves_down_a_line_is_not_news(tmp_path):
    def shift(pack):
        text = (pack / "w.yaml").read_text(encoding="utf-8")
        (pack / "w.yaml").write_text("\n\n" + text, encoding="utf-8")

    output = run_watch(tmp_path, [shift])
    assert output.splitlines()[-2:] == ["  no problem fixed or new", "checked 1 question in 1 file: 1 error, 0 warnings"]


def test_the_command_watches_until_interrupted(tmp_path, capsys, monkeypatch):
    from quiz.authoring import watch as watching
    from quiz.cli.main import main

    path = tmp_path / "w.yaml"
    path.write_text(GOOD, encoding="utf-8")

    def interrupt(seconds):  # Ctrl+C at the first pause
        raise KeyboardInterrupt

    monkeypatch.setattr(watching.time, "sleep", interrupt)
    assert main(["validate", "--watch", str(path)]) == 130
    assert capsys.readouterr().out.splitlines() == [
        "checked 1 question in 1 file: 0 errors, 0 warnings",
        "watching 1 file; Ctrl+C stops",
    ]


def test_a_file_too_large_to_load_is_watched_without_reading_it_all(tmp_path):
    """The watcher reads a file as the loader does, at most 1 MiB: a huge one is noticed, not read."""
    from quiz.authoring.watch import snapshot

    pack = tmp_path / "pack"
    pack.mkdir()
    big = pack / "big.yaml"
    with big.open("wb") as out:
        out.truncate(64 * 2**30)  # 64 GiB, sparse: reading it all would never end in a test
    first = snapshot([pack])
    assert list(first) == [big]
    big.write_text(GOOD, encoding="utf-8")
    assert snapshot([pack])[big] != first[big]  # once it can be read, it has changed


WEAK = """\
- id: weak-scale
  type: number
  topic: scaling
  refs: [B4]
  params:
    s: {integer: [2, 40]}
  answer: s / 2
  tolerance: {atol: 100}
  prompt: {en: "Score $s = {{ s }}$ and $d_k = 4$: the scaled score?", ja: "スコア $s = {{ s }}$、$d_k = 4$ のときスケーリング後のスコアは？"}
  explanation: {en: "It is $s/2 = {{ answer }}$.", ja: "$s/2 = {{ answer }}$ です。"}
"""
BROKEN = """\
- id: broken-yaml
  type: truefalse
  topic: scaling
  refs: [B1]
  prompt: {en: Scaling flattens attention., ja: スケーリングは注意を平らにする。}
  answer: false
  explanation: {en: "It keeps the variance near one., ja: 分散を 1 付近に保つためです。}
"""


def test_broken_yaml_in_one_question_leaves_the_others_self_tested_so_every_error_shows_at_once(tmp_path):
    """Issue 32: one question's broken YAML (an unclosed quote) lost the whole file, so the other
    questions' self-test findings only showed once it was fixed."""
    pack = tmp_path / "pack"
    pack.mkdir()
    path = pack / "mixed.yaml"
    path.write_text(GOOD.replace("id: w", "- id: w").replace("\n", "\n  ").rstrip() + "\n" + BROKEN + WEAK, encoding="utf-8")
    out = io.StringIO()
    watch([pack], lambda: validate_packs([pack], seeds=5), out, sleep=lambda _: None, rounds=0)
    lines = out.getvalue().splitlines()
    assert lines[0] == f"{path}:15:1: error: invalid YAML: found unexpected end of stream (a quote or bracket opened above is never closed)"
    assert lines[1].startswith(f"{path}:22:3: error: weak-scale: self-test: ") and "tighten the tolerance" in lines[1]
    assert lines[2:] == ["checked 2 questions in 1 file: 2 errors, 0 warnings", "watching 1 file; Ctrl+C stops"]
