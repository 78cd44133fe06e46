"""`quiz grade ID --seed N --answer TEXT`: grade one answer to one variant.

Exit codes: 0 graded (whatever the score), 3 the answer could not be read, 1 unknown id,
2 usage error (from argparse).
"""

from __future__ import annotations

import argparse
import json
import sys

from quiz.commands import add_variant_arguments

EXIT_INVALID_ANSWER = 3


def add_parser(subparsers: argparse._SubParsersAction, parents: list[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "grade",
        parents=parents,
        help="grade one answer to a variant",
        description="Grade one answer. Exit 0 when graded, 3 when the answer cannot be read, 1 for an unknown id.",
    )
    add_variant_arguments(parser)
    parser.add_argument("--answer", required=True, metavar="TEXT", help="the answer, as a learner would type it")
    parser.add_argument("--hints", type=int, default=0, metavar="N", help="hints used (each costs part of the score)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Read the answer, grade it and print the result."""
    from quiz.answers import Invalid
    from quiz.commands import CommandError
    from quiz.commands.common import find_variant, load
    from quiz.grading.grade import grade
    from quiz.i18n import tr
    from quiz.render.present import answer_line, feedback_parts, result_json
    from quiz.types.registry import type_of

    if args.hints < 0:
        raise CommandError("--hints cannot be negative", 2)
    variant = find_variant(load(args), args.id, args.seed)
    response = type_of(variant.question).read(variant, args.answer)
    if isinstance(response, Invalid):
        message = response.message(args.lang)
        if args.json:
            print(json.dumps({"key": variant.key, "invalid": True, "message": message}, ensure_ascii=False))
        else:
            print(f"quiz: cannot read the answer: {message}", file=sys.stderr)
        return EXIT_INVALID_ANSWER
    result = grade(variant, response, min(args.hints, len(variant.question.hints)))
    if args.json:
        print(json.dumps(result_json(variant, result, args.lang), ensure_ascii=False, indent=2))
        return 0
    print(f"{tr('grade.' + str(result.verdict), args.lang)} · {tr('grade.score', args.lang, score=f'{result.score:.2f}')}")
    for _, text in feedback_parts(variant, result, response, args.lang):
        print(text)
    print(answer_line(variant, args.lang))
    return 0
