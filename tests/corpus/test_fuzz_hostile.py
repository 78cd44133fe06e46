"""Fuzzers (issue 14): answers of every question type, settings files, and every pack field that
takes a number. None may raise: an answer is read or refused, a settings file gives usable
settings, a pack is loaded, refused or drawn with located messages.

`make test` runs each with FUZZ_EXAMPLES examples (modest); `make fuzz` sets QUIZ_FUZZ_EXAMPLES
higher and prints hypothesis's statistics.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quiz.answer_text import Invalid, Parsed, parse_answer, read_small_int
from quiz.bank import load_bank
from quiz.cli.grade import read_answer
from quiz.format.checks import check_question
from quiz.format.diagnostics import Report
from quiz.history.settings import Settings, load_settings, save_settings
from quiz.locale.i18n import LANGUAGES
from quiz.types.draw import make_variant
from quiz.types.grade import grade
from quiz.variants.variant import VariantError

FUZZ_EXAMPLES = int(os.environ.get("QUIZ_FUZZ_EXAMPLES", "60"))
FUZZ = settings(max_examples=FUZZ_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])

BANK = load_bank()
ONE_OF_EACH_TYPE = {}
for _question in BANK.questions.values():
    if _question.type not in ONE_OF_EACH_TYPE and BANK.compiled(_question.id) is not None:
        ONE_OF_EACH_TYPE[_question.type] = _question
VARIANTS = {kind: make_variant(BANK.compiled(question.id), 3) for kind, question in ONE_OF_EACH_TYPE.items()}

# Digits of every class, signs, separators and the characters answers are made of, mixed with
# anything at all: the alphabet where the bugs were.
DIGITS = "0123456789０１２３４５６７８９᧚➋❹०१₁¹٣๓Ⅲ一"
ANSWER_ALPHABET = DIGITS + " ,、;[]()+-−*/^.eE√πabcdefgh\n\t\x1b\x00\u202e"
answer_texts = st.one_of(
    st.text(alphabet=ANSWER_ALPHABET, max_size=60),
    st.text(max_size=60),
    st.integers(min_value=4_000, max_value=5_000).map(lambda n: "9" * n),
)


@given(kind=st.sampled_from(sorted(VARIANTS)), text=answer_texts)
@FUZZ
def test_any_answer_to_any_type_is_read_or_refused_then_graded(kind, text):
    variant = VARIANTS[kind]
    response = read_answer(variant, text)
    if isinstance(response, Invalid):
        assert response.message("en") and response.message("ja")
        return
    result = grade(variant, response, 0)
    assert 0.0 <= result.score <= 1.0


@given(shape=st.sampled_from([(), (2,), (3,), (2, 2), (3, 3)]), text=answer_texts)
@FUZZ
def test_a_numeric_answer_read_has_the_shape_asked_and_is_finite(shape, text):
    parsed = parse_answer(text, shape)
    if isinstance(parsed, Parsed):
        value = np.asarray(parsed.value)
        assert value.shape == shape and np.isfinite(value).all()


@given(text=st.text(alphabet=DIGITS + " -+", max_size=8) | st.text(max_size=8), maximum=st.integers(1, 30))
@FUZZ
def test_a_small_number_is_read_only_from_plain_digits(text, maximum):
    number = read_small_int(text, maximum)
    if number is not None:
        ascii_digits = text.translate({ord("０") + n: ord("0") + n for n in range(10)})
        assert ascii_digits.isascii() and ascii_digits.isdigit() and not ascii_digits.startswith("0")
        assert number == int(ascii_digits) and 1 <= number <= maximum


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=20,
)
settings_files = st.one_of(
    st.binary(max_size=200),
    json_values.map(lambda value: json.dumps(value).encode()),
    st.dictionaries(st.sampled_from(["language", "theme", "other"]), json_values, max_size=3).map(lambda value: json.dumps(value).encode()),
    st.integers(1, 40_000).map(lambda depth: b"[" * depth + b"]" * depth),
    st.sampled_from([b"\xef\xbb\xbf{}", b'{"language": "ja"}'.decode().encode("utf-16"), b'{"language": 1e999}', b'{"kept": "\\ud800"}']),
)


@given(content=settings_files)
@FUZZ
def test_any_settings_file_gives_usable_settings_and_saving_loses_nothing(content):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "settings.json"
        path.write_bytes(content)
        loaded, problem = load_settings(path)
        assert loaded.language in LANGUAGES and isinstance(loaded.theme, str)
        assert problem is None or str(path) in problem
        if problem is None:  # a file that was read is saved with every key it had
            before = json.loads(content.decode("utf-8-sig"))
            save_settings(Settings(language="ja", theme="nord"), path)
            after = json.loads(path.read_text(encoding="utf-8"))
            assert {k: v for k, v in after.items() if k not in ("language", "theme")} == {
                k: v for k, v in before.items() if k not in ("language", "theme")
            }


# Number-like text of every kind that ever broke a draw or a load, and arbitrary ones.
numbers = st.one_of(
    st.integers(-(10**20), 10**20).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.integers(1, 6_000).map(lambda n: "9" * n),
    st.sampled_from(
        [
            *("inf", "-inf", "nan", "1e999", "5e-324", "1e-300", "10**30", "2**4000", "zeros(3)", "'\"a\"'"),
            *("True", "0x10", "1_000", "1:30", "٣", "-0", "0.1"),
        ]
    ),
    st.text(alphabet="0123456789.eE+-*", min_size=1, max_size=12),
)

NUMERIC_FIELDS = """\
id: fuzzed
type: number
topic: softmax
prompt: "{{{{ a }}}} {{{{ b }}}} {{{{ c }}}}"
difficulty: {difficulty}
time: {time}
hint_penalty: {penalty}
tolerance: {{rtol: {rtol}, atol: {atol}, decimals: {decimals}}}
params:
  a: {{integer: [{low}, {high}]}}
  b: {{decimal: [{low}, {high}], step: {step}}}
  c: {{normal: [{dim}], mean: {mean}, std: {std}, decimals: {places}}}
  d: {{choice: [{choice}, 1]}}
answer: a
misconceptions:
  - {{name: off, answer: a + 1, feedback: off by one, credit: {credit}}}
"""
FIELDS = ("difficulty", "time", "penalty", "rtol", "atol", "decimals", "low", "high", "step", "dim", "mean", "std", "places", "choice", "credit")
DEFAULTS = {"difficulty": "2", "time": "60", "penalty": "0.25", "rtol": "0.005", "atol": "0.0005", "decimals": "3", "low": "1", "high": "5",
            "step": "0.5", "dim": "3", "mean": "0", "std": "1", "places": "1", "choice": "2", "credit": "0.5"}


@given(changed=st.dictionaries(st.sampled_from(FIELDS), numbers, min_size=1, max_size=4), seed=st.integers(0, 10**6))
@FUZZ
def test_any_number_in_any_numeric_field_is_loaded_or_refused_with_its_line(changed, seed):
    text = NUMERIC_FIELDS.format(**{**DEFAULTS, **changed})
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "pack.yaml"
        path.write_text(text, encoding="utf-8")
        bank = load_bank([path])
        for diagnostic in bank.report.diagnostics:
            assert diagnostic.location.path == path
        for question in bank.questions.values():
            report = Report()
            compiled = check_question(question, bank.claims, report)
            if compiled is None:
                continue
            try:
                variant = make_variant(compiled, seed)
            except VariantError as exc:
                assert exc.location is not None and exc.location.path == path
                continue
            for lang in LANGUAGES:
                assert isinstance(variant.text(question.prompt, lang), str)
