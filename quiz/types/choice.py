"""The `choice` type: pick the one correct option, fixed (`correct: true`) or named by an expression."""

from __future__ import annotations

from typing import Any

from quiz.answer_text import Invalid
from quiz.format.compile import CompiledQuestion
from quiz.format.model import option_ids
from quiz.grading.result import Result, finish
from quiz.locale.i18n import tr
from quiz.models.questions import ChoiceQuestion
from quiz.types import options
from quiz.types.base import Evaluate, QuestionType
from quiz.variants.variant import Variant, VariantError, quoted

SCAFFOLD = r"""id: <ID>
type: choice
# The topic and the claims this question covers (ids from questions/claims.yaml):
# learners practise by topic or by claim.
topic: <TOPIC>
refs: [<CLAIM>]
prompt:
  en: Why are attention scores divided by $\sqrt{d_k}$?
  ja: 注意スコアを $\sqrt{d_k}$ で割るのはなぜですか。
options:                      # shown in a new order for each variant; add `shuffle: false` to keep this order
  - text: {en: "To keep the scores' variance near one as $d_k$ grows", ja: "$d_k$ が大きくなってもスコアの分散を 1 付近に保つため"}
    correct: true
  - text: {en: To make the attention weights uniform, ja: 注意の重みを一様にするため}
    feedback: {en: Uniform weights would ignore the content; the aim is to stop the softmax saturating., ja: 一様な重みは内容を無視してしまいます。目的は softmax の飽和を防ぐことです。}
  - text: {en: To make the softmax faster, ja: softmax を速くするため}
    feedback: {en: The division costs almost nothing and saves nothing; it is there for the scale., ja: この割り算は計算量をほとんど変えません。目的はスケールです。}
explanation:
  en: With independent unit-variance components, $q \cdot k$ has variance $d_k$; dividing by $\sqrt{d_k}$ brings it back to one, so the softmax does not saturate.
  ja: 成分が独立で分散 1 なら $q \cdot k$ の分散は $d_k$ です。$\sqrt{d_k}$ で割ると分散が 1 に戻り、softmax が飽和しません。
"""  # noqa: E501 - written out as the author's file, one line per text like the bundled bank
"""What `quiz new --type choice` writes: a commented question that passes `quiz validate --strict`."""


class ChoiceType(QuestionType[ChoiceQuestion]):
    name = "choice"
    model = ChoiceQuestion
    scaffold = SCAFFOLD
    scaffold_topic = "scaling"

    def key(self, compiled: CompiledQuestion, evaluate: Evaluate) -> tuple[Any, dict[str, Any]]:
        if compiled.answer is None:
            return None, {}
        answer = evaluate(compiled.answer, "answer")
        ids = option_ids(self.question_of(compiled).options)
        if not isinstance(answer, str) or answer not in ids:
            message = f"answer gave {quoted(answer)}, which is not an option id ({', '.join(ids)})"
            raise VariantError(compiled.question.id, message, "answer", location=compiled.question.source)
        return answer, {}

    def read(self, variant: Variant, text: str) -> Any | Invalid:
        picks = options.read_picks(variant, text)
        if isinstance(picks, Invalid):
            return picks
        return picks[0] if len(picks) == 1 else Invalid("response.one_option", {"count": len(picks)})

    def grade(self, variant: Variant, response: Any, hints_used: int = 0) -> Result:
        [right] = options.correct_options(variant)
        raw = 1.0 if response == right else 0.0
        return finish(variant.question, raw, hints_used, feedback=options.option_feedback(variant, {response}), answer=right)

    def revealed_answer(self, variant: Variant) -> Any:
        return options.correct_options(variant)

    def answer_text(self, variant: Variant, lang: str) -> str:
        return "; ".join(options.option_lines(variant, lang, options.correct_options(variant)))

    def answer_json(self, variant: Variant, lang: str) -> Any:
        """The right option's letter as shown: what `quiz grade` reads back."""
        return options.letters(variant, options.correct_options(variant))[0]

    def how_to_answer(self, variant: Variant, lang: str) -> list[str]:
        return [tr("show.pick_one", lang), *("  " + line for line in options.option_lines(variant, lang))]

    def response_text(self, variant: Variant, response: Any) -> str:
        return options.picks_text(variant, {response})

    def extra_json(self, variant: Variant, lang: str) -> dict[str, Any]:
        return options.options_json(variant, lang)


TYPE = ChoiceType()
