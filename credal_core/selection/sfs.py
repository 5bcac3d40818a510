r"""Sequential forward selection (SFS) of feature subsets for the Laplace NBC (paper 004 §2, §5).

SFS scores every subset it tries by repeated stratified cross-validation.  Refitting a classifier
per subset and fold costs :math:`O(m)` features per fit and :math:`O(m^2)` subsets; here nothing is
refitted.  The Laplace NBC's joint log-likelihood is a sum of per-feature terms,

.. math::
    \log P(c, f_S) = \log\frac{n(c)+1}{N+|C|}
        + \sum_{j \in S} \log\frac{n(c, f_j)+1}{n_j(c)+|F_j|},

and each term depends only on the fold and the feature (:class:`~.encoded.FoldCounts`).  So the
terms of every (fold, feature) are gathered once, the kept subset's sum is carried from step to
step, and a candidate costs one addition of a (C, n_test) array.

**Same numbers as refitting.**  Floating-point sums depend on their order, and a refitted model
adds its features in column order.  Where the two best classes of an instance are within rounding
of each other (relative gap below ``1e-10``; the terms are all non-positive, so the rounding error of
a sum of m terms is below :math:`m\,\epsilon\,|\log P|`), that instance is re-scored with the terms
added in column order, exactly as the refitted model does, so an exact tie is broken the same way
(the first class) and every accuracy is identical (the tests compare with a refit-everything
reference).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..data.counts import as_frame, check_labels, declared_classes
from ..resampling import repeated_stratified_kfold
from .encoded import EncodedData, class_values

__all__ = ["sequential_forward_selection", "forward_selection", "best_two_subsets", "NEAR_TIE"]

NEAR_TIE = 1e-10     # relative gap under which an argmax is re-checked in the refitted model's order


class _FoldScorer:
    """One fold of SFS: the test rows' per-feature log terms and the kept subset's running sum."""

    def __init__(self, data: EncodedData, train: np.ndarray, test: np.ndarray):
        counts = data.fold(train)
        self.truth = data.y[test]
        self.prior = counts.log_prior()[:, None]
        # per feature, the log table and the test rows' positions in it: the (C, n_test) terms are
        # gathered when used, so memory stays O(m n) rather than O(m C n)
        self.tables = [counts.log_conditionals(col) for col in range(len(data.names))]
        self.index = [counts.term_index(col, test) for col in range(len(data.names))]
        self.kept_sum = np.zeros((len(data.classes), test.size))

    def hits(self, subset: list[int], candidate: int) -> int:
        """Right answers of the Laplace NBC on ``subset`` (column order; the kept ones + ``candidate``)."""
        joint = self.prior + (self.kept_sum + self.terms(candidate))
        best = np.argmax(joint, axis=0)
        top = joint[best, np.arange(best.size)]
        # instances whose runner-up is within rounding of the top (the top itself counts once)
        close = np.flatnonzero((joint >= top - NEAR_TIE * (1.0 + np.abs(top))).sum(axis=0) > 1)
        if close.size:
            best[close] = np.argmax(self.ordered_joint(subset, close), axis=0)
        return int(np.sum(best == self.truth))

    def ordered_joint(self, subset: list[int], rows: np.ndarray) -> np.ndarray:
        """Joint log-likelihood (C, len(rows)) summed as the refitted model sums it: features in
        column order from the first, then the prior."""
        total = self.tables[subset[0]][:, self.index[subset[0]][rows]]
        for col in subset[1:]:
            total += self.tables[col][:, self.index[col][rows]]
        return self.prior + total

    def terms(self, col: int) -> np.ndarray:
        """Log-factors (C, n_test) of column ``col`` for the fold's test rows."""
        return self.tables[col][:, self.index[col]]

    def keep(self, col: int):
        self.kept_sum += self.terms(col)


def sequential_forward_selection(X, y, *, n_folds: int = 5, n_repeats: int = 2, seed: int = 0,
                                 classes=None, categories="seen") -> pd.DataFrame:
    """Sequential forward selection (SFS) for the Laplace naive Bayes classifier (004 §2, §5).

    Starting from no feature, each step adds the feature that gives the highest cross-validated
    accuracy (``n_repeats`` × stratified ``n_folds``-fold, seeded; ties: the leftmost column), until
    every feature is in.  Every subset tried is scored; the table lists them all.  ``classes``
    declares class labels (a declared class without rows stays a class of every fold's NBC).
    Missing values are missing at random (counted per feature over the rows where it is present,
    left out of a test instance's product).  ``categories`` is the :math:`|F_j|` policy of every
    fold's NBC (``"seen"``: values seen in the fold's training rows; ``"declared"`` or per-feature
    lists: see :class:`~credal_core.selection.threshold.ThresholdSelector`).

    Returns
    -------
    DataFrame with one row per subset tried: ``step`` (its size), ``features`` (tuple of column
    labels, in column order), ``accuracy``, ``on_path`` (True for the subset kept at that step).
    ``accuracy`` is pooled over folds (hits / rows), not a mean over folds: the right answers of
    all ``n_repeats`` × ``n_folds`` folds together divided by ``n_repeats`` × the number of rows
    (each repeat tests every row once), i.e. the mean over folds weighted by fold size.  It is the
    criterion that ranks the subsets (C1 and C2: :func:`best_two_subsets`), not a reported
    evaluation figure.
    """
    frame = as_frame(X)
    labels = check_labels(y, frame.shape[0])
    declared = declared_classes(y) if classes is None else classes     # a Categorical y declares them
    return forward_selection(EncodedData(frame, labels, class_values(frame, labels, declared), categories),
                             n_folds=n_folds, n_repeats=n_repeats, seed=seed)


def forward_selection(data: EncodedData, *, n_folds: int = 5, n_repeats: int = 2,
                      seed: int = 0) -> pd.DataFrame:
    """:func:`sequential_forward_selection` on data already encoded (the selector's own); ``accuracy``
    pooled over folds (hits / rows), not a mean over folds."""
    n = len(data.labels)
    folds = [_FoldScorer(data, train, test)
             for train, test in repeated_stratified_kfold(data.labels, n_splits=min(n_folds, n),
                                                          n_repeats=n_repeats, seed=seed)]
    columns = data.names
    rows, kept = [], []
    for step in range(1, len(columns) + 1):
        scored = []
        for col in range(len(columns)):
            if col in kept:
                continue
            subset = sorted(kept + [col])
            hits = sum(fold.hits(subset, col) for fold in folds)
            # pooled over folds (hits / rows): each repeat tests every instance once
            scored.append((hits / (n_repeats * n), -col, col, subset))
        best = max(scored, key=lambda s: (s[0], s[1]))
        for acc, _, col, subset in scored:
            rows.append({"step": step, "features": tuple(columns[c] for c in subset), "accuracy": float(acc),
                         "on_path": col == best[2]})
        kept.append(best[2])
        for fold in folds:
            fold.keep(best[2])
    return pd.DataFrame(rows)


def best_two_subsets(table: pd.DataFrame) -> tuple[tuple, tuple]:
    """The best and the second-best subsets of an SFS table (004: C1 and C2).

    Ranked by accuracy, then fewer features, then the order they were tried in; the second-best is
    the best of all other subsets SFS tried (not only those on its path).
    """
    if len(table) < 2:
        raise ValueError("SFS tried fewer than two subsets (X has 1 feature(s)): C2 cannot be chosen; "
                         "give features_1 and features_2")
    ranked = table.assign(order=np.arange(len(table)), size=table["features"].map(len))
    ranked = ranked.sort_values(["accuracy", "size", "order"], ascending=[False, True, True])
    return tuple(ranked["features"].iloc[0]), tuple(ranked["features"].iloc[1])
