"""`quiz validate` as an author meets it: every problem at its field's line, all in one run,
none reported twice or as a consequence of another, and a summary written in words."""

import json
from pathlib import Path
from textwrap import dedent

import pytest

from quiz.bank import load_bank
from quiz.cli.main import main
from quiz.grading.result import Verdict
from quiz.types.draw import make_variant
from quiz.types.registry import type_of


def validate(capsys, path, *options):
    code = main(["validate", "--format", "json", *options, str(path)])
    data = json.loads(capsys.readouterr().out)
    return code, [(d["line"], d["severity"], d["message"]) for d in data["diagnostics"]]


def write(tmp_path, text, name="pack.yaml"):
    path = tmp_path / name
    path.write_text(dedent(text), encoding="utf-8")
    return path


def test_errors_point_at_the_field_at_fault_not_the_questions_first_line(capsys, tmp_path):
    path = write(
        tmp_path,
        """\
        id: located
        type: number
        topic: sofmax
        refs:
          - C6
          - Z9
        prompt: {en: "f = {{ f }}", ja: "f = {{ f }}"}
        explanation: {en: "It is {{ answer }}.", ja: "{{ answer }} です。"}
        follow_ups: [nowhere]
        params:
          f: {fault: [missing_scale, doubel_scale]}
        answer: "1"
        """,
    )
    _, found = validate(capsys, path, "--seeds", "0")
    errors = {(line, message) for line, severity, message in found if severity == "error"}
    assert errors == {
        (3, "located: unknown topic 'sofmax' (did you mean 'softmax'?)"),
        (6, "located: unknown claim 'Z9' in refs"),
        (9, "located: follow_ups: no question 'nowhere' in the bank"),
        (11, "located: params.f.fault: unknown fault 'doubel_scale' (did you mean 'double_scale'?); known: "
         "missing_scale, double_scale, scale_by_d_model, heads_not_split, no_causal_mask, "
         "softmax_over_queries, fully_masked_row, float16_scores, or all"),
    }


def test_an_unknown_name_in_the_answer_is_reported_once_not_again_in_every_text(capsys, tmp_path):
    path = write(
        tmp_path,
        """\
        id: follow-on
        type: number
        topic: softmax
        refs: [C6]
        prompt: {en: "Key: {{ answer }}", ja: "答え {{ answer }}"}
        explanation: {en: "It is {{ answer }}.", ja: "{{ answer }} です。"}
        answer: sofmax([1, 0])[0]
        """,
    )
    code, found = validate(capsys, path)
    assert code == 1
    assert found == [(7, "error", "follow-on: answer: unknown function `sofmax`; did you mean `softmax`? in `sofmax([1, 0])[0]`")]


def test_a_question_with_several_faults_reports_all_of_them_in_one_run_and_is_not_practised(capsys, tmp_path):
    path = write(
        tmp_path,
        """\
        id: many-faults
        type: number
        topic: softmax
        refs: [C6, Q1]
        difficulty: 7
        colour: red
        prompt: {en: "s = {{ s }}", ja: "s = {{ s }}"}
        explanation: {en: "{{ answer }}", ja: "{{ answer }}"}
        params:
          s: {integer: [1, 30]}
        answer: s
        misconceptions:
          - name: twice
            label: {en: twice, ja: 二倍}
            answer: 2 * t
            credit: 1.5
            feedback: {en: Twice., ja: 二倍です。}
        """,
    )
    code, found = validate(capsys, path)
    assert code == 1
    assert [(line, message) for line, severity, message in found if severity == "error"] == [
        (4, "many-faults: unknown claim 'Q1' in refs"),
        (5, "many-faults: difficulty must be between 1 and 3"),
        (6, "many-faults: unknown field 'colour' in question"),
        (15, "many-faults: misconceptions.twice.answer: unknown name `t` in `2 * t`"),
        (16, "many-faults: misconceptions[0].credit must be at least 0 and below 1"),
    ]
    assert "many-faults" not in load_bank([path]).questions  # broken rules: never practised


def test_a_misspelt_field_and_a_broken_entry_do_not_hide_the_other_faults(capsys, tmp_path):
    path = write(
        tmp_path,
        """\
        id: typos
        type: number
        topic: softmx
        refs: [C1]
        prompt: {en: "p for {{ s }}?", ja: "{{ s }} の p は？"}
        parms:
          s: {decimal: [0.5, 4]}
        anser: softmaxx([s, 0])[0]
        misconceptons:
          - name: raw
        hints:
          - {en: "{{ nosuch }}", ja: "{{ s }}"}
        explanation: {en: "{{ answer }}", ja: "{{ answer }}"}
        """,
    )
    code, found = validate(capsys, path)
    assert code == 1
    assert [(line, message) for line, _, message in found] == [
        (3, "typos: unknown topic 'softmx' (did you mean 'softmax'?)"),
        (6, "typos: unknown field 'parms' in question (did you mean 'params'?)"),
        (8, "typos: unknown field 'anser' in question (did you mean 'answer'?)"),
        (8, "typos: answer: unknown function `softmaxx`; did you mean `softmax`? in `softmaxx([s, 0])[0]`"),
        (9, "typos: unknown field 'misconceptons' in question (did you mean 'misconceptions'?)"),
        (10, "typos: misconception: missing required field 'answer'"),
        (10, "typos: misconception: missing required field 'feedback'"),
        (12, "typos: hints[0].en: unknown name `nosuch`"),
    ]  # `s` is known, `answer` not missing, `{{ answer }}` not unknown: nothing in the typos' wake


def test_order_item_ids_and_critical_pairs_are_checked_where_written(capsys, tmp_path):
    path = write(
        tmp_path,
        """\
        id: steps
        type: order
        topic: implementation
        refs: [E2]
        prompt: {en: Order the steps., ja: 手順を並べてください。}
        items:
          - {id: scores, text: {en: Scores, ja: スコア}}
          - {id: mask, text: {en: Mask, ja: マスク}}
          - {id: mask, text: {en: Softmax, ja: ソフトマックス}}
        critical:
          - {pair: [mask, scores], name: late, label: {en: late, ja: 遅い}, feedback: {en: No., ja: いいえ。}}
          - {pair: [scores, scorse], name: typo, label: {en: typo, ja: 誤字}, feedback: {en: No., ja: いいえ。}}
          - {pair: [scores, scores], name: same, label: {en: same, ja: 同じ}, feedback: {en: No., ja: いいえ。}}
        explanation: {en: Scores first., ja: スコアが先。}
        """,
    )
    code, found = validate(capsys, path)
    assert code == 1
    assert found == [
        (9, "error", "steps: items[2]: item id 'mask' is already used by an item above; ids must be unique"),
        (12, "error", "steps: critical pair typo names unknown item ids: scorse (did you mean 'scores'?); the item ids are scores, mask"),
        (13, "error", "steps: a critical pair needs two different item ids, [first, then]; this one names 'scores' twice"),
    ]


def test_a_shuffled_option_pointing_at_others_by_place_is_a_warning_saying_what_to_add(capsys, tmp_path):
    option = "    - {{text: {{en: {text}, ja: {ja}}}}}\n"
    pack = "".join(
        f"- id: {qid}\n  type: {kind}\n  topic: scaling\n  refs: [B1]\n{extra}  prompt: {{en: Why?, ja: なぜ？}}\n"
        "  explanation: {en: Variance., ja: 分散。}\n  options:\n"
        "    - {text: {en: Keep the variance near one, ja: 分散を 1 付近に保つ}, correct: true}\n"
        + option.format(text=text, ja=ja)
        for qid, kind, extra, text, ja in [
            ("nota", "choice", "", "None of the above", "上記のいずれでもない"),
            ("both", "multi", "", '"Both a) and b)"', '"a) と b) の両方"'),
            ("kept", "choice", "  shuffle: false\n", "None of the above", "上記のいずれでもない"),
            ("plain", "choice", "", "Weight above the diagonal", "対角より上の重み"),
        ]
    )
    path = write(tmp_path, pack)
    code, found = validate(capsys, path)
    advice = "but options are shown shuffled; add `shuffle: false` to keep the order written"
    assert code == 0 and found == [
        (9, "warning", f"nota: options[1] says 'None of the above', {advice}"),
        (18, "warning", f"both: options[1] says 'a) and b)', {advice}"),
    ]  # shuffle: false keeps the order written; 'above the diagonal' points at no option


def test_the_summary_counts_in_words(capsys, tmp_path):
    path = write(tmp_path, "id: one\ntype: truefalse\ntopic: scaling\nprompt: p\nanswer: maybe\n")
    assert main(["validate", str(path)]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == "checked 0 questions in 1 file: 1 error, 0 warnings"
    good = write(tmp_path, "id: two\ntype: truefalse\ntopic: scaling\nrefs: [B1]\nprompt: p\nanswer: no\nexplanation: e\n", "good.yaml")
    assert main(["validate", str(good)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "checked 1 question in 1 file: 0 errors, 2 warnings"


@pytest.mark.slow
def test_every_bundled_question_passes_strict_validation(capsys):
    code = main(["validate", "--strict"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.splitlines()[-1].endswith(": 0 errors, 0 warnings")


LITERAL_PACK = """\
id: literal-number
type: number
topic: softmax
refs: [C6]
params:
  s: {decimal: [1, 3]}
prompt: {en: "What is $e^{ {{ s }} }$?", ja: "$e^{ {{ s }} }$ はいくつですか。"}
answer: exp(s)
explanation:
  en: "$e^{ {{ s }} }$ is EXPLAINED."
  ja: "$e^{ {{ s }} }$ は EXPLAINED です。"
"""


def test_a_literal_decimal_in_a_parametric_explanation_fails_strict_at_its_text_until_filled_from_the_variant(capsys, tmp_path):
    """A number a reader takes for this variant's (7.39 is e^2 only) is filled in from the variant."""
    bad = write(tmp_path, LITERAL_PACK.replace("EXPLAINED", "about 7.39"), "bad.yaml")
    code = main(["validate", "--strict", "--seeds", "0", str(bad)])
    out = capsys.readouterr().out
    assert code != 0
    assert f"{bad}:9:1: warning: literal-number: explanation (en) states the literal number 7.39 in a text shown with the variant" in out
    assert f"{bad}:9:1: warning: literal-number: explanation (ja) states the literal number 7.39" in out
    assert "checked_numbers" in out

    good = write(tmp_path, LITERAL_PACK.replace("EXPLAINED", "{{ exp(s) }}"), "good.yaml")
    assert main(["validate", "--strict", "--seeds", "0", str(good)]) == 0, capsys.readouterr().out


def test_a_constant_listed_under_checked_numbers_and_code_spans_pass_strict(capsys, tmp_path):
    text = LITERAL_PACK.replace("EXPLAINED", "below $\\\\ln 65504 \\\\approx 11.09$ (`x ** 0.5`)")
    test = "tests/corpus/test_checked_numbers.py::test_ln_65504_is_about_11_09_and_float16_exp_overflows_just_past_it"
    checked = text + f'checked_numbers:\n  "11.09": {test}\n'
    path = write(tmp_path, checked, "checked.yaml")
    assert main(["validate", "--strict", "--seeds", "0", str(path)]) == 0, capsys.readouterr().out


def test_a_latex_command_turned_into_an_escape_by_double_quotes_is_named_with_its_fix(capsys, tmp_path):
    # In double quotes YAML reads "\theta" as a tab then "heta" and "\frac" as a form feed then "rac".
    path = write(
        tmp_path,
        r"""
        id: quoted-maths
        type: number
        topic: positions
        refs: [Y9]
        prompt:
          en: "Rotate by $R(m\theta)$ and give $\frac{1}{2}$."
          ja: 'Rotate by $R(m\theta)$ and give $\frac{1}{2}$.'
        explanation: {en: 'It is $\theta$.', ja: "It is $\beta$."}
        answer: "0.5"
        """,
    )
    _, found = validate(capsys, path, "--seeds", "0")
    warnings = [(line, message) for line, severity, message in found if severity == "warning"]
    assert warnings == [
        (6, "quoted-maths: prompt (en) has a tab where `\\theta` was probably meant: in a double-quoted YAML string "
         "a backslash starts an escape; write the text in single quotes or as a block scalar (|-)"),
        (9, "quoted-maths: explanation (ja) has a backspace where `\\beta` was probably meant: in a double-quoted YAML "
         "string a backslash starts an escape; write the text in single quotes or as a block scalar (|-)"),
    ]


WEAK_WEIGHTS = """\
id: weak-weights
type: vector
topic: softmax
refs: [C6]
prompt: {en: "Give softmax({{ s }}).", ja: "softmax({{ s }}) を求めてください。"}
explanation: {en: "It is {{ answer }}.", ja: "{{ answer }} です。"}
params:
  s: {normal: [4], std: 1.0, decimals: 2}
answer: softmax(s)
tolerance: {atol: %s}
"""


def test_a_tolerance_loose_enough_for_uniform_weights_fails_and_says_to_tighten_it(capsys, tmp_path):
    # The case: atol 0.3 on attention weights let uniform weights grade "Correct · 1.00".
    path = write(tmp_path, WEAK_WEIGHTS % "0.3")
    code, found = validate(capsys, path, "--strict", "--seeds", "20")
    assert code == 1
    messages = {message for line, severity, message in found if (line, severity) == (10, "warning")}
    assert any(m.startswith("weak-weights: a trivial answer (uniform weights) grades as right on a draw of ") for m in messages)
    assert all(m.endswith("tighten the tolerance (the default accepts any answer worked by hand to three figures)") for m in messages)
    assert {severity for _, severity, _ in found} == {"warning"}
    compiled = load_bank(sources=[path]).compiled("weak-weights")
    kind = type_of(compiled.question)
    for seed in range(20):  # served, no variant lets the guess through: those draws are drawn again
        variant = make_variant(compiled, seed)
        assert kind.grade(variant, [0.25] * 4).verdict is not Verdict.CORRECT, seed
    # Looser still, a guess grades as right on most draws: no variant can be made, an error.
    code, found = validate(capsys, write(tmp_path, WEAK_WEIGHTS % "0.5", "looser.yaml"), "--strict", "--seeds", "20")
    [(line, severity, message)] = found
    assert (code, line, severity) == (1, 10, "error") and "a trivial answer (zero) grades as right on" in message
    # The default tolerance leaves no guess graded right: the question passes.
    path = write(tmp_path, WEAK_WEIGHTS.replace("tolerance: {atol: %s}\n", ""), "fine.yaml")
    assert validate(capsys, path, "--strict", "--seeds", "20") == (0, [])


def test_an_answer_that_is_zero_by_identity_is_no_trivial_answer(capsys, tmp_path):
    # The gradient of a softmax along its row sums to zero on every draw: zero is the key itself.
    path = write(
        tmp_path,
        """\
        id: gradient-row-sum
        type: number
        topic: softmax
        refs: [C6]
        prompt: {en: "Sum the row of the softmax Jacobian for {{ s }}.", ja: "{{ s }} の softmax のヤコビアンの行和は？"}
        explanation: {en: "It is {{ answer }}: the weights always sum to one.", ja: "重みの和は常に 1 なので {{ answer }} です。"}
        params:
          s: {normal: [3], std: 1.0, decimals: 2}
        derived:
          p: softmax(s)
        answer: sum(p[0] * ((arange(3) == 0) - p))
        """,
    )
    assert validate(capsys, path, "--strict", "--seeds", "20") == (0, [])


def test_an_input_often_within_tolerance_of_the_key_is_a_warning_and_never_served_as_right(capsys, tmp_path):
    # x + a is within 1% of x whenever a is small beside x, so typing the input x would grade as right.
    path = write(
        tmp_path,
        """\
        id: near-input
        type: number
        topic: softmax
        refs: [C6]
        prompt: {en: "Give {{ x }} + {{ a }}.", ja: "{{ x }} + {{ a }} を求めてください。"}
        explanation: {en: "It is {{ answer }}.", ja: "{{ answer }} です。"}
        params:
          x: {integer: [10, 99]}
          a: {choice: [0.05, 0.5, 2]}
        answer: x + a
        tolerance: {rtol: 0.01}
        """,
    )
    code, found = validate(capsys, path, "--strict", "--seeds", "40")
    assert code == 1
    assert [(line, severity) for line, severity, _ in found] == [(11, "warning")]
    assert "near-input: a trivial answer (the input x itself) grades as right on a draw of" in found[0][2]
    # Some draws put x within the default tolerance too (a = 0.05), but the tolerance is the author's fix.
    assert found[0][2].endswith("tighten the tolerance (the default accepts any answer worked by hand to three figures)")
    # Where each such draw is within the default tolerance too, only the draw can keep them apart.
    drawn_near = path.read_text(encoding="utf-8").replace("[0.05, 0.5, 2]", "[0.01, 2]")
    _, near = validate(capsys, write(tmp_path, drawn_near, "near.yaml"), "--strict", "--seeds", "40")
    assert [m for _, _, m in near] and near[0][2].endswith("draw the parameters, or add a constraint, so that the key stays away from it")
    compiled = load_bank(sources=[path]).compiled("near-input")
    assert compiled is not None
    kind = type_of(compiled.question)
    for seed in range(40):
        variant = make_variant(compiled, seed)
        assert kind.grade(variant, float(variant.inputs["x"])).verdict is not Verdict.CORRECT, seed


FIXTURE_CODE = Path(__file__).parents[1] / "fixtures" / "code" / "code.yaml"


@pytest.mark.parametrize(
    ("checks", "found"),
    [
        ("[output, shapes, boolean_mask, fully_masked_rows, large_scores]", "the mistake mask_transposed scores full marks"),
        ("[output, shapes, boolean_mask, fully_masked_rows, causal_leak, large_scores]", None),
    ],
)
def test_a_code_question_whose_chosen_checks_accept_a_wrong_solution_fails_validation_naming_the_check_to_add(capsys, tmp_path, checks, found):
    # The fixture's code question promises masks, scaling and shapes; with too few checks a solution
    # that transposes the mask passes every check run, so validate must say which check to add.
    text = FIXTURE_CODE.read_text(encoding="utf-8")
    path = write(tmp_path, text.replace("[output, shapes, boolean_mask, fully_masked_rows, causal_leak, large_scores]", checks, 1))
    code, diagnostics = validate(capsys, path, "--strict", "--seeds", "3")
    accepted = [(line, message) for line, severity, message in diagnostics if "accept a wrong solution" in message]
    if found is None:
        assert (code, accepted) == (0, [])
    else:
        assert code == 1 and len(accepted) == 1
        line, message = accepted[0]
        assert line == 10 and found in message and "add causal_leak to checks" in message


BUNDLED_ID = "cross-attention-shapes"  # a question of questions/attention.yaml


def weight_question(question_id, more=""):
    """A fixed question with the id given, and `more` lines of YAML after its fields."""
    return (
        f"id: {question_id}\ntype: number\ntopic: softmax\nrefs: [C6]\n"
        'prompt: {en: "Weight?", ja: "重みは？"}\n'
        'explanation: {en: "It is {{ answer }}.", ja: "{{ answer }} です。"}\n'
        f"answer: softmax(array([1, 0]))[0]\n{more}"
    )


def test_a_pack_is_checked_with_the_bundled_bank_an_id_it_holds_is_an_error_naming_both_files(capsys, tmp_path):
    path = write(tmp_path, weight_question(BUNDLED_ID))
    code, found = validate(capsys, path, "--seeds", "0")
    bundled = load_bank().questions[BUNDLED_ID].source
    assert code == 1
    assert found == [(1, "error", f"question id '{BUNDLED_ID}' is defined twice: first at {bundled}, again here")]
    assert bundled is not None and bundled.path.name == "attention.yaml"


def test_a_follow_up_to_a_bundled_question_resolves_and_only_the_packs_own_questions_are_counted(capsys, tmp_path):
    path = write(tmp_path, weight_question("leads-to-bundled", f"follow_ups: [{BUNDLED_ID}]\n"))
    code = main(["validate", "--seeds", "0", str(path)])
    assert capsys.readouterr().out == "checked 1 question in 1 file: 0 errors, 0 warnings\n"
    assert code == 0
    assert validate(capsys, path, "--seeds", "0") == (0, [])
    broken = write(tmp_path, path.read_text(encoding="utf-8").replace(BUNDLED_ID, BUNDLED_ID + "s"), "broken.yaml")
    assert validate(capsys, broken, "--seeds", "0")[1] == [
        (8, "error", f"leads-to-bundled: follow_ups: no question '{BUNDLED_ID}s' in the bank (did you mean '{BUNDLED_ID}'?)")
    ]


OWN_CLAIMS = Path(__file__).parents[1] / "fixtures" / "own-claims"


def test_a_pack_with_claims_and_a_topic_of_its_own_validates_clean_and_its_questions_cite_them_namespaced(capsys):
    assert validate(capsys, OWN_CLAIMS, "--strict") == (0, [])
    bank = load_bank(extra=[OWN_CLAIMS])
    assert bank.claims.topics["rope:rotary"].label("ja") == "回転位置埋め込み（RoPE）"
    assert bank.claims.claims["rope:R1"].topic == "rope:rotary" and bank.claims.claims["rope:R2"].topic == "positions"
    assert bank.claims.claims["rope:R2"].label("en").startswith("After RoPE, a query–key score")
    assert main(["list", "--claim", "rope:R1", "--bank", str(OWN_CLAIMS)]) == 0
    assert capsys.readouterr().out.startswith("rope-pair-angle ")


def test_an_undeclared_namespaced_claim_or_topic_is_an_error_saying_what_the_pack_declares_with_a_suggestion(capsys, tmp_path):
    declaration = (OWN_CLAIMS / "rope.yaml").read_text(encoding="utf-8").split("questions:")[0]
    path = write(
        tmp_path,
        declaration
        + dedent(
            """\
            questions:
              - id: cites-badly
                type: truefalse
                topic: rope:rotery
                refs: [rope:R3, ropes:R1, R1]
                answer: true
                prompt: {en: "RoPE rotates pairs.", ja: "RoPE はペアを回転させます。"}
                explanation: {en: It does., ja: そのとおりです。}
            """
        ),
    )
    code, found = validate(capsys, path, "--seeds", "0")
    assert code == 1
    assert found == [
        (21, "error", "cites-badly: unknown topic 'rope:rotery': pack 'rope' declares topics rotary (did you mean 'rope:rotary'?)"),
        (22, "error", "cites-badly: unknown claim 'rope:R3' in refs: pack 'rope' declares claims R1, R2 (did you mean 'rope:R2'?)"),
        (22, "error", "cites-badly: unknown claim 'ropes:R1' in refs: no pack loaded declares claims under 'ropes:' "
         "(a pack declares its own under its `pack:` key) (did you mean 'rope:R1'?)"),
        (22, "error", "cites-badly: unknown claim 'R1' in refs: a pack's own claim is cited with the pack's name, as rope:R1"),
    ]


def test_a_bad_pack_declaration_is_reported_at_its_line_and_costs_only_itself(capsys, tmp_path):
    path = write(
        tmp_path,
        """\
        pack:
          name: Rope Pack
          topics:
            - {id: "rope:rotary", en: Rotary, ja: 回転}
          claims:
            - {id: R1, topic: positons, en: One., ja: 一つ目。}
            - {id: R1, topic: positions, en: Again., ja: もう一度。}
            - {id: R2, topic: positions, en: No Japanese.}
        question:
          - id: x
        """,
    )
    code, found = validate(capsys, path, "--seeds", "0")
    assert code == 1
    assert found == [
        (2, "error", "pack name 'Rope Pack' must be lower-case letters, digits, - or _ (at most 40), starting with a letter"),
        (4, "error", "pack topic 'rope:rotary': write its id bare (letters, digits, . - _): it is cited as 'Rope Pack:<id>'"),
        (8, "error", "claim: missing required field 'ja'"),
        (9, "error", "unknown key 'question' in a pack file (did you mean 'questions'?); it holds pack and questions"),
    ]
    fixed = write(tmp_path, path.read_text(encoding="utf-8").replace("Rope Pack", "rope").replace('"rope:rotary"', "rotary")
                  .replace("en: No Japanese.}", "en: No Japanese., ja: 日本語。}").replace("question:\n  - id: x\n", ""), "fixed.yaml")
    assert validate(capsys, fixed, "--seeds", "0")[1] == [(7, "error", "pack claim 'R1' is declared twice")]
    fixed.write_text(fixed.read_text(encoding="utf-8").replace("id: R1, topic: positions", "id: R3, topic: positions"), encoding="utf-8")
    assert validate(capsys, fixed, "--seeds", "0")[1] == [(1, "error", "pack claim 'rope:R1': unknown topic 'positons' (did you mean 'positions'?)")]


def test_a_pack_in_the_packs_folder_is_checked_once_in_its_place_and_the_folders_other_packs_are_context(capsys):
    from quiz.base import locations

    folder = locations.user_packs_dir()
    folder.mkdir(parents=True)
    mine = write(folder, weight_question("mine", "follow_ups: [theirs]\n"), "a-mine.yaml")
    write(folder, weight_question("theirs"), "b-theirs.yaml")  # a follow-up to another pack of the folder resolves
    write(folder, weight_question("mine"), "c-clash.yaml")  # loads after mine: its copy is the one skipped
    code = main(["validate", "--seeds", "0", str(mine)])
    assert capsys.readouterr().out == "checked 1 question in 1 file: 0 errors, 0 warnings\n"
    assert code == 0


def test_the_rows_with_no_allowed_key_alone_accept_every_mistake_made_elsewhere(capsys, tmp_path):
    # That check compares only those rows (a missing scale leaves them right), so on its own it
    # accepts the scale's and the mask's mistakes, each reported with the checks that reveal it.
    text = FIXTURE_CODE.read_text(encoding="utf-8")
    path = write(tmp_path, text.replace("[output, shapes, boolean_mask, fully_masked_rows, causal_leak, large_scores]", "[fully_masked_rows]", 1))
    code, diagnostics = validate(capsys, path, "--strict", "--seeds", "3")
    accepted = {message.split("the mistake ")[1].split()[0]: message for _, _, message in diagnostics if "accept a wrong solution" in message}
    assert code == 1
    assert set(accepted) == {"missing_scale", "double_scale", "softmax_over_queries", "scale_by_value_dim", "mask_transposed", "mask_after_softmax"}
    assert "add output, shapes to checks" in accepted["missing_scale"] and "add causal_leak to checks" in accepted["mask_transposed"]
