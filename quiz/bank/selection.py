"""Which questions to practise: by topic, claim or difficulty, or one question or variant by key.

Topic and claim names are matched without regard to case (`b4` is B4). A selection the bank
cannot have is refused with a `SelectionError` that names what is wrong and what is close.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import replace

from quiz.base.fieldwise import Fieldwise, record
from quiz.format.claims import Claims
from quiz.format.model import QuestionBase
from quiz.locale.i18n import DEFAULT_LANGUAGE, tr
from quiz.variants.keys import parse_key


class SelectionError(Exception):
    """A selection names a topic, claim or id the bank lacks, or holds no usable question.

    `key` names the catalogue message (`session.unknown_topic`) and `params` fill it, so the app
    can say it in the learner's language; `str()` is the English text, for the command line.
    """

    def __init__(self, key: str, /, **params: object) -> None:
        super().__init__(tr(f"session.{key}", DEFAULT_LANGUAGE, **params))
        self.key = key
        self.params = params

    def message(self, lang: str) -> str:
        return tr(f"session.{self.key}", lang, **self.params)


@record
class Selection(Fieldwise):
    """Which questions to practise: all, or by topic, claim, difficulty, or one id/variant key."""

    topic: str | None = None
    claim: str | None = None
    difficulty: int | None = None
    key: str | None = None
    ids: tuple[str, ...] = ()
    """Exactly these questions, in this order (a round of what was missed, of what is due)."""

    def matches(self, question: QuestionBase) -> bool:
        return (
            (not self.ids or question.id in self.ids)
            and (self.topic is None or question.topic == self.topic)
            and (self.claim is None or self.claim in question.refs)
            and (self.difficulty is None or question.difficulty == self.difficulty)
        )


def resolve_selection(claims: Claims, selection: Selection) -> Selection:
    """`selection` with its topic and claim spelt as the bank spells them; SelectionError for a
    topic, claim or variant key the bank cannot have, before anything is drawn."""
    topic, claim = selection.topic, selection.claim
    if topic is not None and claims.topics:
        topic = _canonical(topic, claims.topics)
        if topic is None:
            raise SelectionError("unknown_topic", topic=selection.topic, topics=", ".join(claims.topics))
    if claim is not None and claims.claims:
        asked, claim = claim, _canonical(claim, claims.claims)
        if claim is None:
            close = difflib.get_close_matches(asked.upper(), list(claims.claims), n=1, cutoff=0.5)
            if close:
                raise SelectionError("unknown_claim_close", claim=selection.claim, close=close[0])
            raise SelectionError("unknown_claim", claim=selection.claim)
    if selection.key is not None:
        try:
            parse_key(selection.key)
        except ValueError:
            raise SelectionError("bad_key", key=selection.key) from None
    return replace(selection, topic=topic, claim=claim)


def _canonical(name: str, known: Iterable[str]) -> str | None:
    folded = name.strip().casefold()
    return next((k for k in known if k.casefold() == folded), None)
