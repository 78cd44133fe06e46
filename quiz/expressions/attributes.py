"""Which attributes an expression may read: a few array properties and engine record fields.

Numpy arrays carry methods that write files (`tofile`, `dump`) or allocate without bound
(`repeat`, `resize`), so nothing is read by default: an attribute is allowed statically only
if its name is on the list below, and at run time only for a value of a type that has it.
No attribute is ever callable, so no method can be reached.
"""

import dataclasses
import importlib
import pkgutil

import numpy as np

import engine

ARRAY_ATTRIBUTES = frozenset({"T", "shape", "ndim", "size"})
"""Attributes of numpy arrays and scalars an expression may read."""


def _engine_records() -> tuple[type, ...]:
    """The frozen dataclasses defined anywhere in the engine package."""
    records = []
    for module_info in pkgutil.walk_packages(engine.__path__, prefix="engine."):
        module = importlib.import_module(module_info.name)
        for value in vars(module).values():
            if isinstance(value, type) and value.__module__ == module.__name__ and _is_frozen_dataclass(value):
                records.append(value)
    return tuple(records)


def _is_frozen_dataclass(cls: type) -> bool:
    """A dataclass declared frozen: dataclasses has no public test, but keeps its parameters on the class."""
    params = getattr(cls, "__dataclass_params__", None)
    return params is not None and bool(params.frozen)


def _field_names(record: type) -> frozenset[str]:
    return frozenset(
        field.name for field in dataclasses.fields(record) if not field.name.startswith("_")
    )


ENGINE_RECORDS = _engine_records()
"""Engine result types whose fields an expression may read (AttentionTrace, statistics...)."""

_RECORD_FIELDS = {record: _field_names(record) for record in ENGINE_RECORDS}
"""Each engine record's readable fields, worked out once."""

ALLOWED_ATTRIBUTES = ARRAY_ATTRIBUTES.union(*_RECORD_FIELDS.values())
"""Every attribute name that some allowed type has; anything else is refused before running."""


def read_attribute(value: object, name: str) -> object:
    """`value.name`, if the runtime type of `value` allows `name` and the result is data."""
    array_attribute = isinstance(value, (np.ndarray, np.generic)) and name in ARRAY_ATTRIBUTES
    record_field = name in _RECORD_FIELDS.get(type(value), ())
    if not (array_attribute or record_field):
        raise AttributeError(f"a value of type {type(value).__name__} has no attribute `.{name}`")
    result = getattr(value, name)
    if callable(result):
        raise AttributeError(f"`.{name}` is callable, and expressions cannot call methods")
    return result
