"""The `order` type: put the steps in order; scored by the longest run in the right relative order."""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from quiz.answers import Invalid
from quiz.format.convert import Where
from quiz.format.diagnostics import Report
from quiz.format.model import QuestionBase, Text, doc, error_at
from quiz.format.yaml_source import YamlMap
from quiz.grading.result import Result, finish
from quiz.i18n import tr
from quiz.render.mathtext import markdown_to_plain
from quiz.types.base import QuestionType
from quiz.types.reading import item_numbers, plain_text
from quiz.variants.shuffle import display_order
from quiz.variants.variant import Variant


@dataclass(frozen=True, kw_only=True)
class OrderQuestion(QuestionBase):
    """Put the steps in order; score the longest run in the right relative order over the count."""

    type: Literal["order"] = "order"
    items: tuple[Text, ...] = field(metadata=doc("The steps, written in the correct order (they are shuffled when shown)."))

    def check_type(self, where: Where, raw: YamlMap, report: Report) -> bool:
        if not 2 <= len(self.items) <= 12:
            return error_at(where, raw, "items", "give between 2 and 12 items", report)
        return True


def longest_ordered_run(order: Sequence[int]) -> int:
    """Length of the longest subsequence in increasing order (patience sorting, O(n log n))."""
    tails: list[int] = []
    for item in order:
        position = bisect.bisect_left(tails, item)
        if position == len(tails):
            tails.append(item)
        else:
            tails[position] = item
    return len(tails)


def _items(variant: Variant) -> tuple[Text, ...]:
    return variant.question.items  # type: ignore[attr-defined,no-any-return]


class OrderType(QuestionType):
    name = "order"
    model = OrderQuestion

    def read(self, variant: Variant, text: str) -> Any | Invalid:
        text = plain_text(text)
        if isinstance(text, Invalid):
            return text
        count = len(_items(variant))
        numbers = item_numbers(text, count)
        if isinstance(numbers, Invalid):
            return numbers
        if sorted(numbers) != list(range(count)):
            return Invalid("response.order_each_once", {"count": count})
        shown = display_order(variant, count)
        return tuple(shown[n] for n in numbers)

    def grade(self, variant: Variant, response: Any, hints_used: int = 0) -> Result:
        """The learner's order, as the items' indices in the correct order, against 0, 1, 2, ..."""
        count = len(_items(variant))
        if sorted(response) != list(range(count)):
            raise ValueError(f"an order must list each of the {count} items once, got {list(response)}")
        run = longest_ordered_run(response)
        return finish(variant.question, run / count, hints_used, answer=list(range(count)), details={"ordered_run": run})

    def revealed_answer(self, variant: Variant) -> Any:
        return list(range(len(_items(variant))))

    def answer_text(self, variant: Variant, lang: str) -> str:
        return "\n".join(f"{n}. {variant.text(item, lang)}" for n, item in enumerate(_items(variant), 1))

    def answer_json(self, variant: Variant, lang: str) -> Any:
        # Item numbers as shown, in the right order: what `quiz grade` expects.
        shown = display_order(variant, len(_items(variant)))
        return [shown.index(i) + 1 for i in range(len(shown))]

    def how_to_answer(self, variant: Variant, lang: str) -> list[str]:
        items = _items(variant)
        order = display_order(variant, len(items))
        return [tr("show.put_in_order", lang), *(f"  {n}. {variant.text(items[i], lang)}" for n, i in enumerate(order, 1))]

    def response_text(self, variant: Variant, response: Any) -> str:
        shown = display_order(variant, len(_items(variant)))
        return " ".join(str(shown.index(i) + 1) for i in response)

    def extra_json(self, variant: Variant, lang: str) -> dict[str, Any]:
        items = _items(variant)
        return {"items": [variant.text(items[i], lang) for i in display_order(variant, len(items))]}

    def marked_response(self, variant: Variant, result: Result, response: Any, lang: str) -> str | None:
        """The learner's order, a step a line: ✓ where a step is in its place, else where it belongs."""
        if response is None:
            return None
        items = _items(variant)
        lines = []
        for n, item in enumerate(response, 1):
            mark = "✓" if item == n - 1 else tr("grade.belongs_at", lang, n=item + 1)
            lines.append(f"{n}. {markdown_to_plain(variant.text(items[item], lang))}  {mark}")
        return "\n".join(lines)


TYPE = OrderType()
