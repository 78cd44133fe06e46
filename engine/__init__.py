"""A numpy reference engine for scaled dot-product attention.

Every numeric answer the quiz grades comes from here. It depends on numpy only and
knows nothing of the quiz or its interface.
"""

from engine.alibi import alibi_bias, alibi_slopes
from engine.attention import AttentionTrace, attention, scaled_dot_product_attention
from engine.backward import attention_backward
from engine.batch_masks import document_causal_mask, key_padding_mask, packed_position_ids, padded_position_ids, real_tokens
from engine.counting import (
    attention_flops,
    decode_arithmetic_intensity,
    dense_attention_hbm_bytes,
    flash_attention_hbm_bytes,
    flash_block_sizes,
    matmul_flops,
    matmul_multiply_adds,
    projection_flops,
)
from engine.cross_entropy import cross_entropy, cross_entropy_grad
from engine.diagnosis import Cause, Finding, diagnose
from engine.faults import Fault
from engine.heads import merge_heads, self_attention, split_heads
from engine.kv_cache import KVCache, kv_cache_bytes
from engine.kv_heads import repeat_kv_heads, sum_kv_head_groups
from engine.linear_attention import elu_plus_one, linear_attention, linear_attention_state
from engine.masks import causal_mask, prefix_lm_mask, sliding_window_mask
from engine.online import blockwise_attention
from engine.relative_bias import relative_position_bias, relative_position_bucket
from engine.rotary import apply_rotary, rotary_angles, undo_rotary
from engine.softmax import entropy, log_softmax, naive_softmax, softmax, softmax_jacobian, softmax_vjp
from engine.statistics import HeadStats, ScoreVariance, head_stats, head_stats_from_trace, score_variance
from engine.tiled import TiledAttention, tiled_attention

__all__ = [
    "AttentionTrace",
    "Cause",
    "Fault",
    "Finding",
    "HeadStats",
    "KVCache",
    "ScoreVariance",
    "TiledAttention",
    "alibi_bias",
    "alibi_slopes",
    "apply_rotary",
    "attention",
    "attention_backward",
    "attention_flops",
    "blockwise_attention",
    "causal_mask",
    "cross_entropy",
    "cross_entropy_grad",
    "decode_arithmetic_intensity",
    "dense_attention_hbm_bytes",
    "diagnose",
    "document_causal_mask",
    "elu_plus_one",
    "entropy",
    "flash_attention_hbm_bytes",
    "flash_block_sizes",
    "head_stats",
    "head_stats_from_trace",
    "key_padding_mask",
    "kv_cache_bytes",
    "linear_attention",
    "linear_attention_state",
    "log_softmax",
    "matmul_flops",
    "matmul_multiply_adds",
    "merge_heads",
    "naive_softmax",
    "packed_position_ids",
    "padded_position_ids",
    "prefix_lm_mask",
    "projection_flops",
    "real_tokens",
    "relative_position_bias",
    "relative_position_bucket",
    "repeat_kv_heads",
    "rotary_angles",
    "scaled_dot_product_attention",
    "score_variance",
    "self_attention",
    "sliding_window_mask",
    "softmax",
    "softmax_jacobian",
    "softmax_vjp",
    "split_heads",
    "sum_kv_head_groups",
    "tiled_attention",
    "undo_rotary",
]
