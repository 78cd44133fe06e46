"""`quiz export-anki -o FILE.apkg`: the bank as an Anki deck, one note per question, variant and language."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from quiz.cli.arguments import CommandError

if TYPE_CHECKING:  # the bank loads lazily, off `quiz --help`'s path
    from quiz.bank import Bank

DEFAULT_VARIANTS = 3


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], parents: list[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "export-anki",
        parents=parents,
        help="export the questions as an Anki deck (.apkg)",
        description=(
            "Write the bank as an Anki package: one note per question, variant and language; the front is the "
            "prompt and how to answer, the back the key, the worked solution and the common mistakes. "
            "Exporting again gives notes Anki updates instead of duplicating."
        ),
    )
    parser.add_argument("-o", "--output", type=Path, required=True, metavar="FILE.apkg", help="the package to write")
    parser.add_argument("--lang", choices=("en", "ja", "both"), default="en", help="language of the cards (default en; both: a note in each)")
    parser.add_argument(
        "--variants",
        type=int,
        default=DEFAULT_VARIANTS,
        metavar="N",
        help=f"notes per question whose numbers are drawn, seeds 0 to N-1 (default {DEFAULT_VARIANTS})",
    )
    parser.add_argument(
        "--only-packs",
        action="store_true",
        help="export only the questions of your packs (--bank and the packs folder), not the bundled bank's",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Build the cards and write the package; questions that cannot be exported are named."""
    from quiz.cli.common import load
    from quiz.sharing.anki import cards, write_apkg

    if not 1 <= args.variants <= 100:
        raise CommandError("--variants must be between 1 and 100", 2)
    if args.output.suffix != ".apkg":
        raise CommandError(f"{args.output}: an Anki package ends in .apkg", 2)
    languages = ["en", "ja"] if args.lang == "both" else [args.lang]
    skipped: list[str] = []
    bank = load(args)
    ids = pack_question_ids(bank) if args.only_packs else None
    if ids is not None and not ids:
        raise CommandError("--only-packs: no question of a pack loaded; name a pack with --bank PATH")
    made = list(cards(bank, languages, args.variants, skipped, ids))
    for reason in skipped:
        print(f"quiz: not exported: {reason}", file=sys.stderr)
    try:
        write_apkg(made, args.output)
    except FileExistsError:
        raise CommandError(f"{args.output} already exists; give another file name") from None
    except OSError as exc:
        raise CommandError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    print(f"wrote {len(made)} notes to {args.output}", file=sys.stderr)
    return 0


def pack_question_ids(bank: Bank) -> set[str]:
    """The ids of the questions that come from outside the bundled bank: --bank paths and the packs folder."""
    from quiz.base import locations

    bundled = locations.bundled_bank_dir().resolve()
    return {q.id for q in bank.questions.values() if q.source is not None and not q.source.path.resolve().is_relative_to(bundled)}
