"""`quiz grade ID --seed N --answer TEXT` (or `--file PATH`) `[--record]`: grade one answer to one variant.

A code question's answer is a file: reading it runs the checks on it. Exit codes: 0 graded
(whatever the score), 3 the answer could not be read (a code file that cannot be run or
imported), 1 unknown id, 2 usage error (from argparse), 4 graded but, with --record, not saved
(the reason is on stderr).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from quiz.cli.arguments import add_variant_arguments, command_index
from quiz.cli.history_access import EXIT_HISTORY_UNAVAILABLE
from quiz.history.records import MODES, Mode

if TYPE_CHECKING:
    from quiz.grading.result import Result
    from quiz.variants.variant import Variant

EXIT_INVALID_ANSWER = 3
MAX_FILE_BYTES = 1 << 20
"""The largest answer file read; a code question's file is refused well below this."""


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], parents: list[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "grade",
        parents=parents,
        help="grade one answer to a variant",
        description=(
            "Grade one answer. Exit 0 when graded, 3 when the answer cannot be read (for a code question: "
            "the file cannot be run or imported), 1 for an unknown id, 4 when graded but --record could not save it."
        ),
    )
    add_variant_arguments(parser)
    given = parser.add_mutually_exclusive_group(required=True)
    given.add_argument("--answer", metavar="TEXT", help="the answer, as a learner would type it")
    given.add_argument("--file", type=Path, metavar="PATH", help="read the answer from a file (a code question's solution.py)")
    parser.add_argument(
        "--ask", action="append", default=[], metavar="FIG", help="an evidence question: ask for this figure first (repeat, in order)"
    )
    parser.add_argument("--hints", type=int, default=0, metavar="N", help="hints used (each costs part of the score)")
    parser.add_argument("--record", action="store_true", help="save the graded attempt in your history")
    parser.add_argument("--mode", choices=MODES, help="with --record: practice (default), mock or review")
    parser.add_argument("--seconds", type=float, metavar="S", help="with --record: the time you took, in seconds")
    parser.set_defaults(run=run)


def join_answer_values(argv: list[str]) -> list[str]:
    """`argv` with `grade ... --answer TEXT` written `--answer=TEXT`, so any answer is read as one.

    argparse takes a value starting with `-` for an option unless it looks like a plain
    negative number, so `--answer -1.2e-02` or `--answer -sqrt(2)` would be refused.
    """
    command = command_index(argv)
    if command is None or argv[command] != "grade":
        return argv
    joined = argv[: command + 1]
    tokens = iter(argv[command + 1 :])
    for token in tokens:
        if token == "--":  # what follows is positional, as argparse reads it
            joined.append(token)
            joined.extend(tokens)
            break
        value = next(tokens, None) if token == "--answer" else None
        joined.append(token if value is None else f"--answer={value}")
    return joined


def read_answer(variant: Variant, text: str) -> Any:
    """The response `text` gives for `variant` (its type reads it), or an Invalid.

    Text longer than any answer is refused before a reader converts anything.
    """
    from quiz.answer_text import MAX_LENGTH, Invalid
    from quiz.types.registry import type_of

    if len(text) > MAX_LENGTH:
        return Invalid("parse.too_long", {"limit": MAX_LENGTH})
    return type_of(variant.question).read(variant, text)


def run(args: argparse.Namespace) -> int:
    """Read the answer, grade it and print the result."""
    from quiz.answer_text import Invalid
    from quiz.cli.arguments import CommandError
    from quiz.cli.common import find_variant, load
    from quiz.locale.i18n import tr
    from quiz.types.grade import grade
    from quiz.types.present import answer_line, feedback_parts, result_json
    from quiz.types.registry import type_of

    if args.hints < 0:
        raise CommandError("--hints cannot be negative", 2)
    if not args.record and (args.mode is not None or args.seconds is not None):
        raise CommandError("--mode and --seconds describe the attempt --record saves; add --record", 2)
    if args.seconds is not None and not args.seconds >= 0:
        raise CommandError("--seconds must be a number of seconds, 0 or more", 2)
    variant = find_variant(load(args), args.id, args.seed)
    kind = type_of(variant.question)
    text = args.answer if args.file is None else read_answer_file(args.file)
    if args.ask:
        asked = None if args.file is not None else kind.with_requests(args.ask, text)
        if asked is None:
            raise CommandError(f"--ask names figures to ask for, which only an evidence question has ({variant.key} is a {kind.name} one)", 2)
        text = asked
    # A typed answer is refused past any answer's length before a reader sees it; a file (a
    # code question's solution) is bounded as it is read.
    response = read_answer(variant, text) if args.file is None else kind.read(variant, text)
    if kind.name == "code" and (note := _confinement_note(args.lang)) is not None:
        print(f"quiz: {note}", file=sys.stderr)
    if isinstance(response, Invalid):
        message = response.message(args.lang)
        if args.json:
            print(json.dumps({"key": variant.key, "invalid": True, "message": message}, ensure_ascii=False))
        else:
            said = f"{args.file}: {message}" if args.file is not None else tr("grade.cannot_read", args.lang, message=message)
            print(f"quiz: {said}", file=sys.stderr)
        return EXIT_INVALID_ANSWER
    result = grade(variant, response, min(args.hints, len(variant.question.hints)))
    attempt_id, not_saved = _record(args, variant, result, text) if args.record else (None, None)
    if args.json:
        data = {**result_json(variant, result, args.lang), **kind.graded_json(variant, response, args.lang)}
        if args.record:
            data |= {"attempt_id": attempt_id, "not_saved": not_saved}
        print(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        print(f"{tr('grade.' + str(result.verdict), args.lang)} · {tr('grade.score', args.lang, score=f'{result.score:.2f}')}")
        for _, text in feedback_parts(variant, result, response, args.lang):
            print(text)
        print(answer_line(variant, args.lang))
    if not_saved is not None:
        print(f"quiz: {tr('history.not_saved', args.lang, reason=not_saved)}", file=sys.stderr)
        return EXIT_HISTORY_UNAVAILABLE
    return 0


def _confinement_note(lang: str) -> str | None:
    from quiz.code import confinement_note

    return confinement_note(lang)


def _record(args: argparse.Namespace, variant: Variant, result: Result, text: str) -> tuple[str | None, str | None]:
    """Save the graded attempt: its id, or why it could not be saved (the grade stands either way)."""
    from quiz.history.graded import attempt_from_grade
    from quiz.history.store import History, open_history
    from quiz.history.unavailable import HistoryUnavailable

    mode = Mode(args.mode or Mode.PRACTICE)
    attempt = attempt_from_grade(variant, result, response=text, lang=args.lang, mode=mode, seconds=args.seconds)
    history = open_history()
    if not isinstance(history, History):
        return None, history.message(args.lang)
    try:
        history.record(attempt)
    except HistoryUnavailable as exc:
        return None, exc.reason.message(args.lang)
    finally:
        history.close()
    return attempt.id, None


def read_answer_file(path: Path) -> str:
    """The text of an answer file; a file that cannot be read stops with exit status 3.

    Only a regular file is read (a FIFO would wait for a writer forever), and at most
    MAX_FILE_BYTES of it.
    """
    from quiz.base.bounded_read import UnreadableFile, read_bounded
    from quiz.cli.arguments import CommandError

    try:
        raw = read_bounded(path, MAX_FILE_BYTES)
    except FileNotFoundError as exc:
        raise CommandError(f"{path}: cannot read it: {exc.strerror}", EXIT_INVALID_ANSWER) from None
    except UnreadableFile as exc:
        raise CommandError(f"{path}: cannot read it: {exc}", EXIT_INVALID_ANSWER) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CommandError(f"{path}: not UTF-8 text (byte {exc.start})", EXIT_INVALID_ANSWER) from None
