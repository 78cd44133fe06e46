"""Self-tests catch broken answer keys, misconceptions and templates before learners do."""

from quiz.authoring.selftest import self_test

PACK = """\
- id: healthy
  type: number
  topic: softmax
  prompt: "p_1 for [{{ s }}, 0]?"
  explanation: "It is {{ answer }}."
  params:
    s: {decimal: [0.5, 3]}
  answer: softmax([s, 0])[0]
  misconceptions:
    - {name: no_softmax, answer: s, feedback: That is the raw score.}
- id: same-as-answer
  type: number
  topic: softmax
  prompt: "s = {{ s }}?"
  params:
    s: {integer: [1, 9]}
  answer: s
  misconceptions:
    - {name: identity, answer: s * 1, feedback: Same.}
- id: shadowed
  type: number
  topic: softmax
  prompt: "s = {{ s }}?"
  params:
    s: {integer: [1, 9]}
  answer: s
  misconceptions:
    - {name: double, answer: 2 * s, feedback: Twice.}
    - {name: also-double, answer: s + s, feedback: Twice again.}
- id: infinite
  type: number
  topic: softmax
  prompt: "x"
  params:
    s: {integer: [1, 9]}
  answer: s * inf
- id: boom
  type: number
  topic: softmax
  prompt: "x"
  params:
    s: {integer: [0, 1]}
  answer: 1 / s
- id: one-variant
  type: number
  topic: softmax
  prompt: "x"
  params:
    s: {choice: [3]}
  answer: s
- id: bad-template
  type: number
  topic: softmax
  prompt: "The trace is {{ attention([[1.0]], [[1.0]], [[1.0]]) }}"
  params:
    s: {integer: [1, 9]}
  answer: s
"""


def test_a_healthy_question_passes_every_seed(compile_yaml):
    assert self_test(compile_yaml(PACK)["healthy"], 20) == []


def test_problems_are_found_and_named(compile_yaml):
    pack = compile_yaml(PACK)
    assert any("misconception identity equals the answer" in p for p in self_test(pack["same-as-answer"]))
    assert any("misconception also-double's own value grades as double" in p for p in self_test(pack["shadowed"]))
    assert any("the answer is not finite" in p for p in self_test(pack["infinite"]))
    assert any("division by zero" in p.lower() for p in self_test(pack["boom"], 20))
    assert self_test(pack["one-variant"], 20) == ["only 1 distinct variants in 20 seeds; widen the parameters"]
    assert any("prompt (en)" in p for p in self_test(pack["bad-template"], 2))
