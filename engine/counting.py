"""Counting the work and the memory traffic of attention: FLOPs (Y18), a decode step's arithmetic
intensity (Y7), and the HBM traffic of dense and FlashAttention schedules (Y13).

FLOPs follow the 2mnk convention (a multiply and an add counted apiece) unless a name says
multiply-adds. Only the matrix products are counted: scaling, masking and the softmax cost O(L·S),
not O(L·S·d).
"""

from __future__ import annotations

from engine.kv_cache import kv_cache_bytes


def matmul_multiply_adds(m: int, k: int, n: int) -> int:
    """Multiply-adds of an (m×k)·(k×n) product: one per term of each of its m·n dot products of length k (Y18)."""
    return m * n * k


def matmul_flops(m: int, k: int, n: int) -> int:
    """FLOPs of an (m×k)·(k×n) product in the 2mnk convention: each multiply-add is two (Y18)."""
    return 2 * matmul_multiply_adds(m, k, n)


def attention_flops(queries: int, keys: int, d_k: int, d_v: int | None = None, heads: int = 1) -> int:
    """Forward FLOPs of attention's two products, per layer: heads × (2·L·S·d_k for Q Kᵀ + 2·L·S·d_v for P V) (Y18).

    With L = S = n and d_v = d_k that is 4n²d_k per head. d_v defaults to d_k.
    """
    d_v = d_k if d_v is None else d_v
    return heads * (matmul_flops(queries, d_k, keys) + matmul_flops(queries, keys, d_v))


def projection_flops(tokens: int, d_model: int) -> int:
    """FLOPs of a layer's four projections W_Q, W_K, W_V, W_O, each (n×d_model)·(d_model×d_model): 8·n·d_model² (Y18)."""
    return 4 * matmul_flops(tokens, d_model, d_model)


def decode_arithmetic_intensity(context: int, head_dim: int, q_heads: int, kv_heads: int, bytes_per_element: int = 2) -> float:
    """FLOPs per byte of one sequence's decode step of attention over a cache of `context` tokens, one layer (Y7).

    FLOPs: attention_flops(1, context, head_dim, heads=q_heads) = 4·t·d·h. Bytes: the cached K and V
    read once, kv_cache_bytes(1, kv_heads, head_dim, context, 1, bytes) = 2·t·d·g·b; the query and
    output (O(d) each) are left out. The ratio is 2h / (g·b): 1 for fp16 MHA, h/g times more under GQA.
    """
    flops = attention_flops(1, context, head_dim, heads=q_heads)
    return flops / kv_cache_bytes(1, kv_heads, head_dim, context, 1, bytes_per_element)


def dense_attention_hbm_bytes(n: int, d: int, bytes_per_element: int = 2) -> int:
    """HBM bytes read and written by standard attention, Algorithm 0 of Dao et al. (2022): Θ(n·d + n²) (Y13).

    Counted per element: read Q, K (2nd) and write S (n²); read S and write P = softmax(S) (2n²);
    read P, V (n² + nd) and write O (nd). In all 4nd + 4n² elements, for one head.
    """
    return (4 * n * d + 4 * n * n) * bytes_per_element


def flash_block_sizes(d: int, sram_elements: int) -> tuple[int, int]:
    """(Br, Bc) of FlashAttention's Algorithm 1 for SRAM of M elements: Bc = ⌈M / 4d⌉, Br = min(⌈M / 4d⌉, d)."""
    columns = -(-sram_elements // (4 * d))  # integer ceilings: exact for any size
    return min(columns, d), columns


def flash_attention_hbm_bytes(n: int, d: int, sram_bytes: int, bytes_per_element: int = 2) -> int:
    """HBM bytes read and written by FlashAttention's forward pass, Algorithm 1 of Dao et al. (2022), one head (Y13).

    With M = sram_bytes / bytes_per_element elements and Tc = ⌈n / Bc⌉ key blocks (`flash_block_sizes`),
    counted per element: O, ℓ, m initialised in HBM (nd + 2n); K and V read once (2nd); and for each of
    the Tc outer passes, every block of Q, O, ℓ, m read and O, ℓ, m written back (3nd + 4n). So
    3nd + 2n + Tc(3nd + 4n), which is Θ(n²d²/M) as Tc ≈ 4nd/M (the theorem asks d ≤ M ≤ nd).
    """
    _, columns = flash_block_sizes(d, sram_bytes // bytes_per_element)
    outer_passes = -(-n // columns)
    elements = 3 * n * d + 2 * n + outer_passes * (3 * n * d + 4 * n)
    return elements * bytes_per_element
