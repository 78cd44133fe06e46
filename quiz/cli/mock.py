"""`quiz mock`: compose a timed mock interview and sit it in the app, print the interviewer's
sheet, or write the report of a stored one.

Exit codes: 0 done, 1 a key, topic or stored mock that cannot be used (or an output file that
exists), 2 usage error (minutes that are not a positive number, …), 4 the history file cannot be
used (the reason is printed).
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from quiz.cli.arguments import CommandError, seed_number
from quiz.locale.i18n import LANGUAGES

if TYPE_CHECKING:  # the bank loads numpy: only when a command needs it
    from quiz.bank import Bank
    from quiz.mock.compose import MockPlan
    from quiz.mock.options import MockOptions

EXIT_USAGE = 2


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], parents: list[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "mock",
        parents=parents,
        help="sit a timed mock interview, print its interviewer's sheet, or write its report",
        description="Compose a timed mock interview and open it in the app. The same options and seed "
        "(or the same --key) give the same interview on any machine with the same questions.",
    )
    parser.add_argument("--minutes", type=minutes, metavar="M", help="length of the interview (default 30; decimals allowed: 0.25 is 15 s)")
    parser.add_argument("--questions", type=int, metavar="N", help="how many questions (default: as many as the time budgets fit)")
    parser.add_argument("--topic", action="extend", nargs="+", default=[], metavar="T", help="only these topics (repeatable)")
    parser.add_argument("--difficulty", type=int, choices=(1, 2, 3), help="only this difficulty")
    parser.add_argument("--seed", type=seed_number, help="the seed that fixes the questions and their numbers (default 0)")
    parser.add_argument("--adaptive", action="store_true", help="lean towards your weakest topics and claims (from your history)")
    parser.add_argument("--key", metavar="KEY", help="replay the mock interview this key names (mock-…)")
    parser.add_argument("--lang", choices=LANGUAGES, help="language (default: your setting)")
    parser.add_argument("--feedback", choices=("end", "each"), default="end", help="feedback after the interview (default) or after each answer")
    parser.add_argument("--interviewer", action="store_true", help="print the interviewer's sheet (Markdown) instead of opening the app")
    parser.add_argument(
        "--report", nargs="?", const="last", metavar="KEY|last", help="write the report of a stored mock: its key, its id, or last (default)"
    )
    parser.add_argument("--format", choices=("md", "json"), default="md", help="report format (default md)")
    parser.add_argument("-o", "--output", type=Path, metavar="FILE", help="write the sheet or report to FILE (never overwritten)")
    parser.set_defaults(run=run)


def minutes(text: str) -> float:
    """`--minutes` as typed: a positive decimal number."""
    from quiz.mock.options import MAX_MINUTES, MockOptionsError, parse_minutes

    try:
        value = parse_minutes(text)
    except MockOptionsError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if not (0 < value <= MAX_MINUTES) or not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"minutes must be above 0 and at most {MAX_MINUTES:g}, got {text!r}")
    return value


def run(args: argparse.Namespace) -> int:
    """Write a report, print a sheet, or compose the mock and open the app."""
    from quiz.history.settings import load_settings

    lang = args.lang or load_settings()[0].language
    if args.report is not None:
        return write_report(args, lang)
    from quiz.bank import SelectionError
    from quiz.cli.common import load
    from quiz.locale.i18n import tr
    from quiz.mock.compose import compose
    from quiz.mock.sheet import interviewer_sheet

    bank = load(args)
    options = mock_options(args, bank, lang)
    weakness = adaptive_weakness(bank, lang) if options.adaptive else None
    try:
        plan = compose(bank, options, weakness)
    except SelectionError as exc:
        raise CommandError(exc.message(lang)) from None
    if args.interviewer:
        emit(interviewer_sheet(bank, plan, lang), args.output, lang)
        return 0
    if args.output is not None:
        raise CommandError(tr("mockcli.output_alone", lang), EXIT_USAGE)
    return launch_mock(args, plan, bank)


def mock_options(args: argparse.Namespace, bank: Bank, lang: str) -> MockOptions:
    """The options the arguments (or `--key`) describe, checked against the bank."""
    from quiz.locale.i18n import tr
    from quiz.mock.compose import bank_fingerprint
    from quiz.mock.options import DEFAULT_MINUTES, MockOptions, MockOptionsError, key_matches_bank, parse_mock_key

    try:
        if args.key is not None:
            given = [name for name in ("minutes", "questions", "difficulty", "seed") if getattr(args, name) is not None]
            given += ["topic"] * bool(args.topic) + ["adaptive"] * args.adaptive
            if given:
                raise CommandError(tr("mockcli.key_fixes", lang, options="--" + ", --".join(given)), EXIT_USAGE)
            options, _check = parse_mock_key(args.key)
            if not key_matches_bank(args.key, bank_fingerprint(bank)):
                raise CommandError(tr("mockcli.other_bank", lang, key=args.key.strip()))
        else:
            topics = tuple(canonical_topic(bank, t, lang) for t in args.topic)
            options = MockOptions(
                minutes=args.minutes if args.minutes is not None else DEFAULT_MINUTES, questions=args.questions,
                topics=tuple(dict.fromkeys(topics)), difficulty=args.difficulty, seed=args.seed or 0, adaptive=args.adaptive,
            )  # fmt: skip
    except MockOptionsError as exc:
        raise CommandError(str(exc), EXIT_USAGE) from None
    from dataclasses import replace

    return replace(options, feedback=args.feedback)


def canonical_topic(bank: Bank, topic: str, lang: str) -> str:
    """`topic` as the bank spells it; CommandError naming the topics there are."""
    from quiz.locale.i18n import tr

    folded = topic.strip().casefold()
    found = next((t for t in bank.claims.topics if t.casefold() == folded), None)
    if found is None:
        raise CommandError(tr("mockcli.unknown_topic", lang, topic=topic, topics=", ".join(bank.claims.topics)))
    return found


def adaptive_weakness(bank: Bank, lang: str) -> dict[str, float]:
    """Each question's weight from the learner's recent attempts (none without a history file)."""
    from quiz.history.store import History, open_history
    from quiz.history.unavailable import HistoryUnavailable
    from quiz.mock.adaptive import RECENT, weakness

    history = open_history()
    if not isinstance(history, History):
        print(f"quiz: {history.message(lang)}", file=sys.stderr)
        return {}
    try:
        return weakness(bank, history.attempts(limit=RECENT))
    except HistoryUnavailable as exc:
        print(f"quiz: {exc.reason.message(lang)}", file=sys.stderr)
        return {}
    finally:
        history.close()


def write_report(args: argparse.Namespace, lang: str) -> int:
    """`--report [KEY|last]`: the stored mock's report, Markdown or JSON."""
    from quiz.cli.common import load
    from quiz.cli.history_access import history_or_fail
    from quiz.locale.i18n import tr
    from quiz.mock.report import build_report
    from quiz.mock.report_text import report_json_text, report_markdown

    with history_or_fail(lang) as history:
        rows = history.mocks()
        wanted = args.report.strip()
        # `last`, a sitting's id, or a key (its latest sitting: two candidates may share one)
        chosen = rows[-1:] if wanted == "last" else [r for r in rows if r.id == wanted] or [r for r in rows if r.key == wanted][-1:]
        if not chosen:
            if not rows:
                raise CommandError(tr("mockcli.no_mocks", lang))
            raise CommandError(tr("mockcli.no_such_mock", lang, mock=wanted, last=rows[-1].key))
        [row] = chosen
        stored = history.mock(row.id)
        earlier = [m for m in (history.mock(r.id) for r in rows if r.status == "finished" and r.started_ms < row.started_ms) if m is not None]
    assert stored is not None
    bank = load(args)
    report = build_report(bank, stored, earlier)
    text = report_json_text(bank, report, lang) if args.format == "json" else report_markdown(bank, report, lang)
    emit(text, args.output, lang)
    return 0


def emit(text: str, output: Path | None, lang: str) -> None:
    """Print `text`, or write it to a new file `output` (an existing one is never overwritten)."""
    from quiz.locale.i18n import tr

    if output is None:
        sys.stdout.write(text)
        return
    try:
        with output.open("x", encoding="utf-8") as handle:
            handle.write(text)
    except FileExistsError:
        raise CommandError(tr("mockcli.exists", lang, path=output)) from None
    except OSError as exc:
        raise CommandError(f"{output}: {exc.strerror or exc}") from None


def launch_mock(args: argparse.Namespace, plan: MockPlan, bank: Bank) -> int:
    """Open the app on the mock interview `plan` and run it until the candidate quits."""
    from quiz.ui.app import make_app

    app = make_app(args.bank, lang=args.lang, bank=bank, mock=plan, mock_feedback=args.feedback)
    app.run()
    return 0
