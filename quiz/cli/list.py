"""`quiz list`: the questions of the bank, filtered by topic, claim or difficulty."""

from __future__ import annotations

import argparse

from quiz.locale.i18n import LANGUAGES


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], parents: list[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("list", parents=parents, help="list questions", description="List the questions of the bank.")
    parser.add_argument("--topic", help="only this topic")
    parser.add_argument("--claim", help="only questions citing this claim (e.g. B4)")
    parser.add_argument("--difficulty", type=int, choices=(1, 2, 3), help="only this difficulty")
    parser.add_argument("--lang", choices=LANGUAGES, default="en", help="language (default en)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print one line per question: id, type, topic, difficulty, claims and the prompt's start.

    A selection that matches nothing is an error (exit 1), as it is for `quiz practice`."""
    from quiz.bank import Selection
    from quiz.cli.common import load, select_or_fail
    from quiz.types.preview import prompt_preview

    bank = load(args)
    ids = select_or_fail(bank, Selection(topic=args.topic, claim=args.claim, difficulty=args.difficulty))
    shown = [bank.questions[i] for i in ids]
    width = max(len(q.id) for q in shown)
    for q in shown:
        print(f"{q.id:<{width}}  {q.type:<9}  {q.topic:<14}  {q.difficulty}  {','.join(q.refs):<12}  {prompt_preview(q, args.lang, 60)}")
    print(f"{len(shown)} of {len(bank)} questions")
    return 0
