"""Allow `python -m quiz`."""

from quiz.cli import main

raise SystemExit(main())
