import numpy as np


def cross_entropy(logits, targets):
    """Mean of LSE(z) − z_y over every position, and its gradient (softmax(z) − onehot(y)) / N."""
    C = logits.shape[-1]
    z = logits.reshape(-1, C)
    y = targets.reshape(-1)
    N = z.shape[0]
    m = z.max(axis=-1, keepdims=True)
    lse = m + np.log(np.exp(z - m).sum(axis=-1, keepdims=True))  # (N, 1)
    loss = np.mean(lse[:, 0] - z[np.arange(N), y])
    grad = np.exp(z - lse)
    grad[np.arange(N), y] -= 1
    return loss, (grad / N).reshape(logits.shape)
