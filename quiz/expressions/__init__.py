"""The restricted expression language of question packs, and `{{ expr }}` templates.

Packs are data written by others, so their expressions are parsed with `ast` and checked
against explicit allow-lists before anything runs: no imports, no dunders, no methods, no
comprehensions, and every value they create is size-checked before it is allocated.
"""

from quiz.expressions.errors import ExpressionError
from quiz.expressions.expression import Expression, compile_expression
from quiz.expressions.functions import ALLOWED_NAMES
from quiz.expressions.template import Template, compile_template

__all__ = [
    "ALLOWED_NAMES",
    "Expression",
    "ExpressionError",
    "Template",
    "compile_expression",
    "compile_template",
]
