"""The `matrix` type: answered with a matrix of numbers, graded within tolerance of the engine's key."""

from __future__ import annotations

from quiz.models.questions import MatrixQuestion
from quiz.types.numeric import NumericType

SCAFFOLD = r"""id: <ID>
type: matrix
# The topic and the claims this question covers (ids from questions/claims.yaml):
# learners practise by topic or by claim.
topic: <TOPIC>
refs: [<CLAIM>]
prompt:                       # a matrix value shows as a block on lines of its own
  en: "The scaled scores are {{ S }} Apply a causal mask and a softmax along each row."
  ja: "スケーリング後のスコアは次のとおりです。{{ S }} 因果マスクをかけ、行ごとに softmax をとってください。"
params:
  S: {normal: [2, 2], decimals: 1}     # a 2×2 matrix of normal draws, one decimal
derived:                               # values computed from the parameters, in order
  unmasked: softmax(S)
constraints:                           # a draw that breaks one is drawn again:
  - abs(S[1, 0] - S[1, 1]) >= 0.2      # here, so that guessing an even split is never right
answer: softmax(where(causal_mask(2), S, -inf))   # learners type [[1, 0], [0.3, 0.7]]
misconceptions:
  - name: mask_ignored
    label: {en: mask not applied, ja: マスクを適用していない}
    answer: unmasked
    feedback:
      en: The first query may not see the second key, so its row is $[1, 0]$.
      ja: 1 番目のクエリは 2 番目のキーを参照できないので、その行は $[1, 0]$ です。
worked:                                # values shown after answering, with a label each
  unmasked: {en: Weights without the mask, ja: マスクなしの重み}
explanation:
  en: Row 1 keeps only its first entry, so it is $[1, 0]$; row 2 is an ordinary softmax, {{ softmax(S[1]) }}.
  ja: 1 行目は最初の要素だけが残るので $[1, 0]$、2 行目は通常の softmax で {{ softmax(S[1]) }} です。
"""
"""What `quiz new --type matrix` writes: a commented question that passes `quiz validate --strict`."""


class MatrixType(NumericType):
    name = "matrix"
    model = MatrixQuestion
    scaffold = SCAFFOLD
    scaffold_topic = "implementation"
    rank = 2


TYPE = MatrixType()
