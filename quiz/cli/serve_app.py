"""The app process of one `quiz serve` session: the app on its home screen, as plain `quiz` opens
it, in the server's `--lang` when one was given and with its `--bank` packs."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from quiz.locale.i18n import LANGUAGES


def main(argv: Sequence[str] | None = None) -> int:
    """Run the app until it quits (the server asks it to when the browser goes)."""
    parser = argparse.ArgumentParser(prog="quiz serve (session)")
    parser.add_argument("--lang", choices=LANGUAGES)
    parser.add_argument("--bank", action="append", type=Path, default=[])
    args = parser.parse_args(argv)
    from quiz.cli.practice import launch

    return launch(args, None)


if __name__ == "__main__":
    sys.exit(main())
