"""The mock report at 80 columns, through the real app: prose wraps, and the practice command the
candidate is told to copy is shown whole, however many long ids it carries (in lines that a shell
runs as one command)."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from mock_app_helpers import SetClock, mock_app, plan_of
from pilot_waits import settle
from quiz.bank import load_bank
from quiz.mock.report_text import command_lines
from quiz.ui.screens.report import ReportScreen

LONG_IDS = (
    "scaled-scores-keep-unit-variance-at-initialisation",
    "softmax-saturates-without-the-scale",
    "causal-mask-hides-the-future-keys-only",
    "fully-masked-rows-need-an-explicit-policy",
    "dropout-goes-after-the-softmax",
    "kv-cache-keeps-keys-and-values",
)


def long_id_bank(tmp_path):
    """Number questions with long ids and long prompts, as a real YAML pack."""
    text = "".join(
        f"- id: {question_id}\n  type: number\n  topic: scaling\n  difficulty: 1\n  time: 60\n  refs: [B4]\n"
        f"  prompt: {{en: 'A long prompt about attention scores that goes on well past eighty columns, so it has to wrap: what is 0.5 + 0.25?',"
        f" ja: '八十桁を超えて続く、アテンションスコアについての長い問題文です。折り返しが必要になります。0.5 + 0.25 はいくつですか。'}}\n"
        f"  answer: 0.75\n"
        for question_id in LONG_IDS
    )
    (tmp_path / "long.yaml").write_text(text, encoding="utf-8")
    bank = load_bank([tmp_path / "long.yaml"])
    assert not bank.report.errors, [str(e) for e in bank.report.errors]
    return bank


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_at_80_columns_the_practice_command_is_shown_whole(tmp_path, lang):
    bank = long_id_bank(tmp_path)
    clock = SetClock()
    app = mock_app(bank, plan_of(bank, *LONG_IDS, minutes=10), clock, lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for _ in LONG_IDS:
            clock.now += 20
            app.screen.query_one("#answer-input", Input).value = "7"  # wrong: every one is missed
            await pilot.press("enter")
            await settle(pilot)
        report = app.screen
        assert isinstance(report, ReportScreen) and report.missed == LONG_IDS
        report.query_one("#report-body").scroll_end(animate=False)
        await settle(pilot)
        shown = [strip.text.rstrip() for strip in app.screen._compositor.render_strips()]
        lines = command_lines(LONG_IDS)
        assert len(lines) > 1 and all(len(line) <= 64 for line in lines)
        for line in lines:  # each line of the command on screen whole, not cut at the edge
            assert any(line.strip() in row for row in shown), (line, "\n".join(shown))
        assert all(f"    {line}" in report.markdown for line in lines)
        assert all(len(row) <= 80 for row in shown)
