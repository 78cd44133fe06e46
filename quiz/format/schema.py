"""Generate the JSON Schema of question files from the model, for editors' YAML support.

A question is told apart by its `type`: the schema says so with one `if`/`then` per type, so an
editor checks a question against its own type only and reports "unknown field 'misconceptons'"
once, not a failure for every type it is not. Topic and claim ids come from claims.yaml (or are a
pack's own, `rope:R1`); the
limits on numbers and lists are the ones the loader checks (field metadata, see `check_limits`).
"""

from __future__ import annotations

import dataclasses
import inspect
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

from quiz.format.claims import NAMESPACE, OWN_ID, PACK_NAME, PackDeclaration
from quiz.format.convert import Tagged, is_required, yaml_fields
from quiz.format.limits import COUNT_LIMITS, NUMBER_LIMITS

SCHEMA_ID = "https://attention-quiz.invalid/schema/question-file.json"
NAMESPACED_CHOICES = ("topics", "claims")
NAMESPACED_ID = f"^(?:{PACK_NAME.pattern}){NAMESPACE}(?:{OWN_ID.pattern})$"
_SCALARS: dict[Any, dict[str, Any]] = {
    str: {"type": "string"},
    int: {"type": "integer"},
    float: {"type": "number"},
    bool: {"type": "boolean"},
}


def question_file_schema(question_union: Any, choices: Mapping[str, Sequence[str]] | None = None) -> dict[str, Any]:
    """A JSON Schema (2020-12) for one question file: a question (any of `question_union`), or a list of them.

    `choices` lists the ids a field may take (`topics`, `claims`), as claims.yaml gives them.
    """
    builder = _Builder(dict(choices or {}))
    question = builder.schema(question_union)
    pack_file = {
        "type": "object",
        "description": "A pack file: the pack's own topics and claims (`pack`), and its questions.",
        "properties": {"pack": builder.schema(PackDeclaration), "questions": {"type": "array", "items": question}},
        "additionalProperties": False,
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "Attention quiz question file",
        "description": "One question, a list of questions, or a pack file (pack and questions). See docs/authoring.md.",
        # if/else rather than anyOf: a mistake in a single question is reported once, not also
        # as "is not an array".
        "if": {"type": "array"},
        "then": {"type": "array", "items": question},
        "else": {"if": {"type": "object", "anyOf": [{"required": [key]} for key in ("pack", "questions")]}, "then": pack_file, "else": question},
        "$defs": builder.defs,
    }


class _Builder:
    def __init__(self, choices: dict[str, Sequence[str]]) -> None:
        self.choices = choices
        self.defs: dict[str, Any] = {}

    def schema(self, tp: Any) -> dict[str, Any]:
        if tp in _SCALARS:
            return dict(_SCALARS[tp])
        if isinstance(tp, type) and hasattr(tp, "json_schema"):
            return self._define(tp, tp.json_schema)
        if isinstance(tp, type) and dataclasses.is_dataclass(tp):
            return self._define(tp, lambda: self._object(tp))
        origin, args = get_origin(tp), get_args(tp)
        if origin is Literal:
            return {"const": args[0]} if len(args) == 1 else {"enum": list(args)}
        if origin is typing.Annotated:
            base, *extras = args
            tagged = next((e for e in extras if isinstance(e, Tagged)), None)
            if tagged is not None:
                return self._tagged(tagged, get_args(base))
            return self.schema(base)
        if origin in (Union, types.UnionType):
            return {"anyOf": [self.schema(a) if a is not type(None) else {"type": "null"} for a in args]}
        if origin is tuple:
            return {"type": "array", "items": self.schema(args[0])}
        if origin is dict:
            return {"type": "object", "additionalProperties": self.schema(args[1])}
        raise TypeError(f"no JSON Schema rule for {tp!r}")

    def _tagged(self, tagged: Tagged, members: tuple[Any, ...]) -> dict[str, Any]:
        """One branch per tag value: the member whose tag matches is the only one checked."""
        by_tag = tagged.variants(members)
        return {
            "type": "object",
            "required": [tagged.field],
            "properties": {tagged.field: {"enum": list(by_tag), "description": "The question type; it decides which other fields the question has."}},
            "allOf": [
                {"if": {"properties": {tagged.field: {"const": tag}}, "required": [tagged.field]}, "then": self.schema(member)}
                for tag, member in by_tag.items()
            ],
        }

    def _define(self, cls: type, build: Any) -> dict[str, Any]:
        if cls.__name__ not in self.defs:
            self.defs[cls.__name__] = {}  # reserve the name first: definitions may refer to themselves
            self.defs[cls.__name__] = build()
        return {"$ref": f"#/$defs/{cls.__name__}"}

    def _object(self, cls: Any) -> dict[str, Any]:
        hints = get_type_hints(cls, include_extras=True)
        properties = {f.name: self._property(f, hints[f.name]) for f in yaml_fields(cls)}
        schema: dict[str, Any] = {
            "type": "object",
            "title": _title(cls),
            "description": (inspect.getdoc(cls) or "").split("\n\n")[0],
            "properties": properties,
            "required": [f.name for f in yaml_fields(cls) if is_required(f) or f.name == "type"],
            "additionalProperties": False,
        }
        if hasattr(cls, "schema_extra"):
            schema.update(cls.schema_extra())
        return schema

    def _property(self, f: dataclasses.Field[Any], hint: Any) -> dict[str, Any]:
        prop = self.schema(hint)
        meta = f.metadata
        if "doc" in meta:
            prop = {**prop, "description": meta["doc"]}
        elif get_origin(hint) is Literal:  # the `type` tag of a question
            prop["description"] = f"The question type: {', '.join(map(str, get_args(hint)))}."
        if not is_required(f) and f.default is not dataclasses.MISSING and isinstance(f.default, int | float | str | bool):
            prop["default"] = f.default
        # Limits apply to the instance's own kind only, so they sit beside any anyOf or $ref.
        prop.update({key: meta[key] for key in (*NUMBER_LIMITS, *COUNT_LIMITS) if key in meta})
        if "pattern" in meta:
            prop["pattern"] = f"^(?:{meta['pattern']})$"  # JSON Schema patterns search; ids match whole
        ids = self.choices.get(meta.get("choices", ""))
        allowed = _allowed(meta.get("choices", ""), ids or ())
        if ids and _holds_list(hint):
            prop["items"] = allowed  # beside an anyOf, `items` still applies to the list
        elif ids:
            prop.update(allowed)
        return prop


def _allowed(choices: str, ids: Sequence[str]) -> dict[str, Any]:
    """The ids a field may take; a topic or claim may also be a pack's own, namespaced (`rope:R1`),
    which only loading can check (if/else, so a misspelt bundled id still reads "is not one of")."""
    if choices not in NAMESPACED_CHOICES:
        return {"enum": list(ids)}
    return {"if": {"type": "string", "pattern": NAMESPACED_ID}, "then": {}, "else": {"enum": list(ids)}}


def _holds_list(hint: Any) -> bool:
    """Is the field a list (possibly optional), as opposed to one value?"""
    if get_origin(hint) in (Union, types.UnionType):
        return any(_holds_list(a) for a in get_args(hint) if a is not type(None))
    return get_origin(hint) is tuple


def _title(cls: Any) -> str:
    """How an editor names the object: `number question`, `misconception`, ..."""
    tag = next((f.default for f in dataclasses.fields(cls) if f.name == "type"), None)
    return f"{tag} question" if isinstance(tag, str) else getattr(cls, "yaml_label", cls.__name__)
