"""The `multi` type: pick every correct option; max(0, (right − wrong picks) / right options)."""

from __future__ import annotations

from typing import Any

from quiz.answer_text import Invalid
from quiz.grading.result import Result, finish
from quiz.locale.i18n import tr
from quiz.models.questions import MultiQuestion
from quiz.types import options
from quiz.types.base import QuestionType
from quiz.types.reading import NONE_WORDS, plain_text
from quiz.variants.variant import Variant

SCAFFOLD = r"""id: <ID>
type: multi
# The topic and the claims this question covers (ids from questions/claims.yaml):
# learners practise by topic or by claim.
topic: <TOPIC>
refs: [<CLAIM>]
prompt:
  en: Which of these can make attention weights NaN?
  ja: 注意の重みが NaN になり得る原因はどれですか。すべて選んでください。
options:                      # mark every right one; the score is (right − wrong picks) / right options
  - text: {en: A query row with every key masked, ja: すべてのキーがマスクされたクエリ行}
    correct: true
  - text: {en: float16 scores beyond 65504, ja: 65504 を超える float16 のスコア}
    correct: true
  - text: {en: "Dividing the scores by $\\sqrt{d_k}$", ja: "スコアを $\\sqrt{d_k}$ で割ること"}
    feedback: {en: Scaling keeps finite scores finite; it never creates NaN., ja: スケーリングは有限のスコアを有限のまま保ち、NaN を生みません。}
explanation:
  en: A fully masked row gives $0/0$ in the softmax, and float16 scores past 65504 overflow to infinity, so the softmax computes $\infty - \infty$.
  ja: 全マスク行は softmax で $0/0$ になり、65504 を超える float16 のスコアは無限大に溢れて softmax が $\infty - \infty$ を計算します。
"""
"""What `quiz new --type multi` writes: a commented question that passes `quiz validate --strict`."""


class MultiType(QuestionType[MultiQuestion]):
    name = "multi"
    model = MultiQuestion
    scaffold = SCAFFOLD
    scaffold_topic = "diagnosis"

    def read(self, variant: Variant, text: str) -> Any | Invalid:
        plain = plain_text(text)
        if isinstance(plain, Invalid):
            return plain
        if plain.lower() in NONE_WORDS:
            return frozenset()
        picks = options.read_picks(variant, text)
        return picks if isinstance(picks, Invalid) else frozenset(picks)

    def grade(self, variant: Variant, response: Any, hints_used: int = 0) -> Result:
        right = set(options.correct_options(variant))
        chosen = set(response)
        hits, misses = len(chosen & right), len(chosen - right)
        raw = max(0.0, (hits - misses) / len(right))
        return finish(
            variant.question,
            raw,
            hints_used,
            feedback=options.option_feedback(variant, chosen),
            answer=sorted(right),
            details={"right_picks": hits, "wrong_picks": misses},
        )

    def revealed_answer(self, variant: Variant) -> Any:
        return options.correct_options(variant)

    def answer_text(self, variant: Variant, lang: str) -> str:
        # One option a line: options end in their own full stops, so "; " between them read ".;".
        return "\n".join(options.option_lines(variant, lang, options.correct_options(variant)))

    def answer_json(self, variant: Variant, lang: str) -> Any:
        """The right options' letters as shown: what `quiz grade` reads back."""
        return options.letters(variant, options.correct_options(variant))

    def how_to_answer(self, variant: Variant, lang: str) -> list[str]:
        return [tr("show.pick_all", lang), *("  " + line for line in options.option_lines(variant, lang))]

    def response_text(self, variant: Variant, response: Any) -> str:
        return options.picks_text(variant, response) if response else "none"

    def extra_json(self, variant: Variant, lang: str) -> dict[str, Any]:
        return options.options_json(variant, lang)

    def marked_response(self, variant: Variant, result: Result, response: Any, lang: str) -> str | None:
        return None if response is None else options.marked_picks(variant, response, lang)


TYPE = MultiType()
