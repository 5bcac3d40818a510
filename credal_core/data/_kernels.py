"""Compiled loops of the data layer (numba through :mod:`credal_core._compiled`), numpy kept.

:func:`integer_ranges` and :func:`integer_codes` code an integer matrix into each column's sorted
distinct values, as ``encoding._factorize_integer_matrix``'s numpy path does (a presence flag per
value slot, a rank among the present slots): integer operations only, so both paths give the same
codes and values.  One pass over the rows for the ranges and two for the flags and the codes, against
about ten whole-array numpy passes (and their temporaries).  :func:`count_cells` adds the
(feature value, class) counts of coded rows in one pass, as ``CountTables.count_and_encode``'s
``bincount`` of cell numbers does (whole counts held as floats: exact in any order).  The callers
choose the path with :func:`credal_core._compiled.numba_enabled`.
"""
from __future__ import annotations

import numpy as np

from .._compiled import compiled_kernel

__all__ = ["integer_ranges", "integer_codes", "count_cells"]


@compiled_kernel
def integer_ranges(X, lo, hi):
    """Each column's minimum and maximum of a non-empty int64 matrix X (n, m), into lo and hi (m,)."""
    n, m = X.shape
    for j in range(m):
        lo[j] = X[0, j]
        hi[j] = X[0, j]
    for i in range(1, n):
        for j in range(m):
            v = X[i, j]
            if v < lo[j]:
                lo[j] = v
            elif v > hi[j]:
                hi[j] = v


@compiled_kernel
def integer_codes(X, lo, offsets, present, codes_t):
    """Flags the value slots present (slot ``X[i, j] - lo[j] + offsets[j]``; ``present`` all false on
    entry, one slot per value of each column's range) and writes ``codes_t`` (m, n): each value's
    position among its column's present values, in increasing order."""
    n, m = X.shape
    for i in range(n):
        for j in range(m):
            present[X[i, j] - lo[j] + offsets[j]] = True
    rank = np.empty(present.shape[0], dtype=np.int64)
    for j in range(m):
        end = offsets[j + 1] if j + 1 < m else present.shape[0]
        r = 0
        for s in range(offsets[j], end):
            rank[s] = r
            if present[s]:
                r += 1
    for i in range(n):
        for j in range(m):
            codes_t[j, i] = rank[X[i, j] - lo[j] + offsets[j]]


@compiled_kernel
def count_cells(codes_t, offsets, y_codes, n_classes, flat):
    """Adds 1 to ``flat[(offsets[j] + codes_t[j, i]) * n_classes + y_codes[i]]`` for every present
    code (>= 0; missing and unseen codes are negative and count nothing)."""
    m, n = codes_t.shape
    for j in range(m):
        base = offsets[j]
        for i in range(n):
            code = codes_t[j, i]
            if code >= 0:
                flat[(base + code) * n_classes + y_codes[i]] += 1.0
