"""What statistics count, named as learners read it: topics by their names, claims by their
rendered texts in natural order (X3 before X10), and each mistake once, by its label.

A mistake reaches the history under the name its source gives it: a question's misconception
(`name:` in the YAML) or a code task's mistake (`quiz/code/kinds`, labelled by the `code.label_*`
texts). Some sources name the same mistake differently; `SAME_MISTAKE` is the one mapping that
makes them one, so statistics count it once.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

from quiz.locale.i18n import catalogue, tr

if TYPE_CHECKING:  # types only: the statistics core loads without the bank
    from quiz.bank import Bank

SAME_MISTAKE: Final[Mapping[str, str]] = {
    # question misconception name → the name the code tasks and the engine's faults use
    "no_scaling": "missing_scale",
    "divide_by_d_k": "double_scale",
    "divide_by_d_model": "scale_by_d_model",
    # two question misconception names for one mistake, labelled alike
    "forgot_heads": "one_head",
    "bits_not_bytes": "counted_bits",
    "zeroed_after_softmax": "mask_after_softmax",
}
"""Each other name of a mistake → its canonical name."""

_NUMBER: Final = re.compile(r"(\d+)")


def canonical_mistake(name: str) -> str:
    """The one name statistics count `name`'s mistake under."""
    return SAME_MISTAKE.get(name, name)


def merged_mistakes(counts: Mapping[str, int]) -> dict[str, int]:
    """`counts` (mistake name → times) with each mistake's names added together under its
    canonical name, most often first, ties by name."""
    merged: Counter[str] = Counter()
    for name, count in counts.items():
        merged[canonical_mistake(name)] += count
    return dict(sorted(merged.items(), key=lambda item: (-item[1], item[0])))


def natural_key(text: str) -> tuple[tuple[int, str | int], ...]:
    """A sort key that orders the numbers inside `text` by value: X3 before X10."""
    return tuple((1, int(part)) if part.isdigit() else (0, part) for part in _NUMBER.split(text) if part)


def topic_name(bank: Bank, topic: str, lang: str) -> str:
    """A topic as learners read it: its name from the claims file (its id when it has none)."""
    known = bank.claims.topics.get(topic)
    return known.label(lang) if known is not None else topic


def claim_text(bank: Bank, claim: str, lang: str) -> str:
    """A claim's text with its maths rendered (`δ_ij` as δᵢⱼ); empty for a claim not in the file."""
    from quiz.render.mathtext import scripts_in_text

    known = bank.claims.claims.get(claim)
    return scripts_in_text(known.label(lang)) if known is not None else ""


def mistake_name(bank: Bank, name: str, lang: str) -> str:
    """A mistake as learners read it: the label questions give it under any of its names, else
    the code tasks' label, else a word that it has none (never its internal name)."""
    from quiz.types.preview import one_line

    labels = bank.mistake_labels()
    for other in (name, *(alias for alias, canonical in SAME_MISTAKE.items() if canonical == name)):
        if other in labels:
            return one_line(labels[other], lang)
    code_label = f"code.label_{name}"
    return tr(code_label if code_label in catalogue("en") else "ui.mistake_unlabelled", lang)
