"""The `evidence` type: ask for figures measured on a faulty run, one at a time, then name the fault.

The rule (docs/authoring.md, "Evidence questions"): a wrong fault scores 0. The right fault named
without asking for any figure scores `blind_credit` (a guess). Otherwise it scores 1 less the
cost of every request, where a request costs its figure's `cost` plus `seconds` ÷ the question's
`time`, and a telling figure asked for first costs nothing; never less than `blind_credit`, since
evidence never makes a right answer worth less than a guess. So asking for a telling figure first
and then naming the fault earns the full mark. The feedback says what the best first request was
and why.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

import numpy as np

from quiz.answer_text import Invalid
from quiz.base.fieldwise import Fieldwise, record
from quiz.base.numbers import format_array_inline, format_number, format_value
from quiz.expressions import ExpressionError
from quiz.format.compile import CompiledQuestion
from quiz.format.model import Text, option_ids
from quiz.grading.result import Result, Verdict, finish
from quiz.locale.i18n import LANGUAGES, tr
from quiz.models.questions import EvidenceQuestion, Figure
from quiz.types import options
from quiz.types.base import Evaluate, Problem, QuestionType
from quiz.types.reading import plain_text, words
from quiz.variants.variant import Variant, VariantError, quoted

MAX_FIGURE_ELEMENTS: Final = 144
"""The most numbers one figure may hold: a 12 × 12 matrix still reads on a screen."""
ASK: Final = "ask"
ANSWER: Final = "answer"

SCAFFOLD = r"""id: <ID>
type: evidence
# The topic and the claims this question covers (ids from questions/claims.yaml):
# learners practise by topic or by claim.
topic: <TOPIC>
refs: [<CLAIM>]
time: 120                     # a figure's `seconds` cost seconds ÷ time of the mark
params:
  f: {choice: [missing_scale, double_scale]}   # the fault of this run, drawn for each variant
  Q: {normal: [2, 8, 16]}                       # 2 heads, 8 positions, d_k = 16
  K: {normal: [2, 8, 16]}
derived:
  stats: head_stats(Q, K, K, fault=f)           # what monitoring measures on the faulty run
figures:                      # what the candidate may ask for, one at a time; values stay hidden until asked
  - id: scale
    label: {en: The scale each head applied to its scores, ja: 各ヘッドがスコアに掛けた係数}
    value: stats.score_std_scaled / stats.score_std_raw   # the scale applied, per head
    cost: 0.2                 # share of the mark this request costs ...
    telling: true             # ... unless a telling figure is asked for first: then it is free
    why: {en: "A correct head applies $1/\\sqrt{16} = 0.25$; 1 means no factor and $1/16$ a factor taken twice.", ja: "正しいヘッドの係数は $1/\\sqrt{16} = 0.25$ です。1 なら係数がなく、$1/16$ なら係数が 2 回掛かっています。"}
  - id: nans
    label: {en: NaN weights per head, ja: ヘッドごとの NaN の重みの数}
    value: stats.weights_nan
    seconds: 30               # interview time: 30 of 120 s costs a quarter of the mark
answer: f                     # the id of the right option for this variant
options:
  - id: missing_scale
    text: {en: "The scores are not divided by $\\sqrt{d_k}$", ja: "スコアが $\\sqrt{d_k}$ で割られていない"}
    feedback: {en: Without the factor the scores have standard deviation 4 and the rows turn sharp., ja: 係数がないとスコアの標準偏差は 4 になり、行が鋭くなります。}
  - id: double_scale
    text: {en: "The scores are divided by $d_k$", ja: "スコアが $d_k$ で割られている"}
    feedback: {en: Dividing by 16 leaves a standard deviation of $1/4$ and nearly uniform rows., ja: 16 で割ると標準偏差は $1/4$ になり、行はほぼ一様になります。}
prompt:
  en: A layer with 2 heads of width $d_k = 16$ gives odd weights on random inputs. Ask for the figures you need, then name the fault.
  ja: 幅 $d_k = 16$ のヘッドを 2 つ持つ層が、ランダムな入力でおかしな重みを出します。必要な値を尋ねてから、原因を答えてください。
explanation:
  en: The applied scale names the fault at once; the NaN count is zero either way and tells nothing.
  ja: 実際に掛かった係数を見れば原因はすぐにわかります。NaN の数はどちらでも 0 で、何も教えてくれません。
"""  # noqa: E501 - written out as the author's file, one line per text like the bundled bank
"""What `quiz new --type evidence` writes: a commented question that passes `quiz validate --strict`."""


@record(slots=True)
class EvidenceResponse(Fieldwise):
    """The figures asked for, by id in the order asked, and the option named."""

    asked: tuple[str, ...]
    answer: str


def request_cost(question: EvidenceQuestion, figure: Figure) -> float:
    """What asking for `figure` costs of the mark: its `cost` plus its `seconds` ÷ the question's time."""
    return figure.cost + figure.seconds / question.time


def mark(question: EvidenceQuestion, asked: tuple[str, ...]) -> float:
    """The mark for the right fault named after asking for `asked`, by the rule in the module's docstring."""
    if not asked:
        return question.blind_credit
    by_id = {f.id: f for f in question.figures}
    spent = sum(request_cost(question, by_id[i]) for n, i in enumerate(asked) if not (n == 0 and by_id[i].telling))
    return max(question.blind_credit, 1.0 - spent)


def best_first(question: EvidenceQuestion) -> Figure:
    """The figure to ask for first: the cheapest telling one (the first listed among equals)."""
    telling = [f for f in question.figures if f.telling]
    return min(telling, key=lambda f: request_cost(question, f))


def figure_value(variant: Variant, figure_id: str) -> Any:
    """The value of one figure on this variant's run, as the engine measures it."""
    expression = dict(variant.compiled.figures)[figure_id]
    what = f"figures.{figure_id}.value"
    try:
        return expression.evaluate(variant.values, variant.budget)
    except ExpressionError as exc:
        raise VariantError(variant.question.id, f"{what}: {exc.message} in `{quoted(expression.source)}`", what) from None


def shown_figure(variant: Variant, figure_id: str, lang: str, inline: bool = False) -> str:
    """A figure's value as the candidate reads it: Markdown (a number, a vector or a matrix block),
    or on one line. Measured when the variant was drawn, so it cannot fail then; should it fail
    now (the variant's time spent), a located message takes its place, as in a text."""
    try:
        value = figure_value(variant, figure_id)
    except VariantError as exc:
        question = TYPE.question_of(variant)
        figure = next(f for f in question.figures if f.id == figure_id)
        where = figure.marks.at("value") if figure.marks is not None else question.source
        return tr("variant.text_failed", lang, where=str(where), reason=exc.message)
    return format_array_inline(value, 3) if inline else format_value(value)


def cost_text(question: EvidenceQuestion, figure: Figure, lang: str) -> str:
    """What a request costs, in words: the share of the mark, and the seconds when it is time."""
    share = format_number(round(request_cost(question, figure), 4))
    if figure.seconds:
        return tr("show.figure_cost_seconds", lang, seconds=figure.seconds, share=share)
    return tr("show.figure_cost", lang, share=share)


class EvidenceType(QuestionType[EvidenceQuestion]):
    name = "evidence"
    model = EvidenceQuestion
    scaffold = SCAFFOLD
    scaffold_topic = "diagnosis"

    def key(self, compiled: CompiledQuestion, evaluate: Evaluate) -> tuple[Any, dict[str, Any]]:
        """The right option's id (a drawn fault) and every figure measured once, so that a figure
        failing on a seed fails the variant there, at its line, never on the candidate's screen."""
        question = self.question_of(compiled)
        answer = None
        if compiled.answer is not None:  # a drawn fault: the expression names the right option
            answer = evaluate(compiled.answer, "answer")
            ids = option_ids(question.options)
            if not isinstance(answer, str) or answer not in ids:
                message = f"answer gave {quoted(answer)}, which is not an option id ({', '.join(ids)})"
                raise VariantError(question.id, message, "answer", location=question.source)
        for figure_id, expression in compiled.figures:
            what = f"figures.{figure_id}.value"
            value = evaluate(expression, what)
            problem = _unshowable(value)
            if problem is not None:
                marks = next(f.marks for f in question.figures if f.id == figure_id)
                location = marks.at("value") if marks is not None else compiled.question.source
                raise VariantError(compiled.question.id, f"{what} {problem}", what, location=location)
        return answer, {}

    def read(self, variant: Variant, text: str) -> EvidenceResponse | Invalid:
        """`ask scale entropy; answer b`: the figures in the order asked, then the option; a bare
        option (`b`) names the fault without asking for any figure."""
        question = self.question_of(variant)
        ids = [f.id for f in question.figures]
        asked: list[str] = []
        picks: list[str] = []
        for part in text.split(";"):
            plain = plain_text(part)
            if isinstance(plain, Invalid):
                continue
            head, _, rest = plain.partition(" ")
            if head.lower() == ASK:
                for word in words(rest):
                    figure = word.lower()
                    if figure not in ids:
                        return Invalid("response.unknown_figure", {"figure": word, "figures": ", ".join(ids)})
                    if figure not in asked:  # a figure once shown stays shown: asking again costs nothing
                        asked.append(figure)
            else:
                picks.append(rest if head.lower() == ANSWER else plain)
        if len(picks) != 1:
            return Invalid("response.evidence_answer")
        chosen = options.read_picks(variant, picks[0])
        if isinstance(chosen, Invalid):
            return chosen
        if len(chosen) != 1:
            return Invalid("response.one_option", {"count": len(chosen)})
        return EvidenceResponse(tuple(asked), chosen[0])

    def grade(self, variant: Variant, response: Any, hints_used: int = 0) -> Result:
        question = self.question_of(variant)
        [right] = options.correct_options(variant)
        raw = mark(question, response.asked) if response.answer == right else 0.0
        best = best_first(question)
        first = next((f for f in question.figures if response.asked and f.id == response.asked[0]), None)
        advice = _advice(variant, best if first is None or not first.telling else first, first is not None and first.telling)
        return finish(
            question,
            raw,
            hints_used,
            feedback=(*options.option_feedback(variant, {response.answer}), advice),
            answer=right,
            details={"asked": list(response.asked), "telling_first": first is not None and first.telling, "best_first": best.id},
        )

    def revealed_answer(self, variant: Variant) -> Any:
        return options.correct_options(variant)

    def answer_text(self, variant: Variant, lang: str) -> str:
        return "; ".join(options.option_lines(variant, lang, options.correct_options(variant)))

    def answer_json(self, variant: Variant, lang: str) -> Any:
        """The best play as `quiz grade --answer` reads it: the best first request, then the right letter."""
        letter = options.letters(variant, options.correct_options(variant))[0]
        return f"{ASK} {best_first(self.question_of(variant)).id}; {ANSWER} {letter}"

    def how_to_answer(self, variant: Variant, lang: str) -> list[str]:
        question = self.question_of(variant)
        figures = [f"  {f.id}: {_plain(variant, f.label, lang)} ({cost_text(question, f, lang)})" for f in question.figures]
        choices = ["  " + line for line in options.option_lines(variant, lang)]
        return [tr("show.ask_figures", lang), *figures, tr("show.pick_one", lang), *choices]

    def response_text(self, variant: Variant, response: Any) -> str:
        answer = options.picks_text(variant, {response.answer})
        return f"{ASK} {' '.join(response.asked)}; {ANSWER} {answer}" if response.asked else answer

    def with_requests(self, asked: list[str], text: str) -> str:
        return f"{ASK} {' '.join(asked)}; {ANSWER} {text}"

    def response_json(self, response: Any) -> Any:
        return {"asked": list(response.asked), "answer": response.answer}

    def extra_json(self, variant: Variant, lang: str) -> dict[str, Any]:
        """The options, and the figures that can be asked for with their costs (never their values)."""
        question = self.question_of(variant)
        figures = [
            {"id": f.id, "label": variant.text(f.label, lang), "cost": f.cost, "seconds": f.seconds, "costs": request_cost(question, f)}
            for f in question.figures
        ]
        return {**options.options_json(variant, lang), "figures": figures}

    def graded_json(self, variant: Variant, response: Any, lang: str) -> dict[str, Any]:
        """The figures asked for, each with the value the candidate was shown."""
        return {"asked": [{"id": i, "value": shown_figure(variant, i, lang, inline=True)} for i in response.asked]}

    def marked_response(self, variant: Variant, result: Result, response: Any, lang: str) -> str | None:
        """The requests in order with what each cost (the answer line below says which option was right)."""
        if response is None:
            return None
        question = self.question_of(variant)
        by_id = {f.id: f for f in question.figures}
        lines = [tr("grade.evidence_asked", lang) if response.asked else tr("grade.evidence_none_asked", lang)]
        for n, i in enumerate(response.asked):
            figure = by_id[i]
            free = n == 0 and figure.telling
            cost = tr("grade.evidence_free", lang) if free else f"−{format_number(round(request_cost(question, figure), 4))}"
            value = shown_figure(variant, i, lang, inline=True)
            lines.append(f"  {n + 1}. {_plain(variant, figure.label, lang)} = {value} ({cost})")
        return "\n".join(lines)

    def self_test(self, variant: Variant) -> Iterator[Problem]:
        """The best play grades as fully right, the right fault named blind scores `blind_credit`,
        and every other option, even after the best first request, scores 0."""
        question = self.question_of(variant)
        [right] = options.correct_options(variant)
        best = (best_first(question).id,)
        at = question.marks.at("answer") if question.marks is not None and question.answer is not None else question.source
        result = self.grade(variant, EvidenceResponse(best, right))
        if result.verdict is not Verdict.CORRECT or result.score != 1.0:
            yield Problem(at, "the right fault after the best first request does not grade as fully right", f"score {result.score:g}")
        if self.grade(variant, EvidenceResponse((), right)).score != question.blind_credit:
            yield Problem(at, "the right fault named blind does not score blind_credit")
        for option_id, _ in options.shown(variant):
            if option_id != right and self.grade(variant, EvidenceResponse(best, option_id)).score != 0.0:
                yield Problem(at, f"the wrong option {option_id} scores above 0", f"answer {right}")


def _unshowable(value: Any) -> str | None:
    """Why a figure's value cannot be shown to the candidate, or None: it must be a number, a
    vector or a small matrix of numbers."""
    try:
        shown = format_value(value)
    except TypeError as exc:
        return f"gave a value that cannot be shown ({exc}); give a number, a vector or a matrix"
    if isinstance(value, str):
        return f"gave the text {quoted(shown)}; a figure is a number, a vector or a matrix"
    array = np.asarray(value)
    if array.ndim > 2 or array.size > MAX_FIGURE_ELEMENTS:
        return f"has shape {array.shape}; a figure is at most a {MAX_FIGURE_ELEMENTS}-number vector or matrix a screen can show"
    return None


def _plain(variant: Variant, text: Text, lang: str) -> str:
    from quiz.render.mathtext import markdown_to_plain  # markdown-it: only when a label is shown, not at start-up

    return markdown_to_plain(variant.text(text, lang)).strip()


def _advice(variant: Variant, figure: Figure, asked_first: bool) -> Text:
    """The feedback on the first request: praise for a telling one, else the best one and why.

    Built filled in, in each language, from the figure's label and `why` as this variant shows them.
    """
    key = "grade.evidence_good_first" if asked_first else "grade.evidence_ask_first"
    texts = {lang: tr(key, lang, label=variant.text(figure.label, lang), why=variant.text(figure.why, lang)) for lang in LANGUAGES}
    return Text(en=texts["en"], ja=texts.get("ja"))


TYPE = EvidenceType()
