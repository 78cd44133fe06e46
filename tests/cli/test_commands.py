"""The `quiz` subcommands: output and exit codes, run in-process on real YAML files."""

import gc
import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from quiz.bank import load_bank, pack_files
from quiz.base import locations
from quiz.base.collector import STARTING
from quiz.cli import common, practice
from quiz.cli.main import main
from quiz.render.wrap import cell_len

PACK = """\
- id: p-one
  type: number
  topic: softmax
  refs: [C6]
  prompt: {en: "p_1 for scores [{{ s }}, 0]?", ja: "スコア [{{ s }}, 0] の p_1 は？"}
  explanation: {en: "It is {{ answer }}.", ja: "{{ answer }} です。"}
  params:
    s: {decimal: [1, 3]}
  answer: softmax([s, 0])[0]
  misconceptions:
    - {name: raw_score, answer: s, feedback: {en: That is the score itself., ja: スコアそのものです。}}
- id: steps
  type: order
  topic: implementation
  refs: [E2]
  prompt: {en: Order the steps., ja: 手順を並べてください。}
  explanation: {en: Scores first., ja: まずスコア。}
  items:
    - {en: scores, ja: スコア}
    - {en: scale, ja: スケーリング}
    - {en: softmax, ja: ソフトマックス}
"""


@pytest.fixture
def pack(tmp_path) -> Path:
    path = tmp_path / "pack.yaml"
    path.write_text(PACK, encoding="utf-8")
    return path


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.slow
def test_validate_passes_the_bundled_bank(capsys):
    code, out, _ = run(capsys, "validate", "--seeds", "5")
    assert code == 0, out
    assert out.splitlines()[-1].startswith("checked ") and " 0 errors" in out


def test_validate_reports_errors_like_a_compiler_and_exits_1(capsys, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: x\ntype: number\ntopic: softmax\nprompt: p\nanswer: __import__('os').system('true')\n", encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(bad))
    assert code == 1
    [error] = [line for line in out.splitlines() if ": error: " in line]
    assert error.startswith(f"{bad}:5:1: error: x: answer: ") and "__import__" in error
    assert out.splitlines()[-1] == "checked 1 question in 1 file: 1 error, 3 warnings"


def test_validate_strict_fails_on_warnings_and_json_lists_them(capsys, tmp_path):
    only_english = tmp_path / "en.yaml"
    only_english.write_text("id: x\ntype: truefalse\ntopic: scaling\nprompt: p\nanswer: no\n", encoding="utf-8")
    assert run(capsys, "validate", str(only_english))[0] == 0
    assert run(capsys, "validate", "--strict", str(only_english))[0] == 1
    code, out, _ = run(capsys, "validate", "--format", "json", str(only_english))
    data = json.loads(out)
    assert code == 0 and data["ok"] and data["errors"] == 0 and data["warnings"] == 3
    assert {d["severity"] for d in data["diagnostics"]} == {"warning"}
    assert all(d["line"] >= 1 for d in data["diagnostics"])


def test_validate_self_tests_parametric_questions(capsys, tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text(PACK.replace("answer: s, feedback", "answer: 'softmax([s, 0])[0] * 1', feedback"), encoding="utf-8")
    code, out, _ = run(capsys, "validate", "--seeds", "3", str(broken))
    assert code == 1
    assert "p-one: self-test: no variant can be made (seed 0: the answer grades the same as misconception raw_score on all 100 draws" in out
    assert "; 3 of 3 seeds)" in out


@pytest.mark.slow
def test_schema_is_valid_and_accepts_every_bundled_file(capsys):
    code, out, _ = run(capsys, "schema")
    assert code == 0
    schema = json.loads(out)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    files = pack_files(locations.bundled_bank_dir())
    assert files
    for path in files:
        errors = list(validator.iter_errors(yaml.safe_load(path.read_text(encoding="utf-8"))))
        assert not errors, f"{path}: {errors[0].message}"


def test_schema_rejects_an_unknown_field(capsys):
    run(capsys, "schema")  # warm nothing; schema is generated per call
    code, out, _ = run(capsys, "schema")
    assert code == 0
    validator = jsonschema.Draft202012Validator(json.loads(out))
    question = {"id": "x", "type": "truefalse", "topic": "t", "prompt": "p", "answer": True, "promt": "typo"}
    assert not validator.is_valid(question)


def test_show_json_has_the_documented_keys(capsys, pack):
    code, out, _ = run(capsys, "show", "p-one", "--seed", "7", "--json", "--answer", "--bank", str(pack))
    data = json.loads(out)
    assert code == 0
    assert {"key", "prompt", "inputs", "answer", "tolerance"} <= set(data)
    assert data["key"] == "p-one#7" and data["prompt"] == f"p_1 for scores [{data['inputs']['s']}, 0]?"
    assert data["tolerance"]["atol"] == 0.0005
    assert data["tolerance"]["rule"] == "Accepted when |your answer − key| ≤ 0.0005 + 0.5% of |key|."  # one number


CHAIN = """\
- id: chain-start
  type: truefalse
  topic: softmax
  refs: [C6]
  prompt: {en: "Softmax rows sum to $1$.", ja: "softmax の各行の和は $1$ です。"}
  explanation: {en: They do., ja: そのとおりです。}
  answer: true
  follow_ups: [{id: chain-right, when: right}, {id: chain-wrong, when: wrong}]
- id: chain-right
  type: truefalse
  topic: softmax
  refs: [C6]
  prompt: {en: "Adding $c$ to every score leaves the weights unchanged.", ja: "すべてのスコアに $c$ を足しても重みは変わりません。"}
  explanation: {en: It does., ja: 変わりません。}
  answer: true
  follow_ups: [chain-deeper]
- id: chain-deeper
  type: truefalse
  topic: softmax
  refs: [C6]
  prompt: {en: "Doubling every score leaves the weights unchanged.", ja: "すべてのスコアを 2 倍しても重みは変わりません。"}
  explanation: {en: It sharpens them., ja: 重みは鋭くなります。}
  answer: false
- id: chain-wrong
  type: truefalse
  topic: softmax
  refs: [C6]
  prompt: {en: "Every weight is positive.", ja: "どの重みも正です。"}
  explanation: {en: Each is an exponential over a sum., ja: 指数関数を和で割った値です。}
  answer: true
"""


def test_show_gives_the_follow_up_chain_in_either_language_and_in_json(capsys, tmp_path):
    chain = tmp_path / "chain.yaml"
    chain.write_text(CHAIN, encoding="utf-8")
    code, out, _ = run(capsys, "show", "chain-start", "--bank", str(chain))
    assert code == 0
    assert out.splitlines()[-4:] == [
        "Follow-ups (what an interviewer asks next, to probe deeper):",
        "- chain-right (if the answer is right): Adding c to every score leaves the weights unchanged.",
        "  - chain-deeper: Doubling every score leaves the weights unchanged.",
        "- chain-wrong (if the answer is wrong): Every weight is positive.",
    ]
    _, out, _ = run(capsys, "show", "chain-start", "--lang", "ja", "--bank", str(chain))
    assert out.splitlines()[-4:] == [
        "追加の質問（面接官が次に聞いて理解を深く確かめる質問）：",
        "- chain-right （正答だった場合）: すべてのスコアに c を足しても重みは変わりません。",
        "  - chain-deeper: すべてのスコアを 2 倍しても重みは変わりません。",
        "- chain-wrong （誤答だった場合）: どの重みも正です。",
    ]
    data = json.loads(run(capsys, "show", "chain-start", "--json", "--bank", str(chain))[1])
    assert data["follow_ups"] == [
        {"id": "chain-right", "when": "right", "follow_ups": [{"id": "chain-deeper", "when": "any", "follow_ups": []}]},
        {"id": "chain-wrong", "when": "wrong", "follow_ups": []},
    ]
    _, out, _ = run(capsys, "show", "chain-deeper", "--bank", str(chain))
    assert "Follow-ups" not in out


def test_the_tolerance_rule_speaks_of_elements_only_for_vectors_and_matrices(capsys):
    for key, elements in (("softmax-jacobian-entry#1", False), ("two-key-scaled-weights", True), ("causal-weights-3x3#1", True)):
        rule = json.loads(run(capsys, "show", key, "--json")[1])["tolerance"]["rule"]
        assert rule.endswith("for every element.") is elements, rule


def test_show_accepts_a_variant_key_and_japanese(capsys, pack):
    code, out, _ = run(capsys, "show", "p-one#7", "--lang", "ja", "--bank", str(pack))
    assert code == 0 and out.startswith("p-one#7 ·") and "スコア [" in out and "正解：" not in out


def test_unknown_id_exits_1_with_a_suggestion(capsys, pack):
    code, _, err = run(capsys, "show", "p-on", "--bank", str(pack))
    assert code == 1 and "There is no question 'p-on'. Did you mean p-one?" in err


def test_list_show_and_practice_say_the_same_of_an_unknown_id(capsys, pack):
    said = {run(capsys, command, *args, "--bank", str(pack))[2] for command, args in (("show", ["p-on"]), ("practice", ["--id", "p-on"]))}
    assert len(said) == 1 and said.pop().startswith("quiz: There is no question 'p-on'")


@pytest.mark.slow
def test_a_bad_seed_is_not_answered_with_a_close_id(capsys, pack):
    code, _, err = run(capsys, "show", "p-one#x", "--bank", str(pack))
    assert code == 1 and "is not a question id or variant key" in err and "Did you mean" not in err


def test_grade_right_wrong_and_misconception(capsys, pack):
    _, out, _ = run(capsys, "show", "p-one#2", "--json", "--answer", "--bank", str(pack))
    shown = json.loads(out)
    code, out, _ = run(capsys, "grade", "p-one", "--seed", "2", "--answer", str(shown["answer"]), "--json", "--bank", str(pack))
    result = json.loads(out)
    assert code == 0 and result["score"] == 1.0 and result["verdict"] == "correct"
    s = shown["inputs"]["s"]
    code, out, _ = run(capsys, "grade", "p-one#2", "--answer", str(s), "--json", "--bank", str(pack))
    result = json.loads(out)
    assert code == 0 and result["score"] == 0.0 and result["misconception"] == "raw_score"
    assert set(result) >= {"score", "verdict", "misconception", "answer"}


def test_grade_invalid_answer_exits_3_and_counts_nothing(capsys, pack):
    code, _, err = run(capsys, "grade", "p-one#2", "--answer", "0.5 0.5", "--bank", str(pack))
    assert code == 3 and "Expected a number, but got a vector of 2 numbers" in err


def test_grade_order_uses_item_numbers_as_shown(capsys, pack):
    _, out, _ = run(capsys, "show", "steps", "--json", "--answer", "--bank", str(pack))
    shown = json.loads(out)
    right = " ".join(str(n) for n in shown["answer"])
    code, out, _ = run(capsys, "grade", "steps", "--answer", right, "--json", "--bank", str(pack))
    assert code == 0 and json.loads(out)["score"] == 1.0


def test_grade_usage_error_exits_2(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["grade", "p-one"])
    assert exited.value.code == 2


def test_list_filters_by_topic_and_claim(capsys, pack):
    code, out, _ = run(capsys, "list", "--topic", "implementation", "--bank", str(pack))
    assert code == 0 and "steps" in out and "p-one" not in out
    code, out, _ = run(capsys, "list", "--claim", "C6", "--bank", str(pack))
    assert "p-one" in out and "steps" not in out and "{{" not in out
    assert run(capsys, "list", "--topic", "nope")[0] == 1


def test_list_names_are_case_insensitive_and_filter_by_difficulty(capsys, pack):
    code, out, _ = run(capsys, "list", "--topic", "Implementation", "--claim", "c6", "--bank", str(pack))
    assert code == 1  # implementation questions citing C6: none, and that is an error, as in practice
    code, out, _ = run(capsys, "list", "--claim", "c6", "--difficulty", "1", "--bank", str(pack))
    assert code == 0 and all(line.split()[3] == "1" for line in out.splitlines()[:-1])


def test_list_with_no_match_says_so_and_exits_1(capsys):
    code, out, err = run(capsys, "list", "--topic", "softmax", "--claim", "G6")
    assert code == 1 and out == "" and "No question matches this selection." in err


@pytest.mark.parametrize(
    ("option", "said"),
    [
        (["--topic", "masking"], "There is no topic 'masking'. Topics: attention,"),
        (["--claim", "c66"], "There is no claim 'c66'. Did you mean C6?"),
        (["--id", "two words"], "'two words' is not a question id or variant key"),
    ],
)
def test_practice_refuses_a_selection_that_cannot_exist_before_the_app_opens(capsys, option, said):
    code, out, err = run(capsys, "practice", *option)  # an app opening here would hang the test
    assert code == 1 and out == ""
    assert err.startswith(f"quiz: {said}")
    assert gc.isenabled() and not STARTING.holding  # the start's hold ends with it


def test_a_practice_start_pauses_collection_from_loading_the_bank_until_the_app_ends(capsys, pack, monkeypatch):
    """`quiz practice` holds the cyclic collector while it loads the bank and imports the app,
    the app keeps holding it until its first screen is up, and it runs again once the app ends."""
    collecting: dict[str, bool] = {}
    load = common.load

    def loading(args):
        collecting["loading the bank"] = gc.isenabled()
        return load(args)

    async def shown(pilot):
        await pilot.pause()
        collecting["first screen"] = gc.isenabled()
        pilot.app.exit()

    def launch(args, selection, bank=None, mode="practice"):  # practice.launch's app, run headless
        practice.open_app(args, selection, bank, mode).run(headless=True, size=(100, 30), auto_pilot=shown)
        return 0

    monkeypatch.setattr(common, "load", loading)
    monkeypatch.setattr(practice, "launch", launch)
    code, _, err = run(capsys, "practice", "--id", "p-one", "--bank", str(pack))
    assert code == 0, err
    assert collecting == {"loading the bank": False, "first screen": False}
    assert gc.isenabled() and not STARTING.holding


@pytest.mark.parametrize("seed", ["-5", "1" * 19, "1e3", "٣"])
def test_a_seed_no_key_can_carry_is_refused_at_the_source(capsys, pack, seed):
    with pytest.raises(SystemExit) as exited:
        main(["show", "p-one", "--seed", seed, "--bank", str(pack)])
    assert exited.value.code == 2 and "a seed is a whole number from 0 to" in capsys.readouterr().err


def test_the_key_show_prints_is_accepted_back(capsys, pack):
    for seed in ("0", "7", "9" * 18):
        out = run(capsys, "show", "p-one", "--seed", seed, "--json", "--bank", str(pack))[1]
        key = json.loads(out)["key"]
        assert run(capsys, "show", key, "--json", "--bank", str(pack))[1] == out


def test_coverage_lists_every_claim_with_its_questions_and_the_uncited(capsys, pack):
    code, out, _ = run(capsys, "coverage", "--json", "--bank", str(pack))
    data = json.loads(out)
    assert code == 0 and set(data["claims"]) >= {"A1", "C6", "X14"}
    assert "p-one" in data["claims"]["C6"]
    assert data["uncited"] == [claim for claim, ids in data["claims"].items() if not ids]
    code, text, _ = run(capsys, "coverage", "--bank", str(pack))
    assert code == 0 and f"uncited claims ({len(data['uncited'])})" in text


AUTHORED = """\
- id: labelled
  type: vector
  topic: softmax
  refs: [C6]
  prompt: {en: "Weights of [{{ s }}, 0] scaled by 1/2?", ja: "[{{ s }}, 0] を 1/2 倍した重みは？"}
  explanation: {en: "{{ answer }}", ja: "{{ answer }}"}
  hints:
    - {en: Halve the scores first., ja: まずスコアを半分に。}
  params:
    s: {decimal: [1, 4]}
  derived:
    run: attention([[s, 0]], [[1, 0], [0, 1]], [[1, 0], [0, 1]], scale=0.5)
    unscaled: softmax([s, 0])
  worked:
    run.weights: {en: Weights of the run, ja: 重み}
  answer: softmax(array([s, 0]) / 2)
  misconceptions:
    - name: no_scaling
      label: {en: forgot to halve, ja: 半分にし忘れた}
      answer: unscaled
      credit: 0.25
      feedback: {en: Halve first., ja: 先に半分に。}
- id: steps
  type: order
  topic: implementation
  refs: [E2]
  prompt: {en: Order the steps., ja: 手順を並べてください。}
  explanation: {en: Mask first., ja: まずマスク。}
  items:
    - {id: mask, text: {en: mask, ja: マスク}}
    - {id: softmax, text: {en: softmax, ja: ソフトマックス}}
  critical:
    - pair: [mask, softmax]
      name: mask_after_softmax
      label: {en: masked after the softmax, ja: softmax の後でマスクした}
      feedback: {en: Mask the scores., ja: スコアをマスクします。}
"""


def test_show_answer_lists_each_mistake_the_hints_and_the_worked_values(capsys, tmp_path):
    path = tmp_path / "authored.yaml"
    path.write_text(AUTHORED, encoding="utf-8")
    code, out, _ = run(capsys, "show", "labelled#4", "--answer", "--json", "--bank", str(path))
    data = json.loads(out)
    assert code == 0
    [mistake] = data["mistakes"]
    s = data["inputs"]["s"]
    assert mistake["name"] == "no_scaling" and mistake["label"] == "forgot to halve" and mistake["credit"] == 0.25
    assert mistake["value"] == pytest.approx([1 / (1 + 2.718281828459045 ** -s), 1 / (1 + 2.718281828459045 ** s)])
    assert data["hints"] == ["Halve the scores first."]
    assert data["worked"][0]["name"] == "run.weights" and data["worked"][0]["label"] == "Weights of the run"
    assert data["worked"][0]["value"][0] == pytest.approx(data["answer"])
    # The run's other steps in the catalogue's words; `unscaled`, a value without words, is not shown.
    assert [(w["name"], w["label"]) for w in data["worked"][1:]] == [
        ("run.scores", "raw scores QKᵀ"),
        ("run.scaled", "scaled scores"),
        ("run.output", "output, the weights times V"),
    ]
    code, text, _ = run(capsys, "show", "labelled#4", "--answer", "--bank", str(path))
    assert "  forgot to halve (no_scaling, scores at most 0.25): [" in text
    assert "Hints:\n  1. Halve the scores first." in text
    assert "Worked values:\n  Weights of the run: [[" in text and "\n  raw scores QKᵀ: [[" in text and "run.scores" not in text
    code, text, _ = run(capsys, "show", "labelled#4", "--answer", "--lang", "ja", "--bank", str(path))
    assert "  半分にし忘れた (no_scaling、得点は最大 0.25): [" in text and "ヒント：\n  1. まずスコアを半分に。" in text
    data = json.loads(run(capsys, "show", "steps", "--answer", "--json", "--bank", str(path))[1])
    assert data["mistakes"] == [{"name": "mask_after_softmax", "label": "masked after the softmax", "value": ["softmax", "mask"], "credit": 0.0}]


@pytest.mark.parametrize(("lang", "heading"), [("en", "Feedback on each option:"), ("ja", "選択肢ごとのフィードバック：")])
def test_show_answer_gives_each_options_feedback_under_the_letter_it_is_shown_with(capsys, lang, heading):
    data = json.loads(run(capsys, "show", "name-fault-from-weights#1", "--json", "--lang", lang)[1])
    code, text, _ = run(capsys, "show", "name-fault-from-weights#1", "--answer", "--lang", lang)
    assert code == 0 and heading in text
    block = text.split(heading, 1)[1].split("\n\n", 1)[0]
    feedback_of = {o.id: o.feedback for o in load_bank().questions["name-fault-from-weights"].options}
    for option in data["options"]:  # shuffled per variant: each letter carries its own option's feedback
        opening = "".join(feedback_of[option["id"]].get(lang).split("$")[0].split())[:10]  # before any maths
        assert f"{option['letter']}){opening}" in "".join(block.split()), option
    assert heading not in run(capsys, "show", "name-fault-from-weights#1", "--lang", lang)[1]


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("width", [40, 80])
def test_show_answer_fits_the_terminal_width_and_keeps_matrix_rows_whole(capsys, monkeypatch, lang, width):
    monkeypatch.setenv("COLUMNS", str(width))
    code, out, _ = run(capsys, "show", "cross-attention-output-entry#3", "--answer", "--lang", lang)
    assert code == 0
    lines = out.splitlines()
    assert any(line.startswith("⎡") for line in lines)  # the prompt's matrices, each row on one line
    for line in lines:
        assert cell_len(line) <= width, line
    monkeypatch.delenv("COLUMNS")  # into a file (not a terminal): lines as they are
    wide = run(capsys, "show", "cross-attention-output-entry#3", "--answer", "--lang", lang)[1]
    assert max(cell_len(line) for line in wide.splitlines()) > 80
    assert unspaced(wide) == unspaced(out)  # the same text, only broken differently


def unspaced(text: str) -> str:
    return "".join(text.split())


def test_a_worked_entry_must_name_a_value_the_question_computes(capsys, tmp_path):
    path = tmp_path / "authored.yaml"
    path.write_text(AUTHORED.replace("run.weights: {en", "run.weight: {en"), encoding="utf-8")
    code, out, _ = run(capsys, "validate", "--seeds", "0", str(path))
    assert code == 1
    assert (
        f"{path}:15:5: error: labelled: worked: 'run.weight' is not a parameter, a derived value or a step of an attention run (run.weights)"
        " (did you mean 'run.weights'?)"
    ) in out


def test_coverage_shows_a_packs_own_claims_and_topic_beside_the_banks(capsys):
    own = Path(__file__).parents[1] / "fixtures" / "own-claims"
    code, out, _ = run(capsys, "coverage", "--bank", str(own))
    assert code == 0
    lines = out.splitlines()
    start = lines.index("pack rope:")
    assert lines[start - 1] == "" and lines[start - 2].startswith("Y")  # after the bank's last claim
    assert [" ".join(line.split()) for line in lines[start + 1 : start + 3]] == ["rope:R1 1 rope-pair-angle", "rope:R2 1 rope-offset-only"]
    assert "rope:rotary: 1 questions (number 1; level 1: 1)" in lines
    data = json.loads(run(capsys, "coverage", "--json", "--bank", str(own))[1])
    assert data["claims"]["rope:R1"] == ["rope-pair-angle"] and data["topics"]["rope:rotary"]["questions"] == 1
    assert "pack rope:" not in run(capsys, "coverage")[1]
