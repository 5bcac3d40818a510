"""Slow reference for BMA / CMA over naive feature subsets: every subset enumerated, every model's
marginal likelihood by the sequential (Polya urn) rule, every extreme prior enumerated.

Nothing here uses the product form or the gamma-function likelihoods of the package.
Data: integer rows ``X`` (n, k) with -1 for a missing value, labels ``y`` in range(C); a feature's
values are those seen in training (``n_values[j]`` of them, codes 0..V-1); a test value
``V`` (unseen) has count 0.
"""
from __future__ import annotations

import itertools
import math

import numpy as np


def _urn_log_lik(values, n_cells, alpha_cell):
    """log P(sequence) under a Dirichlet(alpha_cell) urn over n_cells cells, one draw at a time."""
    counts = [0.0] * n_cells
    total, out = 0.0, 0.0
    for v in values:
        out += math.log((counts[v] + alpha_cell) / (total + alpha_cell * n_cells))
        counts[v] += 1
        total += 1
    return out


def feature_log_liks(X, y, n_values, n_classes, s):
    """Per feature: (log L with the class, log L without), over the rows where it is present."""
    out = []
    for j, v in enumerate(n_values):
        rows = [i for i in range(len(y)) if X[i, j] >= 0]
        with_class = sum(_urn_log_lik([X[i, j] for i in rows if y[i] == c], v, s / (n_classes * v))
                         for c in range(n_classes))
        without = _urn_log_lik([X[i, j] for i in rows], v, s / v)
        out.append((with_class, without))
    return out


def model_joint(X, y, x, g, n_values, n_classes, s):
    """P(c, x | g, D) for every class c (C,): Perks estimates, feature j class-dependent iff g[j]."""
    n = len(y)
    out = np.empty(n_classes)
    for c in range(n_classes):
        nc = sum(1 for i in range(n) if y[i] == c)
        p = (nc + s / n_classes) / (n + s)
        for j, v in enumerate(n_values):
            if x[j] < 0:
                continue
            rows = [i for i in range(n) if X[i, j] >= 0]
            if g[j]:
                cnt = sum(1 for i in rows if y[i] == c and X[i, j] == x[j])
                den = sum(1 for i in rows if y[i] == c)
                p *= (cnt + s / (n_classes * v)) / (den + s / n_classes)
            else:
                cnt = sum(1 for i in rows if X[i, j] == x[j])
                p *= (cnt + s / v) / (len(rows) + s)
        out[c] = p
    return out


class SubsetAverage:
    """Every subset's posterior weight (up to the prior) and class joint for one test instance."""

    def __init__(self, X, y, x, n_values, n_classes, s):
        k = len(n_values)
        liks = feature_log_liks(X, y, n_values, n_classes, s)
        self.subsets = list(itertools.product((0, 1), repeat=k))
        self.log_marg = np.array([sum(liks[j][0] if g[j] else liks[j][1] for j in range(k))
                                  for g in self.subsets])
        self.joints = np.array([model_joint(X, y, x, g, n_values, n_classes, s) for g in self.subsets])

    def joint(self, t):
        """sum_g P(g) P(D|g) P(c, x|g, D) (C,), up to a constant, for inclusion priors t (k,)."""
        t = np.asarray(t, dtype=float)
        logp = np.array([np.sum(np.where(np.array(g) == 1, np.log(t), np.log1p(-t))) for g in self.subsets])
        w = np.exp(logp + self.log_marg - (logp + self.log_marg).max())
        return w @ self.joints

    def vertices(self, lo, hi):
        return [np.array(v) for v in itertools.product((lo, hi), repeat=len(self.subsets[0]))]
