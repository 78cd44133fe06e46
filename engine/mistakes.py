"""Classic bugs of the operations around attention, each a function computing the wrong result (Y9–Y17).

They sit beside the correct operations rather than in engine.faults, whose faults change the one
attention pipeline's settings: these bugs live in the code around it (positions, masks of batches,
the cache, the loss, the kernels). Each names the correct function it gets wrong.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from engine.attention import scaled_dot_product_attention
from engine.batch_masks import key_padding_mask
from engine.kv_cache import KVCache
from engine.linear_attention import linear_attention
from engine.masks import causal_mask, sliding_window_mask
from engine.online import online_softmax_step
from engine.rotary import apply_rotary
from engine.softmax import softmax
from engine.tiled import TiledAttention, run_tiles, tile_above_diagonal

# RoPE and the KV cache (Y9). Each takes unrotated q (B, H, T, d), k and v (B, H_kv, T, ·) and returns
# what decoding them one token at a time gives (B, H, T, d_v); the correct result is full causal
# attention over apply_rotary(q, positions) and apply_rotary(k, positions).


def decode_with_new_tokens_at_position_zero(query: ArrayLike, key: ArrayLike, value: ArrayLike, prompt: int) -> np.ndarray:
    """The prompt's `prompt` tokens rotated at their positions, but every generated token's q and k at position 0."""
    query, key, value = np.asarray(query), np.asarray(key), np.asarray(value)
    cache = KVCache()
    steps = [
        cache.step(
            apply_rotary(query[..., :prompt, :], np.arange(prompt)), apply_rotary(key[..., :prompt, :], np.arange(prompt)), value[..., :prompt, :]
        )
    ]
    for t in range(prompt, query.shape[-2]):
        steps.append(cache.step(query[..., t : t + 1, :], key[..., t : t + 1, :], value[..., t : t + 1, :]))  # rotated by 0: not at all
    return np.concatenate(steps, axis=-2)


def decode_with_cached_keys_rotated_again(query: ArrayLike, key: ArrayLike, value: ArrayLike) -> np.ndarray:
    """Keys stored rotated, then the whole cache rotated once more at each step: key j ends up at angle 2j·θ."""
    query, key, value = np.asarray(query), np.asarray(key), np.asarray(value)
    cache, steps = KVCache(), []
    for t in range(query.shape[-2]):
        cache.append(apply_rotary(key[..., t : t + 1, :], t), value[..., t : t + 1, :])
        keys = apply_rotary(cache.keys(), cache.positions())  # the second rotation
        steps.append(scaled_dot_product_attention(apply_rotary(query[..., t : t + 1, :], t), keys, cache.values(), enable_gqa=True))
    return np.concatenate(steps, axis=-2)


def attention_with_rope_on_values(query: ArrayLike, key: ArrayLike, value: ArrayLike) -> np.ndarray:
    """Causal attention with the values rotated too (B, H, T, d_v): V carries content, not position."""
    positions = np.arange(np.shape(query)[-2])
    query, key, value = (apply_rotary(x, positions) for x in (query, key, value))
    return scaled_dot_product_attention(query, key, value, is_causal=True, enable_gqa=True)


# Masks of real batches (Y11, Y12)


def sliding_window_mask_off_by_one(L: int, window: int, S: int | None = None) -> np.ndarray:
    """0 ≤ i − j ≤ window instead of < window: window + 1 keys per query (correct: masks.sliding_window_mask)."""
    return sliding_window_mask(L, window + 1, S)


def key_padding_mask_on_the_wrong_side(lengths: ArrayLike, S: int, side: str = "right") -> np.ndarray:
    """The mask of the other padding side than the batch's (correct: batch_masks.key_padding_mask)."""
    return key_padding_mask(lengths, S, "left" if side == "right" else "right")


def masks_combined_by_or(*masks: ArrayLike) -> np.ndarray:
    """Masks joined by OR, allowing a key that any one mask allows (correct: AND, a key every mask allows)."""
    return np.logical_or.reduce(np.broadcast_arrays(*masks))


def packed_causal_mask_without_documents(document_lengths: ArrayLike) -> np.ndarray:
    """One causal mask over the packed row: tokens attend to earlier documents (correct: batch_masks.document_causal_mask)."""
    return causal_mask(int(np.sum(document_lengths)))


# The loss (Y17)


def cross_entropy_as_log_of_softmax(logits: ArrayLike, targets: ArrayLike) -> np.ndarray:
    """−log(softmax(z)_y) per position (...): a target probability that underflowed to 0 gives log 0 = −∞, a loss of +∞."""
    probabilities = softmax(np.asarray(logits, dtype=np.float64))
    target_probability = np.take_along_axis(probabilities, np.asarray(targets)[..., None], axis=-1)[..., 0]
    with np.errstate(divide="ignore"):  # log 0 is the point
        return -np.log(target_probability)


# Kernels (Y13, Y16, X8)


def causal_linear_attention_without_mask(query: ArrayLike, key: ArrayLike, value: ArrayLike) -> np.ndarray:
    """Linear attention over every key where a causal model needs j ≤ i: the future leaks (correct: causal=True)."""
    return linear_attention(query, key, value, causal=False)


def _skips_tiles_from_the_diagonal(q_start: int, q_stop: int, k_start: int) -> bool:
    """A skip test that takes a tile starting at the query tile's first row as above the diagonal."""
    return k_start >= q_start


def tiled_attention_skipping_diagonal_tiles(
    query: ArrayLike, key: ArrayLike, value: ArrayLike, block_q: int, block_k: int, scale: float | None = None
) -> TiledAttention:
    """Causal tiled attention that skips the tiles the diagonal crosses instead of masking them.

    The first query tile then has no tile left: 0/0, NaN rows. Later rows lose their nearest keys.
    """
    with np.errstate(invalid="ignore", divide="ignore"):  # the NaN rows are the point
        return run_tiles(query, key, value, block_q, block_k, True, scale, _skips_tiles_from_the_diagonal, online_softmax_step)


def _step_without_rescaling_the_sum(
    running_max: np.ndarray, running_sum: np.ndarray, unnormalised: np.ndarray, scores: np.ndarray, values: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The online softmax step with l_new = l_old + Σ exp(s − m_new): l_old is not multiplied by exp(m_old − m_new)."""
    new_max, _, unnormalised = online_softmax_step(running_max, running_sum, unnormalised, scores, values)
    return new_max, running_sum + np.exp(scores - new_max).sum(axis=-1, keepdims=True), unnormalised


def tiled_attention_without_rescaling_the_sum(
    query: ArrayLike, key: ArrayLike, value: ArrayLike, block_q: int, block_k: int, causal: bool = False, scale: float | None = None
) -> TiledAttention:
    """Tiled attention whose running sum keeps terms of an older, smaller maximum: too large, so O too small."""
    return run_tiles(query, key, value, block_q, block_k, causal, scale, tile_above_diagonal, _step_without_rescaling_the_sum)
