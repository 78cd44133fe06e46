"""A key/value cache for causal decoding: past keys and values are kept, never recomputed (Y5, Y6).

One `KVCache` serves one layer; a model keeps one per layer. It holds every position, or a rolling
buffer of `window` slots (position i at slot i mod window, Y11) beside `sinks` first positions that
are never evicted (StreamingLLM's attention sinks, Y15). Keys are stored as given: apply RoPE at
each token's absolute position before they come in (Y9).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from engine.attention import scaled_dot_product_attention


def kv_cache_bytes(layers: int, kv_heads: int, head_dim: int, tokens: int, batch: int, bytes_per_element: int) -> int:
    """2 (K and V) × layers × kv_heads × d_head × tokens × batch × bytes per element (Y6)."""
    return 2 * layers * kv_heads * head_dim * tokens * batch * bytes_per_element


class KVCache:
    """One layer's cached keys (B, H_kv, ·, d) and values (B, H_kv, ·, d_v), filled step by step.

    window=None keeps every position. With a window, only the last `window` positions after the
    sinks are held; `step` then attends as a sliding window: query i sees key j when 0 ≤ i − j <
    window, or when j < sinks.
    """

    def __init__(self, window: int | None = None, sinks: int = 0) -> None:
        if window is not None and window < 1:
            raise ValueError(f"a rolling window holds at least one position, not {window}")
        if sinks < 0 or (sinks and window is None):
            raise ValueError(f"sinks must be ≥ 0, and only a rolling window has any to keep (got {sinks})")
        self.window, self.sinks = window, sinks
        self.length = 0  # positions appended so far: the next token's absolute position
        self._keys: np.ndarray | None = None  # every position, or the sinks then the ring's slots
        self._values: np.ndarray | None = None

    def positions(self) -> np.ndarray:
        """Int (n,): the positions held, ascending: all, or the sinks then the window's."""
        if self.window is None:
            return np.arange(self.length)
        sinks = np.arange(min(self.sinks, self.length))
        return np.concatenate([sinks, np.arange(max(self.sinks, self.length - self.window), self.length)])

    def _slots(self, positions: np.ndarray) -> np.ndarray:
        """Where each position lives: its own index, or sink p at p and ring position p at sinks + p mod window."""
        if self.window is None:
            return positions
        return np.where(positions < self.sinks, positions, self.sinks + positions % self.window)

    def keys(self) -> np.ndarray:
        """(B, H_kv, n, d): the held keys in the order of `positions`."""
        if self._keys is None:
            raise ValueError("the cache is empty: append a step first")
        return self._keys[..., self._slots(self.positions()), :]

    def values(self) -> np.ndarray:
        """(B, H_kv, n, d_v): the held values in the order of `positions`."""
        if self._values is None:
            raise ValueError("the cache is empty: append a step first")
        return self._values[..., self._slots(self.positions()), :]

    def append(self, key: ArrayLike, value: ArrayLike) -> None:
        """Store a step's keys (B, H_kv, t, d) and values (B, H_kv, t, d_v) at positions length … length + t − 1."""
        key, value = np.asarray(key), np.asarray(value)
        if key.ndim != 4 or value.shape[:-1] != key.shape[:-1]:
            raise ValueError(f"key {key.shape} and value {value.shape} must be (B, H_kv, t, d) and (B, H_kv, t, d_v)")
        if self._keys is None or self._values is None:
            n_slots = None if self.window is None else self.sinks + self.window
            self._keys, self._values = (np.empty((*x.shape[:2], 0 if n_slots is None else n_slots, x.shape[-1]), dtype=x.dtype) for x in (key, value))
        new_positions = np.arange(self.length, self.length + key.shape[-2])
        if self.window is None:
            self._keys = np.concatenate([self._keys, key], axis=-2)
            self._values = np.concatenate([self._values, value], axis=-2)
        else:  # in position order, so that a later position overwrites the slot of one w before it
            for index, slot in enumerate(self._slots(new_positions)):
                self._keys[..., slot, :] = key[..., index, :]
                self._values[..., slot, :] = value[..., index, :]
        self.length += key.shape[-2]

    def _allowed(self, key_positions: np.ndarray, query_positions: np.ndarray) -> np.ndarray:
        """Bool (t, n): causal over absolute positions, limited to the window (and the sinks) when there is one."""
        offset = query_positions[:, None] - key_positions[None, :]  # (t, n) i − j
        allowed = offset >= 0
        if self.window is not None:
            allowed &= (offset < self.window) | (key_positions[None, :] < self.sinks)
        return allowed

    def step(self, query: ArrayLike, key: ArrayLike, value: ArrayLike, scale: float | None = None) -> np.ndarray:
        """Append a step's key and value, then attend its queries (B, H, t, d) over the cache: (B, H, t, d_v).

        The queries sit at the new positions; each attends the held keys and the step's own up to its
        position. H may be a multiple of H_kv (GQA; MQA when H_kv = 1): query head h reads key/value
        head h // (H / H_kv). The step's keys take part before they can evict anything, so a step of
        several tokens sees what each of its queries should.
        """
        query, key, value = np.asarray(query), np.asarray(key), np.asarray(value)
        if query.shape[-2] != key.shape[-2]:
            raise ValueError(f"query {query.shape} and key {key.shape} must hold the same step of t tokens (axis -2)")
        held = self.positions()
        if self._keys is None or self._values is None:
            keys, values = key, value
        else:
            keys = np.concatenate([self.keys(), key], axis=-2)  # (B, H_kv, n + t, d)
            values = np.concatenate([self.values(), value], axis=-2)  # (B, H_kv, n + t, d_v)
        new_positions = np.arange(self.length, self.length + key.shape[-2])
        allowed = self._allowed(np.concatenate([held, new_positions]), new_positions)  # (t, n + t)
        output = scaled_dot_product_attention(query, keys, values, attn_mask=allowed, scale=scale, enable_gqa=True)
        self.append(key, value)
        return output
