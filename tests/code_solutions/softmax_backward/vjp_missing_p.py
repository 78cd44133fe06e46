import numpy as np


def softmax_backward(p, grad, axis=-1):
    """Forgets the final factor p."""
    return grad - np.sum(grad * p, axis=axis, keepdims=True)
