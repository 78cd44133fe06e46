"""`quiz schema`: print the JSON Schema of question files, for editors' YAML support."""

from __future__ import annotations

import argparse
import json
import sys


def add_parser(subparsers: argparse._SubParsersAction, parents: list[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "schema",
        parents=parents,
        help="print the JSON Schema of question files",
        description="Print the JSON Schema of question files (point your editor's YAML support at it).",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the schema generated from the question model."""
    from quiz.format.schema import question_file_schema
    from quiz.types.registry import Question

    json.dump(question_file_schema(Question), sys.stdout, ensure_ascii=False, indent=2)
    print()
    return 0
