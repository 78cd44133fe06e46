"""Values as plain JSON-ready data: numpy arrays and scalars become lists and Python numbers."""

from __future__ import annotations

from typing import Any

import numpy as np


def json_ready(value: Any) -> Any:
    """`value` with numpy arrays and scalars turned into lists and Python numbers."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, list | tuple):
        return [json_ready(v) for v in value]
    return value
