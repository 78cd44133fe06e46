"""What reading an answer produces: a value in the expected shape, or a reason it cannot be read."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from quiz.answer_text.wording import describe_shape
from quiz.base.fieldwise import Fieldwise, record
from quiz.locale.i18n import DEFAULT_LANGUAGE, tr


# eq=False: numpy arrays have no single truth value, so field-wise equality would raise.
@dataclass(frozen=True, eq=False)
class Parsed:
    """A readable answer: `value` in the expected shape and `display`, how it was read.

    `value` is a float for a scalar question, otherwise a read-only float64 array; `display`
    renders it (`[0.5, -2]`, `[[1, 2], [3, 4]]`) so the interface can show "read as: ..." live.
    """

    value: float | np.ndarray
    display: str


@record
class Invalid(Fieldwise):
    """An answer that cannot be read; it does not count as an attempt.

    `key` names the catalogue message (`parse.empty`), `params` fills it (a tuple value is a
    shape, described in the reader's language), and `column` is the 1-based character offset
    in the original text of the culprit where known.
    """

    key: str
    params: dict[str, object] = field(default_factory=dict)
    column: int | None = None

    def message(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The explanation for the learner in `lang` (English when the language is unknown)."""
        params = {
            name: describe_shape(value, lang) if isinstance(value, tuple) else value
            for name, value in self.params.items()
        }
        if self.column is not None:
            params["column"] = self.column
        return tr(self.key, lang, **params)


class Rejected(Exception):
    """Raised by the reading stages at the first problem; `parse_answer` returns its `invalid`."""

    def __init__(self, key: str, column: int | None = None, **params: object) -> None:
        super().__init__(key)
        self.invalid = Invalid(key, params, column)
