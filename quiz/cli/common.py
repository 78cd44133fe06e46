"""What several subcommands share: loading the bank, checking a selection, finding a variant."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from quiz.bank import Bank, Selection, SelectionError, load_bank, resolve_selection
from quiz.bank.cache import BankCache
from quiz.cli.arguments import CommandError
from quiz.format.claims import Claims

if TYPE_CHECKING:
    from quiz.format.compile import CompiledQuestion
    from quiz.variants.variant import Variant

EXIT_UNKNOWN_ID = 1


def load(args: argparse.Namespace) -> Bank:
    """The default bank plus any `--bank` paths, through the bank cache; load problems are
    printed as warnings."""
    cache = BankCache()
    bank = load_bank(extra=args.bank, cache=cache)
    cache.save()
    for diagnostic in bank.report.errors:
        print(f"quiz: skipped: {diagnostic}", file=sys.stderr)
    return bank


def resolve_or_fail(claims: Claims, selection: Selection) -> Selection:
    """The selection as the bank spells it; stop on a topic, claim or key the bank cannot have."""
    try:
        return resolve_selection(claims, selection)
    except SelectionError as exc:
        raise CommandError(str(exc)) from None


def select_or_fail(bank: Bank, selection: Selection) -> list[str]:
    """The ids `selection` picks; stop when it names what the bank lacks or picks nothing."""
    try:
        ids = bank.select(selection)
    except SelectionError as exc:
        raise CommandError(str(exc), EXIT_UNKNOWN_ID) from None
    if not ids:
        raise CommandError(str(SelectionError("no_match")))
    return ids


def find_variant(bank: Bank, key: str, seed: int | None) -> Variant:
    """The variant named by `key` (`id` or `id#seed`), `seed` overriding the key's seed."""
    # Imported here, not at start-up: drawing brings numpy and the engine, which `quiz list` and
    # the other commands that only load the bank do not need.
    from quiz.types.draw import make_variant
    from quiz.variants.variant import VariantError

    try:
        question, key_seed = bank.find(key)
    except SelectionError as exc:
        raise CommandError(str(exc), EXIT_UNKNOWN_ID) from None
    compiled = compile_or_fail(bank, question.id)
    try:
        return make_variant(compiled, seed if seed is not None else key_seed or 0)
    except VariantError as exc:
        raise CommandError(f"cannot make a variant: {exc.located}") from None


def compile_or_fail(bank: Bank, question_id: str) -> CompiledQuestion:
    compiled = bank.compiled(question_id)
    if compiled is None:
        raise CommandError("the question has errors:\n" + "\n".join(str(d) for d in bank.problems(question_id)))
    return compiled
