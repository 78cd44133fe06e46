"""Cross-entropy from logits, LSE(z) − z_y, and its gradient p − onehot(y) (Y17).

Computed through log_softmax, so no probability is formed and then logged: logits of ±1e4 stay finite.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from engine.softmax import log_softmax, softmax

REDUCTIONS = ("mean", "sum", "none")


def _checked(logits: ArrayLike, targets: ArrayLike, reduction: str) -> tuple[np.ndarray, np.ndarray]:
    """logits (..., C) as float64 and targets (...) as ints in 0 … C − 1, or a ValueError saying why not."""
    logits, targets = np.asarray(logits, dtype=np.float64), np.asarray(targets)
    if reduction not in REDUCTIONS:
        raise ValueError(f"reduction must be one of {', '.join(REDUCTIONS)}, not {reduction!r}")
    if logits.ndim < 1 or targets.shape != logits.shape[:-1] or not np.issubdtype(targets.dtype, np.integer):
        raise ValueError(f"logits {logits.shape} (..., C) need integer targets of shape (...), got {targets.dtype} {targets.shape}")
    if np.any((targets < 0) | (targets >= logits.shape[-1])):
        raise ValueError(f"targets must be classes 0 … {logits.shape[-1] - 1}")
    return logits, targets


def cross_entropy(logits: ArrayLike, targets: ArrayLike, reduction: str = "mean") -> np.ndarray | np.floating:
    """−log softmax(z)_y = LSE(z) − z_y for logits (..., C) and classes (...) (Y17), in nats.

    reduction "mean" averages over every position of (...), "sum" adds them, "none" returns them (...).
    """
    logits, targets = _checked(logits, targets, reduction)
    losses = -np.take_along_axis(log_softmax(logits), targets[..., None], axis=-1)[..., 0]  # (...)
    if reduction == "none":
        return losses
    return losses.mean() if reduction == "mean" else losses.sum()


def cross_entropy_grad(logits: ArrayLike, targets: ArrayLike, reduction: str = "mean") -> np.ndarray:
    """∂ cross_entropy / ∂ logits = p − onehot(y) (Y17): (..., C), divided by the count of positions under "mean".

    Under "none" each position's row is the gradient of its own loss.
    """
    logits, targets = _checked(logits, targets, reduction)
    grad = softmax(logits)  # (..., C) p
    np.put_along_axis(grad, targets[..., None], np.take_along_axis(grad, targets[..., None], axis=-1) - 1.0, axis=-1)
    return grad / targets.size if reduction == "mean" else grad
