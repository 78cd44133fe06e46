"""The `truefalse` type: is the statement in the prompt true?"""

from __future__ import annotations

from typing import Any, Final

from quiz.answer_text import Invalid
from quiz.grading.result import Result, finish
from quiz.locale.i18n import tr
from quiz.models.questions import TrueFalseQuestion
from quiz.types.base import QuestionType
from quiz.types.reading import plain_text
from quiz.variants.variant import Variant

# The words the prompt and the key use in either language (true/false, 正しい/誤り), and the
# usual short answers (yes/no, はい/いいえ, ○/×); also in kana, as typed before conversion.
TRUE_WORDS: Final = frozenset({"true", "t", "yes", "y", "1", "はい", "正", "正しい", "ただしい", "○", "〇"})
FALSE_WORDS: Final = frozenset({"false", "f", "no", "n", "0", "いいえ", "誤", "誤り", "あやまり", "正しくない", "ただしくない", "×", "✕"})
_FULL_STOPS: Final = "。.!"
"""A sentence's end a learner may type after the word ("誤り。"); NFKC has folded "！" to "!"."""


SCAFFOLD = r"""id: <ID>
type: truefalse
# The topic and the claims this question covers (ids from questions/claims.yaml):
# learners practise by topic or by claim.
topic: <TOPIC>
refs: [<CLAIM>]
prompt:
  en: "Scaling the scores by $1/\\sqrt{d_k}$ aims to make attention uniform."
  ja: "スコアを $1/\\sqrt{d_k}$ 倍する目的は、注意を一様にすることだ。"
answer: false                 # true or false
explanation:
  en: It keeps the scores' variance near one so the softmax does not saturate; uniform weights would ignore the content.
  ja: 目的はスコアの分散を 1 付近に保ち softmax の飽和を防ぐことで、一様な重みは内容を無視してしまいます。
"""
"""What `quiz new --type truefalse` writes: a commented question that passes `quiz validate --strict`."""


class TrueFalseType(QuestionType[TrueFalseQuestion]):
    name = "truefalse"
    model = TrueFalseQuestion
    scaffold = SCAFFOLD
    scaffold_topic = "scaling"

    def _key(self, variant: Variant) -> bool:
        return self.question_of(variant).answer

    def read(self, variant: Variant, text: str) -> Any | Invalid:
        word = plain_text(text)
        if isinstance(word, Invalid):
            return word
        word = word.lower().rstrip(_FULL_STOPS) or word
        if word in TRUE_WORDS or word in FALSE_WORDS:
            return word in TRUE_WORDS
        return Invalid("response.true_or_false", {"text": word})

    def grade(self, variant: Variant, response: Any, hints_used: int = 0) -> Result:
        return finish(variant.question, 1.0 if bool(response) == self._key(variant) else 0.0, hints_used, answer=self._key(variant))

    def revealed_answer(self, variant: Variant) -> Any:
        return self._key(variant)

    def answer_text(self, variant: Variant, lang: str) -> str:
        return tr("show.true" if self._key(variant) else "show.false", lang)

    def answer_json(self, variant: Variant, lang: str) -> Any:
        return self._key(variant)

    def how_to_answer(self, variant: Variant, lang: str) -> list[str]:
        return [tr("show.true_or_false", lang)]

    def response_text(self, variant: Variant, response: Any) -> str:
        return "true" if response else "false"


TYPE = TrueFalseType()
