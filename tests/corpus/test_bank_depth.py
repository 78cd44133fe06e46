"""The numeric questions of issue 26's bank (Y1–Y18), each key recomputed by another path.

Every key the YAML computes with an engine call is worked out here again on 20 seeds, by a
closed form written out in the test, by counting element by element, or by an identity (finite
differences, matrix powers, brute-force loops over masks), and compared with the variant's answer.
The facts the explanations lean on (a cached step is the last row of causal attention, linear
attention's two orders agree, a head's scores have rank at most d_head) are checked numerically.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import bank_parts
import engine
from quiz.bank import load_bank

PART_FILES = ("decoding.yaml", "positions.yaml", "efficient-attention.yaml", "design-why.yaml", "cross-entropy.yaml", "code-efficient.yaml")
NUMERIC_TYPES = {"number", "vector", "matrix"}
SEEDS = 20


@pytest.fixture(scope="module")
def bank():
    return load_bank()


def part_ids(bank) -> list[str]:
    return bank_parts.part_ids(bank, PART_FILES)


def variants(bank, question_id: str, seeds: int = SEEDS):
    return bank_parts.variants(bank, question_id, seeds)


def close(value, expected, rel=1e-9):
    return np.allclose(np.asarray(value, dtype=float), np.asarray(expected, dtype=float), rtol=rel, atol=1e-12)


# --- the part as a whole -----------------------------------------------------------------------


def test_the_part_has_its_questions_and_every_y_claim_is_cited(bank):
    ids = part_ids(bank)
    numeric = [i for i in ids if bank.questions[i].type in NUMERIC_TYPES]
    assert len(ids) >= 24 and len(numeric) >= 12
    assert set(numeric) == set(RECOMPUTED), "every numeric question of the part is recomputed below"
    cited = {ref for i in ids for ref in bank.questions[i].refs}
    assert {f"Y{k}" for k in range(1, 19)} <= cited


@pytest.mark.slow
def test_every_key_and_misconception_of_the_part_holds_on_100_seeds(bank):
    bank_parts.assert_self_tests_hold(bank, part_ids(bank))


# --- decoding.yaml -----------------------------------------------------------------------------


def kv_cache_beam_search_gb(x):
    # Per layer: a K tensor and a V tensor of shape (beams, kv heads, tokens, d_head).
    per_layer = 2 * math.prod([x["beams"], x["g"], x["n"], x["d"]])
    return x["layers"] * per_layer * x["b"] / 1e9


def decode_arithmetic_intensity(x):
    flops = x["h"] * (2 * x["t"] * x["d"] + 2 * x["t"] * x["d"])  # q·Kᵀ and p·V per query head
    bytes_read = 2 * x["g"] * x["t"] * x["d"] * x["b"]  # the cached K and V, read once
    assert flops / bytes_read == pytest.approx(2 * x["h"] / (x["g"] * x["b"]))
    return flops / bytes_read


def decode_step_flops_with_cache(x):
    return x["layers"] * x["h"] * 4 * x["t"] * x["d"] / 1e6


def mla_latent_cache_ratio(x):
    return 2 * x["h"] * x["d"] / (512 + 64)


def layer_forward_flops(x):
    n, d, h = x["n"], x["d_model"], x["h"]
    dh = d // h
    products = [(n, d, d)] * 4 + [(n, dh, n), (n, n, dh)] * h  # (m, k, n'): W_Q, W_K, W_V, W_O, then per head
    return sum(2 * m * k * p for m, k, p in products) / 1e9


def attention_equals_projections_length(x):
    d = x["d_model"]
    n = 2 * d
    assert 8 * n * d**2 == 4 * n**2 * d
    return n


# --- positions.yaml ----------------------------------------------------------------------------


def rope_rotate_one_pair(x):
    theta = 10000.0 ** (-2 * x["i"] / x["d"])
    z = complex(x["x"][0], x["x"][1]) * complex(math.cos(x["m"] * theta), math.sin(x["m"] * theta))
    return [z.real, z.imag]


def rotation(position: int, dim: int = 4) -> np.ndarray:
    r = np.zeros((dim, dim))
    for i in range(dim // 2):
        a = position * 10000.0 ** (-2 * i / dim)
        r[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = [[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]]
    return r


def rope_score_depends_on_offset(x):
    q, k, m, n = x["q"], x["k"], x["m"], x["m"] + x["off"]
    score = (rotation(m) @ q) @ (rotation(n) @ k)
    assert score == pytest.approx(q @ rotation(n - m) @ k, abs=1e-9)
    return score


def alibi_bias_entry(x):
    return -(2.0 ** (-8 * x["head"] / x["H"])) * x["dist"]


def alibi_weight_on_the_farthest_key(x):
    r, i = math.exp(-(2.0 ** -x["k"])), x["i"]
    return r**i * (1 - r) / (1 - r ** (i + 1))  # e^{-m i} over the geometric sum Σ_{d=0}^{i} e^{-m d}


def left_padding_position_ids(x):
    S, n = x["S"], x["n"]
    return [0] * (S - n) + list(range(n))


def packed_documents_allowed_pairs(x):
    lengths = [x["a"], x["b"], x["c"]]
    doc = [k for k, length in enumerate(lengths) for _ in range(length)]
    brute = sum(1 for i in range(len(doc)) for j in range(len(doc)) if doc[i] == doc[j] and j <= i)
    assert brute == sum(length * (length + 1) // 2 for length in lengths)
    return brute


def prefix_lm_allowed_pairs(x):
    L, p = x["L"], x["p"]
    return sum(1 for i in range(L) for j in range(L) if j <= i or j < p)


# --- efficient-attention.yaml ------------------------------------------------------------------


def sliding_window_attended_pairs(x):
    L, w = x["L"], x["w"]
    assert sum(min(i + 1, w) for i in range(L)) == w * (w + 1) // 2 + (L - w) * w
    return w * (w + 1) // 2 + (L - w) * w


def sliding_window_reach(x):
    N, w = x["N"], x["w"]
    T = N * w + 3
    i, j = np.arange(T)[:, None], np.arange(T)[None, :]
    step = ((i - j >= 0) & (i - j < w)).astype(np.float64)  # floats: BLAS, and counts up to T stay exact
    reach = np.eye(T)
    for _ in range(N):
        reach = np.minimum(reach @ step, 1.0)  # boolean matrix product: is there a path?
    last = T - 1
    return last - int(np.flatnonzero(reach[last])[0])


def causal_flash_tiles_skipped(x):
    T, b = x["T"], x["b"]
    # Tile (r, c) covers queries r·b … r·b + b − 1 and keys c·b …; all masked when its first key is after its last query.
    return sum(1 for r in range(T) for c in range(T) if c * b > r * b + b - 1)


def dense_attention_hbm_traffic(x):
    n, d, b = x["n"], x["d"], x["b"]
    steps = [2 * n * d, n * n, n * n, n * n, n * n, n * d, n * d]  # read Q,K; write S; read S; write P; read P; read V; write O
    return sum(steps) * b / 2**20


def paged_kv_cache_blocks(x):
    return sum(math.ceil(x[name] / 16) for name in ("l1", "l2", "l3", "l4"))


def linear_attention_flops_ratio(x):
    return x["n"] / x["d"]


# --- design-why.yaml and cross-entropy.yaml ----------------------------------------------------


def head_score_rank_limit(x):
    return min(x["n"], x["d_model"] // x["h"])


def duplicated_key_total_weight(x):
    s = np.asarray(x["s"], dtype=float)
    extended = np.concatenate([[s[0]], s])  # key 1 present twice
    w = np.exp(extended) / np.exp(extended).sum()
    return w[0] + w[1]


def cross_entropy_from_logits(x):
    z, y = np.asarray(x["z"], dtype=float), int(x["y"])
    return -math.log(math.exp(z[y]) / sum(math.exp(v) for v in z))


def cross_entropy_gradient_logits(x):
    z, y = np.asarray(x["z"], dtype=float), int(x["y"])

    def loss(v):
        return -v[y] + math.log(np.exp(v).sum())

    h = 1e-6
    return [(loss(z + h * e) - loss(z - h * e)) / (2 * h) for e in np.eye(z.size)]


RECOMPUTED = {
    "kv-cache-beam-search-gb": (kv_cache_beam_search_gb, 1e-9),
    "decode-arithmetic-intensity": (decode_arithmetic_intensity, 1e-9),
    "decode-step-flops-with-cache": (decode_step_flops_with_cache, 1e-9),
    "mla-latent-cache-ratio": (mla_latent_cache_ratio, 1e-9),
    "layer-forward-flops": (layer_forward_flops, 1e-9),
    "attention-equals-projections-length": (attention_equals_projections_length, 1e-9),
    "rope-rotate-one-pair": (rope_rotate_one_pair, 1e-9),
    "rope-score-depends-on-offset": (rope_score_depends_on_offset, 1e-7),
    "alibi-bias-entry": (alibi_bias_entry, 1e-9),
    "alibi-weight-on-the-farthest-key": (alibi_weight_on_the_farthest_key, 1e-9),
    "left-padding-position-ids": (left_padding_position_ids, 1e-9),
    "packed-documents-allowed-pairs": (packed_documents_allowed_pairs, 1e-9),
    "prefix-lm-allowed-pairs": (prefix_lm_allowed_pairs, 1e-9),
    "sliding-window-attended-pairs": (sliding_window_attended_pairs, 1e-9),
    "sliding-window-reach": (sliding_window_reach, 1e-9),
    "causal-flash-tiles-skipped": (causal_flash_tiles_skipped, 1e-9),
    "dense-attention-hbm-traffic": (dense_attention_hbm_traffic, 1e-9),
    "paged-kv-cache-blocks": (paged_kv_cache_blocks, 1e-9),
    "linear-attention-flops-ratio": (linear_attention_flops_ratio, 1e-9),
    "head-score-rank-limit": (head_score_rank_limit, 1e-9),
    "duplicated-key-total-weight": (duplicated_key_total_weight, 1e-9),
    "cross-entropy-from-logits": (cross_entropy_from_logits, 1e-9),
    "cross-entropy-gradient-logits": (cross_entropy_gradient_logits, 1e-6),
}


@pytest.mark.parametrize("question_id", sorted(RECOMPUTED))
def test_the_key_equals_an_independent_recomputation_on_20_seeds(bank, question_id):
    recompute, rel = RECOMPUTED[question_id]
    for variant in variants(bank, question_id):
        assert close(variant.answer, recompute(variant.values), rel=rel), variant.key


# --- facts the explanations state --------------------------------------------------------------


def test_a_cached_decode_step_is_the_last_row_of_causal_attention():
    rng = np.random.default_rng(0)
    q, k, v = rng.normal(size=(3, 9, 8))
    full = engine.attention(q, k, v, is_causal=True).output
    for t in range(9):
        step = engine.attention(q[t : t + 1], k[: t + 1], v[: t + 1]).output
        np.testing.assert_allclose(step[0], full[t], atol=1e-12)


def test_rope_second_pair_of_a_width_4_head_turns_0_01_radian_per_position():
    theta_1 = 10000.0 ** (-2 * 1 / 4)
    assert theta_1 == pytest.approx(0.01)
    angles = engine.rotary_angles(np.array([1]), 4)
    assert angles[0].tolist() == pytest.approx([1.0, 0.01])


def test_rope_keeps_norms_and_the_score_variance():
    rng = np.random.default_rng(1)
    q, k = rng.normal(size=(2, 20_000, 64))
    positions = rng.integers(0, 4096, size=20_000)
    rq, rk = engine.apply_rotary(q, positions), engine.apply_rotary(k, positions + 7)
    np.testing.assert_allclose(np.linalg.norm(rq, axis=-1), np.linalg.norm(q, axis=-1))
    assert np.var(np.sum(rq * rk, axis=-1)) == pytest.approx(64, rel=0.05)


def test_alibi_slopes_for_8_heads_are_halves_down_to_1_over_256():
    assert engine.alibi_slopes(8).tolist() == [2.0**-k for k in range(1, 9)]


def test_linear_attention_orders_agree_and_a_head_score_rank_is_at_most_d_head():
    rng = np.random.default_rng(2)
    q, k, v = (engine.elu_plus_one(rng.normal(size=(64, 8))) for _ in range(3))
    np.testing.assert_allclose((q @ k.T) @ v, q @ (k.T @ v))
    qh, kh = rng.normal(size=(2, 200, 16))
    assert np.linalg.matrix_rank(qh @ kh.T) == 16


def test_left_padded_pad_queries_have_no_allowed_key():
    S, n = 7, 3
    allowed = engine.causal_mask(S) & engine.key_padding_mask([n], S, side="left")[0, 0]
    assert not allowed[: S - n].any(axis=-1).any()
    assert allowed[S - n :].any(axis=-1).all()


def test_float32_underflows_the_softmax_of_a_logit_120_below_the_maximum():
    z = np.array([0.0, -120.0], dtype=np.float32)
    p = np.exp(z - z.max()) / np.exp(z - z.max()).sum()
    assert p[1] == 0 and np.finfo(np.float32).smallest_subnormal < 1e-44
    assert float(engine.log_softmax(z.astype(float))[1]) == pytest.approx(-120.0)


def test_mla_ratio_for_deepseek_v2_shape_is_about_57():
    # 128 heads of 128 against 512 + 64 cached numbers: the figure the claim is built on.
    ratio = 2 * 128 * 128 / (512 + 64)
    assert ratio == pytest.approx(56.9, abs=0.05)
