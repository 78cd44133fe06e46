"""Japanese texts of the bank and the catalogue: full-width punctuation and the glossary's terms
(docs/glossary-ja.md is read here: no form it lists to avoid appears, so a new row is checked as
soon as it is written).

Maths (`$...$`), code (`` `...` ``), placeholders (`{{ ... }}`, `{name}`) and formula notation
such as `Var(s)` or `abs(行の和 − 1)` keep ASCII brackets; prose uses 「（」「）」「：」.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from functools import cache

import pytest
import yaml

from places import ROOT
from quiz.base import locations

KEEP = re.compile(r"\$\$.*?\$\$|\$[^$]*\$|`[^`]*`|\{\{.*?\}\}|\{[a-z_]+\}", re.S)
TABLE_RULE = re.compile(r"(?m)^\s*\|?(\s*:?-{3,}:?\s*\|?)+\s*$")
JAPANESE = r"\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef"
HALF_WIDTH = [
    (re.compile(r":(?!\d)"), "a half-width colon in prose: write 「：」"),
    (re.compile(rf"(?:^|(?<=[\s{JAPANESE}]))\([^()]*[{JAPANESE}][^()]*\)"), "a parenthetical in half-width brackets: write 「（…）」"),
    (re.compile(r"（[^（）()]*\)|\([^（）()]*）"), "brackets of mixed widths"),
]
CATALOGUE = ROOT / "quiz" / "locale" / "ja.toml"
GLOSSARY = ROOT / "docs" / "glossary-ja.md"


def japanese_texts(node: object, where: str) -> Iterator[tuple[str, str]]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "ja" and isinstance(value, str):
                yield where, value
            else:
                yield from japanese_texts(value, f"{where}.{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from japanese_texts(value, f"{where}[{index}]")


def catalogue_texts(node: dict, where: str = "ja.toml") -> Iterator[tuple[str, str]]:
    for key, value in node.items():
        if isinstance(value, dict):
            yield from catalogue_texts(value, f"{where}:{key}")
        elif isinstance(value, str):
            yield f"{where}:{key}", value


@cache
def all_texts() -> list[tuple[str, str]]:
    texts = []
    for path in sorted(locations.bundled_bank_dir().glob("*.yaml")):
        texts += japanese_texts(yaml.safe_load(path.read_text(encoding="utf-8")), path.name)
    texts += catalogue_texts(tomllib.loads(CATALOGUE.read_text(encoding="utf-8")))
    return texts


def prose(text: str) -> str:
    """The text with maths, code, placeholders, table rules and `{path}:{line}:` masked as `x`s
    (a location keeps the ASCII colons tools and editors read).

    A masked span keeps its length (for the messages' context) and reads as a symbol, so that
    `{name}(2)` stays notation while `$x$ (説明)` is still a parenthetical.
    """
    mask = lambda match: "x" * len(match.group())  # noqa: E731
    text = KEEP.sub(mask, re.sub(r"\{path\}:\{line\}:?", mask, text))
    return TABLE_RULE.sub(lambda match: " " * len(match.group()), text)


def glossary() -> list[tuple[str, str, tuple[str, ...]]]:
    """Each form the glossary's table lists to avoid: (form, the form to use, the words containing it
    that are allowed, listed after `allowed:` in the row's note)."""
    lines = [line for line in GLOSSARY.read_text(encoding="utf-8").splitlines() if line.startswith("| ")][1:]
    forms = []
    for line in lines:
        term, use, avoid, note = (cell.strip() for cell in line.strip().strip("|").split("|"))
        assert term and use, line
        allowed = tuple(re.findall(r"`([^`]+)`", note.split("allowed:", 1)[1])) if "allowed:" in note else ()
        forms += [(form, use, allowed) for form in re.findall(r"`([^`]+)`", avoid)]
    return forms


def without(text: str, words: tuple[str, ...]) -> str:
    for word in words:
        text = text.replace(word, "・" * len(word))
    return text


@pytest.mark.parametrize(("form", "use", "allowed"), glossary(), ids=[form for form, _, _ in glossary()])
def test_no_form_the_glossary_avoids_appears_in_the_bank_or_the_catalogue(form, use, allowed):
    found = [
        f"{where}: …{text[max(0, i - 15):i + len(form) + 15]}…"
        for where, text in all_texts()
        if (i := without(prose(text), allowed).find(form)) >= 0
    ]
    assert not found, f"write {use}, not {form}:\n" + "\n".join(found)


@pytest.mark.parametrize(("pattern", "problem"), HALF_WIDTH, ids=["colon", "parenthetical", "mixed-brackets"])
def test_japanese_texts_use_full_width_punctuation(pattern, problem):
    found = [
        f"{where}: …{text[max(0, m.start() - 15):m.end() + 15]}…"
        for where, text in all_texts()
        for m in pattern.finditer(prose(text))
    ]
    assert not found, problem + "\n" + "\n".join(found)


def test_the_checks_see_the_texts():
    """The walk reaches the bank's texts and the catalogue's, and the patterns catch what they name."""
    texts = all_texts()
    assert len([w for w, _ in texts if w.startswith("ja.toml")]) > 200 and len(texts) > 1000
    samples = ["例: 0.5", "重み (各キー)", "$x$ (説明)", "（約 1)"]
    assert all(any(p.search(prose(s)) for p, _ in HALF_WIDTH) for s in samples)
    forms = {form for form, _, _ in glossary()}
    assert {"注意", "注意機構", "スケーリング付き内積注意", "注意してよい", "全マスク行", "空行", "主張"} <= forms
    assert "注意" not in without("注意点が 2 つ", next(a for f, _, a in glossary() if f == "注意"))
    notation = "$f(x): y$ と `a(b): c` と Var(s) と abs(行の和) と (H, T, D) と {name}(2) と {path}:{line}"
    assert not any(p.search(prose(notation)) for p, _ in HALF_WIDTH)
