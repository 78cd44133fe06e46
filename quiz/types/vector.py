"""The `vector` type: answered with a vector of numbers, graded within tolerance of the engine's key."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from quiz.types.numeric import NumericQuestion, NumericType


@dataclass(frozen=True, kw_only=True)
class VectorQuestion(NumericQuestion):
    """A question answered with a vector of numbers."""

    type: Literal["vector"] = "vector"


class VectorType(NumericType):
    name = "vector"
    model = VectorQuestion
    rank = 1


TYPE = VectorType()
