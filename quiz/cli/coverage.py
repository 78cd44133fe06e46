"""`quiz coverage`: which claims the questions cite, per topic and type, and which none cites; the
claims and topics packs declare of their own come after the bundled bank's, under each pack's name."""

from __future__ import annotations

import argparse
import json


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], parents: list[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "coverage",
        parents=parents,
        help="show which claims the questions cite",
        description="Claims × questions: how many questions cite each claim, per topic and type, and the uncited claims.",
    )
    parser.add_argument("--json", action="store_true", help="print a JSON object (claims: id → question ids; uncited)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the coverage table; exit 0 (uncited claims are information, not an error)."""
    from quiz.authoring.coverage import coverage
    from quiz.cli.common import load

    report = coverage(load(args))
    if args.json:
        print(json.dumps(report.as_json(), ensure_ascii=False, indent=2))
        return 0
    from quiz.format.claims import namespace_of

    width = max(len(claim) for claim in report.claims)
    pack = None
    for claim, ids in report.claims.items():
        if namespace_of(claim) != pack:  # a pack's own claims, under its name, after the bank's
            pack = namespace_of(claim)
            print(f"\npack {pack}:")
        print(f"{claim:<{width}}  {len(ids):>2}  {', '.join(ids)}")
    print()
    for topic, types in report.topics.items():
        by_type = ", ".join(f"{kind} {n}" for kind, n in sorted(types.items()))
        by_level = ", ".join(f"level {d}: {n}" for d, n in sorted(report.difficulties[topic].items()))
        print(f"{topic}: {sum(types.values())} questions ({by_type or 'none'}; {by_level or 'no levels'})")
    print()
    uncited = report.uncited
    print(f"uncited claims ({len(uncited)}): {', '.join(uncited) or 'none'}")
    return 0
