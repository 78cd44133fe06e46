import numpy as np


def cross_entropy(logits, targets):
    """The mean log-probability of the targets, not its negative."""
    C = logits.shape[-1]
    z = logits.reshape(-1, C)
    y = targets.reshape(-1)
    N = z.shape[0]
    m = z.max(axis=-1, keepdims=True)
    log_p = z - (m + np.log(np.exp(z - m).sum(axis=-1, keepdims=True)))
    loss = np.mean(log_p[np.arange(N), y])
    grad = np.exp(log_p)
    grad[np.arange(N), y] -= 1
    return loss, (grad / N).reshape(logits.shape)
