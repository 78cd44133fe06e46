"""A variant and its grading as plain data and text, for the command line and tools."""

from __future__ import annotations

from typing import Any

from quiz.base.numbers import format_array_inline
from quiz.format.model import Text
from quiz.grading.result import Result, Verdict
from quiz.locale.i18n import tr
from quiz.render.mathtext import markdown_to_plain
from quiz.render.plain_data import json_ready
from quiz.types.registry import type_of
from quiz.variants.variant import Variant
from quiz.variants.worked import WorkedTensor, worked_values


def answer_line(variant: Variant, lang: str) -> str:
    """"Answer: ..." as printed and shown after grading; a list (an order, the options of a multi)
    starts on its own line, one item a line (each rendered alone: Markdown would join them)."""
    lines = type_of(variant.question).answer_text(variant, lang).split("\n")
    if len(lines) == 1:
        return markdown_to_plain(tr("grade.answer_key", lang, answer=lines[0]))
    return "\n".join([markdown_to_plain(tr("grade.answer_key", lang, answer="")).strip(), *(markdown_to_plain(line) for line in lines)])


def feedback_parts(variant: Variant, result: Result, response: Any, lang: str) -> list[tuple[str, str]]:
    """What grading said, as (part, text) in the order shown: the hint penalty, the response
    marked, the mistake named, a near miss, then the feedback of the mistake or options picked."""
    parts: list[tuple[str, str]] = []
    if result.penalty and result.raw_score > 0:  # hints cost nothing when nothing was scored
        key = "grade.hint_penalty_one" if result.hints_used == 1 else "grade.hint_penalty"
        parts.append(("penalty", tr(key, lang, hints=result.hints_used, penalty=f"{result.penalty:.0%}")))
    marked = None if result.verdict is Verdict.REVEALED else type_of(variant.question).marked_response(variant, result, response, lang)
    if marked is not None:
        parts.append(("marks", marked))
    if result.misconception:
        label = markdown_to_plain(variant.text(result.label, lang)).strip() if result.label else None
        parts.append(("misconception", tr("grade.misconception", lang, label=label) if label else tr("grade.misconception_unnamed", lang)))
    convention = result.details.get("convention")
    if convention is not None:
        accepted = next(a for a in getattr(variant.question, "also_accepted", ()) if a.name == convention)
        parts.append(("convention", tr("grade.convention", lang, label=markdown_to_plain(variant.text(accepted.label, lang)).strip())))
    if result.details.get("close"):
        parts.append(("close", tr("grade.close", lang)))
    parts.extend(("feedback", markdown_to_plain(variant.text(f, lang))) for f in result.feedback)
    return parts


def how_to_answer(variant: Variant, lang: str) -> list[str]:
    """Lines telling the learner what to give: shape and tolerance, options, items, ..."""
    return type_of(variant.question).how_to_answer(variant, lang)


def variant_json(variant: Variant, lang: str, with_answer: bool) -> dict[str, Any]:
    """The variant as a JSON object for tools (`quiz show --json`)."""
    question = variant.question
    kind = type_of(question)
    data: dict[str, Any] = {
        "key": variant.key,
        "id": question.id,
        "seed": variant.seed,
        "version": question.version,
        "type": question.type,
        "topic": question.topic,
        "difficulty": question.difficulty,
        "time": question.time,
        "refs": list(question.refs),
        "prompt": variant.text(question.prompt, lang),
        "inputs": json_ready(variant.inputs),
        "answer": json_ready(kind.answer_json(variant, lang)) if with_answer else None,
        "tolerance": None,
        "hints": [variant.text(h, lang) for h in question.hints],
        **kind.extra_json(variant, lang),
    }
    if with_answer:
        data["explanation"] = variant.text(question.explanation, lang)
        data["mistakes"] = [
            {"name": m.name, "label": _label(variant, m.label, lang), "value": m.value, "credit": m.credit}
            for m in kind.mistakes(variant)
        ]
        data["worked"] = [
            {"name": w.name, "label": worked_words(variant, w, lang), "value": json_ready(w.value)} for w in worked_values(variant).all()
        ]
    return data


def answer_details(variant: Variant, lang: str) -> list[str]:
    """What `quiz show --answer` prints below the answer for authors: each named mistake with
    its label and value, each option's feedback, the hints, and the worked values in words."""
    from quiz.types import options  # the choice types' module, loaded by the app only when one is shown

    lines: list[str] = []
    mistakes = type_of(variant.question).mistakes(variant)
    if mistakes:
        lines += ["", tr("show.mistakes", lang)]
        for m in mistakes:
            label = _label(variant, m.label, lang) or tr("show.no_label", lang)
            credit = tr("show.credit", lang, credit=f"{m.credit:g}") if m.credit else ""
            lines.append(f"  {label} ({m.name}{credit})" + (f": {m.shown}" if m.shown else ""))
    if isinstance(variant.question, options.WithOptions) and (feedback := options.feedback_lines(variant, lang)):
        lines += ["", tr("show.option_feedback", lang)]
        lines += [f"  {markdown_to_plain(line).strip()}" for line in feedback]
    hints = variant.question.hints
    if hints:
        lines += ["", tr("show.hints_list", lang)]
        lines += [f"  {n}. {markdown_to_plain(variant.text(h, lang)).strip()}" for n, h in enumerate(hints, 1)]
    worked = worked_values(variant).all()
    if worked:
        lines += ["", tr("show.worked", lang)]
        for w in worked:
            lines.append(f"  {worked_words(variant, w, lang)}: {format_array_inline(w.value)}")
    return lines


def worked_words(variant: Variant, tensor: WorkedTensor, lang: str) -> str:
    """A worked tensor's label in words: the author's, else the catalogue's for its attention
    step, saying which run it is when the variant has several. Never its name in the question."""
    words = _label(variant, tensor.label, lang)
    if words:
        return words
    assert tensor.step is not None, f"{tensor.name} has no words"  # worked_values keeps only worded tensors
    words = tr(f"show.worked_step_{tensor.step}", lang)
    return words if tensor.run is None else tr("show.worked_run", lang, words=words, n=tensor.run[0], count=tensor.run[1])


def _label(variant: Variant, label: Text | None, lang: str) -> str | None:
    return markdown_to_plain(variant.text(label, lang)).strip() if label is not None else None


def result_json(variant: Variant, result: Result, lang: str) -> dict[str, Any]:
    """A grading result as a JSON object (`quiz grade --json`)."""
    return {
        "key": variant.key,
        "score": result.score,
        "raw_score": result.raw_score,
        "verdict": str(result.verdict),
        "misconception": result.misconception,
        "feedback": [variant.text(f, lang) for f in result.feedback],
        "marks": None if result.marks is None else result.marks.tolist(),
        "hints_used": result.hints_used,
        "penalty": result.penalty,
        "answer": json_ready(result.answer),
        "details": json_ready(result.details),
    }
