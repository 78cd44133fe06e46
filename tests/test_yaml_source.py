"""Safe YAML reading: what is refused, with the line it reports, and how scalars stay text."""

from pathlib import Path

import pytest

from quiz.format.diagnostics import SourceError
from quiz.format.yaml_source import MAX_FILE_BYTES, QuotedStr, YamlList, YamlMap, read_yaml_file


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
        ("id: one\nprompt: x\nid: two\n", 3, "duplicate key 'id' (first defined at line 1)"),
        ("- a: 1\n  b: 2\n- c: 3\n  c: 4\n", 4, "duplicate key 'c'"),
        ("a: 1\n---\nb: 2\n", 2, "one YAML document"),
        ("a: [1, 2\nb: 3\n", 2, "invalid YAML"),
        ("a:\n\t- 1\n", 2, "invalid YAML"),
        ("? [a, b]\n: 1\n", 1, "keys are plain names"),
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
