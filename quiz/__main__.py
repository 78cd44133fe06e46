"""Allow `python -m quiz`."""

from quiz.entry import main

raise SystemExit(main())
