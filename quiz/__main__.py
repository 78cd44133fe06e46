"""Allow `python -m quiz`."""

from quiz.cli.entry import main

raise SystemExit(main())
