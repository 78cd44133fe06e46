"""The `explain` type: answer aloud or in writing, then tick the rubric points the model answer shows."""

from __future__ import annotations

from typing import Any

from quiz.answer_text import Invalid
from quiz.format.model import Text
from quiz.grading.result import Result, finish
from quiz.locale.i18n import tr
from quiz.models.questions import ExplainQuestion
from quiz.types.base import QuestionType
from quiz.types.reading import NONE_WORDS, item_numbers, plain_text
from quiz.variants.variant import Variant

SCAFFOLD = r"""id: <ID>
type: explain
# The topic and the claims this question covers (ids from questions/claims.yaml):
# learners practise by topic or by claim.
topic: <TOPIC>
refs: [<CLAIM>]
prompt:
  en: Explain why the scores are divided by $\sqrt{d_k}$.
  ja: スコアを $\sqrt{d_k}$ で割る理由を説明してください。
model_answer:                 # shown after the learner answers aloud or on paper
  en: With independent unit-variance components, $q \cdot k$ has variance $d_k$; dividing by $\sqrt{d_k}$ brings it to one, so the softmax does not saturate as $d_k$ grows.
  ja: 成分が独立で分散 1 なら $q \cdot k$ の分散は $d_k$ です。$\sqrt{d_k}$ で割ると分散が 1 になり、$d_k$ が大きくても softmax が飽和しません。
rubric:                       # the points a good answer makes; the score is the share ticked
  - {en: States the independence and unit-variance assumptions, ja: 独立・分散 1 の仮定を述べた}
  - {en: "Derives $\\operatorname{Var}(q \\cdot k) = d_k$", ja: "$\\operatorname{Var}(q \\cdot k) = d_k$ を導いた"}
  - {en: Links large scores to saturation and small gradients, ja: 大きなスコアが飽和と勾配の弱まりを招くと述べた}
explanation:
  en: Claims B2 to B5 walk through the derivation.
  ja: 論点 B2〜B5 で導出を順に確認できます。
"""  # noqa: E501 - written out as the author's file, one line per text like the bundled bank
"""What `quiz new --type explain` writes: a commented question that passes `quiz validate --strict`."""


class ExplainType(QuestionType[ExplainQuestion]):
    name = "explain"
    model = ExplainQuestion
    scaffold = SCAFFOLD
    scaffold_topic = "scaling"

    def _rubric(self, variant: Variant) -> tuple[Text, ...]:
        return self.question_of(variant).rubric

    def read(self, variant: Variant, text: str) -> Any | Invalid:
        plain = plain_text(text)
        if isinstance(plain, Invalid):
            return plain
        if plain.lower() in NONE_WORDS:
            return frozenset()
        numbers = item_numbers(plain, len(self._rubric(variant)))
        return numbers if isinstance(numbers, Invalid) else frozenset(numbers)

    def grade(self, variant: Variant, response: Any, hints_used: int = 0) -> Result:
        """The share of rubric points the learner says their answer made."""
        count = len(self._rubric(variant))
        points = set(response)
        if not points <= set(range(count)):
            raise ValueError(f"rubric points are numbered 0 to {count - 1}, got {sorted(points)}")
        return finish(variant.question, len(points) / count, hints_used, details={"ticked": sorted(points)})

    def revealed_answer(self, variant: Variant) -> Any:
        return None

    def answer_text(self, variant: Variant, lang: str) -> str:
        return variant.text(self.question_of(variant).model_answer, lang)

    def answer_json(self, variant: Variant, lang: str) -> Any:
        return self.answer_text(variant, lang)

    def how_to_answer(self, variant: Variant, lang: str) -> list[str]:
        lines = [f"  {n}. {variant.text(point, lang)}" for n, point in enumerate(self._rubric(variant), 1)]
        return [tr("show.explain_then_tick", lang), *lines]

    def response_text(self, variant: Variant, response: Any) -> str:
        return " ".join(str(n + 1) for n in sorted(response)) if response else "none"

    def extra_json(self, variant: Variant, lang: str) -> dict[str, Any]:
        return {"rubric": [variant.text(p, lang) for p in self._rubric(variant)]}

    def marked_response(self, variant: Variant, result: Result, response: Any, lang: str) -> str | None:
        """The rubric points the learner did not tick, so they see what their answer missed."""
        from quiz.render.mathtext import markdown_to_plain  # markdown-it: only when a marked answer is shown, not at start-up

        if response is None:
            return None
        missed = [markdown_to_plain(variant.text(point, lang)).strip() for n, point in enumerate(self._rubric(variant)) if n not in response]
        if not missed:
            return None
        return tr("grade.points_missed", lang) + "\n" + "\n".join(f"✗ {point}" for point in missed)


TYPE = ExplainType()
