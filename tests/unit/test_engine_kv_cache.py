"""The KV cache's decode step against full causal attention over the same tokens (Y5, Y6, Y9, Y11, Y15)."""

import numpy as np
import pytest

from engine import KVCache, apply_rotary, causal_mask, kv_cache_bytes, scaled_dot_product_attention, sliding_window_mask

RNG = np.random.default_rng(0)


def projections(B, H, H_kv, T, d=4, d_v=3):
    """Queries (B, H, T, d), keys (B, H_kv, T, d) and values (B, H_kv, T, d_v) of a short sequence."""
    return RNG.standard_normal((B, H, T, d)), RNG.standard_normal((B, H_kv, T, d)), RNG.standard_normal((B, H_kv, T, d_v))


def decode(cache, q, k, v, steps):
    """Feed the tokens to the cache in steps of the given sizes, RoPE at absolute positions; the outputs joined."""
    outputs, start = [], 0
    for size in steps:
        positions = np.arange(start, start + size)
        chunk = slice(start, start + size)
        outputs.append(cache.step(apply_rotary(q[..., chunk, :], positions), apply_rotary(k[..., chunk, :], positions), v[..., chunk, :]))
        start += size
    return np.concatenate(outputs, axis=-2)


def rotated_full(q, k, T):
    return apply_rotary(q, np.arange(T)), apply_rotary(k, np.arange(T))


@pytest.mark.parametrize("steps", [[1] * 7, [4, 1, 1, 1], [7], [2, 3, 2]])
def test_each_step_equals_its_rows_of_full_causal_attention(steps):
    q, k, v = projections(2, 2, 2, 7)
    full = scaled_dot_product_attention(*rotated_full(q, k, 7), v, is_causal=True)
    np.testing.assert_allclose(decode(KVCache(), q, k, v, steps), full, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("H_kv", [1, 2])  # MQA and GQA with 4 query heads
def test_shared_key_value_heads_equal_attention_over_repeated_heads(H_kv):
    q, k, v = projections(1, 4, H_kv, 6)
    rq, rk = rotated_full(q, k, 6)
    groups = 4 // H_kv
    full = scaled_dot_product_attention(rq, np.repeat(rk, groups, axis=1), np.repeat(v, groups, axis=1), is_causal=True)
    np.testing.assert_allclose(decode(KVCache(), q, k, v, [1] * 6), full, rtol=1e-12, atol=1e-14)


def test_keys_are_stored_as_given_so_rotated_once():
    q, k, v = projections(1, 1, 1, 3)
    cache = KVCache()
    decode(cache, q, k, v, [1, 1, 1])
    np.testing.assert_array_equal(cache.keys(), apply_rotary(k, np.arange(3)))
    np.testing.assert_array_equal(cache.values(), v)


@pytest.mark.parametrize("steps", [[1] * 10, [4, 1, 5], [10]])
def test_a_rolling_window_with_sinks_equals_sliding_window_attention_that_keeps_the_sinks(steps):
    window, sinks, T = 3, 2, 10
    q, k, v = projections(1, 2, 2, T)
    mask = sliding_window_mask(T, window) | (causal_mask(T) & (np.arange(T) < sinks))
    full = scaled_dot_product_attention(*rotated_full(q, k, T), v, attn_mask=mask)
    cache = KVCache(window=window, sinks=sinks)
    np.testing.assert_allclose(decode(cache, q, k, v, steps), full, rtol=1e-12, atol=1e-14)
    np.testing.assert_array_equal(cache.positions(), [0, 1, 7, 8, 9])
    np.testing.assert_array_equal(cache.keys()[..., 2:, :], apply_rotary(k[..., 7:, :], np.arange(7, 10)))


def test_position_i_lives_at_slot_i_mod_window_after_the_sinks():
    cache = KVCache(window=3, sinks=1)
    for position in range(6):  # the key of position p is the number p
        cache.append(np.full((1, 1, 1, 1), float(position)), np.zeros((1, 1, 1, 1)))
    # slot 0: sink 0; ring slots 1 + p mod 3: p = 3 (slot 1), 4 (slot 2), 5 (slot 3)
    np.testing.assert_array_equal(cache._keys[0, 0, :, 0], [0, 3, 4, 5])
    np.testing.assert_array_equal(cache.keys()[0, 0, :, 0], [0, 3, 4, 5])


def test_size_in_bytes_by_the_formula():
    # A 7B-like model: 32 layers, 32 heads of 128, 4096 tokens, fp16: 2 GiB per sequence; 8 KV heads: a quarter.
    assert kv_cache_bytes(32, 32, 128, 4096, 1, 2) == 2 * 2**30
    assert kv_cache_bytes(32, 8, 128, 4096, 1, 2) == 2**29
    assert kv_cache_bytes(32, 8, 128, 4096, 4, 2) == 4 * 2**29  # four sequences, no shared prefix


def test_the_cache_holds_as_many_bytes_as_the_formula_says():
    q, k, v = projections(2, 4, 2, 5, d=4, d_v=4)
    cache = KVCache()
    decode(cache, q, k, v, [5])
    assert cache.keys().nbytes + cache.values().nbytes == kv_cache_bytes(1, 2, 4, 5, 2, 8)  # float64


@pytest.mark.parametrize(
    "arguments, message", [({"window": 0}, "at least one position"), ({"sinks": 2}, "sinks"), ({"window": 4, "sinks": -1}, "sinks")]
)
def test_bad_settings_are_refused(arguments, message):
    with pytest.raises(ValueError, match=message):
        KVCache(**arguments)


def test_an_empty_cache_has_no_keys_and_a_step_needs_matching_lengths():
    with pytest.raises(ValueError, match="empty"):
        KVCache().keys()
    with pytest.raises(ValueError, match="same step"):
        KVCache().step(np.ones((1, 1, 2, 2)), np.ones((1, 1, 1, 2)), np.ones((1, 1, 1, 2)))
