"""`quiz export-anki`: the .apkg opened as Anki would, its notes, fields and GUIDs, byte for byte stable."""

import json
import sqlite3
import zipfile
from pathlib import Path

import genanki
import pytest

from quiz.bank import load_bank
from quiz.cli.main import main
from quiz.render.plain_data import json_ready
from quiz.sharing.anki import DECK_ID, GUID_PREFIX, MODEL_ID
from quiz.types.draw import make_variant

pytestmark = pytest.mark.slow  # whole Anki decks built and reopened

PACK = """\
- id: anki-number
  type: number
  topic: softmax
  refs: [C6]
  prompt: {en: "For $z = [{{ s }}, 0]$, what is $p_1$? <script>alert(1)</script>", ja: "$z = [{{ s }}, 0]$ の $p_1$ は？"}
  explanation: {en: "$p_1 = 1/(1 + e^{-s}) = {{ answer }}$ & done.", ja: "$p_1 = {{ answer }}$ です。"}
  params:
    s: {decimal: [1, 4]}
  answer: softmax([s, 0])[0]
  misconceptions:
    - name: raw_score
      label: {en: gave the raw score, ja: スコアそのもの}
      answer: s
      feedback: {en: That is the score itself., ja: それはスコアそのものです。}
- id: anki-fixed
  type: truefalse
  topic: scaling
  refs: [B1]
  prompt: {en: "Scaling aims at uniform attention.", ja: スケーリングの目的は一様な注意だ。}
  answer: false
  explanation: {en: It keeps the variance near one., ja: 分散を 1 付近に保つためです。}
- id: anki-order
  type: order
  topic: implementation
  refs: [E2]
  prompt: {en: Order the steps., ja: 手順を並べてください。}
  items:
    - {id: scores, text: {en: "Scores $QK^\\top$", ja: "スコア $QK^\\top$"}}
    - {id: mask, text: {en: Apply the mask, ja: マスクを適用}}
    - {id: softmax, text: {en: Softmax, ja: ソフトマックス}}
  critical:
    - pair: [mask, softmax]
      name: mask_after_softmax
      label: {en: masked after the softmax, ja: softmax の後でマスクした}
      feedback: {en: Rows no longer sum to one., ja: 行の和が 1 でなくなります。}
  explanation: {en: Mask before the softmax., ja: softmax の前にマスク。}
"""


@pytest.fixture
def pack(tmp_path):
    path = tmp_path / "pack.yaml"
    path.write_text(PACK, encoding="utf-8")
    return path


def export(tmp_path, pack, name, *options):
    out = tmp_path / name
    assert main(["export-anki", "--bank", str(pack), "-o", str(out), *options]) == 0
    return out


def notes(apkg):
    """(guid, key, front, back, tags) of every note, read from the package as Anki reads it."""
    with zipfile.ZipFile(apkg) as package:
        assert set(package.namelist()) == {"collection.anki2", "media"}
        database = apkg.with_suffix(".anki2")
        database.write_bytes(package.read("collection.anki2"))
    connection = sqlite3.connect(database)
    try:
        rows = connection.execute("SELECT guid, flds, tags, mid FROM notes ORDER BY id").fetchall()
        assert connection.execute("SELECT count(*) FROM cards").fetchone()[0] == len(rows)
        assert {did for (did,) in connection.execute("SELECT did FROM cards")} == {DECK_ID}
    finally:
        connection.close()
    assert {mid for *_, mid in rows} == {MODEL_ID}
    return {flds.split("\x1f")[0] + "/" + guid: (guid, *flds.split("\x1f"), tags.split()) for guid, flds, tags, _ in rows}


def distinct_draws(bank, question, seeds):
    """How many different cards the first `seeds` seeds of `question` give: one per different draw
    of its numbers; one for a code question, whose seeds draw only its checks' inputs."""
    if question.type == "code" or not question.is_parametric:
        return 1
    compiled = bank.compiled(question.id)
    return len({json.dumps(json_ready(make_variant(compiled, seed).inputs), sort_keys=True) for seed in range(seeds)})


def test_one_note_per_question_variant_and_language(tmp_path, pack):
    apkg = export(tmp_path, pack, "deck.apkg", "--lang", "both", "--variants", "4")
    found = notes(apkg)
    bank = load_bank(extra=[pack])
    expected = 2 * sum(distinct_draws(bank, q, 4) for q in bank.questions.values())
    assert len(found) == expected
    keys = [key for _, key, *_ in found.values()]
    assert sorted(k for k in keys if k.startswith("anki-")) == sorted(
        [f"anki-number#{s}" for s in range(4)] * 2 + ["anki-fixed"] * 2 + ["anki-order#0"] * 2
    )  # a question that only shuffles its steps: one note, under its seed 0


def test_fields_carry_the_prompt_the_key_the_worked_solution_and_the_mistakes(tmp_path, pack):
    from quiz.cli.common import find_variant

    found = notes(export(tmp_path, pack, "deck.apkg"))
    [(_, _, front, back, tags)] = [n for n in found.values() if n[1] == "anki-number#2"]
    variant = find_variant(load_bank(extra=[pack]), "anki-number#2", None)
    s = variant.inputs["s"]
    assert f"\\(z = [{s}, 0]\\)" in front and "\\(p_1\\)" in front  # MathJax, not dollars
    assert "<script>" not in front and "&lt;script&gt;alert(1)&lt;/script&gt;" in front  # escaped
    assert "Answer with a number." in front
    assert f"<b>Answer:</b> {variant.answer:.4g}" in back
    assert "Accepted when |your answer − key|" in back
    assert "\\(p_1 = 1/(1 + e^{-s}) = " in back and "&amp; done." in back
    assert f"<b>gave the raw score</b> ({s:g}): That is the score itself." in back
    assert "raw_score" not in back  # the internal name never shows
    assert set(tags) == {"attention-quiz", "topic::softmax", "type::number", "lang::en", "claim::C6"}
    japanese = notes(export(tmp_path, pack, "ja.apkg", "--lang", "ja"))
    [(_, _, front_ja, back_ja, _)] = [n for n in japanese.values() if n[1] == "anki-number#2"]
    assert '<span class="math inline">\\(p_1\\)</span> は？' in front_ja and "<b>答え：</b>" in back_ja and "よくある誤り" in back_ja


def test_a_critical_pair_reads_as_the_steps_swapped_never_as_item_ids(tmp_path, pack):
    found = notes(export(tmp_path, pack, "deck.apkg", "--lang", "both"))
    [(_, _, _, back, _)] = [n for n in found.values() if n[1] == "anki-order#0" and "lang::en" in n[4]]
    assert "<li><b>masked after the softmax</b> (“Softmax” before “Apply the mask”): Rows no longer sum to one.</li>" in back
    assert "mask_after_softmax" not in back and "[softmax, mask]" not in back
    [(_, _, _, back_ja, _)] = [n for n in found.values() if n[1] == "anki-order#0" and "lang::ja" in n[4]]
    assert "(「マスクを適用」より前に「ソフトマックス」)" in back_ja


def test_guids_are_stable_from_id_seed_and_language_and_files_are_byte_identical(tmp_path, pack):
    first = export(tmp_path, pack, "first.apkg", "--lang", "both", "--variants", "2")
    again = export(tmp_path, pack, "again.apkg", "--lang", "both", "--variants", "2")
    assert first.read_bytes() == again.read_bytes()
    more = notes(export(tmp_path, pack, "more.apkg", "--lang", "both", "--variants", "3"))
    two = notes(first)
    assert set(two) < set(more)  # the same notes keep their GUIDs; a third variant adds notes
    guids = {(key, tags[3]): guid for guid, key, _, _, tags in two.values()}
    assert guids[("anki-number#1", "lang::en")] == genanki.guid_for(GUID_PREFIX, "anki-number#1", "en")
    assert guids[("anki-number#1", "lang::en")] != guids[("anki-number#1", "lang::ja")]
    assert len(set(guids.values())) == len(guids)


def test_only_packs_exports_just_the_packs_questions_and_every_note_is_distinct(tmp_path, pack):
    code_pack = Path(__file__).parents[1] / "fixtures" / "code" / "code.yaml"
    out = tmp_path / "packs.apkg"
    assert main(["export-anki", "--bank", str(pack), "--bank", str(code_pack), "--only-packs", "--lang", "both", "-o", str(out)]) == 0
    found = notes(out)
    pack_ids = {q.id for q in load_bank([pack, code_pack]).questions.values()}
    code_ids = {q.id for q in load_bank([code_pack]).questions.values()}
    assert {key.split("#")[0] for _, key, *_ in found.values()} == pack_ids
    for question_id in code_ids:  # one note per language, not one per seed that reads the same
        assert sorted(tags[3] for _, key, _, _, tags in found.values() if key.split("#")[0] == question_id) == ["lang::en", "lang::ja"]
    sides = [(front, back) for _, _, front, back, _ in found.values()]
    assert len(set(sides)) == len(sides)
    assert len([key for _, key, *_ in found.values() if key.startswith("anki-number#")]) == 2 * 3  # drawn numbers: a note each


def test_only_packs_without_a_pack_says_so(capsys, tmp_path):
    assert main(["export-anki", "--only-packs", "-o", str(tmp_path / "deck.apkg")]) == 1
    assert "--only-packs: no question of a pack loaded; name a pack with --bank PATH" in capsys.readouterr().err
    assert not (tmp_path / "deck.apkg").exists()


@pytest.mark.parametrize("kind", ["file", "symlink", "dangling-symlink"])
def test_an_existing_file_or_a_link_is_never_written_through(capsys, tmp_path, pack, kind):
    """Issue 34: -o onto a link wrote into the file it points to, and an existing file was silently replaced."""
    target, out = tmp_path / "precious.txt", tmp_path / "deck.apkg"
    target.write_text("keep me", encoding="utf-8")
    if kind == "file":
        out.write_text("an older deck", encoding="utf-8")
    else:
        out.symlink_to(target if kind == "symlink" else tmp_path / "nowhere.txt")
    assert main(["export-anki", "--bank", str(pack), "-o", str(out)]) == 1
    assert f"{out} already exists; give another file name" in capsys.readouterr().err
    assert target.read_text(encoding="utf-8") == "keep me" and not (tmp_path / "nowhere.txt").exists()
    assert kind != "file" or out.read_text(encoding="utf-8") == "an older deck"


def test_bad_options_are_refused(capsys, tmp_path, pack):
    assert main(["export-anki", "-o", str(tmp_path / "deck.zip")]) == 2
    assert "ends in .apkg" in capsys.readouterr().err
    assert main(["export-anki", "--variants", "0", "-o", str(tmp_path / "deck.apkg")]) == 2
