r"""The threshold plane of paper 004 §4: training points, neighbourhoods, and the selector's choice.

Every instance is a point :math:`(s_1, s_2)` of critical thresholds of C1 and C2.  The neighbourhood
of size k of a test point is every training point whose distance is at most the k-th smallest
distance :math:`d_{(k)}` (k capped at the number of training points):

.. math:: N_k(x) = \{\, i : d(x, x_i) \le d_{(k)}(x) \,\}

All the points tied at the boundary are in, so the result does not depend on the order of the
training rows; without a tie at :math:`d_{(k)}` it is the plain k nearest.

**Computed on distinct points.**  Categorical data put many instances on the same point, and
:math:`N_k` depends on the training points only through their distinct positions, how many rows
sit on each, and how many of those C1 and C2 got right.  So the training rows are grouped by
position (with their counts), the test rows by position too.  A k-d tree gives each distinct test
point the few distinct training points that can be in its neighbourhoods (every point within the
distance of its ``k`` nearest distinct points, which hold at least k rows); their distances are
recomputed exactly, sorted, and :math:`d_{(k)}` is where the running count of rows reaches k.  No
test-by-training distance matrix and no sort of all training rows per test point: the cost is
:math:`O((t + u) \log u)` plus the candidates.  The numbers are those of the row-by-row definition
(the distances use the same floating-point operations, and the tests compare with a loop over rows).
"""
from __future__ import annotations

import numpy as np
from scipy.spatial import cKDTree

from ..resampling import repeated_stratified_kfold
from .encoded import EncodedData

__all__ = ["DISTANCES", "pairwise_distance", "neighbourhood_counts", "neighbour_rows", "selector_hits",
           "pair_scores", "distinct_thresholds", "fit_pair", "cv_accuracy_by_k"]

DISTANCES = ("euclidean", "chebyshev")


def pairwise_distance(a: np.ndarray, b: np.ndarray, distance: str) -> np.ndarray:
    r"""Distances (len(a), len(b)) between points of the threshold plane:
    :math:`\sqrt{\Delta s_1^2 + \Delta s_2^2}` or :math:`\max(|\Delta s_1|, |\Delta s_2|)`."""
    dx = np.abs(a[:, 0, None] - b[None, :, 0])
    dy = np.abs(a[:, 1, None] - b[None, :, 1])
    if distance == "euclidean":
        return np.sqrt(dx * dx + dy * dy)
    return np.maximum(dx, dy)


def _group(train_pairs: np.ndarray, train_correct: np.ndarray):
    """Distinct training points, the rows on each, the hits of C1 / C2 there, and the row -> point map."""
    points, inverse, rows = np.unique(train_pairs, axis=0, return_inverse=True, return_counts=True)
    inverse = inverse.ravel()
    hits = np.column_stack([np.bincount(inverse, weights=train_correct[:, c], minlength=len(points))
                            for c in range(2)])
    return points, rows, hits, inverse


def neighbourhood_counts(train_pairs, train_correct, test_pairs, distance: str, ks):
    """Hits of C1 and C2 (t, len(ks), 2), sizes (t, len(ks)) and boundaries :math:`d_{(k)}`
    (t, len(ks)) of the neighbourhoods of the test points for every k of ``ks``."""
    train_pairs, test_pairs = np.asarray(train_pairs, dtype=float), np.asarray(test_pairs, dtype=float)
    ks = np.minimum(np.asarray(ks, dtype=np.int64), train_pairs.shape[0])
    points, rows_at, hits_at, _ = _group(train_pairs, np.asarray(train_correct, dtype=float))
    tests, back = np.unique(test_pairs, axis=0, return_inverse=True)
    group, near, d = _candidates(points, tests, distance, min(int(ks.max()), len(points)))
    # rows up to and including each candidate, nearest first within its test point
    cumulative = np.cumsum(rows_at[near])
    starts = np.searchsorted(group, np.arange(len(tests)))
    before = np.where(starts > 0, cumulative[starts - 1], 0)
    weights = np.column_stack([hits_at, rows_at])[near]                           # (candidates, 3)
    counts = np.empty((len(tests), ks.size, 3))
    bounds = np.empty((len(tests), ks.size))
    for i, k in enumerate(ks):
        # the first candidate at which k rows are reached: its distance is d_(k)
        bounds[:, i] = d[np.searchsorted(cumulative, before + k)]
        inside = d <= bounds[group, i]
        for w in range(3):
            counts[:, i, w] = np.bincount(group, weights=inside * weights[:, w], minlength=len(tests))
    back = back.ravel()
    counts = np.rint(counts[back]).astype(np.int64)
    return counts[:, :, :2], counts[:, :, 2], bounds[back]


def _candidates(points: np.ndarray, tests: np.ndarray, distance: str, q: int):
    """For each test point, the distinct training points that may be in its neighbourhoods.

    A k-d tree finds the ``q`` nearest distinct points (q >= k: they hold at least k rows, so
    :math:`d_{(k)}` is at most the q-th distance) and every point within that distance, widened by a
    relative 1e-8 so that the tree's own rounding cannot leave one out.  The distances are then
    recomputed exactly as :func:`pairwise_distance` does.  Returns ``group`` (test point of each
    candidate), ``near`` (its distinct training point) and ``d`` (the distance), sorted by test
    point, then distance.
    """
    p = 2 if distance == "euclidean" else np.inf
    tree = cKDTree(points)
    reach, _ = tree.query(tests, k=q, p=p)
    reach = np.asarray(reach, dtype=float).reshape(len(tests), -1)[:, -1]
    found = tree.query_ball_point(tests, r=reach * (1 + 1e-8), p=p, return_sorted=False)
    sizes = np.fromiter(map(len, found), dtype=np.int64, count=len(found))
    near = np.fromiter((i for hits in found for i in hits), dtype=np.int64, count=int(sizes.sum()))
    group = np.repeat(np.arange(len(tests)), sizes)
    dx = np.abs(tests[group, 0] - points[near, 0])
    dy = np.abs(tests[group, 1] - points[near, 1])
    d = np.sqrt(dx * dx + dy * dy) if distance == "euclidean" else np.maximum(dx, dy)
    order = np.lexsort((d, group))
    return group[order], near[order], d[order]


def neighbour_rows(train_pairs, test_point, boundary: float, distance: str):
    """Training rows (nearest first, ties by row position) and their distances, within ``boundary``."""
    d = pairwise_distance(np.asarray(test_point, dtype=float)[None, :], np.asarray(train_pairs), distance)[0]
    inside = np.flatnonzero(d <= boundary)
    order = inside[np.argsort(d[inside], kind="stable")]
    return order, d[order]


def selector_hits(train_pairs, train_correct, test_pairs, predicted, y_codes, distance, ks) -> np.ndarray:
    """Number of test instances (given their pairs and C1/C2 predictions) the selector gets right, per k.

    C2 is chosen only if it was right strictly more often than C1 on the neighbourhood; a tie of the
    two counts goes to C1 (the SFS winner in 004's setting).
    """
    hits, _, _ = neighbourhood_counts(train_pairs, train_correct, test_pairs, distance, ks)
    use_2 = hits[:, :, 1] > hits[:, :, 0]                                  # (t, len(ks))
    chosen = np.where(use_2, predicted[:, [1]], predicted[:, [0]])
    return (chosen == np.asarray(y_codes)[:, None]).sum(axis=0)


def pair_scores(data: EncodedData, models, rows):
    """Threshold pair (n, 2), predicted class codes (n, 2) and correctness (n, 2) on ``rows``."""
    pairs = [distinct_thresholds(m, data.local_codes(m, rows)) for m in models]
    thresholds = np.column_stack([threshold for threshold, _ in pairs])
    predicted = np.column_stack([best for _, best in pairs])
    return thresholds, predicted, predicted == data.y[rows][:, None]


def distinct_thresholds(model, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Thresholds (n,) and the Laplace NBC's class codes (n,) of coded instances, each distinct
    instance computed once (an instance's threshold depends on its codes only; the class comes with
    the thresholds: exactly ``NaiveBayes(prior="laplace").predict``)."""
    distinct, back = np.unique(codes, axis=0, return_inverse=True)
    if len(distinct) == len(codes):
        return model.threshold_and_best_codes(codes)
    threshold, best = model.threshold_and_best_codes(distinct)
    back = back.ravel()
    return threshold[back], best[back]


def fit_pair(data: EncodedData, rows, cols, training_thresholds, n_folds, seed):
    """Fit C1, C2 on ``rows``; return the models and the training pairs and correctness (n, 2).

    ``resubstitution`` (004 §4, read literally): the thresholds and the hits of the training
    instances come from the classifiers learned on the whole training set.  ``cross_validation``:
    out-of-fold, each fold scored by classifiers learned on the other folds.
    """
    rows = np.asarray(rows)
    models = [data.fit(rows, c) for c in cols]
    if training_thresholds == "resubstitution":
        thresholds, _, correct = pair_scores(data, models, rows)
        return models, thresholds, correct
    n = rows.size
    thresholds, correct = np.zeros((n, 2)), np.zeros((n, 2), dtype=bool)
    for train, test in repeated_stratified_kfold(data.labels[rows], n_splits=min(n_folds, n), n_repeats=1,
                                                 seed=seed):
        inner = [data.fit(rows[train], c) for c in cols]
        t, _, ok = pair_scores(data, inner, rows[test])
        thresholds[test], correct[test] = t, ok
    return models, thresholds, correct


def cv_accuracy_by_k(data: EncodedData, rows, cols, *, distances, k_grid, training_thresholds, n_folds,
                     seed) -> dict:
    """Cross-validated accuracy of the selector for every k of ``k_grid``, per distance (004 §5).

    One stratified ``n_folds``-fold partition of the training ``rows`` (seeded); each fold is
    classified by a selector built on the other folds.  Returns ``{distance: ndarray (len(k_grid),)}``:
    the accuracy **pooled over folds (hits / rows), not a mean over folds** — the right answers of all
    folds together divided by ``len(rows)`` (each row is tested once), i.e. the mean over folds
    weighted by fold size.  It is the criterion that chooses k (``ThresholdSelector(k="cv")``, 004
    Table 2's runs), not a reported evaluation figure; those are means over splits
    (:func:`credal_core.experiments.engine.summarise`).
    """
    rows = np.asarray(rows)
    hits = {d: np.zeros(len(k_grid)) for d in distances}
    n = rows.size
    for train, test in repeated_stratified_kfold(data.labels[rows], n_splits=min(n_folds, n), n_repeats=1,
                                                 seed=seed):
        models, pairs, correct = fit_pair(data, rows[train], cols, training_thresholds, n_folds, seed)
        test_pairs, predicted, _ = pair_scores(data, models, rows[test])
        for d in distances:
            hits[d] += selector_hits(pairs, correct, test_pairs, predicted, data.y[rows[test]], d, k_grid)
    return {d: h / n for d, h in hits.items()}
