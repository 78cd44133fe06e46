"""Statistics of attention scores: the √d_k variance check and per-head monitoring figures."""

from dataclasses import dataclass
from typing import TypedDict

import numpy as np
from numpy.typing import ArrayLike

from engine.attention import AttentionTrace, attention
from engine.backward import attention_backward
from engine.faults import Fault
from engine.masks import causal_mask, read_attn_mask
from engine.softmax import entropy

# 1.4826 × the median absolute deviation is the standard deviation for a normal sample.
MAD_TO_STD = 1.4826


@dataclass(frozen=True)
class ScoreVariance:
    """A Monte Carlo estimate of Var(q·k) and its standard error (notes B2–B5, F3)."""

    variance: float
    standard_error: float
    n_samples: int

    def standard_errors_from(self, expected: float) -> float:
        """How many standard errors the estimate lies from `expected` (signed)."""
        return (self.variance - expected) / self.standard_error


def score_variance(
    d_k: int,
    n_samples: int,
    seed: int,
    scale: float | None = None,
    *,
    mean: float = 0.0,
    std_q: float = 1.0,
    std_k: float = 1.0,
) -> ScoreVariance:
    """Estimate Var(scale · q·k) for q, k with independent normal components.

    Each component of q is N(mean, std_q²) and of k is N(mean, std_k²); `scale=None` leaves the
    dot product unscaled. The standard error is estimated from the sample itself, so it can be used
    to judge a closed form (B4, X1, X2) without assuming it.
    """
    if d_k < 1:
        raise ValueError(f"d_k must be at least 1, got {d_k}")
    if n_samples < 2:
        raise ValueError(f"n_samples must be at least 2, got {n_samples}")
    rng = np.random.default_rng(seed)
    q = rng.normal(mean, std_q, size=(n_samples, d_k))
    k = rng.normal(mean, std_k, size=(n_samples, d_k))
    s = np.einsum("nd,nd->n", q, k)  # (n,) one dot product per sample
    if scale is not None:
        s = s * scale
    n = n_samples
    variance = s.var(ddof=1)
    fourth_moment = np.mean((s - s.mean()) ** 4)
    # Var(sample variance) = (μ₄ − (n−3)/(n−1)·σ⁴)/n, with μ₄ and σ² replaced by their estimates;
    # it cannot go negative because the sample μ₄ is at least the square of the sample variance.
    sampling_variance = (fourth_moment - (n - 3) / (n - 1) * variance**2) / n
    return ScoreVariance(
        variance=float(variance),
        standard_error=float(np.sqrt(sampling_variance)),
        n_samples=n,
    )


@dataclass(frozen=True)
class HeadStats:
    """Monitoring figures for the heads of one attention layer (notes G1, G2, G6).

    Per-head fields are arrays of shape (H,) pooled over every leading batch index. "Intended"
    keys are those the mask and the causal request allow, before any fault. "Live" rows keep at
    least one allowed key in the run itself; "measured" rows are live rows whose weights are
    finite and not all zero. Averages leave out what the NaN, inf and zero-row counts report.
    """

    E: int
    """Feature size of one head (d_k); d_model = H × E."""
    H: int
    """Number of query heads."""
    L: int
    """Number of query positions."""
    S: int
    """Number of key positions."""
    score_std_raw: np.ndarray
    """Std of Q Kᵀ over intended (query, key) pairs, pooled over batch and rows."""
    score_std_scaled: np.ndarray
    """Std of the scaled scores over the same pairs; its ratio to `score_std_raw` is the scale."""
    score_spread_scaled: np.ndarray
    """Within-row spread of the scaled scores: 1.4826 × median |score − row median| over intended
    pairs, so a normal row gives its std and a few standout keys barely move it."""
    query_norm: np.ndarray
    """Mean L2 norm of the head's query vectors over batch and positions."""
    key_norm: np.ndarray
    """Mean L2 norm of the key vectors the head reads (its key head under GQA)."""
    max_weight: np.ndarray
    """Mean over measured rows of the row's largest attention weight."""
    entropy: np.ndarray
    """Mean over measured rows of the weights' entropy in nats."""
    entropy_normalized: np.ndarray
    """Mean over measured rows of entropy ÷ log(number of intended keys), G2's fair comparison;
    rows with one intended key have no spread to measure and are left out. Above 1 when weight
    leaks to keys that were not intended."""
    row_sum_error: np.ndarray
    """Largest |Σ weights − 1| over measured rows."""
    future_weight: np.ndarray
    """Mean over measured rows of the weight on keys the causal mask forbids; NaN when no causal
    mask was requested."""
    empty_rows: np.ndarray
    """Number of (batch, query) rows left with no allowed key in the run."""
    zero_rows: np.ndarray
    """Number of live rows whose weights are all zero, as when an unshifted softmax's
    denominator overflows to inf (X4); a stable softmax gives the top key at least 1/S."""
    inputs_nonfinite: np.ndarray
    """NaN or inf entries in the head's query and in the key and value rows it reads."""
    scores_nan: np.ndarray
    """NaN entries among the scaled scores, before masking."""
    scores_inf: np.ndarray
    """±inf entries among the scaled scores, before masking."""
    weights_nan: np.ndarray
    """NaN weights in live rows (NaN in empty rows is the empty-row policy, see `empty_rows`)."""
    output_nan: np.ndarray
    """NaN entries in the head's output, all rows."""
    output_inf: np.ndarray
    """±inf entries in the head's output, all rows."""
    head_agreement: np.ndarray
    """Mean correlation of this head's scaled scores with each other head's over intended pairs;
    NaN with a single head."""
    grad_query_norm: np.ndarray | None
    """Mean over batch of the Frobenius norm of ∂L/∂Q for the head; None without an upstream
    gradient."""
    grad_key_norm: np.ndarray | None
    """As `grad_query_norm` for ∂L/∂K, each key head's figure repeated for the heads reading it."""
    grad_value_norm: np.ndarray | None
    """As `grad_key_norm` for ∂L/∂V."""

    def __post_init__(self) -> None:
        # frozen stops rebinding the fields; this stops writes into the arrays they hold
        for value in vars(self).values():
            if isinstance(value, np.ndarray):
                value.flags.writeable = False

    @property
    def effective_scale(self) -> np.ndarray:
        """Scale each head actually applied, read off the score stds before and after scaling.

        NaN for a head whose raw scores have no spread to compare.
        """
        return _ratio(self.score_std_scaled, self.score_std_raw)


class _RunOptions(TypedDict):
    """The keyword arguments `head_stats` passes alike to the forward and the backward run."""

    attn_mask: ArrayLike | None
    is_causal: bool
    scale: float | None
    enable_gqa: bool
    empty_rows: str
    fault: Fault | str | None


def head_stats(
    query: ArrayLike,
    key: ArrayLike,
    value: ArrayLike,
    grad_output: ArrayLike | None = None,
    *,
    attn_mask: ArrayLike | None = None,
    is_causal: bool = False,
    scale: float | None = None,
    enable_gqa: bool = False,
    empty_rows: str = "zero",
    fault: Fault | str | None = None,
) -> HeadStats:
    """Run attention on (..., H, L, E) inputs, with `fault` if given, and measure every head.

    Arguments as `engine.attention`; `grad_output` (..., H, L, Ev), when given, adds the gradient
    norms of the same (possibly faulty) run's backward pass.
    """
    options: _RunOptions = {
        "attn_mask": attn_mask,
        "is_causal": is_causal,
        "scale": scale,
        "enable_gqa": enable_gqa,
        "empty_rows": empty_rows,
        "fault": fault,
    }
    trace = attention(query, key, value, **options)
    grads = None
    if grad_output is not None:
        grads = attention_backward(query, key, value, grad_output, **options)
    return head_stats_from_trace(trace, query, key, value, attn_mask=attn_mask, grads=grads)


def head_stats_from_trace(
    trace: AttentionTrace,
    query: ArrayLike,
    key: ArrayLike,
    value: ArrayLike,
    *,
    attn_mask: ArrayLike | None = None,
    grads: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
) -> HeadStats:
    """Measure the heads of an attention run already traced from these inputs.

    `attn_mask` is the one the run was given: with the trace's causal request it says which keys
    were intended. `grads` is (dQ, dK, dV) from `engine.attention_backward`, if any.
    """
    query, key, value = np.asarray(query), np.asarray(key), np.asarray(value)
    if query.ndim < 3 or key.ndim != query.ndim:
        raise ValueError(
            f"head statistics need heads on axis -3: query (..., H, L, E) and key (..., H, S, E), "
            f"got {query.shape} and {key.shape}"
        )
    H, L, E = query.shape[-3:]
    S = key.shape[-2]
    groups = H // key.shape[-3]  # query heads per key/value head; 1 without GQA
    keys_read = np.repeat(key, groups, axis=-3)  # (..., H, S, E) as attention repeats them
    values_read = np.repeat(value, groups, axis=-3)  # (..., H, S, Ev)

    # float64 copies only of float32 traces: these are read, never written
    scores = trace.scores.astype(np.float64, copy=False)  # (..., H, L, S)
    scaled = trace.scaled.astype(np.float64, copy=False)  # (..., H, L, S)
    weights = trace.weights.astype(np.float64, copy=False)  # (..., H, L, S)
    intended = _intended_keys(trace, attn_mask)  # (..., H, L, S)
    pairs = intended & np.isfinite(scores) & np.isfinite(scaled)  # (..., H, L, S) pairs measured
    live = trace.allowed.any(axis=-1)  # (..., H, L)
    zero = live & np.all(weights == 0.0, axis=-1)  # (..., H, L)
    measured = live & ~zero & ~np.isnan(weights).any(axis=-1)  # (..., H, L)
    n_intended = intended.sum(axis=-1)  # (..., H, L)
    row_entropy = entropy(weights)  # (..., H, L) nats
    query_norm = np.linalg.norm(query, axis=-1)  # (..., H, L)
    key_norm = np.linalg.norm(keys_read, axis=-1)  # (..., H, S)
    if trace.causal:
        future = ~causal_mask(L, S)  # (L, S) keys after the query
        future_weight = _mean(_rows((weights * future).sum(axis=-1)), _rows(measured))
    else:
        future_weight = np.full(H, np.nan)
    grad_query_norm = grad_key_norm = grad_value_norm = None
    if grads is not None:
        d_query, d_key, d_value = grads
        grad_query_norm = _frobenius_by_head(d_query)
        grad_key_norm = _frobenius_by_head(np.repeat(d_key, groups, axis=-3))
        grad_value_norm = _frobenius_by_head(np.repeat(d_value, groups, axis=-3))

    return HeadStats(
        E=E,
        H=H,
        L=L,
        S=S,
        score_std_raw=_std(scores, pairs),
        score_std_scaled=_std(scaled, pairs),
        score_spread_scaled=_row_spread(scaled, pairs),
        query_norm=_mean(_rows(query_norm), _rows(np.isfinite(query_norm))),
        key_norm=_mean(_rows(key_norm), _rows(np.isfinite(key_norm))),
        max_weight=_mean(_rows(weights.max(axis=-1)), _rows(measured)),
        entropy=_mean(_rows(row_entropy), _rows(measured)),
        entropy_normalized=_mean(
            _rows(_ratio(row_entropy, np.log(np.maximum(n_intended, 1)))),
            _rows(measured & (n_intended > 1)),
        ),
        row_sum_error=_max(_rows(np.abs(weights.sum(axis=-1) - 1.0)), _rows(measured)),
        future_weight=future_weight,
        empty_rows=_count(_rows(~live)),
        zero_rows=_count(_rows(zero)),
        inputs_nonfinite=(
            _count(~np.isfinite(query))
            + _count(~np.isfinite(keys_read))
            + _count(~np.isfinite(values_read))
        ),
        scores_nan=_count(np.isnan(scaled)),
        scores_inf=_count(np.isinf(scaled)),
        weights_nan=_count(np.isnan(weights) & _rows(live)),
        output_nan=_count(np.isnan(trace.output)),
        output_inf=_count(np.isinf(trace.output)),
        head_agreement=_head_agreement(scaled, pairs),
        grad_query_norm=grad_query_norm,
        grad_key_norm=grad_key_norm,
        grad_value_norm=grad_value_norm,
    )


def _intended_keys(trace: AttentionTrace, attn_mask: ArrayLike | None) -> np.ndarray:
    """Bool (..., H, L, S): the keys the caller's mask and causal request allow, before faults."""
    shape = trace.weights.shape
    allowed, _ = read_attn_mask(attn_mask, shape, np.float64)
    if trace.causal:
        allowed = allowed & causal_mask(*shape[-2:])
    return np.broadcast_to(allowed, shape)


def _rows(x: ArrayLike) -> np.ndarray:
    """A per-row array (..., H, L) with a length-1 key axis, to reduce like (..., H, L, S) ones."""
    return np.asarray(x)[..., None]


def _by_head(x: ArrayLike) -> np.ndarray:
    """(..., H, A, B) → (H, n): each head's entries in one row, batch and the last axes flattened."""
    x = np.asarray(x)
    # moveaxis(x, -3, 0) as one transpose: the same order, without moveaxis's per-call checks
    # (a tenth of a head_stats call on small heads).
    lead = x.ndim - 3
    return x.transpose(lead, *range(lead), lead + 1, lead + 2).reshape(x.shape[-3], -1)


def _count(flags: np.ndarray) -> np.ndarray:
    """Number of True entries per head of a (..., H, A, B) bool array."""
    return _by_head(flags).sum(axis=1)


def _mean(x: np.ndarray, where: np.ndarray) -> np.ndarray:
    """Mean per head over the entries `where` selects; NaN for a head with none."""
    x, where = _by_head(x), _by_head(_as_shape(where, x.shape))
    total = x.sum(axis=1, where=where)
    return _ratio(total, where.sum(axis=1))


def _std(x: np.ndarray, where: np.ndarray) -> np.ndarray:
    """Standard deviation per head over the entries `where` selects; NaN for a head with none."""
    centred = x - _mean(x, where)[:, None, None]  # (..., H, A, B)
    return np.sqrt(_mean(centred**2, where))


def _max(x: np.ndarray, where: np.ndarray) -> np.ndarray:
    """Largest entry per head among those `where` selects; NaN for a head with none."""
    x, where = _by_head(x), _by_head(_as_shape(where, x.shape))
    largest = x.max(axis=1, where=where, initial=-np.inf)
    return np.where(where.any(axis=1), largest, np.nan)


def _as_shape(x: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """`x` broadcast to `shape`; np.broadcast_to costs more than the sums that follow, so only if needed."""
    return x if x.shape == shape else np.broadcast_to(x, shape)


def _ratio(numerator: ArrayLike, denominator: ArrayLike) -> np.ndarray:
    """numerator / denominator as float, NaN where the denominator is 0."""
    numerator, denominator = np.asarray(numerator), np.asarray(denominator)
    if numerator.shape != denominator.shape:
        numerator, denominator = np.broadcast_arrays(numerator, denominator)
    out = np.full(numerator.shape, np.nan)
    return np.divide(numerator, denominator, out=out, where=denominator != 0)


def _row_spread(scaled: np.ndarray, pairs: np.ndarray) -> np.ndarray:
    """Per head, MAD_TO_STD × the median |score − its row's median| over the selected pairs.

    Measuring each score against its own row ignores terms common to a row, which the softmax
    ignores too (C2, X2), and medians ignore the few keys a query truly matches (B9).
    """
    x = np.where(pairs, scaled, np.nan)  # (..., H, L, S)
    deviation = np.abs(x - nanmedian(x)[..., None])  # (..., H, L, S)
    return MAD_TO_STD * nanmedian(_by_head(deviation))  # (H,)


def nanmedian(x: np.ndarray) -> np.ndarray:
    """np.nanmedian over the last axis, NaN where a row has no number, by one sort.

    numpy's own takes a masked-array path for short rows that costs more than the rest of
    `head_stats` together; sorting puts the NaNs last, so the middle of each row's numbers
    can be read off by index.
    """
    ordered = np.sort(x, axis=-1)  # (..., n), NaNs last
    count = np.add.reduce(~np.isnan(ordered), axis=-1, keepdims=True)  # (..., 1)
    low = np.take_along_axis(ordered, np.maximum(count - 1, 0) // 2, axis=-1)
    high = np.take_along_axis(ordered, count // 2 - (count == 0), axis=-1)
    return np.where(count > 0, (low + high) / 2, np.nan)[..., 0]


def _head_agreement(scaled: np.ndarray, pairs: np.ndarray) -> np.ndarray:
    """Per head, the mean correlation of its scaled scores with every other head's.

    Only pairs measured in every head are compared, so all heads see the same positions.
    """
    common = pairs.all(axis=-3, keepdims=True)  # (..., 1, L, S)
    x = _by_head(scaled)[:, _by_head(common)[0]]  # (H, n)
    H = x.shape[0]
    if H < 2 or x.shape[1] < 2:
        return np.full(H, np.nan)
    with np.errstate(invalid="ignore", divide="ignore"):  # a constant head has no correlation
        correlation = np.corrcoef(x)  # (H, H)
    return (correlation.sum(axis=1) - 1.0) / (H - 1)


def _frobenius_by_head(grad: np.ndarray) -> np.ndarray:
    """(..., H, T, D) → (H,): each head's Frobenius norm, averaged over the batch."""
    norms = np.sqrt(np.add.reduce(grad.astype(np.float64) ** 2, axis=(-2, -1)))  # (..., H)
    return norms.reshape(-1, norms.shape[-1]).mean(axis=0)
