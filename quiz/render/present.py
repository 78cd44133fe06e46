"""A variant and its grading as plain data and text, for the command line and tools."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from quiz.answers import describe_shape
from quiz.format.model import (
    ChoiceQuestion,
    ExplainQuestion,
    MultiQuestion,
    NumericQuestion,
    OrderQuestion,
    QuestionBase,
    TrueFalseQuestion,
    option_ids,
)
from quiz.render.numbers import format_array_inline, format_number
from quiz.grading import Result, correct_options
from quiz.i18n import tr
from quiz.render.mathtext import markdown_to_plain
from quiz.variants import Variant, display_order

_PLACEHOLDER = re.compile(r"\{\{.*?\}\}")


def prompt_preview(question: QuestionBase, lang: str, width: int) -> str:
    """A question's prompt on one line for listings: maths in Unicode, … where a value is drawn."""
    text = markdown_to_plain(_PLACEHOLDER.sub("…", question.prompt.get(lang)))
    return " ".join(text.split())[:width]


def letter(index: int) -> str:
    """How the option at `index` is labelled for learners: a, b, c, ..."""
    return chr(ord("a") + index)


def tolerance_rule(question: NumericQuestion, lang: str) -> str:
    """The grading rule in words, shown beside every numeric question ("every element" only for
    vectors and matrices)."""
    tolerance = question.tolerance
    rtol = tolerance.effective_rtol
    return tr(
        "grade.tolerance_rule_scalar" if question.type == "number" else "grade.tolerance_rule",
        lang,
        atol=format_number(tolerance.effective_atol),
        rtol=format_number(rtol * 100) + "%",
    )


def json_ready(value: Any) -> Any:
    """`value` with numpy arrays and scalars turned into lists and Python numbers."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, list | tuple):
        return [json_ready(v) for v in value]
    return value


def answer_text(variant: Variant, lang: str) -> str:
    """The variant's answer key as a learner reads it."""
    question = variant.question
    if isinstance(question, NumericQuestion):
        return format_array_inline(variant.answer)
    if isinstance(question, ChoiceQuestion | MultiQuestion):
        ids = option_ids(question.options)
        right = set(correct_options(variant))
        return "; ".join(f"{letter(n)}) {variant.text(o.text, lang)}" for n, (i, o) in enumerate(zip(ids, question.options)) if i in right)
    if isinstance(question, TrueFalseQuestion):
        return tr("show.true" if question.answer else "show.false", lang)
    if isinstance(question, OrderQuestion):
        return "\n".join(f"{n}. {variant.text(item, lang)}" for n, item in enumerate(question.items, 1))
    assert isinstance(question, ExplainQuestion)
    return variant.text(question.model_answer, lang)


def answer_line(variant: Variant, lang: str) -> str:
    """"Answer: ..." as printed and shown after grading; a list (an order) starts on its own line."""
    text = answer_text(variant, lang)
    return markdown_to_plain(tr("grade.answer_key", lang, answer="\n" + text if "\n" in text else text))


def order_marks(variant: Variant, order: Sequence[int], lang: str) -> str:
    """The learner's order, a step a line: ✓ where a step is in its place, else where it belongs."""
    question = variant.question
    assert isinstance(question, OrderQuestion)
    lines = []
    for n, item in enumerate(order, 1):
        mark = "✓" if item == n - 1 else tr("grade.belongs_at", lang, n=item + 1)
        lines.append(f"{n}. {markdown_to_plain(variant.text(question.items[item], lang))}  {mark}")
    return "\n".join(lines)


def how_to_answer(variant: Variant, lang: str) -> list[str]:
    """Lines telling the learner what to give: shape and tolerance, options, items, ..."""
    question = variant.question
    if isinstance(question, NumericQuestion):
        shape = np.shape(variant.answer)
        return [tr("show.answer_with", lang, what=describe_shape(shape, lang)), tolerance_rule(question, lang)]
    if isinstance(question, ChoiceQuestion | MultiQuestion):
        lines = [f"  {letter(n)}) {variant.text(o.text, lang)}" for n, o in enumerate(question.options)]
        return [tr("show.pick_one" if isinstance(question, ChoiceQuestion) else "show.pick_all", lang), *lines]
    if isinstance(question, OrderQuestion):
        order = display_order(variant, len(question.items))
        lines = [f"  {n}. {variant.text(question.items[i], lang)}" for n, i in enumerate(order, 1)]
        return [tr("show.put_in_order", lang), *lines]
    if isinstance(question, TrueFalseQuestion):
        return [tr("show.true_or_false", lang)]
    if isinstance(question, ExplainQuestion):
        lines = [f"  {n}. {variant.text(point, lang)}" for n, point in enumerate(question.rubric, 1)]
        return [tr("show.explain_then_tick", lang), *lines]
    return []


def variant_json(variant: Variant, lang: str, with_answer: bool) -> dict[str, Any]:
    """The variant as a JSON object for tools (`quiz show --json`)."""
    question = variant.question
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
        "answer": json_ready(_answer_value(variant, lang)) if with_answer else None,
        "tolerance": None,
        "hints": [variant.text(h, lang) for h in question.hints],
    }
    if isinstance(question, NumericQuestion):
        t = question.tolerance
        data["tolerance"] = {"rtol": t.effective_rtol, "atol": t.effective_atol, "rule": tolerance_rule(question, lang)}
    if isinstance(question, ChoiceQuestion | MultiQuestion):
        data["options"] = [{"id": i, "text": variant.text(o.text, lang)} for i, o in zip(option_ids(question.options), question.options)]
    if isinstance(question, OrderQuestion):
        order = display_order(variant, len(question.items))
        data["items"] = [variant.text(question.items[i], lang) for i in order]
    if isinstance(question, ExplainQuestion):
        data["rubric"] = [variant.text(p, lang) for p in question.rubric]
    if with_answer:
        data["explanation"] = variant.text(question.explanation, lang)
    return data


def _answer_value(variant: Variant, lang: str) -> Any:
    question = variant.question
    if isinstance(question, ChoiceQuestion | MultiQuestion):
        right = correct_options(variant)
        return right[0] if isinstance(question, ChoiceQuestion) else right
    if isinstance(question, TrueFalseQuestion):
        return question.answer
    if isinstance(question, OrderQuestion):
        # Item numbers as shown, in the right order: what `quiz grade` expects.
        shown = display_order(variant, len(question.items))
        return [shown.index(i) + 1 for i in range(len(question.items))]
    if isinstance(question, ExplainQuestion):
        return variant.text(question.model_answer, lang)
    return variant.answer


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
