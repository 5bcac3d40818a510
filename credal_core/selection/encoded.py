r"""One data set encoded once for the threshold selector's inner loops, with counts cached per fold.

Paper 004's protocol fits thousands of Laplace naive Bayes classifiers (SFS, k by cross-validation,
out-of-fold thresholds, 100 splits) on subsets of the rows and columns of one data set.  The data
are encoded once by the data layer (:meth:`CountTables.encode`: the values seen in the data set,
or the declared ones under a ``categories`` policy); the counts of a set of training rows are
computed once (:meth:`CountTables.from_codes`, each feature's values restricted to those seen in
those rows unless the policy fixes them, :class:`FoldCounts`) and every classifier on those rows,
whatever its feature subset, is assembled from them.  The tables are exactly those
``NaiveBayes(prior="laplace", categories=...).fit`` builds on the same rows and columns (its
:math:`F_j`, every declared class), so predictions and thresholds are the same numbers (the tests
compare both paths).

Missing values (NaN / None / pandas NA) are missing at random, the package's convention
(:mod:`credal_core.data.counts`): a training row with feature ``j`` missing counts in ``n(c)`` but
not in feature ``j``'s table, and a missing test value has code :data:`MISSING` (left out of the
naive product).
"""
from __future__ import annotations

import numbers
import warnings

import numpy as np
import pandas as pd

from ..data.counts import MISSING, UNSEEN, CountTables, check_categories_policy
from ..naive.naive_bayes import NaiveBayes

__all__ = ["EncodedData", "FoldCounts", "class_values", "fixed_categories", "resolve_features", "MISSING",
           "UNSEEN"]

# FoldCounts kept per EncodedData: fit_pair and the k-by-CV loop fit C1 and C2 on the same rows.
_CACHED_FOLDS = 4


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


def class_values(frame: pd.DataFrame, labels: np.ndarray, classes=None) -> np.ndarray:
    """The class labels in the order NaiveBayes uses: those of ``labels`` and the declared ``classes``.

    ValueError for a single class or a label outside the declared ``classes``.
    """
    values = CountTables.from_data(frame.iloc[:, :1], labels, classes=classes).classes
    if len(values) < 2:
        raise ValueError(f"y has only one class ({values[0]!r}) in {len(labels)} sample(s); a classifier "
                         "needs at least two classes")
    return values


class _CodedNaiveBayes(NaiveBayes):
    """A Laplace NBC whose inputs are integer codes already local to its count tables."""

    def _encode(self, codes):
        return codes


def fixed_categories(frame: pd.DataFrame, categories) -> np.ndarray:
    """Bool (m,): the features whose values :math:`F_j` the ``categories`` policy fixes.

    Per-feature lists fix every feature; ``"declared"`` fixes the pandas Categorical columns (their
    declared categories); the other features (all of them under ``"seen"``) take the values seen in
    the training rows of each fit.
    """
    policy = check_categories_policy(categories, frame.shape[1])
    if not isinstance(policy, str):
        return np.ones(frame.shape[1], dtype=bool)
    if policy == "seen":
        return np.zeros(frame.shape[1], dtype=bool)
    return np.array([isinstance(dtype, pd.CategoricalDtype) for dtype in frame.dtypes], dtype=bool)


class EncodedData:
    """A categorical data set encoded once: integer codes per column, labels as class codes.

    ``codes[i, j]`` indexes ``categories[j]`` (every value of column ``j`` in the whole data set,
    sorted, or the values the ``categories`` policy declares) or is :data:`MISSING`; ``y[i]``
    indexes ``classes``.

    Parameters
    ----------
    frame : DataFrame of shape (n, m)
        Categorical features.
    labels : ndarray of shape (n,)
        Class labels.
    classes : ndarray of shape (C,)
        Every class (:func:`class_values`).
    categories : {"seen", "declared"} or list of lists, default="seen"
        The :math:`|F_j|` policy of :meth:`CountTables.from_data`: the values seen in the training
        rows of each fit, a pandas Categorical column's declared categories, or per-feature lists.
        The fixed ones (:func:`fixed_categories`) are kept, with zero counts, in every fit.
    """

    def __init__(self, frame: pd.DataFrame, labels: np.ndarray, classes: np.ndarray, categories="seen"):
        self.classes = np.asarray(classes, dtype=object)
        self.labels = labels
        self.y = pd.Index(list(self.classes)).get_indexer(list(labels))
        self.names = list(frame.columns)
        self.fixed = fixed_categories(frame, categories)
        # the data layer's encoding: values seen in these rows (or declared), missing cells MISSING
        tables = CountTables.from_data(frame, labels, classes=self.classes, categories=categories)
        self.categories = list(tables.categories)
        self.codes = tables.encode(frame, who="ThresholdSelector")
        self._folds: dict = {}

    def fold(self, rows) -> FoldCounts:
        """The counts of the training ``rows`` (cached: the last few sets of rows are kept)."""
        rows = np.asarray(rows, dtype=np.int64)
        key = rows.tobytes()
        counts = self._folds.get(key)
        if counts is None:
            if len(self._folds) >= _CACHED_FOLDS:
                self._folds.pop(next(iter(self._folds)))
            counts = self._folds[key] = FoldCounts(self, rows)
        return counts

    def fit(self, rows, cols: list[int]) -> _CodedNaiveBayes:
        """Laplace NBC on ``rows`` and the columns at positions ``cols`` (every class declared, so a
        training sample missing a class keeps |C| of the whole data, as 004's P(c) requires)."""
        return self.fold(rows).model(cols)

    def local_codes(self, model: _CodedNaiveBayes, rows: np.ndarray) -> np.ndarray:
        """Codes (len(rows), m) of ``rows`` in the model's tables (:data:`UNSEEN`: a value unseen in its
        training rows; :data:`MISSING`: a missing value)."""
        return np.column_stack([lut[self.codes[rows, col] + 2]
                                for lut, col in zip(model.lookups_, model.coded_columns_)])


class FoldCounts:
    r"""Count tables of one set of training rows, computed once for every classifier on those rows.

    For feature ``j``: the values seen (present) in the rows, or every value the data's
    ``categories`` policy fixes (:func:`fixed_categories`), :math:`n(c, F_j = v)` over the rows
    where ``j`` is present, and a lookup from the data set's codes to the local ones.
    """

    def __init__(self, data: EncodedData, rows: np.ndarray):
        self.data, self.rows = data, rows
        self.y = data.y[rows]
        # the data layer's counting of integer codes, restricted to the values seen in these rows
        # where the categories policy does not fix them: exactly the tables CountTables.from_data
        # gives on them (categories as data-set codes)
        coded = CountTables.from_codes(data.codes[rows], self.y, [len(c) for c in data.categories],
                                       len(data.classes))
        self.tables = coded.restrict_to_seen(fixed=data.fixed)
        self.class_counts = self.tables.class_counts
        self._features: dict = {}
        self._logs: dict = {}

    def feature(self, col: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(categories, counts (C, V), lut)`` of column ``col``; ``lut[code + 2]`` is the local code
        of a data-set code (so ``lut[0]`` = MISSING, ``lut[1]`` = UNSEEN)."""
        out = self._features.get(col)
        if out is None:
            seen = np.asarray(self.tables.categories[col], dtype=np.int64)      # sorted data-set codes
            lut = np.full(len(self.data.categories[col]) + 2, UNSEEN)
            lut[0] = MISSING
            lut[seen + 2] = np.arange(seen.size)
            if not self.tables.feature_counts[col].any():   # missing in every training row: left out
                lut[:] = MISSING
            out = (self.data.categories[col][seen], self.tables.feature_counts[col], lut)
            self._features[col] = out
        return out

    def model(self, cols: list[int]) -> _CodedNaiveBayes:
        """The Laplace NBC of these rows on the columns ``cols`` (from the cached per-feature counts)."""
        parts = [self.feature(c) for c in cols]
        names = np.asarray([self.data.names[c] for c in cols], dtype=object)
        tables = CountTables(self.data.classes, [p[0] for p in parts], self.class_counts,
                             [p[1] for p in parts], names)
        with warnings.catch_warnings():     # a feature missing in every row of a fold: said once, by fit
            warnings.simplefilter("ignore", UserWarning)
            model = _CodedNaiveBayes(prior="laplace").fit_counts(tables)
        model.coded_columns_, model.lookups_ = list(cols), [p[2] for p in parts]
        return model

    def log_prior(self) -> np.ndarray:
        r""":math:`\log P(c) = \log\frac{n(c)+1}{N+|C|}` (C,), as the Laplace NBC computes it."""
        nc = self.class_counts
        return np.log((nc + 1) / (nc.sum() + len(nc)))

    def log_conditionals(self, col: int) -> np.ndarray:
        r"""Extended log table (C, V + 2) of column ``col`` for the Laplace NBC (004 §2):

        .. math:: \log P(f_j = v \mid c) = \log\frac{n(c, f_j = v) + 1}{n_j(c) + |F_j|}

        with :math:`n_j(c)` the class-``c`` rows where ``j`` is present and :math:`|F_j|` the values
        seen; column V is an unseen value (zero counts), column V + 1 a missing one (log-factor 0).
        """
        out = self._logs.get(col)
        if out is None:
            _, counts, _ = self.feature(col)
            n_values = counts.shape[1]
            present = counts.sum(axis=1)
            ext = np.hstack([counts, np.zeros((counts.shape[0], 1))])
            with np.errstate(divide="ignore"):
                logs = np.log((ext + 1) / (present[:, None] + n_values))
            out = self._logs[col] = np.hstack([logs, np.zeros((counts.shape[0], 1))])
        return out

    def term_index(self, col: int, rows: np.ndarray) -> np.ndarray:
        """Column of :meth:`log_conditionals` ``(col)`` for each instance of ``rows``: the log-factors
        of those instances are ``log_conditionals(col)[:, term_index(col, rows)]``."""
        _, counts, lut = self.feature(col)
        local = lut[self.data.codes[rows, col] + 2]
        n_values = counts.shape[1]
        return np.where(local == MISSING, n_values + 1, np.where(local == UNSEEN, n_values, local))

