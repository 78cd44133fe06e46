"""The slowest pack to load that the reading limits allow: 1 MiB of questions, each with 90
unknown fields. Too large for the corpus (a repository file), so tests and bench/ write it."""

from __future__ import annotations

from typing import Final

FLOOD_BYTES: Final = 1024 * 1024 - 200
"""Just under the loader's 1 MiB limit on a file."""


def unknown_field_flood() -> str:
    """Whole questions of unknown fields, as many as fit in FLOOD_BYTES."""
    questions = "".join(
        f"- id: q{n}\n  type: truefalse\n  topic: scaling\n  prompt: x\n  answer: false\n" + "".join(f"  unknown_{i}: 1\n" for i in range(90))
        for n in range(1300)
    )
    return questions[:FLOOD_BYTES].rsplit("\n- id", 1)[0] + "\n"
