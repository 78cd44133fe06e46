import numpy as np


def online_attention(q, k, v, block_size):
    """One pass over key blocks with a running max m and sum l (FlashAttention's online softmax)."""
    scale = 1 / np.sqrt(q.shape[-1])
    m = np.full(q.shape[:-1] + (1,), -np.inf)
    l = np.zeros(q.shape[:-1] + (1,))
    acc = np.zeros(q.shape[:-1] + (v.shape[-1],))
    S = k.shape[-2]
    for start in range(0, S, block_size):
        kb, vb = k[..., start:start + block_size, :], v[..., start:start + block_size, :]
        s = (q @ np.swapaxes(kb, -1, -2)) * scale
        m_new = np.maximum(m, np.max(s, axis=-1, keepdims=True))
        p = np.exp(s - m_new)
        correction = np.exp(m - m_new)
        l = l * correction + np.sum(p, axis=-1, keepdims=True)
        acc = acc * correction + p @ vb
        m = m_new
    return acc / l
