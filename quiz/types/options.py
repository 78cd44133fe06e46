"""What choice and multi questions share: options with ids, shown with letters, read from typed picks."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, Protocol, runtime_checkable

from quiz.answer_text import Invalid
from quiz.format.model import Option, Text, option_ids
from quiz.locale.i18n import tr
from quiz.types.reading import plain_text, small_number, words
from quiz.variants.shuffle import option_order
from quiz.variants.variant import Variant


def letter(index: int) -> str:
    """How the option at `index` is labelled for learners: a, b, c, ..."""
    return chr(ord("a") + index)


@runtime_checkable
class WithOptions(Protocol):
    """A question whose options a learner picks from: choice and multi."""

    @property
    def options(self) -> tuple[Option, ...]: ...

    @property
    def shuffle(self) -> bool: ...


def _question(variant: Variant) -> WithOptions:
    question = variant.question
    if not isinstance(question, WithOptions):
        raise TypeError(f"{question.id} is a {question.type} question, which has no options")
    return question


def shown(variant: Variant) -> list[tuple[str, Option]]:
    """(id, option) in the order the variant shows them; the n-th is labelled letter(n)."""
    question = _question(variant)
    options = question.options
    ids = option_ids(options)
    order = option_order(variant, len(options), question.shuffle)
    return [(ids[i], options[i]) for i in order]


def correct_options(variant: Variant) -> list[str]:
    """The ids of the options that are right for this variant, in the order shown."""
    if variant.answer is not None:  # a parametric choice question computes its one right option
        return [variant.answer]
    return [i for i, option in shown(variant) if option.correct]


def option_feedback(variant: Variant, picked: Collection[str]) -> tuple[Text, ...]:
    """The feedback of each picked option that has some, in the order shown."""
    return tuple(o.feedback for i, o in shown(variant) if i in picked and o.feedback is not None)


def option_lines(variant: Variant, lang: str, only: Collection[str] | None = None) -> list[str]:
    """`a) text` for each option as shown (or only those in `only`), with their values filled in."""
    return [f"{letter(n)}) {variant.text(o.text, lang)}" for n, (i, o) in enumerate(shown(variant)) if only is None or i in only]


def feedback_lines(variant: Variant, lang: str) -> list[str]:
    """`a) feedback` for each option as shown that has feedback, for authors (`quiz show --answer`)."""
    return [f"{letter(n)}) {variant.text(o.feedback, lang)}" for n, (_, o) in enumerate(shown(variant)) if o.feedback is not None]


def options_json(variant: Variant, lang: str) -> dict[str, Any]:
    """The options as shown: id, the letter a learner types, and text."""
    return {"options": [{"id": i, "letter": letter(n), "text": variant.text(o.text, lang)} for n, (i, o) in enumerate(shown(variant))]}


def letters(variant: Variant, picks: Collection[str]) -> list[str]:
    """Option ids as the letters the variant shows them under, in the order shown."""
    return [letter(n) for n, (i, _) in enumerate(shown(variant)) if i in picks]


def picks_text(variant: Variant, picks: Collection[str]) -> str:
    """Option ids written as the letters shown, in the order shown."""
    return " ".join(letters(variant, picks))


def marked_picks(variant: Variant, picks: Collection[str], lang: str) -> str:
    """Each option as shown: ✓ picked and right, ✗ picked but wrong, "missed" right but not picked."""
    from quiz.render.mathtext import markdown_to_plain  # markdown-it: only when a marked answer is shown, not at start-up

    right = set(correct_options(variant))
    lines = []
    for n, (i, o) in enumerate(shown(variant)):
        if i in picks:
            mark = "✓" if i in right else "✗"
        elif i in right:
            mark = tr("grade.missed", lang)
        else:
            continue
        lines.append(f"{letter(n)}) {markdown_to_plain(variant.text(o.text, lang)).strip()}  {mark}")
    return "\n".join([tr("grade.your_answer_lines", lang), *lines])


def read_picks(variant: Variant, text: str) -> list[str] | Invalid:
    """Option ids from typed words: an option's letter (`b`, `b)`, `(b)`) or number as shown, or its id.

    The letter shown wins: options are shuffled, so the option with the id `a` may be shown as
    c), and a learner who types `a` means the option they see as a).
    """
    plain = plain_text(text)
    if isinstance(plain, Invalid):
        return plain
    ids = [i for i, _ in shown(variant)]
    picks: list[str] = []
    for word in (w.lower() for w in words(plain)):
        bare = word.strip("()")
        number = small_number(bare)
        if len(bare) == 1 and "a" <= bare < letter(len(ids)):
            word = ids[ord(bare) - ord("a")]
        elif number is not None and 1 <= number <= len(ids):
            word = ids[number - 1]
        if word not in ids:
            return Invalid("response.unknown_option", {"option": word, "options": ", ".join(letter(n) for n in range(len(ids)))})
        if word not in picks:
            picks.append(word)
    return picks
