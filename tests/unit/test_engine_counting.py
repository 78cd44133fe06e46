"""FLOP counts, a decode step's arithmetic intensity and HBM traffic, against hand computation (Y7, Y13, Y18)."""

import pytest

from engine import (
    attention_flops,
    decode_arithmetic_intensity,
    dense_attention_hbm_bytes,
    flash_attention_hbm_bytes,
    flash_block_sizes,
    matmul_flops,
    matmul_multiply_adds,
    projection_flops,
)


def test_a_matmul_is_mnk_multiply_adds_or_2mnk_flops():
    # (2×3)·(3×4): 8 dot products of length 3.
    assert matmul_multiply_adds(2, 3, 4) == 24
    assert matmul_flops(2, 3, 4) == 48


def test_one_heads_attention_is_2n2dk_plus_2n2dv():
    assert attention_flops(1024, 1024, 64) == 2 * 1024**2 * 64 * 2 == 268_435_456
    assert attention_flops(10, 10, 4, d_v=6) == 2 * 100 * 4 + 2 * 100 * 6
    assert attention_flops(3, 5, 2, heads=8) == 8 * (2 * 15 * 2 * 2)


def test_a_layers_four_projections_are_8_n_d_model_squared():
    assert projection_flops(1024, 512) == 8 * 1024 * 512**2 == 2_147_483_648


@pytest.mark.parametrize(
    "q_heads, kv_heads, bytes_per_element, intensity",
    [(32, 32, 2, 1.0), (32, 8, 2, 4.0), (32, 1, 2, 32.0), (32, 32, 4, 0.5)],  # fp16 MHA, GQA, MQA, fp32 MHA
)
def test_decode_attention_does_about_one_flop_per_byte_in_fp16_mha(q_heads, kv_heads, bytes_per_element, intensity):
    for context in (1, 100, 4096):
        assert decode_arithmetic_intensity(context, 128, q_heads, kv_heads, bytes_per_element) == intensity


def test_decode_intensity_counts_the_two_products_over_the_caches_bytes():
    t, d, h, g = 100, 64, 8, 2
    flops = h * (matmul_flops(1, d, t) + matmul_flops(1, t, d))  # q·Kᵀ then p·V for each query head
    cache = 2 * g * t * d * 2  # K and V of the g shared heads, fp16
    assert decode_arithmetic_intensity(t, d, h, g) == flops / cache


def test_dense_traffic_is_4nd_plus_4n2_elements():
    # n = 1024, d = 64, fp16: 4·1024·64 + 4·1024² = 4,456,448 elements.
    assert dense_attention_hbm_bytes(1024, 64) == 8_912_896


def test_flash_block_sizes_follow_algorithm_1():
    assert flash_block_sizes(64, 51_200) == (64, 200)  # ⌈51200 / 256⌉ = 200, Br capped at d
    assert flash_block_sizes(128, 1000) == (2, 2)


def test_flash_traffic_by_hand():
    # 100 KiB of fp16 SRAM: M = 51,200 elements, Bc = 200, Tc = ⌈1024 / 200⌉ = 6 outer passes.
    # 3·1024·64 + 2·1024 + 6·(3·1024·64 + 4·1024) = 198,656 + 1,204,224 = 1,402,880 elements.
    assert flash_attention_hbm_bytes(1024, 64, 102_400) == 2 * 1_402_880


def test_flash_moves_less_than_dense_and_falls_with_sram_size():
    n, d = 4096, 64
    small, large = flash_attention_hbm_bytes(n, d, 64 * 1024), flash_attention_hbm_bytes(n, d, 256 * 1024)
    assert large < small < dense_attention_hbm_bytes(n, d)
    # Θ(n²d²/M): four times the SRAM, nearly a quarter of the traffic (the 3nd + 2n once is the rest)
    once = (3 * n * d + 2 * n) * 2
    assert (small - once) / (large - once) == pytest.approx(4, rel=0.02)
