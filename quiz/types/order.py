"""The `order` type: put the steps in order; scored by the pairs of steps in the right relative order.

The score is the share of pairs of items the learner puts in the right relative order, so the
reversed list scores 0 and one step out of place costs little. An author may name critical pairs
(`mask` before `softmax`): putting one the wrong way round is a named mistake with its feedback,
and caps the score (at 0 unless the author sets a cap).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

from quiz.answer_text import Invalid
from quiz.format.model import Text
from quiz.grading.result import Result, finish
from quiz.locale.i18n import tr
from quiz.models.questions import CriticalPair, OrderQuestion
from quiz.types.base import Mistake, QuestionType
from quiz.types.reading import item_numbers, plain_text
from quiz.variants.shuffle import display_order
from quiz.variants.variant import Variant


def ordered_pairs(order: Sequence[int]) -> int:
    """How many pairs of items stand in the right relative order (i before j when i < j)."""
    return sum(1 for a, b in itertools.combinations(order, 2) if a < b)


def violated(question: OrderQuestion, order: Sequence[int]) -> list[CriticalPair]:
    """The critical pairs `order` puts the wrong way round."""
    index = {item.id: n for n, item in enumerate(question.items) if item.id is not None}
    position = {item: at for at, item in enumerate(order)}
    return [pair for pair in question.critical if position[index[pair.pair[0]]] > position[index[pair.pair[1]]]]


SCAFFOLD = r"""id: <ID>
type: order
# The topic and the claims this question covers (ids from questions/claims.yaml):
# learners practise by topic or by claim.
topic: <TOPIC>
refs: [<CLAIM>]
prompt:
  en: Put the steps of masked attention in order.
  ja: マスク付き注意の計算手順を正しい順に並べてください。
items:                        # in the right order; they are shown shuffled
  - {id: scores, text: {en: "Scores $QK^\\top$", ja: "スコア $QK^\\top$"}}
  - {id: scale, text: {en: "Divide by $\\sqrt{d_k}$", ja: "$\\sqrt{d_k}$ で割る"}}
  - {id: mask, text: {en: Set masked scores to $-\infty$, ja: マスクするスコアを $-\infty$ にする}}
  - {id: softmax, text: {en: Softmax over the keys, ja: キー軸で softmax}}
  - {id: values, text: {en: Multiply by $V$, ja: $V$ を掛ける}}
critical:                     # a pair put the wrong way round is a named mistake and caps the score
  - pair: [mask, softmax]
    name: mask_after_softmax
    label: {en: masked after the softmax, ja: softmax の後でマスクした}
    feedback:
      en: Masking after the softmax leaves weight on the masked keys, or rows that no longer sum to one.
      ja: softmax の後でマスクすると、マスクしたキーに重みが残るか、行の和が 1 でなくなります。
explanation:
  en: The mask acts on the scores, before the softmax turns them into weights.
  ja: マスクはスコアに対して、softmax が重みに変える前に適用します。
"""
"""What `quiz new --type order` writes: a commented question that passes `quiz validate --strict`."""


class OrderType(QuestionType[OrderQuestion]):
    name = "order"
    model = OrderQuestion
    scaffold = SCAFFOLD
    scaffold_topic = "implementation"

    def _items(self, variant: Variant) -> list[Text]:
        return [item.text for item in self.question_of(variant).items]

    def read(self, variant: Variant, text: str) -> Any | Invalid:
        """Item numbers as shown, in the learner's order: `3 1 2`, `3, 1, 2` or `[3, 1, 2]`."""
        plain = plain_text(text)
        if isinstance(plain, Invalid):
            return plain
        count = len(self._items(variant))
        numbers = item_numbers(plain.strip("[]()"), count)
        if isinstance(numbers, Invalid):
            return numbers
        if sorted(numbers) != list(range(count)):
            return Invalid("response.order_each_once", {"count": count})
        shown = display_order(variant, count)
        return tuple(shown[n] for n in numbers)

    def grade(self, variant: Variant, response: Any, hints_used: int = 0) -> Result:
        """The learner's order, as the items' indices in the correct order, against 0, 1, 2, ..."""
        question = self.question_of(variant)
        count = len(question.items)
        if sorted(response) != list(range(count)):
            raise ValueError(f"an order must list each of the {count} items once, got {list(response)}")
        right, pairs = ordered_pairs(response), math.comb(count, 2)
        raw = right / pairs
        extra: dict[str, Any] = {}
        # The mistake that caps the score lowest is the one named; every one's feedback is given.
        mistakes = sorted(violated(question, response), key=lambda m: m.cap)
        if mistakes:
            raw = min(raw, *(m.cap for m in mistakes))
            extra = {"misconception": mistakes[0].name, "label": mistakes[0].label, "feedback": tuple(m.feedback for m in mistakes)}
        return finish(question, raw, hints_used, answer=list(range(count)), details={"ordered_pairs": right, "pairs": pairs}, **extra)

    def revealed_answer(self, variant: Variant) -> Any:
        return list(range(len(self._items(variant))))

    def answer_text(self, variant: Variant, lang: str) -> str:
        return "\n".join(f"{n}. {variant.text(item, lang)}" for n, item in enumerate(self._items(variant), 1))

    def answer_json(self, variant: Variant, lang: str) -> Any:
        # Item numbers as shown, in the right order: what `quiz grade` expects.
        shown = display_order(variant, len(self._items(variant)))
        return [shown.index(i) + 1 for i in range(len(shown))]

    def how_to_answer(self, variant: Variant, lang: str) -> list[str]:
        items = self._items(variant)
        order = display_order(variant, len(items))
        return [tr("show.put_in_order", lang), *(f"  {n}. {variant.text(items[i], lang)}" for n, i in enumerate(order, 1))]

    def response_text(self, variant: Variant, response: Any) -> str:
        shown = display_order(variant, len(self._items(variant)))
        return " ".join(str(shown.index(i) + 1) for i in response)

    def extra_json(self, variant: Variant, lang: str) -> dict[str, Any]:
        items = self._items(variant)
        return {"items": [variant.text(items[i], lang) for i in display_order(variant, len(items))]}

    def mistakes(self, variant: Variant) -> list[Mistake]:
        """Each critical pair: its value is the two steps the wrong way round, [then, first]."""
        pairs = self.question_of(variant).critical
        return [Mistake(p.name, p.label, [p.pair[1], p.pair[0]], f"[{p.pair[1]}, {p.pair[0]}]", p.cap, p.feedback) for p in pairs]

    def mistake_shown(self, variant: Variant, mistake: Mistake, lang: str) -> str:
        """The two steps the wrong way round, by their texts: learners never see item ids."""
        text = {item.id: item.text for item in self.question_of(variant).items}
        then, first = mistake.value
        return tr("anki.steps_swapped", lang, then=variant.text(text[then], lang), first=variant.text(text[first], lang))

    def marked_response(self, variant: Variant, result: Result, response: Any, lang: str) -> str | None:
        """The learner's order, a step a line: ✓ where a step is in its place, else where it belongs;
        nothing for the right order, which the answer shows once already."""
        from quiz.render.mathtext import markdown_to_plain  # markdown-it: only when a marked answer is shown, not at start-up

        if response is None or list(response) == list(range(len(response))):
            return None
        items = self._items(variant)
        lines = []
        for n, item in enumerate(response, 1):
            mark = "✓" if item == n - 1 else tr("grade.belongs_at", lang, n=item + 1)
            lines.append(f"{n}. {markdown_to_plain(variant.text(items[item], lang))}  {mark}")
        return "\n".join([tr("grade.your_answer_lines", lang), *lines])


TYPE = OrderType()
