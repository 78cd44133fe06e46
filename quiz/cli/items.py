"""`quiz items`: item analysis for authors, from your history or from learners' exported histories.

Exit codes: 0 printed, 1 an export cannot be read (the line and the reason are printed), 2 usage
error, 4 your history file cannot be used.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING

from quiz.cli.history_access import add_lang_argument

if TYPE_CHECKING:
    from quiz.history.records import AttemptRecord
    from quiz.learning.items import ItemStats


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], parents: list[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "items",
        parents=parents,
        help="item analysis for authors: facility, discrimination, misconceptions, time",
        description=(
            "Per question: attempts, facility (mean score), discrimination (Moodle's: the item's score "
            "against the rest of each sitting's), the share of each misconception, of hints and of give-ups, "
            "and the median time against the suggested time, with flags for what looks broken. Reads "
            "learners' exports (quiz export), each known only as learner 1, 2, ...; without --history, your own history."
        ),
    )
    parser.add_argument(
        "--history", action="append", type=Path, default=[], metavar="FILE", help="a learner's export, JSON Lines or CSV (repeatable)"
    )
    parser.add_argument("--json", action="store_true", help="print a JSON object")
    add_lang_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Read the histories, analyse every attempted question, and print the figures."""
    from quiz.cli.common import load
    from quiz.learning.items import item_infos, item_statistics, learner_labels

    histories = _histories(args)
    labels = learner_labels(len(histories))
    stats = item_statistics(dict(zip(labels, histories, strict=True)), item_infos(load(args).questions.values()))
    if args.json:
        learners = [{"label": label, "attempts": len(attempts)} for label, attempts in zip(labels, histories, strict=True)]
        print(json.dumps({"learners": learners, "items": [s.to_json() for s in stats]}, ensure_ascii=False, indent=2))
    else:
        _print(stats, len(histories), args.lang)
    return 0


def _histories(args: argparse.Namespace) -> list[list[AttemptRecord]]:
    """Each learner's attempts: from each export given, or from the learner's own history."""
    from quiz.cli.arguments import CommandError
    from quiz.history.transfer import ImportProblem, read_attempts
    from quiz.locale.i18n import tr

    if not args.history:
        from quiz.cli.history_access import history_or_fail

        with history_or_fail(args.lang) as history:
            return [[attempt for attempt, _easy in history.attempts_with_marks()]]
    histories = []
    for path in args.history:
        if not path.exists():
            raise CommandError(tr("history.import_missing", args.lang, path=path))
        try:
            histories.append(read_attempts(path))
        except ImportProblem as exc:
            raise CommandError(tr("items.unreadable", args.lang, path=path, line=exc.line, message=exc.message)) from None
    return histories


def _share(value: float | None) -> str:
    return "–" if value is None else f"{value:.0%}"


def _print(stats: list[ItemStats], learners: int, lang: str) -> None:
    from quiz.cli.columns import print_columns
    from quiz.locale.i18n import tr

    print(tr("items.heading", lang, questions=len(stats), learners=learners, attempts=sum(s.attempts for s in stats)))
    if not stats:
        return
    print()
    names = ("question", "attempts", "facility", "discrimination", "hinted", "gave_up", "time", "flags")
    header = tuple(tr(f"items.column_{name}", lang) for name in names)
    rows = [
        (
            s.question,
            str(s.attempts),
            f"{s.facility:.2f}",
            "–" if s.discrimination is None else f"{s.discrimination:+.2f}",
            _share(s.hinted),
            _share(s.gave_up),
            f"{'–' if s.median_seconds is None else f'{s.median_seconds:.0f}'} / {s.suggested_seconds or '–'} s",
            ", ".join(tr(f"items.flag_{flag}", lang) for flag in s.flags),
        )
        for s in stats
    ]
    print_columns([header, *rows])
    with_misconceptions = [s for s in stats if s.misconceptions]
    if with_misconceptions:
        print()
        print(tr("items.misconceptions", lang))
        for s in with_misconceptions:
            print(f"  {s.question}: " + ", ".join(f"{name} {share:.0%}" for name, share in s.misconceptions.items()))
