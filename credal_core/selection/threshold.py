r"""Dynamic classifier selection on the threshold plane (paper 004, Li, De Bock & de Cooman).

Two Laplace-smoothed naive Bayes classifiers C1 and C2 (004 §2) see two subsets of the features.
Every instance gets a *pair* of critical perturbation thresholds (004 §3,
:meth:`NaiveBayes.perturbation_threshold`): the largest IDM strength ``s`` for which the
Laplace-IDM NCC around C1 (resp. C2) still returns only C1's (C2's) class.  A new instance is
classified by whichever of C1, C2 was right more often on its ``k`` nearest training instances in
this threshold plane (004 §4), under the Euclidean or the Chebyshev distance.  Training instances tied
at the k-th smallest distance are all counted (categorical data put many instances on the same point),
so the choice does not depend on the order of the training rows.

:func:`sequential_forward_selection` chooses the two subsets as 004 does (the best and the
second-best subset found by SFS), and :mod:`credal_core.experiments.paper_004` runs 004's experiments.
"""
from __future__ import annotations

import numbers

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from ..data.counts import CountTables, as_frame, check_labels, union_categories
from ..naive.naive_bayes import NaiveBayes
from ..resampling import repeated_stratified_kfold

__all__ = ["ThresholdSelector", "sequential_forward_selection", "best_two_subsets", "resolve_features",
           "DISTANCES", "DEFAULT_K_GRID", "cv_accuracy_by_k", "selector_hits"]

DISTANCES = ("euclidean", "chebyshev")
DEFAULT_K_GRID = tuple(range(2, 21))          # 004 Fig. 3 varies k from 2 to 20
TRAINING_THRESHOLDS = ("resubstitution", "cross_validation")


# ---------------------------------------------------------------------------------------- helpers
def resolve_features(frame: pd.DataFrame, features, *, what: str) -> list:
    """Column labels of ``frame`` named by ``features`` (labels, or integer positions if not labels)."""
    if isinstance(features, (str, bytes)) or not hasattr(features, "__iter__"):
        raise ValueError(f"{what} must be a list of column names or positions; got {features!r}")
    chosen = []
    columns = list(frame.columns)
    for item in features:
        if item in columns:
            chosen.append(item)
        elif isinstance(item, numbers.Integral) and not isinstance(item, bool) and 0 <= item < len(columns):
            chosen.append(columns[int(item)])
        else:
            raise ValueError(f"{what}: {item!r} is neither a column of X ({columns}) nor a position "
                             f"0..{len(columns) - 1} (X has {len(columns)} feature(s))")
    if not chosen:
        raise ValueError(f"{what} is empty: a classifier needs at least one feature")
    if len(set(map(str, chosen))) != len(chosen):
        raise ValueError(f"{what} names a feature twice: {list(features)!r}")
    return chosen


def class_values(frame: pd.DataFrame, labels: np.ndarray) -> np.ndarray:
    """The class labels in the order NaiveBayes uses (ValueError for a single class)."""
    return NaiveBayes(prior="laplace").fit(frame.iloc[:, :1], labels).tables_.classes


def _class_codes(labels, classes) -> np.ndarray:
    return pd.Index(list(classes)).get_indexer(list(labels))


class _CodedNaiveBayes(NaiveBayes):
    """A Laplace NBC whose inputs are integer codes already local to its count tables.

    The inner loops (k by CV, SFS, the 100 splits of 004) fit thousands of small models on subsets of
    one data set; encoding the data once and counting with numpy avoids re-validating the same
    DataFrame each time.  Its tables are exactly those ``NaiveBayes.fit`` builds on the same rows
    (``|F_j|`` = values seen in those rows, every class declared), so thresholds and predictions
    are the same (the tests compare both paths).
    """

    def _encode(self, codes):
        return codes


class EncodedData:
    """A categorical data set encoded once: integer codes per column, labels as class codes."""

    def __init__(self, frame: pd.DataFrame, labels: np.ndarray, classes: np.ndarray):
        self.classes = classes
        self.labels = labels
        self.y = _class_codes(labels, classes)
        self.names = list(frame.columns)
        self.categories, codes = [], []
        for name in frame.columns:
            values = frame[name].to_numpy()
            cats = union_categories(np.asarray([], dtype=object), pd.unique(pd.Series(values, dtype=object)))
            self.categories.append(cats)
            codes.append(pd.Index(cats).get_indexer(values))
        self.codes = np.column_stack(codes)

    def fit(self, rows: np.ndarray, cols: list[int]) -> _CodedNaiveBayes:
        """Laplace NBC on ``rows`` and the columns at positions ``cols`` (every class declared, so a
        training sample missing a class keeps |C| of the whole data, as 004's P(c) requires)."""
        n_classes = len(self.classes)
        y = self.y[rows]
        categories, counts, lookups = [], [], []
        for col in cols:
            codes = self.codes[rows, col]
            seen = np.unique(codes)                            # sorted: the order from_data uses
            lookup = np.full(len(self.categories[col]), -1)
            lookup[seen] = np.arange(seen.size)
            flat = np.bincount(y * seen.size + lookup[codes], minlength=n_classes * seen.size)
            categories.append(self.categories[col][seen])
            counts.append(flat.reshape(n_classes, seen.size).astype(float))
            lookups.append(lookup)
        tables = CountTables(self.classes, categories, np.bincount(y, minlength=n_classes).astype(float),
                             counts, np.asarray([self.names[c] for c in cols], dtype=object))
        model = _CodedNaiveBayes(prior="laplace")._set_tables(tables)
        model.coded_columns_, model.lookups_ = list(cols), lookups
        return model

    def local_codes(self, model: _CodedNaiveBayes, rows: np.ndarray) -> np.ndarray:
        """Codes (len(rows), m) of ``rows`` in the model's tables (-1: a value unseen in its training)."""
        return np.column_stack([lookup[self.codes[rows, col]]
                                for lookup, col in zip(model.lookups_, model.coded_columns_)])


def pair_scores(data: EncodedData, models, rows):
    """Threshold pair (n, 2), predicted class codes (n, 2) and correctness (n, 2) on ``rows``."""
    codes = [data.local_codes(m, rows) for m in models]
    # the Laplace NBC's argmax comes with the thresholds: exactly NaiveBayes(prior="laplace").predict
    pairs = [m._threshold_and_best(c) for m, c in zip(models, codes)]
    thresholds = np.column_stack([threshold for threshold, _ in pairs])
    predicted = np.column_stack([best for _, best in pairs])
    return thresholds, predicted, predicted == data.y[rows][:, None]


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


def pairwise_distance(a: np.ndarray, b: np.ndarray, distance: str) -> np.ndarray:
    """Distances (len(a), len(b)) between points of the threshold plane."""
    diff = np.abs(a[:, None, :] - b[None, :, :])
    if distance == "euclidean":
        return np.sqrt((diff ** 2).sum(axis=2))
    return diff.max(axis=2)


def neighbourhoods(train_pairs, test_pairs, distance, ks):
    """The neighbourhoods of the test points for every k of ``ks`` (004 §4 with the tie rule below).

    The neighbourhood of size k of a test point is every training point whose distance is at most the
    k-th smallest distance :math:`d_{(k)}` (k capped at the number of training points): all the
    points tied at the boundary are in, so the result does not depend on the order of the training
    rows.  Without a tie at :math:`d_{(k)}` it is the plain k nearest.

    Returns ``order`` (t, n) and ``dist`` (t, n), the training positions and their distances sorted
    nearest first (ties by position, for display only), and ``sizes`` (t, len(ks)), the number of
    leading entries of ``order`` in each neighbourhood (>= k).
    """
    d = pairwise_distance(test_pairs, train_pairs, distance)
    order = np.argsort(d, axis=1, kind="stable")
    dist = np.take_along_axis(d, order, axis=1)
    ks = np.minimum(np.asarray(ks, dtype=int), order.shape[1])
    boundary = dist[:, ks - 1]                                              # (t, len(ks)): d_(k)
    sizes = (dist[:, :, None] <= boundary[:, None, :]).sum(axis=1)          # sorted rows: a prefix
    return order, dist, sizes


def choices_for_ks(train_correct, order, sizes) -> np.ndarray:
    """Chosen classifier (0 = C1, 1 = C2) per test instance and k: bool (t, len(ks)), True = C2.

    ``order`` and ``sizes`` as returned by :func:`neighbourhoods`.  C2 is chosen only if it was right
    strictly more often than C1 on the neighbourhood; a tie of the two counts goes to C1 (the SFS
    winner in 004's setting).
    """
    hits = np.cumsum(train_correct[order].astype(np.int64), axis=1)       # (t, n, 2)
    rows = np.arange(order.shape[0])[:, None]
    return hits[rows, sizes - 1, 1] > hits[rows, sizes - 1, 0]


def selector_hits(train_pairs, train_correct, test_pairs, predicted, y_codes, distance, ks) -> np.ndarray:
    """Number of test instances (given their pairs and C1/C2 predictions) the selector gets right, per k."""
    order, _, sizes = neighbourhoods(train_pairs, test_pairs, distance, ks)
    use_2 = choices_for_ks(train_correct, order, sizes)                     # (t, len(ks))
    chosen = np.where(use_2, predicted[:, [1]], predicted[:, [0]])
    return (chosen == y_codes[:, None]).sum(axis=0)


def cv_accuracy_by_k(data: EncodedData, rows, cols, *, distances, k_grid, training_thresholds, n_folds,
                     seed) -> dict:
    """Cross-validated accuracy of the selector for every k of ``k_grid``, per distance (004 §5).

    One stratified ``n_folds``-fold partition of the training ``rows`` (seeded); each fold is
    classified by a selector built on the other folds.  Returns ``{distance: ndarray (len(k_grid),)}``.
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


# ---------------------------------------------------------------------------------------- SFS
def sequential_forward_selection(X, y, *, n_folds: int = 5, n_repeats: int = 2,
                                 seed: int = 0) -> pd.DataFrame:
    """Sequential forward selection (SFS) for the Laplace naive Bayes classifier (004 §2, §5).

    Starting from no feature, each step adds the feature that gives the highest cross-validated
    accuracy (``n_repeats`` × stratified ``n_folds``-fold, seeded; ties: the leftmost column), until
    every feature is in.  Every subset tried is scored; the table lists them all.

    Returns
    -------
    DataFrame with one row per subset tried: ``step`` (its size), ``features`` (tuple of column
    labels, in column order), ``accuracy``, ``on_path`` (True for the subset kept at that step).
    """
    frame = as_frame(X)
    labels = check_labels(y, frame.shape[0])
    classes = class_values(frame, labels)
    folds = list(repeated_stratified_kfold(labels, n_splits=min(n_folds, len(labels)),
                                           n_repeats=n_repeats, seed=seed))
    columns = list(frame.columns)
    data = EncodedData(frame, labels, classes)

    def accuracy(subset):
        cols = [columns.index(c) for c in subset]
        hits = 0
        for train, test in folds:
            model = data.fit(train, cols)
            predicted = np.argmax(model._joint_log_likelihood(data.local_codes(model, test)), axis=0)
            hits += np.sum(predicted == data.y[test])
        return hits / (n_repeats * len(labels))    # each repeat tests every instance once

    rows, kept = [], []
    for step in range(1, len(columns) + 1):
        scored = []
        for col in columns:
            if col in kept:
                continue
            subset = [c for c in columns if c in kept or c == col]
            scored.append((accuracy(subset), -columns.index(col), col, subset))
        best = max(scored, key=lambda s: (s[0], s[1]))
        for acc, _, col, subset in scored:
            rows.append({"step": step, "features": tuple(subset), "accuracy": float(acc),
                         "on_path": col == best[2]})
        kept.append(best[2])
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


# ---------------------------------------------------------------------------------------- estimator
class ThresholdSelector(ClassifierMixin, BaseEstimator):
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

    Attributes
    ----------
    classes_ : ndarray of shape (C,)
    features_1_, features_2_ : list of column labels
    classifier_1_, classifier_2_ : NaiveBayes
    k_ : int
        The k in use (fixed or chosen by CV).
    cv_accuracy_ : DataFrame or None
        With ``k="cv"``: ``k`` and the cross-validated ``accuracy`` of the selector.
    training_thresholds_ : ndarray of shape (n, 2)
        The training points of the threshold plane (x: C1, y: C2).
    training_correct_ : ndarray of bool, shape (n, 2)
        Whether C1 / C2 classified each training instance correctly.
    sfs_table_ : DataFrame or None
        The SFS table when the subsets were chosen by SFS.

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
                 random_state: int = 0):
        self.features_1 = features_1
        self.features_2 = features_2
        self.k = k
        self.distance = distance
        self.k_grid = k_grid
        self.training_thresholds = training_thresholds
        self.n_folds = n_folds
        self.random_state = random_state

    # -- validation
    def _validate_params(self):
        if self.distance not in DISTANCES:
            raise ValueError(f"distance must be one of {DISTANCES}; got {self.distance!r}")
        if self.training_thresholds not in TRAINING_THRESHOLDS:
            raise ValueError(f"training_thresholds must be one of {TRAINING_THRESHOLDS}; "
                             f"got {self.training_thresholds!r}")
        if not _is_count(self.n_folds, 2):
            raise ValueError(f"n_folds must be an integer >= 2; got {self.n_folds!r}")
        if self.k != "cv" and not _is_count(self.k, 1):
            raise ValueError(f"k must be a positive integer or 'cv'; got {self.k!r}")
        grid = tuple(self.k_grid)
        if not grid or not all(_is_count(k, 1) for k in grid):
            raise ValueError(f"k_grid must be a non-empty list of positive integers; got {self.k_grid!r}")
        if not _is_count(self.random_state, 0):
            raise ValueError(f"random_state must be a non-negative integer (the seed of the folds); "
                             f"got {self.random_state!r}")
        if (self.features_1 is None) != (self.features_2 is None):
            raise ValueError("give both features_1 and features_2, or neither (then SFS chooses them)")

    # -- fitting
    def fit(self, X, y):
        """Fit C1 and C2, place the training instances on the threshold plane, and fix ``k``."""
        self._validate_params()
        frame = as_frame(X)
        labels = check_labels(y, frame.shape[0])
        classes = class_values(frame, labels)
        if self.features_1 is None:
            self.sfs_table_ = sequential_forward_selection(frame, labels, n_folds=self.n_folds,
                                                           seed=self.random_state)
            cols = [list(s) for s in best_two_subsets(self.sfs_table_)]
        else:
            self.sfs_table_ = None
            cols = [resolve_features(frame, f, what=w)
                    for f, w in ((self.features_1, "features_1"), (self.features_2, "features_2"))]
        self.features_1_, self.features_2_ = cols
        data = EncodedData(frame, labels, classes)
        positions = [[list(frame.columns).index(c) for c in f] for f in cols]
        everything = np.arange(len(labels))
        _, pairs, correct = fit_pair(data, everything, positions, self.training_thresholds, self.n_folds,
                                      self.random_state)
        # the public models see DataFrames (predict, explain); the coded twins above are the same NBCs
        self.classifier_1_, self.classifier_2_ = (NaiveBayes(prior="laplace").fit(frame[c], labels)
                                                  for c in cols)
        self.classes_ = self.classifier_1_.classes_
        self.training_thresholds_, self.training_correct_ = pairs, correct
        self.n_features_in_ = frame.shape[1]
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
        return self

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

    def _decide(self, X):
        frames = self._frames(X)
        models = (self.classifier_1_, self.classifier_2_)
        pairs = np.column_stack([m.perturbation_threshold(f) for m, f in zip(models, frames)])
        predicted = np.column_stack([_class_codes(m.predict(f), m.classes_) for m, f in zip(models, frames)])
        order, dist, sizes = neighbourhoods(self.training_thresholds_, pairs, self.distance, [self.k_])
        use_2 = choices_for_ks(self.training_correct_, order, sizes)[:, 0]
        sizes = sizes[:, 0]
        neighbours = [row[:m] for row, m in zip(order, sizes)]
        distances = [row[:m] for row, m in zip(dist, sizes)]
        return pairs, predicted, neighbours, distances, use_2

    def predict(self, X) -> np.ndarray:
        """The class predicted by the classifier (C1 or C2) selected for each instance."""
        _, predicted, _, _, use_2 = self._decide(X)
        return self.classes_[np.where(use_2, predicted[:, 1], predicted[:, 0])]

    def choose(self, X) -> np.ndarray:
        """Which classifier is selected per instance: int array of 1 (C1) or 2 (C2)."""
        return 1 + self._decide(X)[4].astype(int)

    def kneighbors(self, X) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """(distances, training row positions) of each instance's neighbours on the threshold plane.

        Two lists with one 1-D array per instance, nearest first: every training point at a distance
        at most the k-th smallest, so an array holds k points or more when several tie at that
        distance (ragged, unlike scikit-learn's ``KNeighborsMixin.kneighbors``).
        """
        _, _, neighbours, distances, _ = self._decide(X)
        return distances, neighbours

    def explain(self, X) -> pd.DataFrame:
        """Why each instance got its prediction: one row per instance.

        Columns: ``threshold_1``, ``threshold_2`` (its point on the plane), ``prediction_1``,
        ``prediction_2`` (what C1 and C2 say), ``neighbours`` (tuple of training row positions,
        nearest first: every training point at a distance at most the k-th smallest, ties by row
        position), ``n_neighbours`` (their number: k, or more when points tie at the k-th distance),
        ``distances``, ``hits_1``, ``hits_2`` (how many of the neighbours C1 / C2 got right),
        ``success_1``, ``success_2`` (the same as shares), ``chosen`` ("C1"/"C2") and ``prediction``.
        """
        pairs, predicted, neighbours, distances, use_2 = self._decide(X)
        hits = np.array([self.training_correct_[rows].sum(axis=0) for rows in neighbours],
                        dtype=int).reshape(-1, 2)                              # (n, 2)
        sizes = np.array([rows.size for rows in neighbours], dtype=int)
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

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        return tags


def _is_count(value, low: int) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool) and value >= low
