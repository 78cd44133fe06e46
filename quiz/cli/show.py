"""`quiz show ID`: print one variant of a question, optionally with its answer."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from quiz.cli.arguments import add_variant_arguments

if TYPE_CHECKING:  # the bank and its variants load lazily, off `quiz --help`'s path
    from quiz.bank import Bank
    from quiz.format.model import QuestionBase
    from quiz.variants.variant import Variant


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], parents: list[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "show",
        parents=parents,
        help="print a variant of a question",
        description="Print a variant of a question. ID may be a variant key such as softmax-two#7.",
    )
    add_variant_arguments(parser)
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument(
        "--answer",
        action="store_true",
        help="also print the answer, each named mistake's label and value, the hints, the worked values and the explanation",
    )
    shown.add_argument("--starter", action="store_true", help="print only the file a code question starts from")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the variant as text or JSON."""
    from quiz.cli.common import find_variant, load
    from quiz.locale.i18n import tr
    from quiz.mock.sheet import follow_up_tree
    from quiz.render.mathtext import markdown_to_plain
    from quiz.render.wrap import fit_text, terminal_width
    from quiz.types.present import answer_details, answer_line, how_to_answer, variant_json

    bank = load(args)
    variant = find_variant(bank, args.id, args.seed)
    if args.starter:
        return print_starter(variant)
    if args.json:
        data = {**variant_json(variant, args.lang, args.answer), "follow_ups": follow_up_json(bank, variant.question)}
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    question = variant.question
    lines = [
        f"{variant.key} · {question.type} · {question.topic} · {tr('show.difficulty', args.lang, level=question.difficulty)}",
        "",
        markdown_to_plain(variant.text(question.prompt, args.lang)),
        "",
        *(markdown_to_plain(line) for line in how_to_answer(variant, args.lang)),
    ]
    if args.answer:
        lines += ["", answer_line(variant, args.lang), *answer_details(variant, args.lang)]
        if question.explanation is not None:
            lines += ["", markdown_to_plain(variant.text(question.explanation, args.lang))]
    tree = follow_up_tree(bank, question, args.lang)
    if tree:  # the chain as the interviewer's sheet gives it, its nesting kept in plain text
        lines += ["", tr("show.follow_ups", args.lang), *(line[: len(line) - len(line.lstrip())] + markdown_to_plain(line) for line in tree)]
    print(fit_text("\n".join(lines), terminal_width()))  # fitted to the terminal, as it is into a file
    return 0


def print_starter(variant: Variant) -> int:
    """Print the starter as a file (`quiz show ID --starter > solution.py`); exit 1 for a question without one."""
    from quiz.cli.arguments import CommandError
    from quiz.types.registry import type_of

    starter = type_of(variant.question).starter(variant)
    if starter is None:
        raise CommandError(f"{variant.question.id} is a {variant.question.type} question; only code questions have a starter")
    print(starter, end="" if starter.endswith("\n") else "\n")
    return 0


def follow_up_json(bank: Bank, question: QuestionBase, path: tuple[str, ...] = ()) -> list[dict[str, object]]:
    """The follow-up chain of `question` for `--json`: each follow-up's id, the answer it follows
    and its own follow-ups (a question already on the path is not repeated)."""
    path = (*path, question.id)
    return [
        {"id": link.id, "when": link.when, "follow_ups": follow_up_json(bank, bank.questions[link.id], path)}
        for link in question.follow_ups
        if link.id in bank.questions and link.id not in path
    ]
