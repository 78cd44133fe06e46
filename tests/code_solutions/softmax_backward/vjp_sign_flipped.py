import numpy as np


def softmax_backward(p, grad, axis=-1):
    """Subtracts the wrong way round."""
    return p * (np.sum(grad * p, axis=axis, keepdims=True) - grad)
