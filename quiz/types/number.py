"""The `number` type: answered with one number, graded within tolerance of the engine's key."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from quiz.types.numeric import NumericQuestion, NumericType


@dataclass(frozen=True, kw_only=True)
class NumberQuestion(NumericQuestion):
    """A question answered with one number."""

    type: Literal["number"] = "number"


class NumberType(NumericType):
    name = "number"
    model = NumberQuestion
    rank = 0


TYPE = NumberType()
