"""Masks and position ids of real batches: padding on either side, and documents packed into one row (Y12).

Masks are bool, True where a query may attend, and combine with the others by `&` (broadcasting).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

PADDING_SIDES = ("left", "right")


def _lengths(lengths: ArrayLike, S: int) -> np.ndarray:
    """`lengths` as an int array, each checked to lie in 0 … S."""
    lengths = np.asarray(lengths, dtype=np.int64)
    if lengths.ndim != 1 or np.any(lengths < 0) or np.any(lengths > S):
        raise ValueError(f"lengths must be a list of sequence lengths from 0 to {S}, got {lengths.tolist()}")
    return lengths


def real_tokens(lengths: ArrayLike, S: int, side: str = "right") -> np.ndarray:
    """Bool (B, S), True at the positions holding real tokens of sequences of the given lengths.

    side="right" puts the pads after the tokens (encoders, training); side="left" before them, so
    that every sequence of a decoder's batch ends at the same position and new tokens line up.
    """
    if side not in PADDING_SIDES:
        raise ValueError(f"side must be one of {', '.join(PADDING_SIDES)}, not {side!r}")
    lengths = _lengths(lengths, S)
    index = np.arange(S)[None, :]  # (1, S)
    if side == "right":
        return index < lengths[:, None]
    return index >= S - lengths[:, None]


def key_padding_mask(lengths: ArrayLike, S: int, side: str = "right") -> np.ndarray:
    """Bool (B, 1, 1, S), True at real keys: broadcasts over heads and queries, AND it with an (L, S) mask.

    Pad queries keep their rows; under a causal mask the leading pads of a left-padded row then have
    no allowed key (fully masked rows, E5), which `empty_rows` decides.
    """
    return real_tokens(lengths, S, side)[:, None, None, :]


def padded_position_ids(lengths: ArrayLike, S: int, side: str = "right") -> np.ndarray:
    """Int (B, S): 0, 1, … counted from each sequence's first real token; pad positions get 0.

    With left padding the real tokens start at 0 whatever the pad count, so a token's rotary or
    learned position does not depend on its batch mates. The pads' 0 is never read once they are masked.
    """
    real = real_tokens(lengths, S, side)
    return np.where(real, np.cumsum(real, axis=-1) - 1, 0)


def _document_ids(document_lengths: ArrayLike) -> np.ndarray:
    """Int (T,): for each position of the packed row, which document it belongs to."""
    document_lengths = np.asarray(document_lengths, dtype=np.int64)
    if document_lengths.ndim != 1 or np.any(document_lengths < 0):
        raise ValueError(f"document_lengths must be a list of lengths ≥ 0, got {document_lengths.tolist()}")
    return np.repeat(np.arange(len(document_lengths)), document_lengths)


def document_causal_mask(document_lengths: ArrayLike) -> np.ndarray:
    """Bool (T, T), T = Σ lengths: block-diagonal causal, True where key j ≤ query i in the same document.

    Packing documents into one row without it lets tokens attend to the documents before them.
    """
    documents = _document_ids(document_lengths)
    same_document = documents[:, None] == documents[None, :]
    return same_document & np.tri(len(documents), dtype=bool)


def packed_position_ids(document_lengths: ArrayLike) -> np.ndarray:
    """Int (T,): positions counted from 0 again at the start of each packed document."""
    documents = _document_ids(document_lengths)
    starts = np.concatenate([[0], np.cumsum(document_lengths)[:-1]]).astype(np.int64)  # each document's first index
    return np.arange(len(documents)) - starts[documents]
