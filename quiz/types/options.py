"""What choice and multi questions share: options with ids, shown with letters, read from typed picks."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, Final

from quiz.answers import Invalid
from quiz.format.convert import Where
from quiz.format.diagnostics import Report
from quiz.format.model import ID_PATTERN, Option, Text, error_at, option_ids
from quiz.format.yaml_source import YamlMap
from quiz.types.reading import plain_text, small_number, words
from quiz.variants.variant import Variant

MAX_OPTIONS: Final = 26


def letter(index: int) -> str:
    """How the option at `index` is labelled for learners: a, b, c, ..."""
    return chr(ord("a") + index)


def check_options(where: Where, raw: YamlMap, report: Report, options: tuple[Option, ...], least: int) -> bool:
    """Between `least` and 26 options, with unique, well-formed ids."""
    if len(options) < least:
        return error_at(where, raw, "options", f"give at least {least} options", report)
    if len(options) > MAX_OPTIONS:
        return error_at(where, raw, "options", f"give at most {MAX_OPTIONS} options", report)
    ids = option_ids(options)
    for i in ids:
        if not ID_PATTERN.fullmatch(i):
            return error_at(where, raw, "options", f"option id '{i}' must be lower-case letters, digits, - or _", report)
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        return error_at(where, raw, "options", f"option ids must be unique: {', '.join(duplicates)}", report)
    return True


def options_of(variant: Variant) -> tuple[Option, ...]:
    return variant.question.options  # type: ignore[attr-defined,no-any-return]


def correct_options(variant: Variant) -> list[str]:
    """The ids of the options that are right for this variant."""
    if variant.answer is not None:  # a parametric choice question computes its one right option
        return [variant.answer]
    options = options_of(variant)
    return [i for i, option in zip(option_ids(options), options) if option.correct]


def option_feedback(variant: Variant, picked: Collection[str]) -> tuple[Text, ...]:
    """The feedback of each picked option that has some."""
    options = options_of(variant)
    return tuple(o.feedback for i, o in zip(option_ids(options), options) if i in picked and o.feedback is not None)


def option_lines(variant: Variant, lang: str, only: Collection[str] | None = None) -> list[str]:
    """`a) text` for each option (or only those in `only`), with their values filled in."""
    options = options_of(variant)
    return [
        f"{letter(n)}) {variant.text(o.text, lang)}"
        for n, (i, o) in enumerate(zip(option_ids(options), options))
        if only is None or i in only
    ]


def options_json(variant: Variant, lang: str) -> dict[str, Any]:
    options = options_of(variant)
    return {"options": [{"id": i, "text": variant.text(o.text, lang)} for i, o in zip(option_ids(options), options)]}


def picks_text(variant: Variant, picks: Collection[str]) -> str:
    """Option ids written as the letters shown, in the order shown."""
    ids = option_ids(options_of(variant))
    return " ".join(letter(n) for n, i in enumerate(ids) if i in picks)


def read_picks(variant: Variant, text: str) -> list[str] | Invalid:
    """Option ids from typed words: an option's id, or its letter or number as shown."""
    text = plain_text(text)
    if isinstance(text, Invalid):
        return text
    ids = option_ids(options_of(variant))
    picks: list[str] = []
    for word in (w.lower() for w in words(text)):
        if word not in ids:  # an option's id wins; otherwise its number or letter as shown
            number = small_number(word)
            if number is not None and 1 <= number <= len(ids):
                word = ids[number - 1]
            elif len(word) == 1 and "a" <= word < letter(len(ids)):
                word = ids[ord(word) - ord("a")]
        if word not in ids:
            return Invalid("response.unknown_option", {"option": word, "options": ", ".join(ids)})
        if word not in picks:
            picks.append(word)
    return picks
