"""Every name an expression may call or read without declaring it: functions and constants."""

from quiz.expressions.callables import Function
from quiz.expressions.engine_functions import ENGINE_FUNCTIONS
from quiz.expressions.numpy_functions import CONSTANTS, NUMPY_FUNCTIONS
from quiz.expressions.text_functions import TEXT_FUNCTIONS

FUNCTIONS: dict[str, Function] = {**NUMPY_FUNCTIONS, **ENGINE_FUNCTIONS, **TEXT_FUNCTIONS}
"""Callables by the name expressions use: the engine's public functions, a few of numpy's, and two
that write a number as text."""

ALLOWED_NAMES: tuple[str, ...] = tuple(sorted({*FUNCTIONS, *CONSTANTS}))
"""Names every expression may use, for documentation and "did you mean" hints."""

__all__ = ["ALLOWED_NAMES", "CONSTANTS", "FUNCTIONS", "Function"]
