"""Slow references for the threshold selector with missing values (paper 004 under MAR).

* :func:`perturbation_threshold_mar`: the critical perturbation threshold from its definition, by
  bisection on ``s`` with the dominance test done by enumerating every vertex of the Laplace-IDM's
  local credal sets, over the instance's *observed* features only, each feature's conditionals
  estimated from the rows where it is present:

      P(c)   = (n(c) + 1 + s t(c)) / (N + K + s)
      P(f|c) = (n(c, f) + 1 + s t_{j,c}(f)) / (n_j(c) + |F_j| + s),   n_j(c) = sum_f n(c, f)

  with counts taken straight from the raw rows (no code of the package).
* :func:`refit_sfs`: sequential forward selection that refits a ``NaiveBayes(prior="laplace")`` on
  every fold for every subset it tries (the selector's former path, kept as the slow reference
  of the cached one).
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd

from credal_core.naive.naive_bayes import NaiveBayes
from credal_core.resampling import repeated_stratified_kfold


def encode_instance_mar(X_train: pd.DataFrame, y_train, classes, row):
    """Counts over present rows and the instance's columns; ``inst[j]`` is None where ``row[j]`` is
    missing or feature j is missing in every training row (it is then left out).  An unseen value
    gets one more zero column while |F_j| stays the number of values seen ("slot" convention)."""
    y = np.asarray(y_train)
    n_c = np.array([int(np.sum(y == c)) for c in classes])
    n_cf, inst, n_values = [], [], []
    for j, col in enumerate(X_train.columns):
        values = X_train[col].to_numpy(dtype=object)
        present = ~pd.isna(values)
        seen = sorted(set(values[present].tolist()))
        value = row[j]
        missing = value is None or (isinstance(value, float) and np.isnan(value)) or not seen
        cols = seen + ([value] if not missing and value not in seen else [])
        n_cf.append(np.array([[int(np.sum(present & (y == c) & (values == v))) for v in cols]
                              for c in classes]).reshape(len(classes), len(cols)))
        inst.append(None if missing else cols.index(value))
        n_values.append(len(seen))
    return n_c, n_cf, tuple(inst), tuple(n_values)


def laplace_scores_mar(n_c, n_cf, inst, n_values):
    """Exact (Fraction) Laplace joints over the observed features (ties are exact)."""
    K, N = len(n_c), int(np.sum(n_c))
    out = []
    for c in range(K):
        p = Fraction(int(n_c[c]) + 1, N + K)
        for j, f in enumerate(inst):
            if f is not None:
                p *= Fraction(int(n_cf[j][c, f]) + 1, int(n_cf[j][c].sum()) + n_values[j])
        out.append(p)
    return out


def min_log_ratio_mar(n_c, n_cf, inst, n_values, top, b, s):
    """min over every vertex combination of log[P(top, f~) / P(b, f~)] (observed features only)."""
    K, N = len(n_c), float(np.sum(n_c))
    grid = np.array([np.log((n_c[top] + 1 + s * (k == top)) / (N + K + s))
                     - np.log((n_c[b] + 1 + s * (k == b)) / (N + K + s)) for k in range(K)])
    for j, f in enumerate(inst):
        if f is None:
            continue
        V = n_cf[j].shape[1]
        den_top, den_b = n_cf[j][top].sum() + n_values[j] + s, n_cf[j][b].sum() + n_values[j] + s
        p_top = np.array([(n_cf[j][top, f] + 1 + s * (g == f)) / den_top for g in range(V)])
        p_b = np.array([(n_cf[j][b, f] + 1 + s * (h == f)) / den_b for h in range(V)])
        grid = np.add.outer(grid, np.subtract.outer(np.log(p_top), np.log(p_b)).ravel()).ravel()
    return float(grid.min())


_THRESHOLDS: dict = {}


def perturbation_threshold_mar(n_c, n_cf, inst, n_values, tol=1e-10):
    """sup{s >= 0: the Laplace NBC's class dominates every other class}; 0 on an exact tie.

    Remembered per process, keyed by the exact inputs (the counts themselves): duplicated rows of a
    training set, or the same subset as C1 and C2, give the same counts, and the bisection is costly."""
    key = (tuple(int(v) for v in n_c), tuple((np.shape(m), tuple(np.ravel(m).tolist())) for m in n_cf),
           tuple(inst), tuple(n_values), tol)
    if key not in _THRESHOLDS:
        _THRESHOLDS[key] = _perturbation_threshold_mar(n_c, n_cf, inst, n_values, tol)
    return _THRESHOLDS[key]


def _perturbation_threshold_mar(n_c, n_cf, inst, n_values, tol):
    scores = laplace_scores_mar(n_c, n_cf, inst, n_values)
    best = max(scores)
    if scores.count(best) > 1:
        return 0.0
    top = scores.index(best)

    def dominates(s):
        return all(min_log_ratio_mar(n_c, n_cf, inst, n_values, top, b, s) > 0
                   for b in range(len(n_c)) if b != top)

    lo, hi = 0.0, 1.0
    while dominates(hi):
        lo, hi = hi, 2.0 * hi
    while hi - lo > tol * max(1.0, hi):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if dominates(mid) else (lo, mid)
    return 0.5 * (lo + hi)


def laplace_class_mar(n_c, n_cf, inst, n_values) -> int:
    """The Laplace NBC's class (position in ``classes``); ties: the first."""
    scores = laplace_scores_mar(n_c, n_cf, inst, n_values)
    return scores.index(max(scores))


def refit_sfs(X: pd.DataFrame, y, classes, *, n_folds=5, n_repeats=2, seed=0,
              categories="seen") -> pd.DataFrame:
    """SFS refitting a Laplace NBC per (subset, fold): the same table as ``sequential_forward_selection``
    (``categories``: the NBCs' |F_j| policy; per-feature lists are given per column of ``X``)."""
    y = np.asarray(y)
    folds = list(repeated_stratified_kfold(y, n_splits=min(n_folds, len(y)), n_repeats=n_repeats, seed=seed))
    columns = list(X.columns)
    # each fold's rows are taken once (the same frames as X.iloc[rows][subset] for every subset)
    parts = [(X.iloc[train], y[train], X.iloc[test], y[test]) for train, test in folds]

    def accuracy(subset):
        hits = 0
        for X_train, y_train, X_test, y_test in parts:
            policy = categories if isinstance(categories, str) else [categories[columns.index(c)]
                                                                     for c in subset]
            model = NaiveBayes(prior="laplace", categories=policy).fit(X_train[subset], y_train,
                                                                        classes=classes)
            hits += int(np.sum(model.predict(X_test[subset]) == y_test))
        return hits / (n_repeats * len(y))

    rows, kept = [], []
    for step in range(1, len(columns) + 1):
        scored = [(accuracy([c for c in columns if c in kept or c == col]), -columns.index(col), col)
                  for col in columns if col not in kept]
        best = max(scored, key=lambda s: (s[0], s[1]))
        for acc, _, col in scored:
            rows.append({"step": step, "features": tuple(c for c in columns if c in kept or c == col),
                         "accuracy": acc, "on_path": col == best[2]})
        kept.append(best[2])
    return pd.DataFrame(rows)
