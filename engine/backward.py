"""Analytic gradients of attention: the chain rule through the forward pipeline, last step first."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from engine.attention import attention_weights_fast, prepare_call
from engine.faults import Fault
from engine.softmax import softmax_vjp


def attention_backward(
    query: ArrayLike,
    key: ArrayLike,
    value: ArrayLike,
    grad_output: ArrayLike,
    attn_mask: ArrayLike | None = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    scale: float | None = None,
    enable_gqa: bool = False,
    *,
    empty_rows: str = "zero",
    fault: Fault | str | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(dQ, dK, dV): the gradients of Σ output ⊙ grad_output, output = attention(...).output.

    With P the weights and G = grad_output: dV = Pᵀ G; dP = G Vᵀ; dZ = P ⊙ (dP − rowsum(dP ⊙ P))
    through the softmax; dQ = scale · dZ K and dK = scale · dZᵀ Q. Under GQA a key/value head's
    gradient is the sum over the query heads that share it, as autograd gives. A row with no
    allowed key gets zero gradients under empty_rows="zero"; under "nan" its NaN weights make
    its dQ row NaN and, through the sums over rows, dK and dV too. With a fault, the gradients
    are those of the faulty forward pass. Arguments as `engine.attention`.
    """
    call = prepare_call(
        query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa, empty_rows, fault
    )
    weights = attention_weights_fast(call)  # (..., L, S), recomputed rather than stored
    grad_output = np.asarray(grad_output, dtype=weights.dtype)
    output_shape = (*weights.shape[:-1], call.value.shape[-1])
    if grad_output.shape != output_shape:
        raise ValueError(
            f"grad_output {grad_output.shape} must have the output's shape {output_shape} (..., L, Ev)"
        )

    d_value = weights.swapaxes(-2, -1) @ grad_output  # (..., S, Ev)
    d_weights = grad_output @ call.value.swapaxes(-2, -1)  # (..., L, S)
    # Forbidden keys have weight 0, so the softmax's backward already gives them no gradient.
    d_masked = softmax_vjp(weights, d_weights, axis=call.settings.softmax_axis)  # (..., L, S)
    d_scores = np.multiply(d_masked, call.settings.scale, out=d_masked)  # (..., L, S), in place
    d_query = d_scores @ call.key  # (..., L, E)
    d_key = d_scores.swapaxes(-2, -1) @ call.query  # (..., S, E)
    return call.caller_gradients(d_query, d_key, d_value)
