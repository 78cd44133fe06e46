"""Generate the JSON Schema of question files from the model, for editors' YAML support."""

from __future__ import annotations

import dataclasses
import inspect
import types
import typing
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

from quiz.format.convert import Tagged, is_required, yaml_fields

SCHEMA_ID = "https://attention-quiz.invalid/schema/question-file.json"
_SCALARS: dict[Any, dict[str, Any]] = {
    str: {"type": "string"},
    int: {"type": "integer"},
    float: {"type": "number"},
    bool: {"type": "boolean"},
}


def question_file_schema(question_union: Any) -> dict[str, Any]:
    """A JSON Schema (2020-12) for one question file: a question (any of `question_union`), or a list of them."""
    defs: dict[str, Any] = {}
    question = _schema(question_union, defs)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "Attention quiz question file",
        "description": "One question, or a list of questions. See docs/authoring.md.",
        "anyOf": [question, {"type": "array", "items": question}],
        "$defs": defs,
    }


def _schema(tp: Any, defs: dict[str, Any]) -> dict[str, Any]:
    if tp in _SCALARS:
        return dict(_SCALARS[tp])
    if isinstance(tp, type) and hasattr(tp, "json_schema"):
        return _define(tp, defs, tp.json_schema)
    if dataclasses.is_dataclass(tp):
        return _define(tp, defs, lambda: _object_schema(tp, defs))
    origin, args = get_origin(tp), get_args(tp)
    if origin is Literal:
        return {"const": args[0]} if len(args) == 1 else {"enum": list(args)}
    if origin is typing.Annotated:
        base, *extras = args
        if any(isinstance(e, Tagged) for e in extras):
            return {"oneOf": [_schema(member, defs) for member in get_args(base)]}
        return _schema(base, defs)
    if origin in (Union, types.UnionType):
        return {"anyOf": [_schema(a, defs) if a is not type(None) else {"type": "null"} for a in args]}
    if origin is tuple:
        return {"type": "array", "items": _schema(args[0], defs)}
    if origin is dict:
        return {"type": "object", "additionalProperties": _schema(args[1], defs)}
    raise TypeError(f"no JSON Schema rule for {tp!r}")


def _define(cls: type, defs: dict[str, Any], build: Any) -> dict[str, Any]:
    if cls.__name__ not in defs:
        defs[cls.__name__] = {}  # reserve the name first: definitions may refer to themselves
        defs[cls.__name__] = build()
    return {"$ref": f"#/$defs/{cls.__name__}"}


def _object_schema(cls: Any, defs: dict[str, Any]) -> dict[str, Any]:
    hints = get_type_hints(cls, include_extras=True)
    properties: dict[str, Any] = {}
    for f in yaml_fields(cls):
        prop = _schema(hints[f.name], defs)
        if "doc" in f.metadata:
            prop = {**prop, "description": f.metadata["doc"]}
        if not is_required(f) and f.default is not dataclasses.MISSING and isinstance(f.default, int | float | str | bool):
            prop["default"] = f.default
        properties[f.name] = prop
    schema: dict[str, Any] = {
        "type": "object",
        "description": (inspect.getdoc(cls) or "").split("\n\n")[0],
        "properties": properties,
        "required": [f.name for f in yaml_fields(cls) if is_required(f) or f.name == "type"],
        "additionalProperties": False,
    }
    if hasattr(cls, "schema_extra"):
        schema.update(cls.schema_extra())
    return schema
