"""The `vector` type: answered with a vector of numbers, graded within tolerance of the engine's key."""

from __future__ import annotations

from quiz.models.questions import VectorQuestion
from quiz.types.numeric import NumericType

SCAFFOLD = r"""id: <ID>
type: vector
# The topic and the claims this question covers (ids from questions/claims.yaml):
# learners practise by topic or by claim.
topic: <TOPIC>
refs: [<CLAIM>]
prompt:                       # Markdown with $...$ maths; {{ expr }} shows a value of the variant
  en: With $d_k = {{ d_k }}$ and raw scores $[{{ s }}, 0]$, what are the two attention weights?
  ja: $d_k = {{ d_k }}$、生のスコアが $[{{ s }}, 0]$ のとき、2 つの注意の重みはいくつですか。
params:                       # drawn afresh for every variant, in this order
  d_k: {choice: [4, 16, 64]}
  s: {decimal: [1, 6]}
answer: softmax(array([s, 0]) / sqrt(d_k))   # learners type [0.6, 0.4] or 0.6 0.4
tolerance: {decimals: 3}      # also accept answers rounded to 3 decimal places
misconceptions:
  - name: no_scaling
    label: {en: "forgot the 1/√dₖ scale", ja: "1/√dₖ のスケーリングを忘れた"}
    answer: softmax([s, 0])
    feedback:
      en: Those are the weights before dividing the scores by $\sqrt{d_k} = {{ sqrt(d_k) }}$.
      ja: それはスコアを $\sqrt{d_k} = {{ sqrt(d_k) }}$ で割る前の重みです。
explanation:
  en: The scaled scores are $[{{ s / sqrt(d_k) }}, 0]$, so the weights are {{ answer }}.
  ja: スケーリング後のスコアは $[{{ s / sqrt(d_k) }}, 0]$ なので、重みは {{ answer }} です。
"""
"""What `quiz new --type vector` writes: a commented question that passes `quiz validate --strict`."""


class VectorType(NumericType):
    name = "vector"
    model = VectorQuestion
    scaffold = SCAFFOLD
    scaffold_topic = "scaling"
    rank = 1


TYPE = VectorType()
