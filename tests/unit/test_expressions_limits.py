"""Resource exhaustion: oversized values are refused before they are allocated or computed."""

import threading

import numpy as np
import pytest

from quiz.expressions import ExpressionError, compile_expression
from quiz.expressions.limits import MAX_ELEMENTS

NAMESPACE = {"x": np.ones((4, 4)), "v": np.ones(8)}


def refusal(source: str) -> ExpressionError:
    expression = compile_expression(source, NAMESPACE)
    with pytest.raises(ExpressionError) as caught:
        expression.evaluate(NAMESPACE)
    return caught.value


@pytest.mark.parametrize(
    "source",
    [
        "zeros(10**10)",
        "ones((10**5, 10**5))",
        "full((10**5, 10**5), 1)",
        "[0] * 10**9",
        "10**9 * [0]",
        "[0] * int(1e9)",
        "'a' * 10**9",
        "('a',) * 10**9",
        "[[[0] * 1000] * 1000] * 1000",
        "10**10**10",
        "2**100000",
        "(2**4000) * (2**4000)",
        "ones(100000)[:, None] * ones(100000)",
        "ones(100000)[:, None] < ones(100000)",
        "maximum(ones(100000)[:, None], ones(100000))",
        "where(ones(100000)[:, None] > 0, 1, ones(100000))",
        "ones((5000, 5000)) @ ones((5000, 5000))",
        "ones((1000, 1000)) @ ones((1000, 1000))",
        "matmul(ones((1000, 1000)), ones((1000, 1000)))",
        "dot(ones((1000, 1000)), ones((1000, 1000)))",
        "outer(ones(100000), ones(100000))",
        "arange(10**9)",
        "arange(0, 1, 1e-9)",
        "linspace(0, 1, 10**9)",
        "eye(10**6)",
        "diag(ones(10**5))",
        "diag(ones(1), 10**6)",
        "tril(ones(10**5))",
        "softmax_jacobian(zeros(10**5))",
        "attention(ones((10**4, 4)), ones((10**4, 4)), ones((10**4, 4)))",
        "attention_backward(ones((10**4, 4)), ones((10**4, 4)), ones((10**4, 4)), ones((10**4, 4)))",
        "scaled_dot_product_attention(ones((2000, 64)), ones((2000, 64)), ones((2000, 64)))",
        "self_attention(ones((5000, 4)), ones((4, 4)), ones((4, 4)), ones((4, 4)))",
        "causal_mask(10**5)",
        "blockwise_attention(ones((1, 4)), ones((10**5, 4)), ones((10**5, 4)), 1)",
        "blockwise_attention(ones((2000, 64)), ones((2000, 64)), ones((2000, 64)), 500)",
        "repeat_kv_heads(ones((4, 1024, 64)), 10**4)",
        "apply_rotary(ones((1, 64)), arange(10**6)[:, None])",
        "rotary_angles(arange(10**6), 10**3)",
        "alibi_slopes(10**9)",
        "alibi_bias(64, 10**4)",
        "relative_position_bias(ones((32, 64)), 10**4)",
        "sliding_window_mask(10**5, 4)",
        "prefix_lm_mask(10**5, 4)",
        "key_padding_mask(ones(10**4, 'int64'), 10**4)",
        "document_causal_mask([10**5])",
        "document_causal_mask([2**62, 2**62, 2**62, 2**62])",
        "packed_position_ids([10**9])",
        "linear_attention(ones((10**4, 4)), ones((10**4, 4)), ones((10**4, 4)))",
        "linear_attention_state(ones((10**5, 4)), ones((10**5, 4)), ones((10**5, 4)))",
        "linear_attention_state(ones((1, 10**4)), ones((1, 10**4)), ones((1, 10**4)), False)",
        "tiled_attention(ones((2000, 64)), ones((2000, 64)), ones((2000, 64)), 1, 1)",
        "x[array(zeros((2000, 1)), 'int64'), array(zeros(2000), 'int64')]",
        "[ones(2**20)] * 100",
        "[ones(2**20), ones(2**20), ones(2**20), ones(2**20), ones(2**20),"
        " ones(2**20), ones(2**20), ones(2**20), ones(2**20)]",
        "int(1e300) ** 20",
        "(x + 1) ** 1e6",
        "'%*d' % (10**9, 1)",
        "sum([2**4000] * 1000)",
    ],
)
def test_resource_payloads_fail_fast(source):
    refusal(source)


def test_score_variance_sample_is_bounded():
    refusal("score_variance(10**6, 10**6, 0)")


def test_work_behind_small_results_counts_against_the_budget():
    one = "score_variance(64, 16384, 0).variance"
    assert compile_expression(one).evaluate({}) > 0
    refusal(" + ".join([one] * 5))


def test_engine_records_weigh_what_they_hold():
    one = "attention(ones((1024, 4)), ones((1024, 4)), ones((1024, 4)))"
    assert compile_expression(f"{one}.output.shape").evaluate({}) == (1024, 4)
    refusal(f"[{one}, {one}]")


def test_grouped_query_attention_counts_the_repeated_keys():
    # 1024 query heads share one key head: the scores fit, the repeated keys would not.
    source = "attention(ones((1024, 1, 4)), ones((1, 1024, 4)), ones((1, 1024, 4)), enable_gqa=True)"
    assert "repeated keys and values" in refusal(source).message


def test_the_refusal_names_the_limit():
    error = refusal("zeros(10**10)")
    assert f"{MAX_ELEMENTS:,}" in error.message
    assert "10,000,000,000" in error.message


def test_sizes_up_to_the_limit_are_allowed():
    count = MAX_ELEMENTS
    assert compile_expression(f"zeros({count}).size").evaluate({}) == count
    assert compile_expression(f"len([0] * {count})").evaluate({}) == count
    assert compile_expression("len([[0] * 1000] * 1000)").evaluate({}) == 1000


def test_limits_hold_in_a_worker_thread():
    # The app evaluates in worker threads, where signal-based timeouts cannot work.
    errors = []

    def work() -> None:
        try:
            compile_expression("ones(100000)[:, None] * ones(100000)").evaluate({})
        except ExpressionError as error:
            errors.append(error)

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert len(errors) == 1


def test_blockwise_attention_counts_its_key_blocks():
    # The scores would fit; 100,000 blocks would each be a step of a Python loop.
    source = "blockwise_attention(ones((1, 4)), ones((10**5, 4)), ones((10**5, 4)), 1)"
    assert "100,000 blocks; the limit is 4,096" in refusal(source).message
    assert compile_expression("blockwise_attention(ones((1, 4)), ones((4096, 4)), ones((4096, 4)), 1).shape").evaluate({}) == (1, 4)


@pytest.mark.parametrize(
    "source",
    ["x[0, 0] * 2**100", "x[1, 2] + 10**30", "x[True][zeros((10**4, 10**4), 'int64') > 0]", "v[array(zeros(10**8), 'int64')]"],
)
def test_the_fast_paths_for_numbers_and_plain_indexes_still_refuse_what_they_must(source):
    """Numbers skip the broadcast check and integer or slice indexes the index check; a huge
    int, a boolean or an index array still goes through them."""
    refusal(source)


def test_numbers_and_plain_indexes_give_what_numpy_gives():
    assert compile_expression("x[1, 2] * 3 + v[-1] - x[:, 0][1:][0]", NAMESPACE).evaluate(NAMESPACE) == 3.0


def test_tiled_attention_counts_its_tiles():
    # The scores would fit; 10,000 tiles would each be a step of a Python loop.
    source = "tiled_attention(ones((100, 4)), ones((100, 4)), ones((100, 4)), 1, 1)"
    assert "10,000 tiles; the limit is 4,096" in refusal(source).message
    assert compile_expression("tiled_attention(ones((64, 4)), ones((64, 4)), ones((64, 4)), 1, 1).output.shape").evaluate({}) == (64, 4)


@pytest.mark.parametrize(
    "source, message",
    [
        ("document_causal_mask([2**62, 2**62, 2**62, 2**62])", "mask would have"),
        ("linear_attention_state(ones((10**5, 4)), ones((10**5, 4)), ones((10**5, 4)))", "100,000 steps"),
        ("linear_attention_state(ones((1, 10**4)), ones((1, 10**4)), ones((1, 10**4)), False)", "linear-attention state"),
        ("apply_rotary(ones((1, 64)), arange(10**6)[:, None])", "rotated array"),
    ],
)
def test_the_new_engine_functions_are_refused_by_their_own_bound(source, message):
    assert message in refusal(source).message
