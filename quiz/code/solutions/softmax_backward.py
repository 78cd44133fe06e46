import numpy as np


def softmax_backward(p, grad, axis=-1):
    """Jᵀ grad with J = diag(p) − p pᵀ, without building J."""
    return p * (grad - np.sum(grad * p, axis=axis, keepdims=True))
