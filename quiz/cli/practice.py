"""`quiz practice` (and plain `quiz`): open the app, optionally straight into a selection."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from quiz.history.records import Mode
from quiz.locale.i18n import LANGUAGES

if TYPE_CHECKING:  # the bank loads numpy, the app Textual: only when a command needs them
    from quiz.bank import Bank, Selection
    from quiz.ui.app import QuizApp


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], parents: list[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "practice",
        parents=parents,
        help="practise questions in the terminal app",
        description="Open the app on the first question of a selection (all questions by default).",
    )
    parser.add_argument("--topic", help="only this topic")
    parser.add_argument("--claim", help="only questions citing this claim (e.g. B4)")
    parser.add_argument("--difficulty", type=int, choices=(1, 2, 3), help="only this difficulty")
    parser.add_argument("--id", dest="key", metavar="ID|KEY", help="one question, by id or variant key (id#seed)")
    parser.add_argument(
        "--ids",
        type=id_list,
        action=IdsAction,
        default=(),
        metavar="ID,ID,…",
        help="exactly these questions, in this order (a mock report's practice key); may be repeated, adding to the list",
    )
    parser.add_argument("--lang", choices=LANGUAGES, help="interface language (default: your setting)")
    parser.set_defaults(run=run)


def id_list(text: str) -> tuple[str, ...]:
    """`--ids a,b,c`: question ids separated by commas, each once."""
    ids = tuple(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
    if not ids:
        raise argparse.ArgumentTypeError(f"give question ids separated by commas, got {text!r}")
    return ids


class IdsAction(argparse.Action):
    """`--ids` given again adds to the list (each id once), so a long practice key can be split
    over lines as a mock report writes it."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object, option_string: str | None = None) -> None:
        assert isinstance(values, tuple)
        setattr(namespace, self.dest, tuple(dict.fromkeys((*getattr(namespace, self.dest, ()), *values))))


def run(args: argparse.Namespace) -> int:
    """Start the app on the selection the options describe. A selection that names what the bank
    lacks, or matches nothing, stops here with the message `quiz list` gives, before the app opens."""
    from quiz.base.collector import STARTING

    STARTING.hold()  # loading the bank builds objects that live as long as the app: see open_app
    try:
        from quiz.bank import Selection
        from quiz.cli.common import load, select_or_fail

        bank = load(args)
        selection = Selection(topic=args.topic, claim=args.claim, difficulty=args.difficulty, key=args.key, ids=args.ids)
        select_or_fail(bank, selection)
    except BaseException:
        STARTING.release()  # no app to release it
        raise
    return launch(args, selection, bank)


def launch(args: argparse.Namespace, selection: Selection | None, bank: Bank | None = None, mode: Mode = Mode.PRACTICE) -> int:
    """Build the app with `open_app` and run it until the learner quits (it loads the bank itself
    when none is given); the selection's attempts are filed under `mode`."""
    from quiz.base.collector import STARTING

    try:
        open_app(args, selection, bank, mode).run()
    finally:
        STARTING.release()  # the app has, unless it failed before it was shown
    return 0


def open_app(args: argparse.Namespace, selection: Selection | None, bank: Bank | None = None, mode: Mode = Mode.PRACTICE) -> QuizApp:
    """The app `launch` runs, made with `make_app`. Automatic garbage collection waits from here
    (or from loading the bank) until a moment after the first screen is up: a start makes tens of
    thousands of objects that live on (modules, the bank, widgets), none of them garbage yet, and
    the app releases the hold once shown (`quiz.ui.app`)."""
    from quiz.base.collector import STARTING

    STARTING.hold()
    from quiz.ui.app import make_app

    return make_app(args.bank, lang=getattr(args, "lang", None), start=selection, start_mode=mode, bank=bank)
