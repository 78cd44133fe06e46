"""`quiz new --type TYPE --id ID`: write a commented question of that type to start from."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from quiz.cli.arguments import CommandError

TYPES_IN_WORDS = "number, vector, matrix, choice, multi, order, truefalse, explain, code, evidence"


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], parents: list[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "new",
        parents=parents,
        help="write a commented question of a type to start from",
        description="Write a commented question of TYPE that passes `quiz validate --strict` as it is.",
    )
    # The types are named in words here, not imported: `quiz --help` must not load numpy.
    parser.add_argument("--type", dest="kind", required=True, metavar="TYPE", help=f"one of {TYPES_IN_WORDS}")
    parser.add_argument("--id", dest="question_id", required=True, metavar="ID", help="the new question's id (lower-case letters, digits, - or _)")
    parser.add_argument("--topic", help="a topic id from claims.yaml (default: the one the scaffold's content is about)")
    parser.add_argument(
        "--own-task", action="store_true", help="with --type code: a question that defines a function of its own (define:) instead of a built-in task"
    )
    parser.add_argument(
        "-o", "--output", type=Path, metavar="FILE", help="write to FILE (never over an existing file; missing folders are made) instead of printing"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Check the id and topic, then print or write the scaffold."""
    from quiz.authoring.scaffold import scaffold
    from quiz.bank import Selection
    from quiz.cli.common import load, resolve_or_fail
    from quiz.format.model import ID_PATTERN
    from quiz.format.suggest import did_you_mean
    from quiz.models.registry import TYPE_NAMES

    if args.kind not in TYPE_NAMES:
        raise CommandError(f"there is no type '{args.kind}'{did_you_mean(args.kind, TYPE_NAMES)}; types: {', '.join(TYPE_NAMES)}", 2)
    if args.own_task and args.kind != "code":
        raise CommandError("--own-task goes with --type code: only a code question defines a task of its own", 2)
    if not ID_PATTERN.fullmatch(args.question_id):
        raise CommandError(f"'{args.question_id}' cannot be an id: use lower-case letters, digits, - or _, starting with a letter or digit", 2)
    bank = load(args)
    topic = resolve_or_fail(bank.claims, Selection(topic=args.topic)).topic
    taken = bank.questions.get(args.question_id)
    if taken is not None:
        raise CommandError(f"the id '{args.question_id}' is already used by the question at {taken.source}; choose another")
    text = scaffold(args.kind, args.question_id, topic, bank.claims, own_task=args.own_task)
    if args.output is None:
        sys.stdout.write(text)
        return 0
    folder = args.output.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)  # as the docs' `-o packs/mine/q.yaml` implies
    except FileExistsError:
        raise CommandError(f"cannot write {args.output}: {folder} is a file, not a folder") from None
    except OSError as exc:
        raise CommandError(f"cannot write {args.output}: cannot make the folder {folder}: {exc.strerror or exc}") from None
    try:
        with args.output.open("x", encoding="utf-8") as out:
            out.write(text)
    except FileExistsError:
        raise CommandError(f"{args.output} already exists; give another file name") from None
    except OSError as exc:
        raise CommandError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    print(f"wrote {args.output}; check it with: quiz validate --strict {args.output}", file=sys.stderr)
    return 0
