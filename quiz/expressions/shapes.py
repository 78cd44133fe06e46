"""Result shapes worked out from argument shapes alone, so sizes are checked before allocating."""

import math
from typing import TypeGuard

import numpy as np

from quiz.expressions.limits import NUMERIC_KINDS, LimitExceeded, check_elements, check_terms

_PLAIN_NUMBERS = frozenset({float, bool, np.float64, np.float32, np.float16, np.int64, np.int32, np.bool_})
"""Types of numbers numpy holds as one element of an allowed dtype."""


def numeric(value: object) -> np.ndarray:
    """`value` as an array of bools, ints or floats; other dtypes (objects, strings) are refused.

    Lists of huge Python ints would become object arrays whose arithmetic is unbounded,
    so they stop here.
    """
    array = value if type(value) is np.ndarray else np.asarray(value)
    if array.dtype.kind not in NUMERIC_KINDS:
        raise LimitExceeded(f"expected numbers, got values of dtype {array.dtype}")
    return array


def shape_of(value: object) -> tuple[int, ...]:
    """Shape of a number, array or (nested) list of numbers."""
    if type(value) in _PLAIN_NUMBERS or (type(value) is int and -(2**63) <= value < 2**63):
        return ()  # what numpy would say, without building an array
    return numeric(value).shape


def check_broadcast(*values: object) -> None:
    """Refuse `values` whose numpy broadcast would be too large (or that do not broadcast)."""
    for value in values:
        if not _is_number(value):
            break
    else:
        return  # numbers broadcast to one number: the common case, answered without numpy
    shapes = [shape_of(value) for value in values]
    arrays = {shape for shape in shapes if shape}
    if len(arrays) == 1:  # equal shapes, numbers beside them: that shape, without asking numpy
        check_elements(math.prod(arrays.pop()))
    else:
        check_elements(math.prod(np.broadcast_shapes(*shapes)))


def _is_number(value: object) -> bool:
    """A single number numpy holds as one: a float, a numpy number or bool, an int64-sized int."""
    if type(value) in _PLAIN_NUMBERS:
        return True
    if isinstance(value, (float, np.number, np.bool_)):
        return True
    return isinstance(value, int) and -(2**63) <= value < 2**63


def padded_leading(shapes: list[tuple[int, ...]]) -> tuple[int, ...]:
    """An upper bound on the broadcast of leading (batch) dimensions, even if they do not broadcast.

    Grouped-query attention pairs 8 query heads with 2 key heads; the elementwise maximum
    of right-aligned dimensions bounds the batch either way.
    """
    width = max((len(shape) for shape in shapes), default=0)
    aligned = [(1,) * (width - len(shape)) + tuple(shape) for shape in shapes]
    return tuple(max(dims) for dims in zip(*aligned)) if aligned else ()


def check_matmul(left: tuple[int, ...], right: tuple[int, ...]) -> tuple[int, ...]:
    """Shape of `left @ right` under numpy's matmul rules, refused if too large or too slow."""
    if not left or not right:
        raise ValueError("matrix product needs arrays, not scalars; use * for scaling")
    a = (1, *left) if len(left) == 1 else left
    b = (*right, 1) if len(right) == 1 else right
    if a[-1] != b[-2]:
        raise ValueError(f"matrix product of shapes {left} and {right}: {a[-1]} != {b[-2]}")
    batch = np.broadcast_shapes(a[:-2], b[:-2])
    rows = (a[-2],) if len(left) > 1 else ()
    cols = (b[-1],) if len(right) > 1 else ()
    shape = (*batch, *rows, *cols)
    check_elements(math.prod(shape))
    check_terms(math.prod(batch) * a[-2] * a[-1] * b[-1])
    return shape


def check_index(shape: tuple[int, ...], index: object) -> None:
    """Refuse an index whose result would be too large, before numpy builds it.

    Integers and slices only shrink an array, but index arrays broadcast against each
    other, so `x[a[:, None], b]` can be far larger than `x`.
    """
    parts = index if isinstance(index, tuple) else (index,)
    consumed = sum(_dims_consumed(part) for part in parts)
    size, axis, advanced = 1, 0, []
    for part in parts:
        if part is None:
            continue
        if part is Ellipsis:
            skipped = max(len(shape) - consumed, 0)
            size *= math.prod(shape[axis : axis + skipped])
            axis += skipped
        elif isinstance(part, slice):
            if axis < len(shape):
                size *= len(range(*part.indices(shape[axis])))
            axis += 1
        elif _is_boolean(part):
            mask = np.asarray(part)
            advanced.append((int(np.count_nonzero(mask)),))
            axis += mask.ndim
        elif isinstance(part, np.ndarray):
            advanced.append(part.shape)
            axis += 1
        else:
            axis += 1
    size *= math.prod(shape[axis:])
    if advanced:
        size *= math.prod(np.broadcast_shapes(*advanced))
    check_elements(size)


def _dims_consumed(part: object) -> int:
    if part is None or part is Ellipsis:
        return 0
    if _is_boolean(part):
        return np.ndim(part)
    return 1


def _is_boolean(part: object) -> TypeGuard[bool | np.bool_ | np.ndarray]:
    return isinstance(part, (bool, np.bool_)) or (
        isinstance(part, np.ndarray) and part.dtype == np.bool_
    )
