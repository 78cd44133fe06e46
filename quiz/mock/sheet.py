"""The interviewer's sheet: a mock interview on paper, so a person can run it for a friend.

It lists the time plan, then each question as the candidate sees it (its variant's numbers),
the answer key with its tolerance, the mistakes to listen for and what each reveals, the
pushback to put once it is graded, the follow-ups to probe with as a tree (each with the answer
it follows, and its own follow-ups below it), and for spoken questions the model answer and the
checklist. Maths is
written as Unicode, as the app shows it. The same plan gives the same bytes.
"""

from __future__ import annotations

from quiz.bank import Bank
from quiz.base.numbers import format_array_inline
from quiz.format.model import QuestionBase
from quiz.locale.i18n import tr, tr_count
from quiz.mock.clock import clock_text
from quiz.mock.compose import MockPlan
from quiz.models.questions import ExplainQuestion
from quiz.render.mathtext import markdown_to_plain
from quiz.types.draw import make_variant
from quiz.types.present import answer_line
from quiz.types.preview import one_line, prompt_preview
from quiz.types.registry import type_of
from quiz.variants.variant import Variant

_PLAN_COLUMNS = ("mock.col_question", "mock.col_topic", "mock.col_level", "mock.col_budget", "mock.col_by")
"""The time plan's columns after `#`, as catalogue keys."""


def plan_variants(bank: Bank, plan: MockPlan) -> list[Variant]:
    """Each planned question's variant, in the order asked."""
    variants = []
    for planned in plan.questions:
        compiled = bank.compiled(planned.question_id)
        assert compiled is not None, f"{planned.question_id} was planned but does not compile"
        variants.append(make_variant(compiled, planned.seed))
    return variants


def _plain(text: str) -> str:
    return markdown_to_plain(text).strip()


def interviewer_sheet(bank: Bank, plan: MockPlan, lang: str) -> str:
    """The sheet as Markdown, in `lang`."""
    variants = plan_variants(bank, plan)
    minutes = plan.options.minutes
    lines = [
        f"# {tr('mock.sheet_title', lang, key=plan.key)}",
        "",
        tr_count("mock.sheet_summary", lang, len(variants), minutes=f"{minutes:g}", count=len(variants), planned=clock_text(plan.planned_seconds)),
        "",
        tr("mock.sheet_rules", lang),
        "",
        f"## {tr('mock.time_plan', lang)}",
        "",
        "| # | " + " | ".join(tr(key, lang) for key in _PLAN_COLUMNS) + " |",
        "|---|---|---|---|---|---|",
    ]
    elapsed = 0.0
    for n, (planned, variant) in enumerate(zip(plan.questions, variants), 1):
        elapsed += planned.budget
        topic = bank.claims.topics[variant.question.topic].label(lang) if variant.question.topic in bank.claims.topics else variant.question.topic
        lines.append(f"| {n} | `{variant.key}` | {topic} | {variant.question.difficulty} | {clock_text(planned.budget)} | {clock_text(elapsed)} |")
    for n, (planned, variant) in enumerate(zip(plan.questions, variants), 1):
        lines += ["", *_question_section(bank, n, variant, planned.budget, lang)]
    return "\n".join(lines).rstrip() + "\n"


def _question_section(bank: Bank, n: int, variant: Variant, budget: float, lang: str) -> list[str]:
    question = variant.question
    kind = type_of(question)
    lines = [f"## {n}. `{variant.key}` · {clock_text(budget)}", ""]
    lines += [f"**{tr('mock.sheet_asked', lang)}**", "", _plain(variant.text(question.prompt, lang))]
    if not isinstance(question, ExplainQuestion):  # a spoken question's key is its model answer, shown below with the checklist
        lines += ["", *(_plain(line) for line in kind.how_to_answer(variant, lang))]
        lines += ["", f"**{tr('mock.sheet_key', lang)}** {answer_line(variant, lang)}"]
    mistakes = kind.mistakes(variant)  # misconceptions, critical pairs, a code task's modelled mistakes
    if mistakes:
        lines += ["", f"**{tr('mock.sheet_listen', lang)}**", ""]
        values = variant.misconceptions
        for mistake in mistakes:
            label = _plain(variant.text(mistake.label, lang)) if mistake.label else mistake.name
            value = f" ({tr('mock.sheet_gives', lang)} {format_array_inline(values[mistake.name])})" if mistake.name in values else ""
            feedback = f": {_plain(variant.text(mistake.feedback, lang))}" if mistake.feedback else ""
            lines.append(f"- **{label}**{value}{feedback}")
    if isinstance(question, ExplainQuestion):
        lines += ["", f"**{tr('mock.sheet_model', lang)}**", "", _plain(variant.text(question.model_answer, lang))]
        lines += ["", f"**{tr('mock.sheet_checklist', lang)}**", ""]
        lines += [f"- [ ] {_plain(variant.text(point, lang))}" for point in question.rubric]
    if question.pushback:
        lines += ["", f"**{tr('mock.sheet_pushback', lang)}**", ""]
        lines += [f"- {_condition(f'mock.sheet_after_{p.after}', lang)} {_plain(variant.text(p.text, lang))}" for p in question.pushback]
        lines += ["", tr("mock.sheet_pushback_rule", lang)]
    tree = follow_up_tree(bank, question, lang)
    if tree:
        lines += ["", f"**{tr('mock.sheet_follow_ups', lang)}**", "", *tree]
        if any(line.startswith(" ") for line in tree) or any(f.when != "any" for f in question.follow_ups):  # a chain or a branch
            lines += ["", tr("mock.sheet_chain_rule", lang)]
    return lines


def _condition(key: str, lang: str) -> str:
    """A condition in brackets, as the language writes them."""
    return tr("mock.sheet_condition", lang, condition=tr(key, lang))


def follow_up_tree(bank: Bank, question: QuestionBase, lang: str, depth: int = 0, path: tuple[str, ...] = ()) -> list[str]:
    """The follow-ups of `question` as a nested Markdown list: each with the answer it follows and
    its pushback, its own follow-ups below it (a question already on the path is not repeated).
    Outside any variant: a drawn value reads `…`, as in the prompts' previews."""
    lines = []
    path = (*path, question.id)
    for link in question.follow_ups:
        if link.id not in bank.questions or link.id in path:
            continue
        follow = bank.questions[link.id]
        when = f" {_condition(f'mock.sheet_when_{link.when}', lang)}" if link.when != "any" else ""
        lines.append(f"{'  ' * depth}- `{follow.id}`{when}: {prompt_preview(follow, lang, 160)}")
        for pushback in follow.pushback:
            item = tr("mock.sheet_pushback_item", lang, after=tr(f"mock.sheet_after_{pushback.after}", lang), text=one_line(pushback.text, lang))
            lines.append(f"{'  ' * (depth + 1)}- {item}")
        lines += follow_up_tree(bank, follow, lang, depth + 1, path)
    return lines
