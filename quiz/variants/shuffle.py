"""The order items are shown in, shuffled per variant and stable for its key."""

from __future__ import annotations

import numpy as np

from quiz.variants.keys import generator_seed
from quiz.variants.variant import Variant


def display_order(variant: Variant, count: int) -> list[int]:
    """The order `count` items (order-question steps) are shown in: shuffled, never already right.

    Seeded from the variant's key, so the screen, `quiz show` and `quiz grade` agree.
    """
    rng = np.random.default_rng([generator_seed(variant.question.id, variant.seed), 1])
    order = [int(i) for i in rng.permutation(count)]
    if count > 1 and order == sorted(order):
        order = order[1:] + order[:1]
    return order
