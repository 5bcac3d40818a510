"""Integer codes of categorical values: the code constants, category ordering and the fast coders.

A feature's categories are sorted when mutually orderable (:func:`union_categories`), so the codes do
not depend on the order rows arrive in.  :data:`UNSEEN` and :data:`MISSING` are the two codes outside
``range(len(categories))``.  Integer matrices are coded in one vectorised (or compiled) pass
(:func:`_factorize_integer_matrix`); new values are matched to known categories with
``Index.get_indexer``'s equality (:func:`_positions`, :func:`_integer_lookup`).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .._compiled import numba_enabled
from . import _kernels

__all__ = ["MISSING", "UNSEEN", "union_categories"]


UNSEEN = -1
"""Code of a test value never seen in training: it selects the extra zero-count column of
:meth:`CountTables.extended_counts`."""
MISSING = -2
"""Code of a missing test value (NaN / None / pandas NA): the feature is left out of the naive
product (factor 1, log-term 0, for every class)."""

def union_categories(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Union of two category arrays, sorted when the values are mutually orderable.

    Sorting makes the result independent of the order in which chunks arrive.
    """
    values = [*np.asarray(a, dtype=object).tolist(), *np.asarray(b, dtype=object).tolist()]
    if all(type(v) is str for v in values):
        # text only (labels, CSV columns): the same distinct values and order without pandas' Index
        # (it cost more than the counting in a fit on a few rows); str equality and order are Python's
        return np.asarray(sorted(set(values)), dtype=object)
    seen = pd.Index(a).append(pd.Index(b)).unique()
    try:
        return np.asarray(seen.sort_values(), dtype=object)
    except TypeError:  # e.g. ints mixed with strings: keep first-appearance order
        return np.asarray(seen, dtype=object)

def _sorted_categories(uniques: np.ndarray):
    """``union_categories([], uniques)`` for distinct values, and each value's position in it.

    Sorted when the values are mutually orderable (Python's ``<``, as ``Index.sort_values``),
    else in first-appearance order.  Returns (categories as an object array, positions (len,))."""
    uniques = np.asarray(uniques, dtype=object)
    try:
        order = np.argsort(uniques, kind="stable")
    except TypeError:  # e.g. ints mixed with strings: keep first-appearance order
        return uniques, np.arange(uniques.size)
    lut = np.empty(uniques.size, dtype=np.int64)
    lut[order] = np.arange(uniques.size)
    return uniques[order], lut

# An integer matrix is coded through one table of presence flags when its columns' value ranges
# add up to at most this many slots (else column by column with np.unique).
_INTEGER_SPAN_SLOTS = 1 << 22


def _factorize_integer_matrix(X: np.ndarray):
    """Codes into each column's sorted distinct values and those values, for an integer matrix.

    One flag per value slot of all columns' ranges marks the values present; a cumulative count
    numbers them in sorted order.  With numba (any dtype but uint64, whose values may not fit int64)
    the ranges, flags and codes come from the compiled loops of :mod:`._kernels`, one pass each;
    otherwise numpy works feature-major (a transposed copy: numpy's elementwise loops are slow along
    a short last axis).  Both give the same integers.  Returns (codes (m, n) int64, list of
    per-column value arrays of X's dtype), or None when the ranges are too wide (the caller then
    uses ``np.unique``).
    """
    if X.size == 0:
        return None
    compiled = numba_enabled() and X.dtype != np.uint64
    if compiled:
        X64 = np.ascontiguousarray(X, dtype=np.int64)
        lo, hi = np.empty(X.shape[1], dtype=np.int64), np.empty(X.shape[1], dtype=np.int64)
        _kernels.integer_ranges(X64, lo, hi)
        mins, maxs = lo.tolist(), hi.tolist()
    else:
        mins, maxs = X.min(axis=0).tolist(), X.max(axis=0).tolist()
    # ranges in Python integers: int64 arithmetic would wrap on extreme values (e.g. -2**63 and
    # 2**63 - 1 in one column), and uint64 values past 2**63 do not fit the int64 codes
    spans = [int(h) - int(v) + 1 for v, h in zip(mins, maxs)]
    if sum(spans) > _INTEGER_SPAN_SLOTS or max(maxs) > np.iinfo(np.int64).max:
        return None
    lo = np.asarray(mins, dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(spans)[:-1]]).astype(np.int64)
    if compiled:
        present = np.zeros(sum(spans), dtype=bool)
        codes = np.empty(X.shape[::-1], dtype=np.int64)
        _kernels.integer_codes(X64, lo, offsets, present, codes)
    else:
        slot = np.ascontiguousarray(X.T, dtype=np.int64) - (lo - offsets)[:, None]   # X never written
        present = np.bincount(slot.ravel(), minlength=sum(spans)) > 0
        rank = np.cumsum(present) - 1                     # slot -> position among present slots
        codes = np.take(rank - np.repeat(rank[offsets], spans), slot)   # each column's minimum -> 0
    values = [(lo[j] + np.flatnonzero(present[o:o + w])).astype(X.dtype)
              for j, (o, w) in enumerate(zip(offsets.tolist(), spans))]
    return codes, values

def _positions(categories: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``Index(categories).get_indexer(values)`` (-1: not a category) for distinct ``values``.

    Text against text (the usual case) through a dict: building a pandas Index of strings costs
    more than the whole lookup.  String equality is the same either way; anything else goes to
    ``get_indexer``."""
    if len(categories) <= 4096 and all(isinstance(v, str) for v in categories) and all(
            isinstance(v, str) for v in values):
        where = {v: i for i, v in enumerate(categories.tolist())}
        return np.array([where.get(v, UNSEEN) for v in values.tolist()], dtype=np.int64)
    return pd.Index(categories).get_indexer(values)


def _integer_lookup(values: np.ndarray, categories: np.ndarray, out: np.ndarray) -> bool:
    """Codes of an integer column through a lookup table, when every category is a (non-bool)
    integer; returns False (nothing written) otherwise.  Same matches as ``Index.get_indexer``."""
    cats = np.asarray(categories)
    if cats.size == 0 or not all(isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))
                                 for v in cats.tolist()):
        return False
    lo, hi = min(cats.tolist()), max(cats.tolist())
    big = np.iinfo(np.int64).max
    if hi - lo > 1_000_000 or hi > big or (values.dtype == np.uint64 and values.size and values.max() > big):
        return False                                      # (int64 arithmetic below would wrap)
    cats = cats.astype(np.int64)
    lut = np.full(hi - lo + 2, UNSEEN, dtype=np.int64)   # last slot: out of range
    lut[cats - lo] = np.arange(cats.size)
    shifted = values.astype(np.int64) - lo
    shifted[(shifted < 0) | (shifted > hi - lo)] = hi - lo + 1
    out[:] = lut[shifted]
    return True
