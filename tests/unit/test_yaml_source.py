"""Safe YAML reading: what is refused, with the line it reports, and how scalars stay text."""

from pathlib import Path

import pytest

from quiz.format.diagnostics import SourceError
from quiz.format.yaml_data import (
    MAX_DEPTH,
    MAX_FILE_BYTES,
    MAX_ITEMS,
    MAX_KEYS,
    MAX_NUMBER_CHARS,
    MAX_TEXT_CHARS,
    QuotedStr,
    ReadingStopped,
    Refused,
    YamlList,
    YamlMap,
)
from quiz.format.yaml_source import read_yaml_file


def write(tmp_path: Path, text: str | bytes, name: str = "q.yaml") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


def refusal(tmp_path: Path, text: str | bytes) -> SourceError:
    with pytest.raises(SourceError) as caught:
        read_yaml_file(write(tmp_path, text))
    return caught.value


def test_scalars_stay_text_with_lines_kept(tmp_path):
    data = read_yaml_file(write(tmp_path, "a: yes\nb: 010\nc: 1:30\nd: 1e-3\ne: 'quoted'\nf:\n  - 1\n  - x: ~\n"))
    assert isinstance(data, YamlMap)
    assert data == {"a": "yes", "b": "010", "c": "1:30", "d": "1e-3", "e": "quoted", "f": ["1", {"x": None}]}
    assert data.marks["c"] == (3, 1)
    assert isinstance(data["e"], QuotedStr) and not isinstance(data["a"], QuotedStr)
    items = data["f"]
    assert isinstance(items, YamlList) and items.marks == [(7, 5), (8, 5)]


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("a: !!python/object/apply:os.system ['true']\n", 1, "tags"),
        ("a: 1\nb: !!binary aGVsbG8=\n", 2, "tags"),
        ("a: !custom x\n", 1, "tags"),
        ("a: &anchor 1\n", 1, "anchors"),
        ("a: [1]\nb: *a\n", 2, "aliases (*a)"),
        ("a: &x [1, 2]\nb: *x\n", 1, "anchors"),
        ("a: 1\n---\nb: 2\n", 2, "one YAML document"),
        ("a: [1, 2\nb: 3\n", 2, "invalid YAML"),
        ("a:\n\t- 1\n", 2, "invalid YAML"),
    ],
)
def test_refusals_name_the_line(tmp_path, text, line, fragment):
    error = refusal(tmp_path, text)
    assert error.location.line == line
    assert fragment in error.message


def test_alias_bomb_is_refused_before_expansion(tmp_path):
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n" for i in range(9)
    )
    error = refusal(tmp_path, bomb)
    assert error.location.line == 1 and "anchors" in error.message


def test_non_utf8_bytes_report_line_and_column(tmp_path):
    error = refusal(tmp_path, b"id: ok\nprompt: caf\xe9\n")
    assert (error.location.line, error.location.column) == (2, 12)
    assert "not UTF-8" in error.message


def test_nul_character_is_refused(tmp_path):
    assert "NUL" in refusal(tmp_path, "a: 1\nb: \x00\n").message


def test_file_over_the_size_limit_is_refused_without_parsing(tmp_path):
    error = refusal(tmp_path, "a: " + "x" * MAX_FILE_BYTES + "\n")
    assert "limit" in error.message and error.location.line == 0


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(SourceError, match="cannot read file"):
        read_yaml_file(tmp_path / "absent.yaml")


def test_byte_order_mark_is_accepted(tmp_path):
    assert read_yaml_file(write(tmp_path, "\ufeffa: 1\n")) == {"a": "1"}


@pytest.mark.parametrize(
    ("text", "line", "libyaml", "hint"),
    [
        ("id: x\ntype number\ntopic: y\n", 3, "could not find expected ':'", "check the line above"),
        ("params:\n  s: {integer: [1, 2]}\n d: 3\n", 3, "did not find expected key", "check the indentation of this line and of the line above"),
        ("id: x\n\ttype: number\n", 2, "tab character", "indent with spaces"),
        ("prompt: Why: because\n", 1, "mapping values are not allowed", "quote the value"),
        ('prompt: "hello\nid: x\n', 3, "unexpected end of stream", "a quote or bracket opened above is never closed"),
        ('prompt: "$\\sqrt{d_k}$"\n', 1, "unknown escape character", "write LaTeX in single quotes"),
        ("refs: [A1, B2\nid: x\n", 2, "did not find expected ',' or ']'", "'[' above is not closed"),
        ("prompt: *bold* text\n", 1, "alphabetic or numeric", "quote it"),
    ],
)
def test_syntax_errors_get_a_hint_in_plain_words_beside_libyamls_text(tmp_path, text, line, libyaml, hint):
    error = refusal(tmp_path, text)
    assert error.location.line == line
    assert error.message.startswith("invalid YAML: ") and libyaml in error.message
    assert hint in error.message.split(libyaml, 1)[1]


def read(tmp_path: Path, text: str) -> object:
    return read_yaml_file(write(tmp_path, text))


def first_refused(value: object) -> Refused | None:
    """The first Refused marker found walking `value` depth-first."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, Refused):
            return item
        if isinstance(item, dict):
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, list):
            stack.extend(reversed(item))
    return None


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("id: one\nprompt: x\nid: two\n", 5, "duplicate key 'id' (first defined at line 3)"),
        ("? [a, b]\n: 1\n", 3, "keys are plain names"),
        ("? \n: 1\n", 3, "an empty key"),
        ("a:\n" + "".join(f"  k{i}: 1\n" for i in range(MAX_KEYS + 1)), 4 + MAX_KEYS, f"more than {MAX_KEYS} keys"),
        ("a: [" + ", ".join(["1"] * (MAX_ITEMS + 1)) + "]\n", 3, f"more than {MAX_ITEMS:,} items"),
        ("a: " + "[" * 200 + "]" * 200 + "\n", 3, f"more than {MAX_DEPTH} levels"),
    ],
    ids=["duplicate", "list-key", "empty-key", "keys", "items", "depth"],
)
def test_a_value_over_a_limit_is_refused_where_it_stands(tmp_path, text, line, fragment):
    """Limits are checked while reading: the bad value becomes a Refused marker, the rest is read."""
    indented = "".join("  " + row + "\n" for row in text.splitlines())
    data = read(tmp_path, f"first: kept\nbad:\n{indented}last: kept\n")
    assert isinstance(data, YamlMap) and data["first"] == "kept" and data["last"] == "kept"
    refused = first_refused(data["bad"])
    assert refused is not None, data["bad"]
    assert fragment in refused.message
    assert refused.mark[0] == line


def test_nesting_is_refused_at_the_level_past_the_limit(tmp_path):
    nested = "[" * (MAX_DEPTH + 3) + "1" + "]" * (MAX_DEPTH + 3)
    data = read(tmp_path, f"answer: {nested}\nid: after\n")
    value = data["answer"]
    for _ in range(MAX_DEPTH - 1):  # the root mapping is the first level
        assert isinstance(value, YamlList)
        value = value[0]
    assert isinstance(value, Refused) and "nested" in value.message
    assert data["id"] == "after"


def test_exactly_at_the_limits_is_read(tmp_path):
    nested = "[" * (MAX_DEPTH - 1) + "1" + "]" * (MAX_DEPTH - 1)
    keys = "".join(f"  k{i}: 1\n" for i in range(MAX_KEYS))
    data = read(tmp_path, f"a: {nested}\nb:\n{keys}c: '{'x' * MAX_TEXT_CHARS}'\nd: {'9' * MAX_NUMBER_CHARS}\n")
    assert not any(isinstance(v, Refused) for v in data.values())
    assert len(data["b"]) == MAX_KEYS


@pytest.mark.parametrize(
    ("scalar", "fragment"),
    [
        ("x" * (MAX_TEXT_CHARS + 1), "characters; the limit"),
        ("'" + "x" * (MAX_TEXT_CHARS + 1) + "'", "characters; the limit"),
        ("9" * 5_000, "a number written with 5,000 characters"),
        ("-1." + "0" * 200 + "e-5", "a number written with"),
    ],
    ids=["plain-text", "quoted-text", "digits", "decimal"],
)
def test_long_texts_and_numbers_are_refused_one_by_one(tmp_path, scalar, fragment):
    data = read(tmp_path, f"- ok\n- {scalar}\n- also ok\n")
    assert data[0] == "ok" and data[2] == "also ok"
    assert isinstance(data[1], Refused) and fragment in data[1].message and data[1].mark == (2, 3)


def test_a_long_quoted_number_is_text(tmp_path):
    """Only plain scalars can be numbers; a quoted one is text, limited as text."""
    data = read(tmp_path, f"a: '{'9' * 500}'\n")
    assert data["a"] == "9" * 500


def test_a_duplicate_costs_only_its_own_mapping(tmp_path):
    data = read(tmp_path, "- id: a\n  x: 1\n  x: 2\n  y: 3\n- id: b\n")
    assert isinstance(data[0], Refused) and data[0].mark == (3, 3)
    assert data.marks[0] == (3, 3)
    assert data[1] == {"id": "b"}


def test_reading_stops_when_asked(tmp_path):
    path = write(tmp_path, "a: [" + ", ".join(["1"] * 4_000) + "]\n")
    calls = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) > 2

    with pytest.raises(ReadingStopped):
        read_yaml_file(path, stop)
    assert len(calls) == 3


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_or_device_is_refused_without_waiting(tmp_path):
    import os

    fifo = tmp_path / "pack.yaml"
    os.mkfifo(fifo)
    with pytest.raises(SourceError, match="not a regular file"):
        read_yaml_file(fifo)
    device = tmp_path / "zero.yaml"
    device.symlink_to("/dev/zero")
    with pytest.raises(SourceError, match="not a regular file"):
        read_yaml_file(device)


def test_nesting_past_what_libyaml_allows_refuses_the_file(tmp_path):
    error = refusal(tmp_path, "a: " + "[" * 100_000 + "]" * 100_000 + "\n")
    assert "nesting depth" in error.message and error.location.line == 1
