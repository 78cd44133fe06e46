"""The bank's questions by id, in load order; one kept in the bank cache is built when first used.

A warm start reads every pack's questions from the cache, but shows one: building the other
models (about 40 ms for the bundled bank) would only delay the first screen. So the cache gives
each question as a `Deferred`, which knows its id and follow-ups (all that loading checks across
questions) and builds the model on demand. Lookups by id, `in`, `len` and iterating the ids build
nothing; reading a question builds it once.
"""

from __future__ import annotations

from collections.abc import Callable, ItemsView, Iterator, MutableMapping, ValuesView

from quiz.format.model import QuestionBase


class Deferred:
    """A question known by its id and its follow-ups' ids, whose model `build` makes when first asked."""

    __slots__ = ("build", "follow_ups", "id")

    def __init__(self, question_id: str, follow_ups: tuple[str, ...], build: Callable[[], QuestionBase]) -> None:
        self.id = question_id
        self.follow_ups = follow_ups
        self.build = build

    @property
    def follow_up_ids(self) -> tuple[str, ...]:
        """The follow-ups' ids, as a built question gives them."""
        return self.follow_ups


class Questions(MutableMapping[str, QuestionBase]):
    """Questions by id in the order added; deferred ones are built on first access."""

    def __init__(self) -> None:
        self._entries: dict[str, QuestionBase | Deferred] = {}

    def defer(self, question: Deferred) -> None:
        """Add a question to be built when first used."""
        self._entries[question.id] = question

    def follow_ups(self, question_id: str) -> tuple[str, ...]:
        """The follow-ups of `question_id`, without building it."""
        return self._entries[question_id].follow_up_ids

    def __getitem__(self, question_id: str) -> QuestionBase:
        entry = self._entries[question_id]
        if isinstance(entry, Deferred):
            try:
                entry = self._entries[question_id] = entry.build()
            except KeyError:  # its source no longer holds it: the bank never had it
                del self._entries[question_id]
                raise
        return entry

    def present(self) -> Iterator[tuple[str, QuestionBase]]:
        """Each id with its question, built as reached; one found missing is left out."""
        for question_id in list(self._entries):
            try:
                yield question_id, self[question_id]
            except KeyError:
                continue

    def values(self) -> ValuesView[QuestionBase]:
        return _Values(self)

    def items(self) -> ItemsView[str, QuestionBase]:
        return _Items(self)

    def __setitem__(self, question_id: str, question: QuestionBase) -> None:
        self._entries[question_id] = question

    def __delitem__(self, question_id: str) -> None:
        del self._entries[question_id]

    def __contains__(self, question_id: object) -> bool:
        return question_id in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"Questions({list(self._entries)!r})"


class _Values(ValuesView[QuestionBase]):
    """The questions, skipping one found missing as it is built (see `Questions.__getitem__`)."""

    _mapping: Questions

    def __iter__(self) -> Iterator[QuestionBase]:
        return (question for _, question in self._mapping.present())


class _Items(ItemsView[str, QuestionBase]):
    """The ids and questions, skipping one found missing as it is built."""

    _mapping: Questions

    def __iter__(self) -> Iterator[tuple[str, QuestionBase]]:
        return self._mapping.present()
