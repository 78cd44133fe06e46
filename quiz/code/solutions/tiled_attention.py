import numpy as np


def tiled_causal_attention(q, k, v, block_q, block_k):
    """Query tiles × key tiles with an online softmax; tiles above the diagonal skipped, the diagonal ones masked."""
    T, E = q.shape[-2], q.shape[-1]
    scale = 1 / np.sqrt(E)
    out = np.zeros(q.shape[:-1] + (v.shape[-1],))
    lse = np.zeros(q.shape[:-1])
    for qs in range(0, T, block_q):
        qe = min(qs + block_q, T)
        m = np.full(q.shape[:-2] + (qe - qs, 1), -np.inf)
        l = np.zeros(q.shape[:-2] + (qe - qs, 1))
        acc = np.zeros(q.shape[:-2] + (qe - qs, v.shape[-1]))
        for ks in range(0, T, block_k):
            if ks > qe - 1:
                break  # this tile and all after it lie above the diagonal
            ke = min(ks + block_k, T)
            s = q[..., qs:qe, :] @ np.swapaxes(k[..., ks:ke, :], -1, -2) * scale
            future = np.arange(ks, ke)[None, :] > np.arange(qs, qe)[:, None]
            s = np.where(future, -np.inf, s)
            m_new = np.maximum(m, s.max(axis=-1, keepdims=True))
            p = np.exp(s - m_new)
            correction = np.exp(m - m_new)
            l = l * correction + p.sum(axis=-1, keepdims=True)
            acc = acc * correction + p @ v[..., ks:ke, :]
            m = m_new
        out[..., qs:qe, :] = acc / l
        lse[..., qs:qe] = (m + np.log(l))[..., 0]
    return out, lse
