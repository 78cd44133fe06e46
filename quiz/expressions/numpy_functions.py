"""The numpy functions an expression may call, as thin wrappers with explicit parameters.

No wrapper takes `out=` (it would write into shared params) or passes arbitrary keywords on;
each converts its inputs with `numeric`, so object and string arrays never reach numpy.
Reductions take `axis` by keyword only, so `max(a, b)` fails loudly instead of reading `b`
as an axis (`maximum(a, b)` is the elementwise one).
"""

import math
import operator
from collections.abc import Callable, Iterable, Mapping, Sized
from typing import Any, SupportsIndex, TypeVar

import numpy as np

from quiz.expressions.callables import Function, Preflight
from quiz.expressions.limits import check_elements, check_shape, check_terms
from quiz.expressions.shapes import check_broadcast, check_matmul, numeric, shape_of

F = TypeVar("F", bound=Callable[..., object])
T = TypeVar("T")

NUMPY_FUNCTIONS: dict[str, Function] = {}

CONSTANTS: dict[str, float] = {"pi": math.pi, "e": math.e, "inf": math.inf, "nan": math.nan}
"""Named constants an expression may use."""

DTYPES = ("float16", "float32", "float64", "int64", "bool")
"""dtype names `array(x, dtype=...)` accepts."""


def _allowed(name: str, preflight: Preflight | None = None) -> Callable[[F], F]:
    def register(implementation: F) -> F:
        NUMPY_FUNCTIONS[name] = Function(name, implementation, preflight)
        return implementation

    return register


def _elementwise(ufunc: np.ufunc) -> Callable[[object], np.ndarray]:
    def apply(x: object) -> np.ndarray:
        result: np.ndarray = ufunc(numeric(x))  # one array in, one out (numpy types any ufunc call as Any)
        return result

    return apply


def _along_axis(reduce: Callable[..., object], default_axis: int | None = None) -> Callable[..., object]:
    def apply(x: object, /, *, axis: int | tuple[int, ...] | None = default_axis) -> object:
        return reduce(numeric(x), axis=axis)

    return apply


def _spread(reduce: Callable[..., object]) -> Callable[..., object]:
    def apply(x: object, /, *, axis: int | None = None, ddof: int = 0) -> object:
        return reduce(numeric(x), axis=axis, ddof=ddof)

    return apply


for _name, _ufunc in {
    "sqrt": np.sqrt,
    "exp": np.exp,
    "log": np.log,
    "abs": np.abs,
    "isfinite": np.isfinite,
    "isnan": np.isnan,
    "isinf": np.isinf,
    "sin": np.sin,
    "cos": np.cos,
    "tanh": np.tanh,
    "floor": np.floor,
    "ceil": np.ceil,
}.items():
    _allowed(_name)(_elementwise(_ufunc))


@_allowed("sigmoid")
def _sigmoid(x: object) -> np.ndarray:
    # 1 / (1 + e^−x) through tanh: the same function, with no overflow for large |x|.
    result: np.ndarray = 0.5 * (1.0 + np.tanh(0.5 * numeric(x)))
    return result


_ERF = np.frompyfunc(math.erf, 1, 1)


@_allowed("erf")
def _erf(x: object) -> np.ndarray:
    # numpy has no erf; math.erf elementwise (the inputs are already bounded in size), NaN kept as NaN.
    values = numeric(x).astype(np.float64)
    return np.asarray(_ERF(values), dtype=np.float64)

for _name, _reduce, _axis in (
    ("sum", np.sum, None),
    ("mean", np.mean, None),
    ("max", np.max, None),
    ("min", np.min, None),
    ("argmax", np.argmax, None),
    ("argmin", np.argmin, None),
    ("all", np.all, None),
    ("any", np.any, None),
    ("cumsum", np.cumsum, None),
    ("prod", np.prod, None),
    ("sort", np.sort, -1),
):
    _allowed(_name)(_along_axis(_reduce, _axis))

_allowed("std")(_spread(np.std))
_allowed("var")(_spread(np.var))


def _shape_argument(shape: int | np.integer | Iterable[SupportsIndex]) -> tuple[int, ...]:
    """An int or a sequence of ints as a shape; negative sizes are refused here."""
    parts = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    dims = tuple(operator.index(part) for part in parts)
    if any(dim < 0 for dim in dims):
        raise ValueError(f"negative dimensions are not allowed: {dims}")
    return dims


def _check_shape_argument(arguments: Mapping[str, Any]) -> None:
    check_shape(_shape_argument(arguments["shape"]))


def _check_all_broadcast(arguments: Mapping[str, Any]) -> None:
    check_broadcast(*arguments.values())


@_allowed("zeros", _check_shape_argument)
def _zeros(shape: int | tuple[int, ...]) -> np.ndarray:
    return np.zeros(_shape_argument(shape))


@_allowed("ones", _check_shape_argument)
def _ones(shape: int | tuple[int, ...]) -> np.ndarray:
    return np.ones(_shape_argument(shape))


@_allowed("full", _check_shape_argument)
def _full(shape: int | tuple[int, ...], fill_value: object) -> np.ndarray:
    return np.full(_shape_argument(shape), numeric(fill_value))


def _check_eye(arguments: Mapping[str, Any]) -> None:
    n, m = arguments["n"], arguments["m"]
    rows, cols = _shape_argument((n, n if m is None else m))
    check_elements(rows * cols)


@_allowed("eye", _check_eye)
def _eye(n: int, m: int | None = None, k: int = 0) -> np.ndarray:
    return np.eye(n, m, k)


def _arange_bounds(start: T, stop: T | None) -> tuple[T | int, T]:
    # Like range(): one argument is the stop.
    return (0, start) if stop is None else (start, stop)


def _check_arange(arguments: Mapping[str, Any]) -> None:
    start, stop = _arange_bounds(arguments["start"], arguments["stop"])
    count = math.ceil((float(stop) - float(start)) / float(arguments["step"]))
    check_elements(max(count, 0))


@_allowed("arange", _check_arange)
def _arange(start: float, stop: float | None = None, step: float = 1) -> np.ndarray:
    start, stop = _arange_bounds(start, stop)
    return np.arange(start, stop, step)


def _check_linspace(arguments: Mapping[str, Any]) -> None:
    ends = np.broadcast_shapes(shape_of(arguments["start"]), shape_of(arguments["stop"]))
    check_shape((*ends, operator.index(arguments["num"])))


@_allowed("linspace", _check_linspace)
def _linspace(start: object, stop: object, num: int = 50) -> np.ndarray:
    return np.linspace(numeric(start), numeric(stop), num)


@_allowed("array")
def _array(x: object, dtype: str | None = None) -> np.ndarray:
    if dtype is not None and dtype not in DTYPES:
        raise ValueError(f"dtype must be one of {', '.join(DTYPES)}, not {dtype!r}")
    return np.array(numeric(x), dtype=dtype)


@_allowed("round")
def _round(x: object, decimals: int = 0) -> object:
    return np.round(numeric(x), operator.index(decimals))


@_allowed("clip", _check_all_broadcast)
def _clip(x: object, low: object, high: object) -> object:
    return np.clip(numeric(x), numeric(low), numeric(high))


@_allowed("where", _check_all_broadcast)
def _where(condition: object, x: object, y: object) -> np.ndarray:
    return np.where(numeric(condition), numeric(x), numeric(y))


@_allowed("maximum", _check_all_broadcast)
def _maximum(a: object, b: object) -> object:
    return np.maximum(numeric(a), numeric(b))


@_allowed("minimum", _check_all_broadcast)
def _minimum(a: object, b: object) -> object:
    return np.minimum(numeric(a), numeric(b))


@_allowed("stack")
def _stack(arrays: list[object] | tuple[object, ...], axis: int = 0) -> np.ndarray:
    return np.stack([numeric(array) for array in arrays], axis=axis)


@_allowed("concatenate")
def _concatenate(arrays: list[object] | tuple[object, ...], axis: int = 0) -> np.ndarray:
    return np.concatenate([numeric(array) for array in arrays], axis=axis)


@_allowed("transpose")
def _transpose(x: object, axes: tuple[int, ...] | None = None) -> np.ndarray:
    return np.transpose(numeric(x), axes)


@_allowed("reshape")
def _reshape(x: object, shape: int | tuple[int, ...]) -> np.ndarray:
    return np.reshape(numeric(x), shape)


def _check_matmul(arguments: Mapping[str, Any]) -> None:
    check_matmul(shape_of(arguments["a"]), shape_of(arguments["b"]))


@_allowed("matmul", _check_matmul)
def _matmul(a: object, b: object) -> object:
    return np.matmul(numeric(a), numeric(b))


def _check_dot(arguments: Mapping[str, Any]) -> None:
    left, right = shape_of(arguments["a"]), shape_of(arguments["b"])
    if len(left) > 2 or len(right) > 2:
        raise ValueError("dot takes vectors and matrices; use matmul or @ for stacks")
    if left and right:
        check_matmul(left, right)
    else:
        check_broadcast(arguments["a"], arguments["b"])


@_allowed("dot", _check_dot)
def _dot(a: object, b: object) -> object:
    return np.dot(numeric(a), numeric(b))


def _check_outer(arguments: Mapping[str, Any]) -> None:
    count = math.prod(shape_of(arguments["a"])) * math.prod(shape_of(arguments["b"]))
    check_elements(count)
    check_terms(count)


@_allowed("outer", _check_outer)
def _outer(a: object, b: object) -> np.ndarray:
    return np.outer(numeric(a), numeric(b))


def _check_diag(arguments: Mapping[str, Any]) -> None:
    shape = shape_of(arguments["v"])
    if len(shape) == 1:
        side = shape[0] + abs(operator.index(arguments["k"]))
        check_elements(side * side)


@_allowed("diag", _check_diag)
def _diag(v: object, k: int = 0) -> np.ndarray:
    return np.diag(numeric(v), k)


def _check_matrix(arguments: Mapping[str, Any]) -> None:
    # numpy would turn a vector into a square matrix here, growing it quadratically.
    if len(shape_of(arguments["x"])) < 2:
        raise ValueError("tril and triu take a matrix or a stack of matrices")


@_allowed("tril", _check_matrix)
def _tril(x: object, k: int = 0) -> np.ndarray:
    return np.tril(numeric(x), k)


@_allowed("triu", _check_matrix)
def _triu(x: object, k: int = 0) -> np.ndarray:
    return np.triu(numeric(x), k)


@_allowed("len")
def _len(x: Sized) -> int:
    return len(x)


def _single_number(x: object) -> np.ndarray:
    number = numeric(x)
    if number.ndim:
        raise ValueError(f"expected a single number, got an array of shape {number.shape}")
    return number


@_allowed("float")
def _float(x: object) -> float:
    return float(_single_number(x))


@_allowed("int")
def _int(x: object) -> int:
    return int(_single_number(x))
