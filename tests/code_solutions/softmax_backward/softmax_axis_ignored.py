import numpy as np


def softmax_backward(p, grad, axis=-1):
    """Always sums along the last axis."""
    return p * (grad - np.sum(grad * p, axis=-1, keepdims=True))
