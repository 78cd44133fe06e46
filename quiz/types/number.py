"""The `number` type: answered with one number, graded within tolerance of the engine's key."""

from __future__ import annotations

from quiz.models.questions import NumberQuestion
from quiz.types.numeric import NumericType

SCAFFOLD = r"""id: <ID>
type: number
# The topic and the claims this question covers (ids from questions/claims.yaml):
# learners practise by topic or by claim.
topic: <TOPIC>
refs: [<CLAIM>]
difficulty: 1                 # 1 (warm-up) to 3 (hard)
prompt:                       # Markdown with $...$ maths; {{ expr }} shows a value of the variant
  en: For scores $z = [{{ s }}, 0]$, what is $p_1 = \operatorname{softmax}(z)_1$?
  ja: スコア $z = [{{ s }}, 0]$ のとき、$p_1 = \operatorname{softmax}(z)_1$ はいくつですか。
params:                       # drawn afresh for every variant (quiz show <ID>#7 shows seed 7)
  s: {decimal: [1, 4]}        # on a grid of 0.1, both ends included
answer: softmax([s, 0])[0]    # the engine computes the key; learners get the default tolerance
misconceptions:               # wrong answers a common mistake gives, each with feedback
  - name: raw_score
    label: {en: gave the raw score, ja: スコアそのものを答えた}
    answer: s
    feedback:
      en: That is the score itself; the softmax turns scores into weights between 0 and 1.
      ja: それはスコアそのものです。softmax はスコアを 0 から 1 の重みに変えます。
hints:
  - en: Divide the numerator and the denominator by $e^{s}$.
    ja: 分子と分母を $e^{s}$ で割ってみましょう。
explanation:
  en: $p_1 = e^{s}/(e^{s} + 1) = 1/(1 + e^{-s}) = {{ answer }}$.
  ja: $p_1 = e^{s}/(e^{s} + 1) = 1/(1 + e^{-s}) = {{ answer }}$ です。
"""
"""What `quiz new --type number` writes: a commented question that passes `quiz validate --strict`."""


class NumberType(NumericType):
    name = "number"
    model = NumberQuestion
    scaffold = SCAFFOLD
    scaffold_topic = "softmax"
    rank = 0


TYPE = NumberType()
