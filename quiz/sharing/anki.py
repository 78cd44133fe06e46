"""Export the bank as an Anki deck (.apkg): one note per question, variant and language (a
variant whose note would read as an earlier one's is left out).

The same bank gives the same file, byte for byte: the model and deck ids are fixed, each
note's GUID comes from its variant key and language (so importing a newer export updates the
notes instead of adding copies), genanki is given a fixed timestamp for its note and card ids,
and the zip is written with fixed dates.
"""

from __future__ import annotations

import io
import sqlite3
import tempfile
import zipfile
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from itertools import count
from pathlib import Path
from typing import Final

import genanki

from quiz.bank import Bank
from quiz.locale.i18n import tr
from quiz.sharing.html import inline_html, variant_html
from quiz.types.draw import make_variant
from quiz.types.present import how_to_answer
from quiz.types.registry import type_of
from quiz.variants.variant import Variant, VariantError

MODEL_ID: Final = 1_738_211_457
DECK_ID: Final = 1_284_950_316
"""Fixed ids (drawn once at random, as Anki asks): a re-import finds the same note type and deck."""
TIMESTAMP: Final = 1_700_000_000
"""The time genanki stamps on notes and cards and derives their ids from (2023-11-14)."""
ZIP_DATE: Final = (1980, 1, 1, 0, 0, 0)
DECK_NAME: Final = "Attention quiz"
GUID_PREFIX: Final = "attention-quiz"

MODEL: Final = genanki.Model(
    MODEL_ID,
    "Attention quiz",
    fields=[{"name": "Key"}, {"name": "Front"}, {"name": "Back"}],
    templates=[
        {
            "name": "Card",
            "qfmt": "{{Front}}",
            "afmt": '{{FrontSide}}<hr id="answer">{{Back}}<p class="key">{{Key}}</p>',
        }
    ],
    css=(
        ".card { font-family: sans-serif; font-size: 18px; text-align: left; }\n"
        ".how { color: #555; margin-top: 1em; }\n"
        ".key { color: #999; font-size: 12px; }\n"
    ),
)


@dataclass(frozen=True)
class Card:
    """One note's content: the variant key, its language, the two sides (HTML) and tags."""

    key: str
    lang: str
    front: str
    back: str
    tags: tuple[str, ...]

    @property
    def guid(self) -> str:
        """Stable across exports: the variant key and the language decide it."""
        guid: str = genanki.guid_for(GUID_PREFIX, self.key, self.lang)  # genanki is untyped
        return guid


def cards(
    bank: Bank, languages: Sequence[str], variants: int, skipped: list[str], ids: Collection[str] | None = None
) -> Iterator[Card]:
    """The cards of every question of `bank` (or only those of `ids`) that compiles: `variants`
    seeds of a question whose numbers are drawn (seeds 0 to variants − 1), one of any other; each
    in every language. A seed whose card reads as an earlier seed's is left out: a code question's
    seeds draw only its checks' inputs, which no card shows. Questions or variants that cannot be
    made are named in `skipped`; once one variant of a question runs out of a budget, its other
    seeds are left out (each would spend as much)."""
    for question_id, question in bank.questions.items():
        if ids is not None and question_id not in ids:
            continue
        compiled = bank.compiled(question_id)
        if compiled is None:
            skipped.append(f"{question_id}: has errors (quiz validate says which)")
            continue
        seeds = range(variants) if question.is_parametric else range(1)
        made: set[tuple[str, str, str]] = set()  # (language, front, back) of this question's cards so far
        for seed in seeds:
            try:
                variant = make_variant(compiled, seed)
            except VariantError as exc:
                skipped.append(f"{question_id}#{seed}: {exc.message}")
                if exc.budget is not None:
                    _leave_out(question_id, seed, seeds, skipped)
                    break
                continue
            for lang in languages:
                card = _card(variant, lang)
                if (lang, card.front, card.back) not in made:
                    made.add((lang, card.front, card.back))
                    yield card
            if variant.budget.out_of_time():  # its texts used up the variant's time
                _leave_out(question_id, seed, seeds, skipped)
                break


def _leave_out(question_id: str, seed: int, seeds: range, skipped: list[str]) -> None:
    if seed + 1 < seeds.stop:
        skipped.append(f"{question_id}: seeds {seed + 1} to {seeds.stop - 1} left out: a variant must stay well within its budgets")


def _card(variant: Variant, lang: str) -> Card:
    question = variant.question
    kind = type_of(question)
    how = "<br>".join(inline_html(line.strip()) for line in how_to_answer(variant, lang))
    front = f'<div class="prompt">{variant_html(variant, question.prompt, lang)}</div><div class="how">{how}</div>'
    answer = "<br>".join(inline_html(line) for line in kind.answer_text(variant, lang).split("\n"))
    back = [f'<div class="answer"><b>{tr("anki.answer", lang)}</b> {answer}</div>']
    rule = kind.rule(variant, lang)
    if rule is not None:
        back.append(f'<div class="rule">{inline_html(rule)}</div>')
    if question.explanation is not None:
        back.append(f'<div class="explanation">{variant_html(variant, question.explanation, lang)}</div>')
    mistakes = [m for m in kind.mistakes(variant) if m.feedback is not None or m.label is not None]
    if mistakes:
        items = []
        for m in mistakes:  # learners read labels, never a mistake's internal name
            label = f"<b>{_unwrap(variant_html(variant, m.label, lang))}</b>" if m.label else ""
            feedback = _unwrap(variant_html(variant, m.feedback, lang)) if m.feedback else ""
            shown = kind.mistake_shown(variant, m, lang)
            value = f"({inline_html(shown)})" if shown else ""  # a code task's mistakes have no value
            items.append(f"<li>{' '.join(part for part in (label, value) if part)}: {feedback}</li>")
        back.append(f'<div class="mistakes"><b>{tr("anki.mistakes", lang)}</b><ul>{"".join(items)}</ul></div>')
    tags = ("attention-quiz", f"topic::{question.topic}", f"type::{question.type}", f"lang::{lang}", *(f"claim::{r}" for r in question.refs))
    return Card(variant.key, lang, front, "".join(back), tags)


def _unwrap(html: str) -> str:
    """A one-paragraph text without its <p>, to sit inside a list item."""
    return html[3:-4] if html.startswith("<p>") and html.endswith("</p>") and html.count("<p>") == 1 else html


def write_apkg(cards: Sequence[Card], path: Path) -> None:
    """Write `cards` as an Anki package at a new file `path`, the same bytes for the same cards.

    The package is made first and the file created only then, exclusively: an existing file, or a
    symlink in its place, is never written through (FileExistsError)."""
    deck = genanki.Deck(DECK_ID, DECK_NAME)
    for card in cards:
        deck.add_note(genanki.Note(model=MODEL, fields=[card.key, card.front, card.back], tags=list(card.tags), guid=card.guid))
    with tempfile.TemporaryDirectory() as scratch:
        database = Path(scratch) / "collection.anki2"
        connection = sqlite3.connect(database)
        try:
            genanki.Package(deck).write_to_db(connection.cursor(), TIMESTAMP, count(TIMESTAMP * 1000))
            connection.commit()
        finally:
            connection.close()
        # genanki's own writer stamps the zip with the clock and leaves its database in /tmp.
        made = io.BytesIO()
        with zipfile.ZipFile(made, "w", zipfile.ZIP_DEFLATED) as package:
            package.writestr(_entry("collection.anki2"), database.read_bytes())
            package.writestr(_entry("media"), "{}")
    with open(path, "xb") as out:  # O_CREAT | O_EXCL: refuses an existing path, a symlink included
        out.write(made.getvalue())


def _entry(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    return info
