"""The bank cache: a warm load gives the same bank as a cold one, skips YAML and the model, and
any cache it cannot trust (damaged, foreign, stale, someone else's) is ignored and written afresh."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from places import TESTS
from quiz.bank import Bank, load_bank
from quiz.bank import loading as bank_loading
from quiz.bank.cache import KEPT_FILES, MAX_CACHE_BYTES, BankCache, source_hash
from quiz.base import locations
from quiz.base.cache_key import cache_key, seal
from quiz.format.yaml_data import ReadingStopped

# What a first start does with an empty cache folder is part of what these tests check.
pytestmark = pytest.mark.cold_cache

HOSTILE = TESTS / "hostile"

QUESTION = """\
- id: {id}
  type: truefalse
  topic: scaling
  refs: [B1]
  prompt: Scaling by 1/sqrt(d_k) makes attention uniform.
  answer: false
"""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def snapshot(bank: Bank) -> dict[str, object]:
    """Everything loading gives, with every field of every question (locations, marks, versions)."""
    return {
        "questions": [repr(q) for q in bank.questions.values()],
        "rejected": [repr(q) for q in bank.rejected],
        "skipped": [repr(s) for s in bank.skipped],
        "diagnostics": [repr(d) for d in bank.report.diagnostics],
        "counts": (bank.report.error_count, bank.report.warning_count),
        "files": list(bank.files),
        "claims": repr(bank.claims),
    }


def warm_load(folder: Path | None, sources: list[Path] | None = None) -> tuple[Bank, BankCache]:
    """Load through a cache in `folder` and save it, as the app does."""
    cache = BankCache(folder)
    bank = load_bank(sources, cache=cache)
    cache.save()
    return bank, cache


def cache_file(folder: Path) -> Path:
    [path] = folder.glob("bank-*.jsonl")
    return path


def unsealed_lines(path: Path) -> list[str]:
    """The cache file's lines before its seal (the header, then the entries)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[-1].startswith('["mac","'), lines[-1][:40]
    return lines[:-1]


def write_sealed(path: Path, lines: list[str]) -> None:
    """Write `lines` as the cache file, sealed with this user's key as the quiz seals it: what a
    cache written by the quiz itself holds, for the tests of entries that do not fit the model."""
    text = "".join(line + "\n" for line in lines)
    key = cache_key(create=False)
    assert key is not None
    path.write_text(text + json.dumps(["mac", seal(text.encode("utf-8"), key)], separators=(",", ":")) + "\n", encoding="utf-8")


@pytest.fixture
def no_reading(monkeypatch):
    """Loading may not parse YAML or convert a question: what a warm load must skip."""

    def refuse(*args, **kwargs):
        raise AssertionError("a warm load parsed or converted a file")

    for name in ("parse_yaml", "parse_claims", "convert_question"):
        monkeypatch.setattr(bank_loading, name, refuse)


@pytest.mark.slow
def test_a_warm_load_of_the_bundled_bank_equals_a_cold_one_and_reads_no_yaml(tmp_path, request):
    cold = load_bank()
    first, cache = warm_load(tmp_path)
    assert cache.status == "missing" and snapshot(first) == snapshot(cold)
    request.getfixturevalue("no_reading")
    warm, cache = warm_load(tmp_path)
    assert cache.status == "used"
    assert snapshot(warm) == snapshot(cold)
    assert warm.questions == cold.questions and len(warm) > 50


def error_packs(folder: Path) -> Path:
    """Packs with every kind of problem: broken YAML, rejected and skipped questions, an id in two
    files, a flood of errors past the listed share, bad follow-ups, a file holding no question."""
    write(folder / "a-good.yaml", QUESTION.format(id="same") + QUESTION.format(id="good"))
    write(folder / "b-dup.yaml", QUESTION.format(id="other") + QUESTION.format(id="same"))
    write(folder / "c-broken.yaml", "- id: [unclosed\n")
    write(folder / "d-scalar.yaml", "just text\n")
    fields = "".join(f"  unknown_{i}: 1\n" for i in range(30))
    write(folder / "e-flood.yaml", "".join(QUESTION.format(id=f"q{n}") + fields for n in range(5)) + QUESTION.format(id="good"))
    write(folder / "f-rules.yaml", QUESTION.format(id="hard") + "  difficulty: 7\n  follow_ups: [nosuch, good]\n")
    write(folder / "g-refused.yaml", QUESTION.format(id="deep") + "  hints: " + "[" * 300 + "]" * 300 + "\n")
    return folder


@pytest.mark.parametrize("packs", ["crafted", "hostile corpus"])
def test_a_warm_load_of_packs_with_errors_reports_exactly_what_a_cold_one_does(tmp_path, packs, request):
    source = error_packs(tmp_path / "packs") if packs == "crafted" else HOSTILE
    cold = load_bank([source])
    assert cold.report.errors and cold.skipped
    first, _ = warm_load(tmp_path / "cache", [source])
    request.getfixturevalue("no_reading")
    warm, cache = warm_load(tmp_path / "cache", [source])
    assert cache.status == "used"
    assert snapshot(first) == snapshot(warm) == snapshot(cold)
    assert warm.rejected == cold.rejected


def test_a_packs_own_claims_and_topics_come_back_from_a_warm_cache_as_a_cold_load_gives_them(tmp_path, request):
    own = TESTS / "fixtures" / "own-claims"
    cold = load_bank([own])
    assert "rope:R1" in cold.claims.claims and "rope:rotary" in cold.claims.topics
    first, _ = warm_load(tmp_path / "cache", [own])
    request.getfixturevalue("no_reading")
    warm, cache = warm_load(tmp_path / "cache", [own])
    assert cache.status == "used"
    assert snapshot(first) == snapshot(warm) == snapshot(cold)


def test_the_flood_past_the_listed_share_is_counted_the_same_from_the_cache(tmp_path, request):
    source = error_packs(tmp_path / "packs")
    cold, _ = warm_load(tmp_path / "cache", [source])
    request.getfixturevalue("no_reading")
    warm, _ = warm_load(tmp_path / "cache", [source])

    def flood(bank: Bank) -> list[str]:
        return [d.message for d in bank.report.diagnostics if d.location.path.name == "e-flood.yaml"]

    # 150 unknown fields, then the id `good` again (a clash only the bank sees): 20 listed, the rest counted.
    assert len(flood(warm)) == 21 and flood(warm)[-1].startswith("131 more problems in this file")
    assert flood(warm) == flood(cold) and warm.report.error_count == cold.report.error_count


def test_a_pack_changed_by_one_byte_is_read_again(tmp_path):
    packs = tmp_path / "packs"
    pack = write(packs / "a.yaml", QUESTION.format(id="one"))
    write(packs / "b.yaml", QUESTION.format(id="two"))
    warm_load(tmp_path / "cache", [packs])
    pack.write_text(QUESTION.format(id="one").replace("uniform.", "uniform!"), encoding="utf-8")
    warm, cache = warm_load(tmp_path / "cache", [packs])
    assert cache.status == "used"
    assert warm.questions["one"].prompt.en.endswith("uniform!")
    assert snapshot(warm) == snapshot(load_bank([packs]))
    # The cache now holds the new content, and only it: the old entry is gone.
    lines = unsealed_lines(cache_file(tmp_path / "cache"))[1:]
    assert sorted(Path(json.loads(line)[1]).name for line in lines) == ["a.yaml", "b.yaml", "claims.yaml"]


def test_a_pack_added_or_removed_changes_the_bank(tmp_path):
    packs = tmp_path / "packs"
    write(packs / "a.yaml", QUESTION.format(id="one"))
    warm_load(tmp_path / "cache", [packs])
    added = write(packs / "b.yaml", QUESTION.format(id="two"))
    assert set(warm_load(tmp_path / "cache", [packs])[0].questions) == {"one", "two"}
    added.unlink()
    assert set(warm_load(tmp_path / "cache", [packs])[0].questions) == {"one"}


def test_the_cache_lives_in_the_cache_dir_and_only_its_owner_can_read_it(tmp_path, monkeypatch):
    monkeypatch.setenv("QUIZ_CACHE_DIR", str(tmp_path / "elsewhere" / "cache"))
    assert locations.cache_dir() == tmp_path / "elsewhere" / "cache"
    warm_load(None)  # the default folder
    path = cache_file(locations.cache_dir())
    assert path.stat().st_mode & 0o777 == 0o600
    assert locations.cache_dir().stat().st_mode & 0o777 == 0o700


def test_the_cache_dir_follows_xdg_when_not_overridden(tmp_path, monkeypatch):
    monkeypatch.delenv("QUIZ_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    if os.name == "posix" and os.uname().sysname == "Linux":
        assert locations.cache_dir() == tmp_path / "xdg" / locations.APP_NAME


def test_a_cache_is_not_shared_between_different_sources(tmp_path):
    one = write(tmp_path / "one.yaml", QUESTION.format(id="one"))
    two = write(tmp_path / "two.yaml", QUESTION.format(id="two"))
    warm_load(tmp_path / "cache", [one])
    bank, cache = warm_load(tmp_path / "cache", [two])
    assert cache.status == "missing" and list(bank.questions) == ["two"]
    assert len(list((tmp_path / "cache").glob("bank-*.jsonl"))) == 2


def test_only_the_most_recently_used_cache_files_are_kept(tmp_path):
    folder = tmp_path / "cache"
    strangers = [write(folder / "notes.txt", "mine"), write(folder / "bank-zz.jsonl", "not a cache name")]
    (folder / "bank-0123456789abcdef.jsonl").symlink_to(strangers[0])
    file_of: dict[int, Path] = {}
    for n in range(KEPT_FILES + 3):
        before = set(folder.glob("bank-*.jsonl"))
        warm_load(folder, [write(tmp_path / f"p{n}.yaml", QUESTION.format(id=f"q{n}"))])
        [file_of[n]] = set(folder.glob("bank-*.jsonl")) - before
        os.utime(file_of[n], (1000 + n, 1000 + n))  # used in this order, whatever the clock's grain
    kept = [n for n, path in file_of.items() if path.exists()]
    assert kept == list(range(3, KEPT_FILES + 3))
    assert warm_load(folder, [tmp_path / "p3.yaml"])[1].status == "used"  # the oldest, used again: now the newest
    warm_load(folder, [write(tmp_path / "new.yaml", QUESTION.format(id="new"))])
    assert file_of[3].exists() and not file_of[4].exists()
    assert all(path.exists() for path in strangers) and (folder / "bank-0123456789abcdef.jsonl").is_symlink()


# -- caches that must not be trusted --------------------------------------------------------


@pytest.fixture
def cached(tmp_path):
    """Packs with a warm cache beside them: (packs, cache folder, its file, the cold bank)."""
    packs = error_packs(tmp_path / "packs")
    folder = tmp_path / "cache"
    warm_load(folder, [packs])
    return packs, folder, cache_file(folder), load_bank([packs])


def reload_ignoring(cached, reason: str) -> None:
    """The cache is ignored for `reason`, the bank is the cold one, and the file is written afresh."""
    packs, folder, path, cold = cached
    bank, cache = warm_load(folder, [packs])
    assert cache.status.startswith("ignored") and reason in cache.status, cache.status
    assert snapshot(bank) == snapshot(cold)
    assert not path.is_symlink() and path.stat().st_mode & 0o777 == 0o600
    assert warm_load(folder, [packs])[1].status == "used"


@pytest.mark.parametrize(
    "content",
    [
        b"\x00\xff garbage \xfe",
        b"\x80\x04\x95\x1d\x00\x00\x00\x00\x00\x00\x00\x8c\x05posix\x94\x8c\x06system\x94\x93\x94.",  # a pickle
        b"",
        b"[1, 2",
    ],
    ids=["garbage", "pickle", "empty", "cut"],
)
def test_a_damaged_cache_is_ignored(cached, content):
    cached[2].write_bytes(content)
    reload_ignoring(cached, "")


def test_a_cache_cut_short_mid_line_is_ignored(cached):
    path = cached[2]
    text = path.read_bytes()
    cut = len(text) * 2 // 3
    while text[cut] & 0xC0 == 0x80 or text[cut - 1 : cut + 1].count(b"\n"):  # a whole character, mid-line
        cut -= 1
    path.write_bytes(text[:cut])
    reload_ignoring(cached, "damaged")


def test_a_cache_of_another_version_is_ignored(cached):
    path = cached[2]
    header, *entries = path.read_text(encoding="utf-8").splitlines()
    claimed = {**json.loads(header), "quiz": "0.0.1 yaml-6.0 py-3.11 0123456789abcdef0123"}
    path.write_text("\n".join([json.dumps(claimed), *entries]) + "\n", encoding="utf-8")
    reload_ignoring(cached, "another version")


@pytest.mark.parametrize(
    "entry",
    [
        "{}",
        '["pack"]',
        '["pack", 1, 2, []]',
        '["pickle", "x", "y", []]',
        '["pack", "x", "y", [], "extra"]',
    ],
)
def test_a_line_that_is_not_an_entry_makes_the_cache_ignored(cached, entry):
    path = cached[2]
    path.write_text(path.read_text(encoding="utf-8") + entry + "\n", encoding="utf-8")
    reload_ignoring(cached, "not an entry")


def test_entries_of_the_wrong_shape_are_read_again_from_the_packs(cached):
    packs, folder, path, cold = cached
    header, *entries = unsealed_lines(path)
    broken = []
    for line in entries:
        kind, name, digest, *payload = json.loads(line)
        if name.endswith("a-good.yaml"):  # a question's difficulty as text, not a number
            found = payload[0]
            question = json.loads(found[0][3])
            question[1][4] = "2"
            found[0][3] = json.dumps(question)
            payload = [found]
        elif name.endswith("b-dup.yaml"):
            payload = [[["found", ["NoSuchQuestion", []]]]]
        elif name.endswith("claims.yaml"):
            payload = [{"topics": "all"}, []]
        elif name.endswith("e-flood.yaml"):
            payload = [[["unlisted", name, "error", -3]]]
        broken.append(json.dumps([kind, name, digest, *payload]))
    write_sealed(path, [header, *broken])
    bank, cache = warm_load(folder, [packs])
    assert cache.status == "used"  # the file is sound; the entries that do not fit are read afresh
    assert snapshot(bank) == snapshot(cold)
    assert "NoSuchQuestion" not in path.read_text(encoding="utf-8")  # and are written afresh
    again, _ = warm_load(folder, [packs])
    assert snapshot(again) == snapshot(cold)


def test_a_huge_cache_file_is_ignored_unread(cached):
    with cached[2].open("r+b") as file:
        file.truncate(MAX_CACHE_BYTES + 1)  # sparse: nothing is written
    reload_ignoring(cached, "the limit is")


def test_a_symlinked_cache_file_is_ignored(cached, tmp_path):
    path = cached[2]
    elsewhere = tmp_path / "planted.jsonl"
    path.rename(elsewhere)
    path.symlink_to(elsewhere)
    reload_ignoring(cached, "cannot open it")
    assert elsewhere.read_bytes()  # the link's target was not written through


@pytest.mark.parametrize("mode", [0o644, 0o620, 0o606])
def test_a_cache_others_may_read_or_write_is_ignored(cached, mode):
    cached[2].chmod(mode)
    reload_ignoring(cached, "others may read or write it")


def test_a_cache_owned_by_another_user_is_ignored(cached):
    packs, folder, path, cold = cached
    cache = BankCache(folder, owner=path.stat().st_uid + 1)  # as if this process were another user
    bank = load_bank([packs], cache=cache)
    assert cache.status == "ignored: owned by another user"
    assert snapshot(bank) == snapshot(cold)


def test_a_cache_that_cannot_be_written_costs_nothing(tmp_path):
    blocker = write(tmp_path / "not-a-folder", "")
    cache = BankCache(blocker / "cache")
    bank = load_bank([write(tmp_path / "p.yaml", QUESTION.format(id="one"))], cache=cache)
    cache.save()  # says why in the log, never raises
    assert list(bank.questions) == ["one"]


def test_loading_through_a_warm_cache_still_stops_when_asked(cached):
    packs, folder, _, _ = cached
    calls = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) > 2

    with pytest.raises(ReadingStopped):
        load_bank([packs], stop=stop, cache=BankCache(folder))


def test_a_held_load_waits_for_its_hold_file_to_go_and_stops_when_asked_meanwhile(tmp_path, monkeypatch):
    pack = write(tmp_path / "p.yaml", QUESTION.format(id="one"))
    hold = write(tmp_path / "hold", "")
    monkeypatch.setenv(bank_loading.HOLD_VARIABLE, str(hold))
    asked = []

    def let_go_on_the_third_time() -> bool:
        asked.append(1)
        if len(asked) == 3:
            hold.unlink()
        return False

    assert list(load_bank([pack], stop=let_go_on_the_third_time).questions) == ["one"]
    assert len(asked) >= 3  # it waited, asking whether to stop, until the file was gone
    write(hold, "")
    with pytest.raises(ReadingStopped):
        load_bank([pack], stop=lambda: True)


def test_the_source_hash_changes_with_any_write_to_a_source_file(tmp_path):
    package = tmp_path / "quiz"
    write(package / "a.py", "A = 1\n")
    b = write(package / "sub" / "b.py", "B = 2\n")
    written = b.stat().st_mtime_ns
    before = source_hash(package)
    assert source_hash(package) == before
    write(b, "B = 3\n")  # the same size, written later (a file system's clock may be coarser than this test)
    os.utime(b, ns=(written + 1, written + 1))
    assert source_hash(package) != before
    os.utime(b, ns=(written, written))
    write(b, "B = 22\n")
    assert source_hash(package) != before  # another size at the same time
    write(b, "B = 2\n")
    os.utime(b, ns=(written, written))
    assert source_hash(package) == before
    write(package / "c.py", "")
    assert source_hash(package) != before  # a new file
    (package / "c.py").unlink()
    write(package / "sub" / "__pycache__" / "b.cpython-311.pyc", "x")
    write(package / "notes.txt", "x")
    assert source_hash(package) == before  # bytecode and other files are not source


# -- questions built when first used ----------------------------------------------------------


def test_a_warm_load_checks_follow_ups_as_a_cold_one_does(tmp_path, request):
    packs = tmp_path / "packs"
    write(packs / "a.yaml", QUESTION.format(id="a") + "  follow_ups: [b, nosuch]\n")
    write(packs / "b.yaml", QUESTION.format(id="b") + "  follow_ups: [a]\n")
    cold = load_bank([packs])
    assert [d.message.split(":")[1].strip() for d in cold.report.errors] == ["follow_ups", "follow_ups lead back round"]
    warm_load(tmp_path / "cache", [packs])
    request.getfixturevalue("no_reading")
    warm, cache = warm_load(tmp_path / "cache", [packs])
    assert cache.status == "used" and snapshot(warm) == snapshot(cold)


@pytest.fixture
def two_packs(tmp_path):
    """Two packs of two questions each, a warm cache of them, its file and the cold bank."""
    packs = tmp_path / "packs"
    write(packs / "a.yaml", QUESTION.format(id="one") + QUESTION.format(id="two"))
    write(packs / "b.yaml", QUESTION.format(id="three") + QUESTION.format(id="four"))
    warm_load(tmp_path / "cache", [packs])
    return packs, tmp_path / "cache", cache_file(tmp_path / "cache"), load_bank([packs])


def edit_entry(path: Path, question_id: str, edit: Callable[[list[Any]], None]) -> None:
    """Apply `edit` to the cached event of a question: `["found", id, follow-ups, its JSON text]`."""
    header, *lines = unsealed_lines(path)
    entries = [json.loads(line) for line in lines]
    for entry in entries:
        for event in entry[3] if entry[0] == "pack" else ():
            if event[1] == question_id:
                edit(event)
    write_sealed(path, [header, *(json.dumps(e) for e in entries)])


def break_entry(path: Path, question_id: str, rename: str | None = None) -> None:
    """Give a cached question a field no model type reads (so it no longer fits), and another id."""

    def unfit(event: list[Any]) -> None:
        question = json.loads(event[3])
        question[1][4] = {"unfit": True}
        question[1][0] = event[1] = rename or question_id
        event[3] = json.dumps(question)

    edit_entry(path, question_id, unfit)


def test_an_entry_that_does_not_fit_when_built_is_read_again_and_written_afresh(two_packs):
    packs, folder, path, cold = two_packs
    break_entry(path, "two")
    bank, cache = warm_load(folder, [packs])
    # Nothing is wrong until the question is read: then it comes from its pack, and the cache is mended.
    assert cache.status == "used" and list(bank.questions) == list(cold.questions)
    assert "unfit" in path.read_text(encoding="utf-8")
    assert repr(bank.questions["two"]) == repr(cold.questions["two"])
    assert "unfit" not in path.read_text(encoding="utf-8")
    assert snapshot(bank) == snapshot(cold)


def damage_text(event: list[Any]) -> None:
    event[3] = event[3][:-4]


def forge_text_id(event: list[Any]) -> None:
    question = json.loads(event[3])
    question[1][0] = "forged"
    event[3] = json.dumps(question)


def forge_index_follow_ups(event: list[Any]) -> None:
    event[2] = ["three"]


@pytest.mark.parametrize("edit", [damage_text, forge_text_id, forge_index_follow_ups])
def test_an_entry_whose_text_is_damaged_or_not_the_question_indexed_is_read_again(two_packs, edit):
    packs, folder, path, cold = two_packs
    edit_entry(path, "two", edit)
    bank, cache = warm_load(folder, [packs])
    assert cache.status == "used" and repr(bank.questions["two"]) == repr(cold.questions["two"])
    assert snapshot(bank) == snapshot(cold) and not bank.report.errors
    again, cache = warm_load(folder, [packs])  # the cache was written afresh when it was found wrong
    assert cache.status == "used" and json.dumps("forged") not in path.read_text(encoding="utf-8")
    assert snapshot(again) == snapshot(cold)


def test_an_entry_naming_a_question_its_pack_lacks_is_left_out_when_reached(two_packs):
    packs, folder, path, cold = two_packs
    break_entry(path, "two", rename="forged")
    bank, _ = warm_load(folder, [packs])
    assert list(bank.questions) == ["one", "forged", "three", "four"]
    assert [q.id for q in bank.questions.values()] == [i for i in cold.questions if i != "two"]
    assert "forged" not in bank.questions and bank.questions.get("forged") is None


def test_an_entry_forging_the_id_of_another_packs_question_costs_nothing_but_itself(two_packs):
    packs, folder, path, cold = two_packs
    break_entry(path, "three", rename="one")  # seen as a second `one`, whose pack holds none
    bank, _ = warm_load(folder, [packs])
    assert list(bank.questions) == ["one", "two", "four"] and not bank.report.errors
    assert repr(bank.questions["one"]) == repr(cold.questions["one"])


def test_a_folder_in_place_of_the_cache_file_is_ignored_left_alone_and_leaks_no_descriptor(cached):
    """Issue 34: a directory opened fine, then fdopen refused it (IsADirectoryError, rc 70) and the descriptor leaked."""
    packs, folder, path, cold = cached
    path.unlink()
    path.mkdir()
    (path / "inside").write_text("someone's", encoding="utf-8")
    open_before = len(os.listdir("/proc/self/fd"))
    bank, cache = warm_load(folder, [packs])
    assert cache.status == "ignored: not a regular file"
    assert snapshot(bank) == snapshot(cold)
    assert len(os.listdir("/proc/self/fd")) == open_before
    assert (path / "inside").read_text(encoding="utf-8") == "someone's"  # never deleted nor replaced


# -- a cache changed by whoever can write the cache folder (issue 34) -----------------------


def test_a_cache_changed_in_a_way_that_fits_the_model_is_not_trusted_but_rebuilt_from_the_pack(two_packs):
    """A question's prompt rewritten in the cache, every line still valid: without this user's key
    the seal cannot be made again, so the questions come from the packs, never from the change."""
    packs, folder, path, cold = two_packs
    text = path.read_text(encoding="utf-8")
    assert "makes attention uniform" in text
    path.write_text(text.replace("makes attention uniform", "makes attention sharper"), encoding="utf-8")
    bank, cache = warm_load(folder, [packs])
    assert cache.status.startswith("ignored: its keyed hash does not match"), cache.status
    assert snapshot(bank) == snapshot(cold) and all("sharper" not in repr(q) for q in bank.questions.values())
    assert "sharper" not in path.read_text(encoding="utf-8")  # written afresh from the packs
    assert warm_load(folder, [packs])[1].status == "used"


def test_a_cache_sealed_with_another_key_is_not_trusted(two_packs):
    packs, folder, path, cold = two_packs
    body = "".join(line + "\n" for line in unsealed_lines(path))
    path.write_text(body + json.dumps(["mac", seal(body.encode(), b"k" * 32)], separators=(",", ":")) + "\n", encoding="utf-8")
    bank, cache = warm_load(folder, [packs])
    assert cache.status.startswith("ignored: its keyed hash does not match") and snapshot(bank) == snapshot(cold)


def test_a_cache_without_its_seal_is_not_trusted(two_packs):
    packs, folder, path, cold = two_packs
    path.write_text("".join(line + "\n" for line in unsealed_lines(path)), encoding="utf-8")
    bank, cache = warm_load(folder, [packs])
    assert cache.status.startswith("ignored: its keyed hash does not match") and snapshot(bank) == snapshot(cold)


def test_the_key_is_this_users_alone_outside_the_cache_folder(two_packs):
    from quiz.base.cache_key import key_path

    packs, folder, _, cold = two_packs
    key = key_path()
    assert key.parent == locations.data_dir() and folder not in key.parents
    assert key.stat().st_mode & 0o777 == 0o600 and len(key.read_bytes()) == 32
    key.chmod(0o644)  # readable by others: no longer a key to trust, so neither is the cache
    bank, cache = warm_load(folder, [packs])
    assert cache.status.startswith("ignored") and snapshot(bank) == snapshot(cold)
