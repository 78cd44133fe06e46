import numpy as np


def softmax_backward(p, grad, axis=-1):
    """Treats softmax as if it acted entry by entry."""
    return p * grad
