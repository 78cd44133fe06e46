"""`quiz schema`: print the JSON Schema of question files, for editors' YAML support."""

from __future__ import annotations

import argparse
import json
import sys


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], parents: list[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "schema",
        parents=parents,
        help="print the JSON Schema of question files",
        description="Print the JSON Schema of question files (point your editor's YAML support at it).",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the schema generated from the question model, with the bundled topics and claims."""
    from engine import Fault
    from quiz.bank import bundled_claims
    from quiz.format.diagnostics import Report
    from quiz.format.schema import question_file_schema
    from quiz.models.registry import Question

    claims = bundled_claims(Report())
    choices = {"topics": list(claims.topics), "claims": list(claims.claims), "faults": [*(f.value for f in Fault), "all"]}
    schema = question_file_schema(Question, choices)
    json.dump(schema, sys.stdout, ensure_ascii=False, indent=2)
    print()
    return 0
