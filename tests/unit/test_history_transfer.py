"""Export and import: JSON Lines and CSV (with a BOM), idempotent by attempt id, all or nothing,
a bad record named by its line; export → import into an empty store → export is the identity."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import string
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from history_records import DAY_MS, START_MS, attempt, open_store
from places import ROOT
from quiz.history.records import MODES, VERDICTS, AttemptRecord
from quiz.history.transfer import (
    BOM,
    FIELDS,
    MAX_IMPORT_BYTES,
    MAX_INPUT_DEPTH,
    MAX_PROBLEM_CHARS,
    MAX_RECORD_CHARS,
    ImportProblem,
    export,
    import_file,
)


def learner_month():
    return [
        attempt("softmax-two", at_ms=START_MS, response="0.88, 0.12"),
        attempt("softmax-two", at_ms=START_MS + DAY_MS, score=0.0, verdict="incorrect", misconception="no_max_shift", response="0.5, 0.5"),
        attempt("causal-weights-3x3", at_ms=START_MS + 2 * DAY_MS, lang="ja", response="［１，０］\n改行のある解答, \"引用\"", score=0.75, hints=1),
        attempt("scaling-variance", at_ms=START_MS + 3 * DAY_MS, score=0.0, verdict="revealed", revealed=True, response=None, duration_ms=None),
        attempt("softmax-two", at_ms=START_MS + 9 * DAY_MS, mode="mock", mock="mock-1"),
    ]


@pytest.fixture
def source(tmp_path):
    with open_store(tmp_path / "source.sqlite3") as store:
        records = learner_month()
        for record in records:
            store.record(record)
        store.mark_easy(records[-1].id)
        yield store


def exported_text(store, fmt):
    out = io.StringIO(newline="")
    export(store, out, fmt)
    return out.getvalue()


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8", newline="")
    return path


def test_json_lines_carry_the_format_version_and_an_iso_utc_time(source):
    lines = exported_text(source, "jsonl").splitlines()
    records = [json.loads(line) for line in lines]
    assert len(records) == 5 and all(r["format"] == 1 and list(r) == list(FIELDS) for r in records)
    assert records[0]["at"] == "2025-06-15T15:06:40.000Z"
    assert records[2]["response"] == "［１，０］\n改行のある解答, \"引用\"" and records[2]["lang"] == "ja"
    assert [r["easy"] for r in records] == [False, False, False, False, True]
    assert records[4]["mock"] == "mock-1" and records[3]["response"] is None


def test_csv_starts_with_a_bom_and_reads_back_in_a_spreadsheet_way(source, tmp_path):
    path = write(tmp_path / "history.csv", exported_text(source, "csv"))
    raw = path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    with path.open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 5 and rows[2]["response"] == "［１，０］\n改行のある解答, \"引用\""
    assert rows[0]["format"] == "1" and rows[3]["response"] == "" and rows[4]["easy"] == "true"


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_an_import_restores_attempts_easy_marks_and_cards(source, tmp_path, fmt):
    path = write(tmp_path / f"history.{fmt}", exported_text(source, fmt))
    with open_store(tmp_path / "restored.sqlite3") as restored:
        report = import_file(restored, path)
        assert (report.added, report.already_present) == (5, 0)
        assert restored.attempts() == source.attempts()
        for question in ("softmax-two", "causal-weights-3x3", "scaling-variance"):
            assert restored.card(question) == source.card(question)


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_importing_twice_adds_nothing(source, tmp_path, fmt):
    path = write(tmp_path / f"history.{fmt}", exported_text(source, fmt))
    before = source.card("softmax-two")
    report = import_file(source, path)
    assert (report.added, report.already_present) == (0, 5)
    assert source.attempt_count() == 5 and source.card("softmax-two") == before


def test_an_import_adds_only_the_new_attempts_and_reschedules_their_cards(source, tmp_path):
    with open_store(tmp_path / "other.sqlite3") as other:
        late = attempt("softmax-two", at_ms=START_MS + 4 * DAY_MS, score=0.0, verdict="incorrect")
        other.record(late)
        path = write(tmp_path / "other.jsonl", exported_text(other, "jsonl"))
    assert import_file(source, path).added == 1
    assert source.card("softmax-two") == source.reschedule_card("softmax-two")  # replayed in time order
    assert source.card("softmax-two").reviews == 4


def jsonl_with(line_three: str, source) -> str:
    lines = exported_text(source, "jsonl").splitlines()
    lines[2] = line_three
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    "broken, message",
    [
        ("{not json", "not a JSON record"),
        ("[1, 2]", "JSON object"),
        ('{"format": 2}', "format 2"),
        ('{"format": 1, "id": "x"}', "missing"),
    ],
)
def test_a_malformed_json_line_is_named_and_nothing_is_imported(source, tmp_path, broken, message):
    path = write(tmp_path / "bad.jsonl", jsonl_with(broken, source))
    with open_store(tmp_path / "target.sqlite3") as target:
        with pytest.raises(ImportProblem, match=message) as caught:
            import_file(target, path)
        assert caught.value.line == 3
        assert target.attempt_count() == 0


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("score", 1.5, "score"),
        ("score", "1", "score"),
        ("inputs", "NaN", "not a JSON record"),
        ("at", "2025-06-15T15:06:40", "no time zone"),
        ("at", "yesterday", "ISO 8601"),
        ("mode", "exam", "mode"),
        ("seed", 2**70, "seed"),
        ("surprise", 1, "unknown surprise"),
        ("hints", True, "hints"),
        ("at", "9999-12-31T23:59:59.999-23:59", "after the year 9000 in UTC"),  # past 9999 once in UTC
        ("at", "9500-01-01T00:00:00+00:00", "after the year 9000 in UTC"),
        ("response", "a\ud800b", "response holds a lone surrogate"),
        ("inputs", {"x": ["\udfff"]}, "inputs holds a lone surrogate"),
    ],
)
def test_a_bad_field_is_named_with_its_line(source, tmp_path, field, value, message):
    records = [json.loads(line) for line in exported_text(source, "jsonl").splitlines()]
    if value == "NaN":
        text = "\n".join(json.dumps(r) for r in records[:3]) + '\n{"format": 1, "inputs": NaN}\n'
    else:
        records[3][field] = value
        text = "\n".join(json.dumps(r) for r in records) + "\n"
    path = write(tmp_path / "bad.jsonl", text)
    with open_store(tmp_path / "target.sqlite3") as target:
        with pytest.raises(ImportProblem, match=message) as caught:
            import_file(target, path)
        assert caught.value.line == 4 and target.attempt_count() == 0


def test_easy_on_a_failed_attempt_is_refused(source, tmp_path):
    records = [json.loads(line) for line in exported_text(source, "jsonl").splitlines()]
    records[1]["easy"] = True
    path = write(tmp_path / "bad.jsonl", "\n".join(json.dumps(r) for r in records))
    with pytest.raises(ImportProblem, match="pass mark") as caught:
        import_file(source, path)
    assert caught.value.line == 2


def test_a_bad_csv_row_is_named_by_the_line_it_starts_on(source, tmp_path):
    text = exported_text(source, "csv")
    rows = list(csv.reader(io.StringIO(text.removeprefix(BOM), newline="")))
    rows[4][FIELDS.index("score")] = "lots"  # the row after the one whose response spans two lines
    out = io.StringIO(newline="")
    out.write(BOM)
    csv.writer(out).writerows(rows)
    path = write(tmp_path / "bad.csv", out.getvalue())
    with open_store(tmp_path / "target.sqlite3") as target:
        with pytest.raises(ImportProblem, match="cannot be read") as caught:
            import_file(target, path)
        assert caught.value.line == 6  # header 1, rows 2-3, a row over lines 4-5, then line 6
        assert target.attempt_count() == 0


def test_a_file_that_is_not_utf8_is_refused(source, tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(b"\xff\xfe" + "{}".encode("utf-16-le"))
    with pytest.raises(ImportProblem, match="UTF-8"):
        import_file(source, path)
    assert source.attempt_count() == 5


LONG_RECORD = '{"format": 1, "id": "' + "x" * MAX_RECORD_CHARS + '"}'


@pytest.mark.parametrize(
    "broken, message",
    [
        ("[" * 100_000 + "]" * 100_000, "not a JSON record (nested too deeply)"),
        ('{"format": 1, "seed": ' + "9" * 5_000 + "}", "not a JSON record"),
        (LONG_RECORD, f"the record is {len(LONG_RECORD):,} characters long"),
    ],
    ids=["nested", "digits", "long"],
)
def test_a_hostile_line_is_refused_before_it_is_parsed_or_quoted_in_full(source, tmp_path, broken, message):
    path = write(tmp_path / "bad.jsonl", jsonl_with(broken, source))
    with open_store(tmp_path / "target.sqlite3") as target:
        with pytest.raises(ImportProblem, match=re.escape(message)) as caught:
            import_file(target, path)
        assert caught.value.line == 3 and len(caught.value.message) <= MAX_PROBLEM_CHARS
        assert target.attempt_count() == 0


def test_inputs_nested_past_the_limit_are_refused(source, tmp_path):
    nested: object = 1.0
    for _ in range(MAX_INPUT_DEPTH):  # with the inputs object itself, one level too deep
        nested = [nested]
    record = json.loads(exported_text(source, "jsonl").splitlines()[0]) | {"inputs": {"z": nested}}
    path = write(tmp_path / "deep.jsonl", json.dumps(record) + "\n")
    with open_store(tmp_path / "target.sqlite3") as target:
        with pytest.raises(ImportProblem, match=f"nested more than {MAX_INPUT_DEPTH} levels"):
            import_file(target, path)
        record["inputs"] = {"z": nested[0]}  # at the limit: imported
        write(path, json.dumps(record) + "\n")
        assert import_file(target, path).added == 1


def test_only_a_regular_file_within_the_size_limit_is_read(source, tmp_path):
    huge = tmp_path / "huge.jsonl"
    with huge.open("wb") as out:
        out.truncate(MAX_IMPORT_BYTES + 1)  # sparse: nothing is written, and nothing may be read
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)  # opening it for reading would wait for a writer forever
    for path, reason in ((huge, f"it is {MAX_IMPORT_BYTES + 1:,} bytes"), (fifo, "not a regular file")):
        with pytest.raises(ImportProblem, match=reason):
            import_file(source, path)
    assert source.attempt_count() == 5


# --- property: export → import into an empty store → export is the same --------------------

texts = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.floats(allow_nan=False, allow_infinity=False) | texts,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3),
    max_leaves=8,
)


@st.composite
def records(draw):
    mode = draw(st.sampled_from(MODES))
    score = draw(st.floats(0.0, 1.0))
    return AttemptRecord(
        id=str(draw(st.uuids(version=4))),
        at_ms=draw(st.integers(0, 4_102_444_800_000)),
        question=draw(st.text(string.ascii_lowercase + "-", min_size=1, max_size=12)),
        version=draw(texts),
        key=draw(st.text(string.ascii_lowercase + "#0123456789", min_size=1, max_size=12)),
        seed=draw(st.integers(-(2**63), 2**63 - 1)),
        inputs=draw(st.dictionaries(texts, json_values, max_size=4)),
        lang=draw(st.sampled_from(["en", "ja"])),
        mode=mode,
        response=draw(st.none() | texts),
        score=score,
        verdict=draw(st.sampled_from(VERDICTS)),
        misconception=draw(st.none() | texts),
        hints=draw(st.integers(0, 5)),
        revealed=draw(st.booleans()),
        duration_ms=draw(st.none() | st.integers(0, 10_800_000)),
        mock=draw(st.none() | texts) if mode == "mock" else None,
    )


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(records(), max_size=8, unique_by=lambda r: r.id), st.sampled_from(["jsonl", "csv"]))
def test_export_then_import_into_an_empty_store_then_export_gives_the_same_records(attempts, fmt):
    with tempfile.TemporaryDirectory() as folder, open_store(Path(folder) / "a.sqlite3") as first, open_store(Path(folder) / "b.sqlite3") as second:
        for record in attempts:
            first.record(record)
        text = exported_text(first, fmt)
        path = write(Path(folder) / f"export.{fmt}", text)
        assert import_file(second, path).added == len(attempts)
        assert exported_text(second, fmt) == text
        assert sorted(second.attempts(), key=lambda r: r.id) == sorted(attempts, key=lambda r: r.id)


def test_the_example_record_in_the_guide_imports(tmp_path):
    guide = ROOT / "docs" / "history.md"
    [example] = guide.read_text(encoding="utf-8").split("```json\n")[1:]
    line = example.split("```")[0]
    assert list(json.loads(line)) == list(FIELDS)
    with open_store(tmp_path / "history.sqlite3") as store:
        assert import_file(store, write(tmp_path / "example.jsonl", line)).added == 1
        assert exported_text(store, "jsonl") == line


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_topic_and_claims_go_out_and_come_back_and_an_export_without_them_still_imports(tmp_path, fmt):
    placed = attempt("pack-only", topic="rope:rotary", claims=("rope:R1", "C2"))
    older = attempt("softmax-two", at_ms=START_MS + DAY_MS)  # recorded before v5: neither is known
    with open_store(tmp_path / "a.sqlite3") as first:
        first.record(placed)
        first.record(older)
        text = exported_text(first, fmt)
    with open_store(tmp_path / "b.sqlite3") as second:
        assert import_file(second, write(tmp_path / f"new.{fmt}", text)).added == 2
        assert {(a.question, a.topic, a.claims) for a in second.attempts()} == {
            ("pack-only", "rope:rotary", ("rope:R1", "C2")), ("softmax-two", None, None)
        }
    if fmt == "jsonl":
        records = [json.loads(line) for line in text.splitlines()]
        assert records[0]["claims"] == ["rope:R1", "C2"] and records[1]["topic"] is None
        old = "".join(json.dumps({k: v for k, v in r.items() if k not in ("topic", "claims")}) + "\n" for r in records)
    else:
        rows = list(csv.reader(io.StringIO(text.removeprefix("\ufeff"), newline="")))
        assert rows[1][FIELDS.index("claims")] == '["rope:R1","C2"]'
        keep = [n for n, name in enumerate(rows[0]) if name not in ("topic", "claims")]
        out = io.StringIO(newline="")
        csv.writer(out, lineterminator="\r\n").writerows([[row[n] for n in keep] for row in rows])
        old = "\ufeff" + out.getvalue()
    with open_store(tmp_path / "c.sqlite3") as third:
        assert import_file(third, write(tmp_path / f"old.{fmt}", old)).added == 2
        assert {(a.topic, a.claims) for a in third.attempts()} == {(None, None)}
