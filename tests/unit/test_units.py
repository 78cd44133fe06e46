"""Answers with units (issue 32): `1.5 GiB`, `3.2e9 bytes`, `12 ms` converted to the question's unit before grading."""

from pathlib import Path

import pytest

from quiz.answer_text import Invalid
from quiz.answer_text.units import UNITS, parse_in_unit, parse_quantity, unit_named
from quiz.bank import load_bank
from quiz.format.checks import check_question
from quiz.format.diagnostics import Report
from quiz.grading.result import Verdict
from quiz.types.draw import make_variant
from quiz.types.registry import type_of

MIB = unit_named("MiB")
CACHE = """\
- id: cache
  type: number
  topic: decoding
  prompt: "KV cache of {{ n }} tokens at 2 KiB a token, in MiB?"
  params:
    n: {choice: [1024, 2048, 4096]}
  answer: n * 2 / 1024
  unit: MiB
  misconceptions:
    - {name: one_tensor, answer: n / 1024, feedback: Keys and values.}
"""


@pytest.mark.parametrize(
    ("text", "value", "shown"),
    [
        ("4", 4.0, "4 MiB"),
        ("4 MiB", 4.0, "4 MiB"),
        ("4MiB", 4.0, "4 MiB"),
        ("1.5 GiB", 1536.0, "1536 MiB (1.5 GiB)"),
        ("4194304 bytes", 4.0, "4 MiB (4194304 bytes)"),
        ("4194304 B", 4.0, "4 MiB (4194304 B)"),
        ("1/2 GiB", 512.0, "512 MiB (0.5 GiB)"),
        ("2048 KiB", 2.0, "2 MiB (2048 KiB)"),
        ("1e6 kB", 1e9 / 2**20, None),
        ("4 バイト", 4 / 2**20, None),
    ],
)
def test_a_size_in_any_byte_unit_is_read_in_the_questions_unit(text, value, shown):
    parsed = parse_quantity(text, MIB)
    assert not isinstance(parsed, Invalid), parsed.message()
    assert parsed.value == pytest.approx(value, rel=1e-12)
    if shown is not None:
        assert parsed.display == shown


def test_si_and_iec_prefixes_differ_and_times_and_flops_convert_within_their_kind():
    assert parse_quantity("1 GB", unit_named("B")).value == 1e9
    assert parse_quantity("1 GiB", unit_named("B")).value == 2**30
    assert parse_quantity("12 ms", unit_named("s")).value == pytest.approx(0.012)
    assert parse_quantity("250 µs", unit_named("ms")).value == pytest.approx(0.25)
    assert parse_quantity("250 us", unit_named("ms")).value == pytest.approx(0.25)
    assert parse_quantity("2 min", unit_named("s")).value == 120
    assert parse_quantity("3.2 TFLOPs", unit_named("GFLOPs")).value == pytest.approx(3200)
    assert parse_quantity("4e9 FLOPS", unit_named("GFLOPs")).value == pytest.approx(4)
    assert {u.kind for u in UNITS.values()} == {"bytes", "seconds", "flops"}


@pytest.mark.parametrize("text", ["3 ms", "3 Gb", "3 GiBs", "3 TFLOPs"])
def test_another_kind_or_an_unknown_unit_is_refused_with_what_works(text):
    refused = parse_quantity(text, MIB)
    assert isinstance(refused, Invalid)
    written = text.split()[1]
    assert refused.message("en") == (
        f"'{written}' is not a unit this answer can be given in: write it in MiB, or in another unit of the same kind (1.5 GiB, 3.2e9 bytes)."
    )
    assert refused.message("ja").startswith(f"「{written}」はこの答えに使える単位ではありません。")


def test_what_is_no_number_with_a_unit_is_read_as_any_answer():
    # An expression ending in a name is not a unit: the reader's own message stands.
    assert parse_quantity("2*n", MIB).message() == parse_in_unit("2*n", (), None).message()
    assert parse_in_unit("[1, 2]", (2,), "MiB").value.tolist() == [1.0, 2.0]  # vectors take no unit


def test_a_question_with_a_unit_grades_the_converted_answer_and_shows_its_unit(compile_yaml):
    variant = make_variant(compile_yaml(CACHE)["cache"], 1)
    kind = type_of(variant.question)
    mib = variant.inputs["n"] * 2 / 1024
    for text in (f"{mib}", f"{mib} MiB", f"{mib / 1024} GiB", f"{int(mib * 2**20)} bytes"):
        assert kind.grade(variant, kind.read(variant, text)).verdict is Verdict.CORRECT, text
    mistake = kind.grade(variant, kind.read(variant, f"{mib * 512} KiB"))
    assert mistake.misconception == "one_tensor"
    assert kind.answer_text(variant, "en") == f"{mib:g} MiB"
    assert "The answer is in MiB; another unit of the same kind is converted (1.5 GiB, 3.2e9 bytes)." in kind.how_to_answer(variant, "en")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("unit: MiB", "unit: MiBs"), "cache: unknown unit 'MiBs' (did you mean 'MiB'?); known: B, FLOPs, GB"),
        (("type: number", "type: vector"), "unit applies to number questions, not to vector"),
    ],
)
def test_a_unit_written_wrong_is_an_error_at_it(tmp_path: Path, change, message):
    text = CACHE.replace(*change)
    if "vector" in text:
        text = text.replace("answer: n * 2 / 1024", "answer: [n * 2 / 1024, 1]").replace("answer: n / 1024", "answer: [n / 1024, 1]")
    path = tmp_path / "pack.yaml"
    path.write_text(text, encoding="utf-8")
    bank = load_bank([path])
    report = Report()
    for question in bank.questions.values():
        check_question(question, bank.claims, report)
    found = [str(e) for e in [*bank.report.errors, *report.errors]]
    assert any(message in f for f in found), found
