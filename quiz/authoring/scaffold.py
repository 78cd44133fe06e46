"""Scaffolds for `quiz new`: a commented question of any registered type, ready to edit.

Each type keeps its own scaffold (see `QuestionType.scaffold`); this fills in the id, topic
and a claim of that topic, and puts the editor and validation hints on top.
"""

from __future__ import annotations

from quiz.format.claims import Claims
from quiz.types.registry import TYPES

SCHEMA_FILE = "question.schema.json"
HEADER = """\
# yaml-language-server: $schema={schema}
# A new {type} question: edit it, then check it with `quiz validate --strict <this file>`.
# For completion and checks in your editor, write the schema beside it once:
#   quiz schema > {schema}
# docs/authoring.md explains every field.
"""


def scaffold(type_name: str, question_id: str, topic: str | None, claims: Claims) -> str:
    """The scaffold of `type_name` for `question_id` on `topic` (the type's own topic when None),
    citing the first claim of that topic."""
    kind = TYPES[type_name]
    topic = topic or kind.scaffold_topic
    claim = next((c.id for c in claims.claims.values() if c.topic == topic), None)
    body = kind.scaffold.replace("<ID>", question_id).replace("<TOPIC>", topic)
    body = body.replace("[<CLAIM>]", f"[{claim}]" if claim else "[]")
    return HEADER.format(schema=SCHEMA_FILE, type=type_name) + body
