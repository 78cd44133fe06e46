"""The `matrix` type: answered with a matrix of numbers, graded within tolerance of the engine's key."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from quiz.types.numeric import NumericQuestion, NumericType


@dataclass(frozen=True, kw_only=True)
class MatrixQuestion(NumericQuestion):
    """A question answered with a matrix of numbers."""

    type: Literal["matrix"] = "matrix"


class MatrixType(NumericType):
    name = "matrix"
    model = MatrixQuestion
    rank = 2


TYPE = MatrixType()
