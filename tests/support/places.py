"""Where the tests' own files are: the tests folder (its packs, solutions, fixtures and data) and the project's root."""

from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
ROOT = TESTS.parent
