"""Brute-force LNCC critical alpha with missing values (MAR), from the definition.

The likelihood over the observed values: the class block is counted over every training row
(``n_c``), each feature block of class c over the rows where the feature is present (``n_cf[j][c]``
sums to n_j(c) <= n(c)), and the instance's term P(c, f~) multiplies only the features it
observes (``inst[j] is None`` for a missing test value).  The generic multistart SLSQP of
:mod:`tests.credal_core.brute_force` maximises it over the raw parameters, with and without the
constraint P(a, f~) <= P(b, f~); nothing here uses the closed forms of ``credal_core``.
"""
from __future__ import annotations

import numpy as np

from tests.credal_core.brute_force import _LNCCProblem, _starts


class _ObservedProblem(_LNCCProblem):
    """:class:`_LNCCProblem` whose instance term skips the missing test values."""

    def __init__(self, n_c, n_cf, inst, a, b, include_instance, used):
        filled = tuple(0 if f is None else f for f in inst)
        super().__init__(n_c, n_cf, filled, a, b, include_instance, used)
        m = len(n_cf)
        for ci in (self.ia, self.ib):
            # blocks: the class block, then (class, feature) blocks in that order
            seen = [(j, f) for j, f in enumerate(inst) if f is not None]
            entries = [ci] + [int(self.blocks[1 + ci * m + j][f]) for j, f in seen]
            vec = np.zeros(self.dim)
            np.add.at(vec, entries, 1.0)
            self.pick[ci] = vec
            self.inst_entries[ci] = entries
        self.ratio_vec = self.pick[self.ia] - self.pick[self.ib]


_SUPREMA = {}  # unconstrained suprema, keyed by the exact inputs (see lncc_critical_alpha_observed)


def lncc_critical_alpha_observed(n_c, n_cf, inst, a, b, *, include_instance, n_random=6, seed=0, tol=1e-9):
    """critical alpha of "a dominates b": sup{lik : P(a, f~) <= P(b, f~)} / sup lik (000 eq. 8)."""
    prob = _ObservedProblem(n_c, n_cf, inst, a, b, include_instance, sorted([a, b]))
    rng = np.random.default_rng(seed)
    starts = _starts(prob, rng, n_random)
    # The unconstrained supremum of (a, b) is that of (b, a): same layout (sorted classes), same
    # starts, and a likelihood symmetric in a and b, bit for bit (a sum, and np.logaddexp, which is
    # symmetric in its arguments); computed once per process for both orders.
    key = (np.asarray(n_c).tolist(), [np.asarray(t).tolist() for t in n_cf], inst, bool(include_instance),
           sorted([a, b]), n_random, seed)
    key = repr(key)
    if key not in _SUPREMA:
        _SUPREMA[key] = prob.maximise(starts)
    sup_all, arg = _SUPREMA[key]
    if prob.log_ratio(arg) <= tol:
        return 1.0
    sup_con, _ = prob.maximise(starts + [np.exp(arg)], mode="le", bound=0.0)
    return float(np.exp(sup_con - max(sup_all, sup_con)))


def observed_counts(X, y, classes, row):
    """``n_c``, ``n_cf`` (counted where each feature is present) and ``inst`` (None where the test
    row is missing) from an object matrix ``X`` with None for missing values."""
    y = np.asarray(y)
    n_c = np.array([int(np.sum(y == c)) for c in classes])
    n_cf, inst = [], []
    for j in range(X.shape[1]):
        col = X[:, j]
        seen = sorted({v for v in col if v is not None})
        value = row[j]
        cols = seen + ([value] if value is not None and value not in seen else [])
        if not cols:
            cols = ["(none)"]
        n_cf.append(np.array([[int(np.sum((y == c) & np.array([v == w for v in col]))) for w in cols]
                              for c in classes]))
        inst.append(None if value is None else cols.index(value))
    return n_c, n_cf, tuple(inst)
