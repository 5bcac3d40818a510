"""Look-ups of per-(class, feature, value) tables for many coded instances at once (prediction)."""
from __future__ import annotations

import numpy as np

from .encoding import MISSING

__all__ = ["Gather", "lookup", "lookup_sum"]


class Gather:
    """Looks up per-(class, feature, value) tables for many instances at once.

    Built once per prediction call from integer codes (n, m); code :data:`UNSEEN` (-1) selects the
    extra last column of each feature's extended table, and code :data:`MISSING` (-2) a column of
    zeros appended after all features: a missing value adds 0 to every sum (its log-factor is 0,
    so it leaves the naive product) and :meth:`take` gives ``missing`` for it (callers working
    with counts mask it themselves).  Indices are kept feature-major (m, n) and contiguous: one
    ``take`` per class is several times faster than fancy-indexing (C, V) tables, and sums over
    features run along the fast axis.
    """

    def __init__(self, codes: np.ndarray, n_values):
        widths = np.asarray(n_values, dtype=np.int64) + 1
        offsets = np.concatenate([[0], np.cumsum(widths)[:-1]])
        self.total = int(widths.sum())
        idx = np.where(codes < 0, widths - 1, codes) + offsets
        if codes.size and codes.min() == MISSING:
            idx[codes == MISSING] = self.total
        self.idx = np.ascontiguousarray(idx.T)

    def _flat(self, extended: list, missing: float = 0.0) -> np.ndarray:
        flat = np.concatenate(extended, axis=1)
        return np.hstack([flat, np.full((flat.shape[0], 1), missing)])

    def take(self, extended: list, missing: float = 0.0) -> np.ndarray:
        """``extended[j][c, code[i, j]]`` as an array (C, m, n); ``missing`` where the code is MISSING."""
        flat = self._flat(extended, missing)
        return np.stack([row.take(self.idx) for row in flat])

    def sum(self, extended: list) -> np.ndarray:
        """``sum_j extended[j][c, code[i, j]]`` as an array (C, n) (missing values add 0)."""
        flat = self._flat(extended)
        return np.stack([row.take(self.idx).sum(axis=0) for row in flat])

    def sum_many(self, named: dict) -> dict:
        """:meth:`sum` for several table lists at once (one gather per class for all of them)."""
        names = list(named)
        flat = np.stack([self._flat(named[k]) for k in names], axis=1)                # (C, P, total)
        out = np.stack([row.take(self.idx, axis=1).sum(axis=1) for row in flat], axis=1)  # (P, C, n)
        return dict(zip(names, out))


def lookup(codes: np.ndarray, extended: list, missing: float = 0.0) -> np.ndarray:
    """``extended[j][c, codes[i, j]]`` as an array (C, m, n); see :class:`Gather`."""
    return Gather(codes, [t.shape[1] - 1 for t in extended]).take(extended, missing)


def lookup_sum(codes: np.ndarray, extended: list) -> np.ndarray:
    """``sum_j extended[j][c, codes[i, j]]`` as an array (C, n); see :class:`Gather`."""
    return Gather(codes, [t.shape[1] - 1 for t in extended]).sum(extended)
