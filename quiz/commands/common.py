"""What several subcommands share: loading the bank, checking a selection, finding a question."""

from __future__ import annotations

import argparse
import difflib
import sys

from quiz.bank import Bank, load_bank
from quiz.commands import CommandError
from quiz.format.diagnostics import Report
from quiz.format.checks import check_question
from quiz.format.claims import Claims
from quiz.format.compile import CompiledQuestion
from quiz.practice.session import Selection, SessionError, check_selection
from quiz.variants.draw import make_variant
from quiz.variants.keys import parse_key
from quiz.variants.variant import Variant, VariantError

EXIT_UNKNOWN_ID = 1


def load(args: argparse.Namespace) -> Bank:
    """The default bank plus any `--bank` paths; load problems are printed as warnings."""
    bank = load_bank(extra=args.bank)
    for diagnostic in bank.report.errors:
        print(f"quiz: skipped: {diagnostic}", file=sys.stderr)
    return bank


def check_or_fail(claims: Claims, selection: Selection) -> None:
    """Stop on a topic, claim or key the bank cannot have, saying which ones it has."""
    try:
        check_selection(claims, selection)
    except SessionError as exc:
        raise CommandError(str(exc)) from None


def find_variant(bank: Bank, key: str, seed: int | None) -> Variant:
    """The variant named by `key` (`id` or `id#seed`), `seed` overriding the key's seed."""
    try:
        question_id, key_seed = parse_key(key)
    except ValueError as exc:
        raise CommandError(str(exc), EXIT_UNKNOWN_ID) from None
    question = bank.questions.get(question_id)
    if question is None:
        close = difflib.get_close_matches(question_id, list(bank.questions), n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else "; `quiz list` shows every id"
        raise CommandError(f"no question with id '{question_id}'{hint}", EXIT_UNKNOWN_ID)
    compiled = compile_or_fail(bank, question_id)
    try:
        return make_variant(compiled, seed if seed is not None else key_seed or 0)
    except VariantError as exc:
        raise CommandError(f"cannot make a variant: {exc}") from None


def compile_or_fail(bank: Bank, question_id: str) -> CompiledQuestion:
    report = Report()
    compiled = check_question(bank.questions[question_id], bank.claims, report)
    if compiled is None:
        raise CommandError("the question has errors:\n" + "\n".join(str(d) for d in report.errors))
    return compiled
