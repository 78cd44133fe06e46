"""Scaffolds for `quiz new`: a commented question of any registered type, ready to edit.

Each type keeps its own scaffold (see `QuestionType.scaffold`); this fills in the id, topic
and a claim of that topic, puts the editor and validation hints on top, and the interview's
fields below: follow-ups branching on the answer (commented out, as they name other questions)
and a pushback (a spoken question's answer is graded after the interview, so it gets neither
the pushback nor conditions on its follow-ups).
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

INTERVIEW = """\
# In a mock interview: the questions asked next, by how this one was answered (ids of other
# questions; each may have follow-ups of its own). Uncomment and name real questions:
# follow_ups:
#   - {id: a-deeper-question, when: right}       # a right answer goes deeper
#   - {id: a-narrower-question, when: wrong}     # a wrong one gets a narrower question on the point
# A challenge put once the answer is graded: the candidate holds the answer or revises it, and
# the answer that stands is graded (holding a right one or correcting a wrong one is right).
pushback:
  - after: right                # right, wrong or any
    text:
      en: Are you sure? Walk me through why.
      ja: 本当にそうでしょうか。そう考える理由を順に説明してください。
"""
SPOKEN_INTERVIEW = """\
# In a mock interview: the questions asked next (ids of other questions; each may have
# follow-ups of its own). A spoken answer is graded after the interview, so its follow-ups
# cannot depend on it (when: any, the default) and it takes no pushback. Uncomment:
# follow_ups: [another-question]
"""


def scaffold(type_name: str, question_id: str, topic: str | None, claims: Claims, *, own_task: bool = False) -> str:
    """The scaffold of `type_name` for `question_id` on `topic` (the type's own topic when None),
    citing the first claim of that topic; `own_task`: a code question that defines its own task."""
    kind = TYPES[type_name]
    topic = topic or kind.scaffold_topic
    claim = next((c.id for c in claims.claims.values() if c.topic == topic), None)
    if own_task:
        from quiz.types.code import SCAFFOLD_DEFINED  # the one type with a second scaffold

        template = SCAFFOLD_DEFINED
    else:
        template = kind.scaffold
    body = template.replace("<ID>", question_id).replace("<TOPIC>", topic)
    body = body.replace("[<CLAIM>]", f"[{claim}]" if claim else "[]")
    body += SPOKEN_INTERVIEW if type_name == "explain" else INTERVIEW
    return HEADER.format(schema=SCHEMA_FILE, type=type_name) + body
