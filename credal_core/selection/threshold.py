r"""Dynamic classifier selection on the threshold plane (paper 004, Li, De Bock & de Cooman).

Two Laplace-smoothed naive Bayes classifiers C1 and C2 (004 §2) see two subsets of the features.
Every instance gets a *pair* of critical perturbation thresholds (004 §3,
:meth:`NaiveBayes.perturbation_threshold`): the largest IDM strength ``s`` for which the
Laplace-IDM NCC around C1 (resp. C2) still returns only C1's (C2's) class.  A new instance is
classified by whichever of C1, C2 was right more often on its ``k`` nearest training instances in
this threshold plane (004 §4), under the Euclidean or the Chebyshev distance.  Training instances tied
at the k-th smallest distance are all counted (categorical data put many instances on the same point),
so the choice does not depend on the order of the training rows.

The pieces live beside this module: :mod:`.encoded` (the data encoded once, counts cached per set
of training rows), :mod:`.plane` (neighbourhoods on the threshold plane, the protocol's inner loops)
and :mod:`.sfs` (004's sequential forward selection, which chooses the two subsets);
:mod:`credal_core.experiments.paper_004` runs 004's experiments.  The names the experiments use are
re-exported here.
"""
from __future__ import annotations

import numbers
from numbers import Integral

import numpy as np
import pandas as pd
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from .._base import CATEGORIES_CONSTRAINT, CategoricalClassifier
from ..data.counts import as_frame
from ..naive.naive_bayes import NaiveBayes
from .encoded import EncodedData, class_values, resolve_features
from .plane import (
    DISTANCES,
    cv_accuracy_by_k,
    distinct_thresholds,
    fit_pair,
    neighbour_rows,
    neighbourhood_counts,
    pair_scores,
    selector_hits,
)
from .sfs import best_two_subsets, forward_selection, sequential_forward_selection

__all__ = ["ThresholdSelector", "sequential_forward_selection", "best_two_subsets", "resolve_features",
           "DISTANCES", "DEFAULT_K_GRID", "cv_accuracy_by_k", "selector_hits", "class_values", "EncodedData",
           "fit_pair", "pair_scores"]

DEFAULT_K_GRID = tuple(range(2, 21))          # 004 Fig. 3 varies k from 2 to 20
TRAINING_THRESHOLDS = ("resubstitution", "cross_validation")


class ThresholdSelector(CategoricalClassifier):
    r"""Dynamic selection between two naive Bayes classifiers on the threshold plane (paper 004).

    C1 and C2 are Laplace-smoothed naive Bayes classifiers (:class:`NaiveBayes` with
    ``prior="laplace"``) on two feature subsets.  Each training instance :math:`x_i` becomes the
    point :math:`(s_1(x_i), s_2(x_i))` of critical perturbation thresholds (004 §3), labelled by
    whether C1 and C2 classify it correctly.  A new instance :math:`x` is given the prediction of

    .. math::
        \hat\jmath(x) = \begin{cases} 2 & \text{if } \sum_{i \in N_k(x)} [C_2(x_i) = y_i]
        > \sum_{i \in N_k(x)} [C_1(x_i) = y_i] \\ 1 & \text{otherwise (ties go to C1)} \end{cases}

    where :math:`N_k(x)` are the ``k`` training points nearest to :math:`(s_1(x), s_2(x))` in the
    Euclidean or the Chebyshev (:math:`\max(|\Delta s_1|, |\Delta s_2|)`) distance (004 §4, Fig. 2).

    **Ties in distance.**  On categorical data many training instances share the same pair of
    thresholds, so the k-th nearest point is often one of a group of equally distant points.  004
    does not say which of them to take; here every one of them is a neighbour:

    .. math::
        N_k(x) = \{\, i : d(x, x_i) \le d_{(k)}(x) \,\}

    with :math:`d_{(k)}(x)` the k-th smallest of the distances :math:`d(x, x_i)` (computed in
    floating point; identical points always tie).  :math:`N_k(x)` holds k points when there is no tie
    at :math:`d_{(k)}`, more otherwise, and it does not depend on the order of the training rows: with
    ``training_thresholds="resubstitution"`` refitting on row-permuted data gives the same choice for
    every instance (out-of-fold thresholds depend on the seeded folds, hence on the row order).
    ``explain`` reports the neighbours actually used.  With more than two classes
    "right" means predicting exactly the true class; the thresholds are defined for any number of
    classes (the smallest threshold over the rival classes).

    Parameters
    ----------
    features_1, features_2 : list of column names (or positions), or None
        The features of C1 and C2.  ``None`` (both): chosen on the training data by
        :func:`sequential_forward_selection`, C1 the best and C2 the second-best subset (004 §2).
    k : int or "cv", default=3
        Number of neighbours (004 Example 4 peaks at k = 3 on Balloons); points tied at the k-th
        distance are all used (see above).  ``"cv"``: chosen from ``k_grid`` by stratified
        ``n_folds``-fold cross-validation on the training set (004 §5); ties go to the smallest k.
        A k above the number of training instances uses them all.
    distance : {"euclidean", "chebyshev"}, default="euclidean"
    k_grid : tuple of int, default=(2, ..., 20)
    training_thresholds : {"resubstitution", "cross_validation"}, default="resubstitution"
        How the training points of the plane are obtained.  004 §4 searches "the training set for
        instances that have a similar pair of thresholds" with the classifiers learned on that
        training set; ``"resubstitution"`` does exactly that (each instance is part of the data its
        thresholds come from).  ``"cross_validation"`` scores each training instance by classifiers
        learned without it (``n_folds`` folds), closer to how test instances are seen.
    n_folds : int, default=5
    random_state : int >= 0, default=0
        Seed of the folds (k by CV, out-of-fold thresholds, SFS).
    categories : {"seen", "declared"} or list of lists, default="seen"
        :math:`F_j`, hence :math:`|F_j|` in the Laplace NBCs and their thresholds: the values seen in
        the training rows of each fit (C1, C2, every fold of SFS and of the cross-validations), a
        pandas Categorical column's declared categories (other columns: values seen), or explicit
        per-feature value lists (one per column of ``X``), as every other estimator's
        ``categories`` (see :meth:`CountTables.from_data`).  A declared value never seen counts in
        :math:`|F_j|` with zero counts.

    Attributes
    ----------
    classes_ : ndarray of shape (C,)
    features_1_, features_2_ : list of column labels
    classifier_1_, classifier_2_ : NaiveBayes
    k_ : int
        The k in use (fixed or chosen by CV).
    cv_accuracy_ : DataFrame or None
        With ``k="cv"``: ``k`` and the cross-validated ``accuracy`` of the selector, pooled over folds
        (hits / rows), not a mean over folds: the right answers of all ``n_folds`` folds together
        divided by the number of training rows (:func:`~credal_core.selection.plane.cv_accuracy_by_k`).
        The criterion that chooses ``k_``.
    training_thresholds_ : ndarray of shape (n, 2)
        The training points of the threshold plane (x: C1, y: C2).
    training_correct_ : ndarray of bool, shape (n, 2)
        Whether C1 / C2 classified each training instance correctly.
    sfs_table_ : DataFrame or None
        The SFS table when the subsets were chosen by SFS; its ``accuracy`` is pooled over folds
        (hits / rows), not a mean over folds (see :func:`sequential_forward_selection`).

    Examples
    --------
    >>> import pandas as pd
    >>> from credal_core.selection.threshold import ThresholdSelector
    >>> X = pd.DataFrame({"a": list("xxyyxyxy"), "b": list("pqpqqppq"), "c": list("uuuvvvuv")})
    >>> y = [0, 0, 1, 1, 0, 1, 0, 1]
    >>> sel = ThresholdSelector(features_1=["a", "b"], features_2=["a", "c"], k=3).fit(X, y)
    >>> sel.predict(X.iloc[:2]).tolist()
    [0, 0]
    >>> sel.explain(X.iloc[:1])[["n_neighbours", "chosen", "success_1", "success_2"]].to_dict("records")
    [{'n_neighbours': 6, 'chosen': 'C1', 'success_1': 1.0, 'success_2': 1.0}]

    Six training rows sit on the instance's own point (distance 0 = the 3rd-smallest): all six count.
    """

    def __init__(self, *, features_1=None, features_2=None, k=3, distance: str = "euclidean",
                 k_grid=DEFAULT_K_GRID, training_thresholds: str = "resubstitution", n_folds: int = 5,
                 random_state: int = 0, categories="seen"):
        self.features_1 = features_1
        self.features_2 = features_2
        self.k = k
        self.distance = distance
        self.k_grid = k_grid
        self.training_thresholds = training_thresholds
        self.n_folds = n_folds
        self.random_state = random_state
        self.categories = categories

    _needs_training_codes = True           # the class codes of the training rows
    _needs_training_input = True           # and the table itself: its columns, their dtypes
    _has_joint_log_likelihood = False      # a selection, not a probability model: predict only
    _parameter_constraints = {
        "features_1": "no_validation", "features_2": "no_validation",     # resolved against X at fit
        "k": [Interval(Integral, 1, None, closed="left"), StrOptions({"cv"})],
        "distance": [StrOptions(set(DISTANCES))],
        "k_grid": "no_validation",                                         # its items: _check_params
        "training_thresholds": [StrOptions(set(TRAINING_THRESHOLDS))],
        "n_folds": [Interval(Integral, 2, None, closed="left")],
        "random_state": [Interval(Integral, 0, None, closed="left")],    # the seed of the folds
        "categories": CATEGORIES_CONSTRAINT,
    }

    def _check_params(self):
        grid = tuple(self.k_grid) if np.iterable(self.k_grid) else ()
        if not grid or not all(_is_count(k, 1) for k in grid):
            raise ValueError(f"k_grid must be a non-empty list of positive integers; got {self.k_grid!r}")
        if (self.features_1 is None) != (self.features_2 is None):
            raise ValueError("give both features_1 and features_2, or neither (then SFS chooses them)")

    # -- fitting (``fit`` is the base's: the class rule, counts, ``classes_``; then this hook)
    def _fit_tables(self, tables, codes=None, y_codes=None, X=None):
        """Fit C1 and C2, place the training instances on the threshold plane, and fix ``k``.

        Missing values (NaN / None / pandas NA) are missing at random: counted per feature over the
        rows where it is present, and left out of an instance's naive product and of its critical
        threshold (computed over its observed features).  Every class of ``classes_`` (declared
        ones included: JNCC2's convention) is a class of C1 and C2.
        """
        frame = as_frame(X)
        labels = tables.classes[y_codes]
        data = EncodedData(frame, labels, tables.classes, categories=self.categories)
        if self.features_1 is None:
            self.sfs_table_ = forward_selection(data, n_folds=self.n_folds, seed=self.random_state)
            cols = [list(s) for s in best_two_subsets(self.sfs_table_)]
        else:
            self.sfs_table_ = None
            cols = [resolve_features(frame, f, what=w)
                    for f, w in ((self.features_1, "features_1"), (self.features_2, "features_2"))]
        self.features_1_, self.features_2_ = cols
        positions = [[list(frame.columns).index(c) for c in f] for f in cols]
        everything = np.arange(len(labels))
        models, pairs, correct = fit_pair(data, everything, positions, self.training_thresholds, self.n_folds,
                                          self.random_state)
        # the public models read DataFrames (predict, explain); their tables are the coded twins' own
        # (the counts NaiveBayes.fit makes of these columns, every declared class kept)
        self.classifier_1_, self.classifier_2_ = (NaiveBayes(prior="laplace").fit_counts(m.tables_)
                                                  for m in models)
        self.training_thresholds_, self.training_correct_ = pairs, correct
        self._columns = list(frame.columns)
        if self.k == "cv":
            grid = np.array(sorted(set(int(k) for k in self.k_grid)))
            accuracy = cv_accuracy_by_k(data, everything, positions, distances=(self.distance,), k_grid=grid,
                                        training_thresholds=self.training_thresholds, n_folds=self.n_folds,
                                        seed=self.random_state)[self.distance]
            self.cv_accuracy_ = pd.DataFrame({"k": grid, "accuracy": accuracy})
            best = self.cv_accuracy_["accuracy"].to_numpy()
            self.k_ = int(self.cv_accuracy_["k"].iloc[int(np.argmax(best))])   # first max: smallest k
        else:
            self.cv_accuracy_ = None
            self.k_ = int(self.k)

    # -- prediction
    def _frames(self, X):
        check_is_fitted(self, "training_thresholds_")
        frame = as_frame(X)
        if frame.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {frame.shape[1]} features, but ThresholdSelector is expecting "
                             f"{self.n_features_in_} features as input")
        if list(map(str, frame.columns)) != list(map(str, self._columns)):
            if isinstance(X, pd.DataFrame) or frame.shape[1] != len(self._columns):
                raise ValueError(f"X's columns {list(frame.columns)} differ from those seen in fit: "
                                 f"{self._columns}")
            frame = frame.set_axis(self._columns, axis=1)
        return [frame[self.features_1_], frame[self.features_2_]]

    def _scores(self, X):
        """Each instance's point on the plane (n, 2) and C1's / C2's class codes (n, 2)."""
        frames = self._frames(X)
        models = (self.classifier_1_, self.classifier_2_)
        scored = [distinct_thresholds(m, m.encode(f)) for m, f in zip(models, frames)]
        pairs = np.column_stack([threshold for threshold, _ in scored])
        predicted = np.column_stack([best for _, best in scored])
        return pairs, predicted

    def _decide(self, X):
        """Pairs (n, 2), C1/C2 class codes (n, 2), neighbourhood hits (n, 2), sizes (n,), boundaries
        :math:`d_{(k)}` (n,) and the choice (n,) (True = C2)."""
        pairs, predicted = self._scores(X)
        hits, sizes, bounds = neighbourhood_counts(self.training_thresholds_, self.training_correct_, pairs,
                                                   self.distance, [self.k_])
        hits, sizes, bounds = hits[:, 0], sizes[:, 0], bounds[:, 0]
        return pairs, predicted, hits, sizes, bounds, hits[:, 1] > hits[:, 0]

    def _neighbours(self, pairs, bounds):
        rows = [neighbour_rows(self.training_thresholds_, p, b, self.distance) for p, b in zip(pairs, bounds)]
        return [r for r, _ in rows], [d for _, d in rows]

    def predict(self, X) -> np.ndarray:
        """The class predicted by the classifier (C1 or C2) selected for each instance."""
        _, predicted, _, _, _, use_2 = self._decide(X)
        return self.classes_[np.where(use_2, predicted[:, 1], predicted[:, 0])]

    def choose(self, X) -> np.ndarray:
        """Which classifier is selected per instance: int array of 1 (C1) or 2 (C2)."""
        return 1 + self._decide(X)[5].astype(int)

    def kneighbors(self, X) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """(distances, training row positions) of each instance's neighbours on the threshold plane.

        Two lists with one 1-D array per instance, nearest first: every training point at a distance
        at most the k-th smallest, so an array holds k points or more when several tie at that
        distance (ragged, unlike scikit-learn's ``KNeighborsMixin.kneighbors``).
        """
        pairs, _, _, _, bounds, _ = self._decide(X)
        neighbours, distances = self._neighbours(pairs, bounds)
        return distances, neighbours

    def explain(self, X, k: int | None = None) -> pd.DataFrame:
        """Why each instance got its prediction: one row per instance.

        Columns: ``threshold_1``, ``threshold_2`` (its point on the plane), ``prediction_1``,
        ``prediction_2`` (what C1 and C2 say), ``neighbours`` (tuple of training row positions,
        nearest first: every training point at a distance at most the k-th smallest, ties by row
        position), ``n_neighbours`` (their number: k, or more when points tie at the k-th distance),
        ``distances``, ``hits_1``, ``hits_2`` (how many of the neighbours C1 / C2 got right),
        ``success_1``, ``success_2`` (the same as shares), ``chosen`` ("C1"/"C2") and ``prediction``.
        A missing value is left out of its instance's thresholds and predictions (MAR).

        ``k`` (default: the fitted ``k_``) sizes the neighbourhoods: the fit does not depend on it, so
        ``explain(X, k=j)`` is what a selector fitted with ``k=j`` explains.
        """
        return self.explain_each_k(X, [self.k_ if k is None else k])[0]

    def explain_each_k(self, X, ks) -> list[pd.DataFrame]:
        """:meth:`explain` for every k of ``ks`` (a list of frames in that order), the instances'
        points on the plane computed once: what a slider over k shows, in one pass."""
        ks = list(ks)
        if not ks or not all(_is_count(k, 1) for k in ks):
            raise ValueError(f"k must be whole numbers >= 1; got {ks!r}")
        ks = [int(k) for k in ks]
        pairs, predicted = self._scores(X)
        hits, sizes, bounds = neighbourhood_counts(self.training_thresholds_, self.training_correct_, pairs,
                                                   self.distance, ks)
        return [self._explained(pairs, predicted, hits[:, i], sizes[:, i], bounds[:, i])
                for i in range(len(ks))]

    def _explained(self, pairs, predicted, hits, sizes, bounds) -> pd.DataFrame:
        use_2 = hits[:, 1] > hits[:, 0]
        neighbours, distances = self._neighbours(pairs, bounds)
        return pd.DataFrame({
            "threshold_1": pairs[:, 0], "threshold_2": pairs[:, 1],
            "prediction_1": self.classes_[predicted[:, 0]], "prediction_2": self.classes_[predicted[:, 1]],
            "neighbours": [tuple(int(i) for i in row) for row in neighbours],
            "n_neighbours": sizes,
            "distances": [tuple(float(d) for d in row) for row in distances],
            "hits_1": hits[:, 0], "hits_2": hits[:, 1],
            "success_1": hits[:, 0] / sizes, "success_2": hits[:, 1] / sizes,
            "chosen": np.where(use_2, "C2", "C1"),
            "prediction": self.classes_[np.where(use_2, predicted[:, 1], predicted[:, 0])],
        })

    def training_table(self) -> pd.DataFrame:
        """The training points of the plane: thresholds, hits of C1 and C2 and the outcome label."""
        check_is_fitted(self, "training_thresholds_")
        c = self.training_correct_
        outcome = np.select([c[:, 0] & c[:, 1], c[:, 0], c[:, 1]], ["both right", "only C1", "only C2"],
                            "neither")
        return pd.DataFrame({"threshold_1": self.training_thresholds_[:, 0],
                             "threshold_2": self.training_thresholds_[:, 1],
                             "correct_1": c[:, 0], "correct_2": c[:, 1], "outcome": outcome})


def _is_count(value, low: int) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool) and value >= low
