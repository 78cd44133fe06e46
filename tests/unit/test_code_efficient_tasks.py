"""The mistake models of the cross-entropy, causal linear attention and tiled attention tasks: without a
mistake each is the engine's operation, and each mistake changes what it says it changes (Y13, Y16, Y17)."""

from __future__ import annotations

import numpy as np

import engine
from quiz.code import check_label
from quiz.code.kinds.linear_attention import flawed_linear
from quiz.code.kinds.losses import large_logits, log_of_softmax, loss_reference, onehot_in_every_row, unshifted
from quiz.code.kinds.tiled import lse_without_max, step_without_rescaling_the_output, tiled_reference, with_step, without_diagonal_mask
from quiz.code.sandbox import Call

RNG = np.random.default_rng(7)


def test_the_loss_reference_is_the_mean_of_lse_minus_the_target_logit_and_its_gradient():
    logits, targets = RNG.standard_normal((2, 3, 5)), RNG.integers(0, 5, size=(2, 3))
    loss, grad = loss_reference(Call("cross_entropy", (logits, targets), returns=2), {})
    lse = np.log(np.exp(logits).sum(axis=-1))
    assert loss.shape == () and np.isclose(loss, np.mean(lse - np.take_along_axis(logits, targets[..., None], -1)[..., 0]))
    p = np.exp(logits - lse[..., None])
    np.testing.assert_allclose(grad, (p - np.eye(5)[targets]) / 6, rtol=1e-12)


def test_at_ten_thousand_only_log_sum_exp_stays_finite():
    logits, targets = large_logits(RNG, 5, 6, 1e4, np.float64)
    call = Call("cross_entropy", (logits, targets), returns=2)
    loss, grad = loss_reference(call, {})
    assert np.isfinite(loss) and np.isfinite(grad).all() and loss > 1e4 / 5  # row 2's target sits 2·10⁴ below its row's maximum
    assert np.isinf(log_of_softmax(call, {})[0]) and np.isfinite(log_of_softmax(call, {})[1]).all()
    assert np.isnan(unshifted(call, {})[0]) and np.isnan(unshifted(call, {})[1][:2]).all()  # overflow and 0/0 rows


def test_subtracting_at_the_column_index_hits_every_row_at_every_target_class():
    logits, targets = RNG.standard_normal((3, 4)), np.array([0, 2, 2])
    _, grad = onehot_in_every_row(Call("cross_entropy", (logits, targets), returns=2), {})
    expected = engine.softmax(logits)
    expected[:, [0, 2]] -= 1
    np.testing.assert_allclose(grad, expected / 3, rtol=1e-12)


def test_the_linear_model_without_a_mistake_is_the_engines_running_state():
    q, k, v = RNG.standard_normal((2, 6, 3)), RNG.standard_normal((2, 6, 3)), RNG.standard_normal((2, 6, 4))
    call = Call("causal_linear_attention", (q, k, v))
    np.testing.assert_allclose(flawed_linear(call)[0], engine.linear_attention_state(q, k, v), rtol=1e-12)
    unmasked = flawed_linear(call, reads="all", causal_normaliser=False)[0]
    np.testing.assert_allclose(unmasked, engine.linear_attention(q, k, v, causal=False), rtol=1e-12)
    # reading the state before step t adds its key: row t is the j < t form, row 0 has nothing (0/0)
    before = flawed_linear(call, reads="before")[0]
    assert np.isnan(before[:, 0]).all()
    np.testing.assert_allclose(before[:, 3], engine.linear_attention(q[:, 3:4], k[:, :3], v[:, :3])[:, 0], rtol=1e-12)


def test_the_tiled_models_without_a_mistake_are_the_engines_and_each_mistake_changes_its_part():
    q, k, v = RNG.standard_normal((2, 9, 4)), RNG.standard_normal((2, 9, 4)), RNG.standard_normal((2, 9, 3))
    call = Call("tiled_causal_attention", (q, k, v, 2, 3), returns=2)
    output, lse = tiled_reference(call, {})
    dense = engine.attention(q, k, v, attn_mask=engine.causal_mask(9))
    np.testing.assert_allclose(output, dense.output, rtol=1e-12)
    np.testing.assert_allclose(lse, np.log(np.exp(dense.masked).sum(axis=-1)), rtol=1e-12)
    # without the rescale of the output, the lse is untouched
    np.testing.assert_allclose(with_step(call, step_without_rescaling_the_output)[1], lse, rtol=1e-12)
    # one tile of all nine positions, unmasked: plain attention over every key
    whole = without_diagonal_mask(Call("tiled_causal_attention", (q, k, v, 9, 9), returns=2), {})
    np.testing.assert_allclose(whole[0], engine.attention(q, k, v).output, rtol=1e-12)
    # the lse without the running max falls short of it by the row's largest allowed score
    np.testing.assert_allclose(lse - lse_without_max(call, {})[1], dense.masked.max(axis=-1), rtol=1e-12)


def test_a_task_whose_queries_and_keys_share_one_sequence_has_a_shapes_label_of_its_own():
    assert check_label("shapes", "en", task="tiled_attention") == "Batch and head axes, and E ≠ Ev"
    assert check_label("shapes", "ja", task="cross_entropy").startswith("バッチ軸のあるロジット")
    assert check_label("shapes", "en", task="attention") == check_label("shapes") and "L ≠ S" in check_label("shapes")
