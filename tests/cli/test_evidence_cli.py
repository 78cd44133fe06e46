"""Evidence questions from the command line: validation located at file:line, `quiz show` listing
the figures, `quiz grade --ask`, and a recorded attempt keeping the requests in order."""

import json
from textwrap import dedent

from quiz.cli.main import main
from quiz.history.store import History, open_history

GOOD = """\
id: ev
type: evidence
topic: diagnosis
params:
  f: {choice: [missing_scale, double_scale]}
  Q: {normal: [2, 6, 16]}
  K: {normal: [2, 6, 16]}
derived:
  stats: head_stats(Q, K, K, fault=f)
figures:
  - id: scale
    label: {en: Applied scale, ja: 掛かった係数}
    value: stats.score_std_scaled / stats.score_std_raw
    cost: 0.3
    telling: true
    why: {en: It is the factor itself., ja: 係数そのものです。}
  - id: nans
    label: {en: NaN weights, ja: NaN の重みの数}
    value: stats.weights_nan
    cost: 0.1
answer: f
options:
  - id: missing_scale
    text: {en: No factor, ja: 係数なし}
  - id: double_scale
    text: {en: Divided by d_k, ja: d_k で割っている}
prompt: {en: Name the fault., ja: 原因を答えてください。}
refs: [G4]
explanation: {en: The applied scale is the factor., ja: 実際に掛かった係数がその係数です。}
"""


def write(tmp_path, text):
    path = tmp_path / "pack.yaml"
    path.write_text(dedent(text), encoding="utf-8")
    return path


def validate(capsys, path):
    code = main(["validate", "--strict", "--format", "json", "--seeds", "20", str(path)])
    data = json.loads(capsys.readouterr().out)
    return code, {(d["line"], d["message"]) for d in data["diagnostics"] if d["severity"] == "error"}


def test_a_good_evidence_question_passes_strict_validation(capsys, tmp_path):
    assert validate(capsys, write(tmp_path, GOOD)) == (0, set())


def test_figure_faults_are_each_reported_at_their_line(capsys, tmp_path):
    bad = (
        GOOD.replace("    cost: 0.3\n    telling: true\n    why: {en: It is the factor itself., ja: 係数そのものです。}\n", "    cost: 0.3\n")
        .replace("  - id: nans\n", "  - id: scale\n")
        .replace("    cost: 0.1\n", "    cost: -0.1\n")
    )
    code, errors = validate(capsys, write(tmp_path, bad))
    assert code == 1
    assert errors == {
        (18, "ev: figures[1].cost must be between 0 and 1"),
        (15, "ev: figures[1]: figure id 'scale' is already used by a figure above; ids must be unique"),
        (10, "ev: mark at least one figure `telling: true`: the one a good candidate asks for first"),
    }


def test_a_telling_figure_without_why_and_an_unknown_name_are_located(capsys, tmp_path):
    bad = GOOD.replace("    why: {en: It is the factor itself., ja: 係数そのものです。}\n", "")
    bad = bad.replace("value: stats.weights_nan", "value: stats.weight_nan + oops")
    code, errors = validate(capsys, write(tmp_path, bad))
    assert code == 1
    assert (15, "ev: figures[0] (scale) is telling but has no `why`: the feedback says why it tells") in errors
    misspelt = [message for line, message in errors if line == 18 and message.startswith("ev: figures.nans.value:")]
    assert len(misspelt) == 1 and "did you mean `weights_nan`?" in misspelt[0], errors


def test_a_figure_that_fails_on_a_seed_is_reported_at_its_value(capsys, tmp_path):
    bad = GOOD.replace("value: stats.weights_nan", 'value: stats.weights_nan if f == "missing_scale" else "many"')
    code, errors = validate(capsys, write(tmp_path, bad))
    assert code == 1
    [(line, message)] = errors
    assert line == 19 and "figures.nans.value gave the text many; a figure is a number" in message, message


def test_show_lists_the_figures_without_their_values(capsys, tmp_path):
    path = write(tmp_path, GOOD)
    assert main(["show", "ev#1", "--bank", str(path)]) == 0
    out = capsys.readouterr().out
    assert "scale: Applied scale (costs 0.3 of the mark)" in out and "nans: NaN weights (costs 0.1 of the mark)" in out
    assert "0.0625" not in out and "[0, 0]" not in out


def test_grade_asks_in_order_then_names_the_fault_and_records_the_requests(capsys, tmp_path):
    path = write(tmp_path, GOOD)
    assert main(["show", "ev#1", "--bank", str(path), "--json", "--answer"]) == 0
    best = json.loads(capsys.readouterr().out)["answer"]
    letter = best.rsplit(" ", 1)[1]
    argv = ["grade", "ev#1", "--bank", str(path), "--ask", "nans", "--ask", "scale", "--answer", letter, "--record", "--json"]
    assert main(argv) == 0
    graded = json.loads(capsys.readouterr().out)
    assert graded["score"] == 0.6 and graded["details"]["asked"] == ["nans", "scale"]
    assert [a["id"] for a in graded["asked"]] == ["nans", "scale"] and graded["asked"][0]["value"] == "[0, 0]"
    history = open_history()
    assert isinstance(history, History)
    try:
        [attempt] = history.attempts()
    finally:
        history.close()
    assert attempt.response == f"ask nans scale; answer {letter}" and attempt.score == 0.6


def test_ask_on_a_question_without_figures_is_a_usage_error(capsys, tmp_path):
    path = write(tmp_path, GOOD.replace("id: ev\n", "id: other\n", 1))
    extra = tmp_path / "choice.yaml"
    choice = "id: pick\ntype: choice\ntopic: scaling\nprompt: Pick.\noptions:\n  - {text: One, correct: true}\n  - {text: Two}\n"
    extra.write_text(choice, encoding="utf-8")
    assert main(["grade", "pick", "--bank", str(extra), "--bank", str(path), "--ask", "scale", "--answer", "a"]) == 2
    assert "only an evidence question has" in capsys.readouterr().err


def test_an_unknown_figure_exits_3_saying_which_figures_there_are(capsys, tmp_path):
    path = write(tmp_path, GOOD)
    assert main(["grade", "ev#1", "--bank", str(path), "--ask", "entropy", "--answer", "a"]) == 3
    assert "There is no figure 'entropy'; the figures are scale, nans." in capsys.readouterr().err
