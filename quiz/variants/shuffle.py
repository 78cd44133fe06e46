"""The orders a variant shows things in: its options and order items, drawn for its key.

Seeded from the variant's key (each use its own stream), so the screen, `quiz show` and
`quiz grade` agree on which letter or number names which option or item.
"""

from __future__ import annotations

import numpy as np

from quiz.variants.keys import generator_seed
from quiz.variants.variant import Variant

_ITEMS_STREAM = 1
_OPTIONS_STREAM = 2


def _permutation(variant: Variant, count: int, stream: int) -> list[int]:
    rng = np.random.default_rng([generator_seed(variant.question.id, variant.seed), stream])
    return [int(i) for i in rng.permutation(count)]


def display_order(variant: Variant, count: int) -> list[int]:
    """The order `count` items (order-question steps) are shown in: shuffled, never already right."""
    order = _permutation(variant, count, _ITEMS_STREAM)
    if count > 1 and order == sorted(order):
        order = order[1:] + order[:1]
    return order


def option_order(variant: Variant, count: int, shuffle: bool) -> list[int]:
    """The order `count` options are shown in: shuffled for each variant, or as written."""
    return _permutation(variant, count, _OPTIONS_STREAM) if shuffle else list(range(count))
