r"""Pair counts :math:`n(c, x_j = u, x_l = v)`: how often two feature values occur together in a class.

The sufficient statistics of every one-dependence model (SPODE / AODE, paper 001 §2.1; TAN): for
each class ``c`` and each pair of features ``j, l``, the number of training rows of class ``c``
with :math:`x_j = u` and :math:`x_l = v`, **both present** (missing at random: a row counts in a
pair's table only where both values are observed).  The diagonal block of feature ``j`` holds the
single counts :math:`n(c, x_j = u)` over the rows where ``j`` is present.

Layout: one array ``(C, W, W)`` over the concatenated *slots* of all features — feature ``j``'s
values take slots ``offsets[j] .. offsets[j] + n_values[j] - 1`` and one more slot for a value
unseen in training (always 0 here), so ``W = sum(n_values + 1)`` (:func:`slot_offsets`).  The table
is symmetric, ``n[c, p, q] = n[c, q, p]``.  Counts are integers held as floats (exact).

With numba (see :mod:`credal_core._compiled`) one compiled pass over the rows; otherwise numpy
``bincount`` over row chunks.  Both give the same integers.
"""
from __future__ import annotations

import numpy as np

from .._compiled import compiled_kernel, numba_enabled

__all__ = ["pair_counts", "slot_offsets"]

# Cells per counting chunk of the numpy path: bounds its work arrays (8 bytes x 2**20 = 8 MiB each).
_CHUNK_CELLS = 2 ** 20
# Tables up to this size are mirrored (pairs j > l from j < l) with one temporary copy; larger ones
# block by block, with no table-sized temporary.
_SMALL_TABLE_BYTES = 64 * 2 ** 20


def slot_offsets(n_values) -> np.ndarray:
    """First slot of each feature (k,): features take ``n_values[j] + 1`` slots (the last: unseen)."""
    widths = np.asarray(n_values, dtype=np.int64) + 1
    return np.concatenate([[0], np.cumsum(widths)[:-1]]).astype(np.int64)


def pair_counts(codes: np.ndarray, y_codes: np.ndarray, n_classes: int, n_values) -> np.ndarray:
    r"""The pair counts :math:`n(c, p, q)` of the training rows, shape (C, W, W) (see the module doc).

    Parameters
    ----------
    codes : ndarray of int, shape (n, k)
        Feature codes in ``[0, n_values[j])``, or a negative code (``MISSING``) for a missing value.
    y_codes : ndarray of int, shape (n,)
        Class codes in ``[0, n_classes)``.
    n_classes : int
    n_values : sequence of int, shape (k,)
        Number of values of each feature.

    Returns
    -------
    ndarray of float, shape (C, W, W)
        ``[c, offsets[j] + u, offsets[l] + v]`` = rows of class ``c`` with :math:`x_j = u` and
        :math:`x_l = v` (both present); ``[c, p, p]`` = rows of class ``c`` with value ``p``.

    Examples
    --------
    >>> import numpy as np
    >>> counts = pair_counts(np.array([[0, 1], [0, 1], [1, -2]]), np.array([0, 0, 1]), 2, [2, 2])
    >>> int(counts[0, 0, 3 + 1])          # class 0, x_0 = 0 and x_1 = 1 (feature 1 starts at slot 3)
    2
    """
    C = int(n_classes)
    n_values = np.asarray(n_values, dtype=np.int64)
    offsets = slot_offsets(n_values)
    widths = (n_values + 1).tolist()
    W = int(sum(widths))
    codes = np.asarray(codes)
    y_codes = np.asarray(y_codes, dtype=np.int64)
    n, k = codes.shape
    idx = np.ascontiguousarray(codes.T, dtype=np.int64) + offsets[:, None]
    idx[idx < offsets[:, None]] = -1                               # missing -> -1
    counts = np.zeros((C, W, W))
    if numba_enabled():                   # the same integer counts, row by row
        diag = np.zeros((C, W))
        _count_rows(idx, y_codes, counts, diag)
    else:
        diag = np.zeros(C * W, dtype=np.int64)
        step = max(1, _CHUNK_CELLS // max(1, k * (k - 1) // 2, k))
        for start in range(0, n, step):
            block, yb = idx[:, start:start + step], y_codes[start:start + step]
            complete = bool(block.size == 0 or block.min() >= 0)
            cells = yb * W + block                                      # (k, b): n(c, p)
            diag += np.bincount(cells.ravel() if complete else cells[block >= 0], minlength=C * W)
            for j, (off, w) in enumerate(zip(offsets[:-1].tolist(), widths[:-1])):
                base = (yb * w + block[j] - off) * W                    # (b,) slab row start
                cells = base + block[j + 1:]                            # (k - j - 1, b)
                if not complete:
                    cells = cells[(block[j] >= 0) & (block[j + 1:] >= 0)]
                counts[:, off:off + w, :] += np.bincount(cells.ravel(), minlength=C * w * W).reshape(C, w, W)
    if 8 * C * W * W <= _SMALL_TABLE_BYTES:
        counts += counts.transpose(0, 2, 1)          # a temporary copy of a small table
    else:                                            # block by block: no table-sized temporary
        for j, (oj, wj) in enumerate(zip(offsets.tolist(), widths)):
            for ol, wl in zip(offsets[j + 1:].tolist(), widths[j + 1:]):
                counts[:, ol:ol + wl, oj:oj + wj] = counts[:, oj:oj + wj, ol:ol + wl].transpose(0, 2, 1)
    counts.reshape(C, W * W)[:, ::W + 1] = diag.reshape(C, W)
    return counts


@compiled_kernel
def _count_rows(idx, y, counts, diag):
    """Add n(c, p, q) for j < l (p the slot of feature j, q of l, both present) into ``counts``
    (C, W, W) and n(c, p) into ``diag`` (C, W); the caller mirrors j > l and sets the diagonal.
    Integer counts held as floats: exact, in any order."""
    k, n = idx.shape
    slots = np.empty(k, dtype=np.int64)
    for i in range(n):
        c = y[i]
        for j in range(k):
            slots[j] = idx[j, i]
        for j in range(k):
            p = slots[j]
            if p < 0:
                continue
            diag[c, p] += 1.0
            for m in range(j + 1, k):
                q = slots[m]
                if q >= 0:
                    counts[c, p, q] += 1.0
