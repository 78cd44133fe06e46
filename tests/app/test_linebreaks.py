"""Japanese wraps between short phrases, never inside a word (with the basic JIS X 4051 rules);
English wraps as before."""

from __future__ import annotations

import io
import itertools
import re

import pytest
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from quiz.render import wrap
from quiz.ui import linebreaks

RICH_WORD = re.compile(r"\s*\S+\s*")  # the pattern Rich ships, for comparison

JAPANESE = (
    "面接官に「Scaled Dot-Product Attention はなぜ √dₖ で割るのか。dₖ で割ったり、何もしなかったりしないのはなぜか」と"
    "聞かれました。係数を導出し、前提も明示して、面接で答えるつもりで説明してください。"
)


@pytest.fixture(autouse=True)
def installed():
    assert linebreaks.install()


CONSOLE = Console(width=200, file=io.StringIO())


def lines(text: str, width: int) -> list[str]:
    """`text` as Rich lays it out `width` cells wide (what Textual draws), each line without the
    spaces it ends with."""
    return [line.plain.rstrip() for line in Text(text).wrap(CONSOLE, width)]


def unspaced(text: str) -> str:
    return re.sub(r"\s", "", text)


@pytest.mark.parametrize("width", [20, 37, 60, 76])
def test_japanese_lines_are_filled_and_follow_the_basic_kinsoku_rules(width):
    wrapped = lines(JAPANESE, width)
    assert unspaced("".join(wrapped)) == unspaced(JAPANESE)  # nothing lost or repeated
    assert all(cell_len(line) <= width for line in wrapped)
    for line, after in itertools.pairwise(wrapped):
        # no line left short but by what could not fit: the next line's first phrase (and the
        # space before it, between Latin words)
        first = wrap.WORD.match(after)
        assert first is not None and cell_len(line) + 1 + cell_len(first.group().rstrip()) > width, (width, line, after)
    for line in wrapped[1:]:
        assert line[0] not in wrap.CLOSING, line  # no line starts with 、。」 or small kana
    for line in wrapped[:-1]:
        assert line[-1] not in wrap.OPENING, line  # none ends with 「


WORDS = ("見落とし", "参照できる", "アテンション", "確認してください", "マスクされた")


@pytest.mark.parametrize("width", range(20, 61, 3))
def test_a_japanese_line_never_breaks_inside_a_word(width):
    text = "スコアの行に見落としがないか、各クエリが参照できるキーを確かめ、アテンションの重みを確認してください。全要素がマスクされた行も調べます。"
    wrapped = lines(text, width)
    assert unspaced("".join(wrapped)) == unspaced(text)
    for before, after in itertools.pairwise(wrapped):
        joint = before[-6:] + after[:6]
        assert not any(word in joint and word not in before and word not in after for word in WORDS), (width, before, after)


@pytest.mark.parametrize(
    "text",
    [
        "Apply scaled dot-product attention with a causal mask and give the 3 × 3 matrix.",
        "  leading spaces, (brackets), √d_k and QKᵀ/√dₖ stay whole  ",
        "superlongwordwithoutanyspaceatallthatmustbefolded and more",
    ],
)
def test_text_without_japanese_is_split_exactly_as_rich_does(text):
    assert [m.group() for m in wrap.WORD.finditer(text)] == [m.group() for m in RICH_WORD.finditer(text)]
    for width in (10, 25, 40):
        assert unspaced("".join(lines(text, width))) == unspaced(text)


async def test_a_rich_without_the_pattern_leaves_breaking_off_and_says_so_in_the_log(monkeypatch, caplog):
    """Rich keeps its word pattern in a private module; if a new Rich drops it, the app still runs,
    wrapping as before, and the failure is logged rather than silent."""
    from types import SimpleNamespace

    import rich

    from fixture_bank import fixture_bank
    from quiz.bank import Selection
    from quiz.ui.app import make_app

    monkeypatch.setattr(rich, "_wrap", SimpleNamespace())  # a Rich whose wrapper has no re_word
    linebreaks.install.cache_clear()
    try:
        assert linebreaks.install() is False
        app = make_app(start=Selection(key="fx-vector"), lang="ja", bank=fixture_bank())
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert app.screen.query("#answer-input")  # the app works all the same
        assert linebreaks.NOT_INSTALLED in caplog.text
    finally:
        linebreaks.install.cache_clear()  # the next test installs again, with Rich's pattern restored
