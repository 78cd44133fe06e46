import numpy as np


def attention_backward(q, k, v, grad_out):
    """The chain rule back through P V, the softmax and the scaled Q Kᵀ."""
    scale = 1 / np.sqrt(q.shape[-1])
    scores = q @ np.swapaxes(k, -1, -2) * scale
    p = np.exp(scores - np.max(scores, axis=-1, keepdims=True))
    p = p / np.sum(p, axis=-1, keepdims=True)
    d_v = np.swapaxes(p, -1, -2) @ grad_out
    d_p = grad_out @ np.swapaxes(v, -1, -2)
    d_s = p * (d_p - np.sum(d_p * p, axis=-1, keepdims=True))
    d_q = d_s @ k * scale
    d_k = np.swapaxes(d_s, -1, -2) @ q * scale
    return d_q, d_k, d_v
