"""A mock interview's report written out: Markdown (maths as Unicode, as the app shows it) in
English or Japanese, and JSON for tools.

The JSON object's keys are stable (docs/mock.md lists them): `format` (1), `mock`, `key`, `lang`,
`status`, `final`, `started`, `finished`, `overall`, `counts`, `topics`, `claims`, `questions`,
`trend`, `change`, `practise_next`, `missed`, `slow`, `practice_command`. Scores are 0–1, times seconds.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime, tzinfo
from typing import Any, Final

from quiz.bank import Bank
from quiz.format.model import Text
from quiz.locale.i18n import tr, tr_count
from quiz.mock.clock import clock_text
from quiz.mock.report import AWAITING, MockReport, QuestionLine
from quiz.mock.session import SPOKEN
from quiz.render.mathtext import markdown_to_plain
from quiz.types.present import answer_line
from quiz.types.registry import type_of
from quiz.variants.variant import Variant

FORMAT = 1
COMMAND_WIDTH: Final = 64
"""The practice command is written in lines this wide at most, so that an 80-column screen shows each
whole (the report indents code and keeps a scroll bar)."""


def _plain(text: str) -> str:
    return markdown_to_plain(text).strip()


def _text(line: QuestionLine, text: Text | None, lang: str) -> str | None:
    if text is None:
        return None
    return _plain(line.variant.text(text, lang) if line.variant is not None else text.en)


def _key(variant: Variant, lang: str) -> str:
    """The answer key on one line; a spoken question's is its model answer."""
    if type_of(variant.question).name == SPOKEN:
        text = f"{tr('mock.sheet_model', lang)} {_plain(type_of(variant.question).answer_text(variant, lang))}"
    else:
        text = answer_line(variant, lang)
    return " ".join(text.split())


def _iso(ms: int | None) -> str | None:
    return None if ms is None else datetime.fromtimestamp(ms / 1000, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _when(ms: int, lang: str, tz: tzinfo | None) -> str:
    """A sitting's start for people: the date and minute in `tz` (None: the computer's own zone)."""
    at = datetime.fromtimestamp(ms / 1000, UTC).astimezone(tz)
    return tr("mockreport.when", lang, year=at.year, month=at.month, day=at.day, time=f"{at:%H:%M}")


def _percent(score: float | None) -> str:
    return "–" if score is None else f"{score:.0%}"


def _points(change: float, lang: str) -> str:
    """A change of score in percentage points, signed: `+12 pp` (rounded first, so never `-0`)."""
    points = round(change * 100)
    return tr("mockreport.points", lang, points=f"{points:+d}" if points else "±0")


def command_lines(ids: Sequence[str], width: int = COMMAND_WIDTH) -> list[str]:
    """`quiz practice --ids …` in lines of at most `width` characters (an id too long for one
    stands alone), each but the last ending in a shell line continuation, so that copied whole
    they run as one command: `--ids` may be repeated, and each line after the first gives one."""
    single = f"quiz practice --ids {','.join(ids)}"
    if len(single) <= width:
        return [single]
    lines, current = ["quiz practice"], list[str]()
    for question_id in ids:
        if current and len(f"    --ids {','.join([*current, question_id])} \\") > width:
            lines.append(f"    --ids {','.join(current)}")
            current = []
        current.append(question_id)
    lines.append(f"    --ids {','.join(current)}")
    return [f"{line} \\" for line in lines[:-1]] + lines[-1:]


def _topic(bank: Bank, topic: str, lang: str) -> str:
    return bank.claims.topics[topic].label(lang) if topic in bank.claims.topics else topic


def _verdict(verdict: str, lang: str) -> str:
    return tr("mockreport.awaiting", lang) if verdict == AWAITING else tr(f"grade.{verdict}", lang)


def _header(lang: str, *keys: str) -> list[str]:
    """A Markdown table's header row and rule."""
    return ["| " + " | ".join(tr(key, lang) for key in keys) + " |", "|" + "---|" * len(keys)]


def report_markdown(bank: Bank, report: MockReport, lang: str, tz: tzinfo | None = None) -> str:
    """The report as Markdown in `lang`, its dates in `tz` (None: the computer's own time zone)."""
    row, scores = report.stored.row, report.scores
    lines = [f"# {tr('mockreport.title', lang, key=row.key)}", ""]
    if not report.final:
        lines += [f"> {tr('mockreport.not_final', lang)}", ""]
    lines += [
        # The figure is the bold part: Textual's Markdown drops the space after a closing `**`.
        f"{tr('mockreport.overall', lang)} **{_percent(scores.overall)}**",
        "",
        tr_count(
            "mockreport.counts", lang, len(report.lines), questions=len(report.lines), no_answer=report.count("no_answer"),
            not_reached=report.count("not_reached"), over_time=report.over_time, awaiting=report.count(AWAITING),
        ),
    ]  # fmt: skip
    if report.over_time:
        lines += ["", _pace(report, lang)]
    overall_change, topic_change = report.change
    lines += ["", f"## {tr('mockreport.by_topic', lang)}", "", *_header(lang, "mock.col_topic", "mockreport.col_score", "mockreport.col_change")]
    for topic, score in scores.topics.items():
        change = _points(topic_change[topic], lang) if topic in topic_change else "–"
        lines.append(f"| {_topic(bank, topic, lang)} | {_percent(score)} | {change} |")
    lines += ["", f"## {tr('mockreport.by_claim', lang)}", "", *_header(lang, "mockreport.col_claim", "mockreport.col_score")]
    lines += [f"| {claim} | {_percent(score)} |" for claim, score in scores.claims.items()]
    lines += ["", f"## {tr('mockreport.questions', lang)}"]
    for line in report.lines:
        lines += ["", *_question_markdown(line, lang)]
    lines += ["", f"## {tr('mockreport.trend', lang)}", ""]
    if report.trend:
        lines += _header(lang, "mockreport.col_when", "mockreport.col_key", "mockreport.col_score")
        lines += [f"| {_when(p.started_ms, lang, tz)} | `{p.key}` | {_percent(p.scores.overall)} |" for p in report.trend]
        lines.append(f"| {_when(row.started_ms, lang, tz)} | `{row.key}` | {_percent(scores.overall)} |")
        compared = report.compared
        if compared is None:
            lines += ["", tr("mockreport.no_alike", lang)]
        elif overall_change is not None:
            lines += ["", tr("mockreport.change", lang, change=_points(overall_change, lang), when=_when(compared.started_ms, lang, tz))]
    else:
        lines.append(tr("mockreport.first", lang))
    lines += ["", f"## {tr('mockreport.next', lang)}", ""]
    if report.practise_next:
        lines += [
            f"{n}. {tr('mockreport.topic_score', lang, topic=_topic(bank, topic, lang), score=_percent(scores.topics[topic]))}"
            for n, topic in enumerate(report.practise_next, 1)
        ]
    else:
        lines.append(tr("mockreport.nothing_missed", lang))
    if report.slow:
        lines += ["", tr("mockreport.slow", lang, questions=", ".join(f"`{q}`" for q in report.slow))]
    if report.practice_command:
        key = "mockreport.practice_key_slow" if report.slow else "mockreport.practice_key"
        lines += ["", tr(key, lang, count=len(report.to_practise)), "", *(f"    {line}" for line in command_lines(report.to_practise))]
    return "\n".join(lines).rstrip() + "\n"


def _pace(report: MockReport, lang: str) -> str:
    """How the candidate kept to the budgets: how many questions ran over, and by how much in all."""
    timed = sum(1 for line in report.lines if line.seconds is not None)
    return tr("mockreport.pace", lang, over=report.over_time, timed=timed, extra=clock_text(report.over_seconds))


def _question_markdown(line: QuestionLine, lang: str) -> list[str]:
    """One question's section; a follow-up's heading is indented by its depth in the chain and
    marked `↳`, so the chain reads as a tree (em spaces: Markdown keeps them, unlike spaces)."""
    follow = f" · {tr('mockreport.follow_up_of', lang, question=line.follow_up_of)}" if line.follow_up_of else ""
    tree = "\u2003" * (line.depth - 1) + "↳ " if line.depth else ""
    out = [f"### {tree}{line.position}. `{line.key}` · {_verdict(line.verdict, lang)}{follow}", ""]
    if line.variant is not None:
        out += [_plain(line.variant.text(line.variant.question.prompt, lang)), ""]
    answer = " ".join(line.answer.split()) if line.answer else "–"  # as typed, on one line
    out.append(f"- {tr('mockreport.your_answer', lang, answer=answer)}")
    if line.by_clock:
        out.append(f"- {tr('mockreport.by_clock', lang)}")
    if line.variant is not None and line.verdict != "not_reached":
        out.append(f"- {_key(line.variant, lang)}")
    if line.score is not None:
        out.append(f"- {tr('mockreport.score', lang, score=_percent(line.score))}")
    label = _text(line, line.misconception_label, lang)
    if label:
        out.append(f"- {tr('mockreport.mistake', lang, label=label)}")
    if line.seconds is not None:
        over = f" · {tr('mockreport.over_time', lang)}" if line.over_time else ""
        out.append(f"- {tr('mockreport.time', lang, taken=clock_text(line.seconds), budget=clock_text(line.budget))}{over}")
    if line.self_grades:
        out.append(f"- {tr('mockreport.self_grades', lang)}")
        out += [f"  - {tr(f'mockreport.level_{level}', lang)}: {_text(line, point, lang)}" for point, level in line.self_grades]
    pushback = line.pushback
    if pushback is not None:
        out.append(f"- {tr('mockreport.pushback', lang, text=_text(line, pushback.text, lang) or '–')}")
        row = pushback.row
        revised = " ".join((row.response or "–").split())
        said = tr("mockreport.pushback_held", lang) if row.choice == "hold" else tr("mockreport.pushback_revised", lang, answer=revised)
        out.append(f"  - {said}")
        out.append(f"  - {tr(f'mockreport.pushback_{pushback.case}', lang)}")
        out.append(f"  - {tr('mockreport.score', lang, score=_percent(row.score))}")
    return out


def report_json(bank: Bank, report: MockReport, lang: str) -> dict[str, Any]:
    """The report as a JSON-ready object (keys as the module docstring lists them)."""
    row, scores = report.stored.row, report.scores
    overall_change, topic_change = report.change
    return {
        "format": FORMAT,
        "mock": row.id,
        "key": row.key,
        "lang": lang,
        "status": row.status,
        "final": report.final,
        "started": _iso(row.started_ms),
        "finished": _iso(row.finished_ms),
        "overall": scores.overall,
        "counts": {
            "questions": len(report.lines),
            "no_answer": report.count("no_answer"),
            "not_reached": report.count("not_reached"),
            "over_time": report.over_time,
            "awaiting_self_grade": report.count(AWAITING),
        },
        "topics": [{"topic": t, "label": _topic(bank, t, lang), "score": s, "questions": scores.counts.get(t, 0)} for t, s in scores.topics.items()],
        "claims": [{"claim": c, "score": s} for c, s in scores.claims.items()],
        "questions": [_question_json(line, lang) for line in report.lines],
        "trend": [
            {"mock": p.mock, "key": p.key, "started": _iso(p.started_ms), "overall": p.scores.overall, "topics": dict(p.scores.topics)}
            for p in report.trend
        ],
        "change": {"overall": overall_change, "topics": topic_change, "mock": None if report.compared is None else report.compared.mock},
        "practise_next": list(report.practise_next),
        "missed": list(report.missed),
        "slow": list(report.slow),
        "practice_command": report.practice_command,
    }


def _question_json(line: QuestionLine, lang: str) -> dict[str, Any]:
    variant = line.variant
    return {
        "position": line.position,
        "question": line.question,
        "key": line.key,
        "topic": line.topic,
        "claims": list(line.claims),
        "follow_up_of": line.follow_up_of,
        "depth": line.depth,
        "answer": line.answer,
        "answer_key": None if variant is None else _key(variant, lang),
        "verdict": line.verdict,
        "score": line.score,
        "misconception": None if line.misconception is None else {"name": line.misconception, "label": _text(line, line.misconception_label, lang)},
        "seconds": line.seconds,
        "budget": line.budget,
        "over_time": line.over_time,
        "by_clock": line.by_clock,
        "self_grades": None if line.self_grades is None else [{"point": _text(line, p, lang), "level": level} for p, level in line.self_grades],
        "pushback": None if line.pushback is None else _pushback_json(line, lang),
    }


def _pushback_json(line: QuestionLine, lang: str) -> dict[str, Any]:
    assert line.pushback is not None
    row = line.pushback.row
    return {
        "text": _text(line, line.pushback.text, lang), "choice": row.choice, "response": row.response, "verdict": row.verdict,
        "score": row.score, "case": line.pushback.case, "seconds": None if row.duration_ms is None else row.duration_ms / 1000,
    }  # fmt: skip


def report_json_text(bank: Bank, report: MockReport, lang: str) -> str:
    return json.dumps(report_json(bank, report, lang), ensure_ascii=False, indent=2) + "\n"
