"""Additive count tables: :class:`CountTables`, the sufficient statistics of every naive classifier.

Every naive classifier in this package is a function of two kinds of counts only (paper 000 §2):
``n(c)`` and ``n(c, F_j = v)``.  Count tables from disjoint chunks of data add up
(:meth:`CountTables.merge`), so a file too large for memory can be learned chunk by chunk with a
result identical to a single pass.

Values never seen in training are not an error: they are simply values with zero counts.  Missing
values (NaN / None / pandas NA) are missing at random by default: counted per feature over the rows
where the feature is present, and left out of a test instance's product (code :data:`MISSING`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._compiled import numba_enabled
from . import _kernels
from .encoding import (
    MISSING,
    _factorize_integer_matrix,
    _integer_lookup,
    _positions,
    _sorted_categories,
    union_categories,
)
from .validation import (
    _check_label_values,
    _check_missing_labels,
    _declared_values,
    _factorize,
    _frame,
    _is_integer_array,
    _label_array,
    check_categories_policy,
    check_labels,
    declared_classes,
)

__all__ = ["CountTables"]


def _align(counts: np.ndarray, have: np.ndarray, want: np.ndarray, axis: int) -> np.ndarray:
    """Re-index ``counts`` along ``axis`` from categories ``have`` to the superset ``want``."""
    idx = pd.Index(want).get_indexer(pd.Index(have))
    shape = list(counts.shape)
    shape[axis] = len(want)
    out = np.zeros(shape)
    if axis == 0:
        out[idx] = counts
    else:
        out[:, idx] = counts
    return out

@dataclass(frozen=True)
class CountTables:
    r"""Sufficient statistics of a naive classifier, with missing values counted per feature.

    **Missing values (missing at random, JNCC2's convention).**  A training row whose feature
    ``j`` is missing adds to ``n(c)`` but not to feature ``j``'s table, so the row sums
    ``n_j(c) = \sum_v n(c, F_j = v)`` (:meth:`present_counts`) count the class-``c`` rows where
    ``j`` is present.  Under MAR the likelihood of the observed cells factorises, and the
    data on feature ``j`` given the class are the ``n_j(c)`` present rows: each conditional
    estimate of feature ``j`` divides by ``n_j(c)`` (plus its prior mass), never by ``n(c)``.  A
    missing test value is summed out of the naive product (its factor is 1 for every class):
    :meth:`encode` gives it the code :data:`MISSING`.

    Attributes
    ----------
    classes : ndarray of shape (C,)
        Class labels (sorted when orderable).
    categories : list of ndarray
        ``categories[j]`` are the values of feature ``j`` (seen, or declared: see ``from_data``).
    class_counts : ndarray of shape (C,)
        ``n(c)``, over every training row.
    feature_counts : list of ndarray
        ``feature_counts[j][c, v] = n(c, F_j = categories[j][v])``, over the rows where ``j`` is
        present.
    feature_names : ndarray of shape (m,)
        Column names.
    """

    classes: np.ndarray
    categories: list
    class_counts: np.ndarray
    feature_counts: list
    feature_names: np.ndarray

    @classmethod
    def from_data(cls, X, y, classes=None, categories="seen") -> CountTables:
        """Count ``X`` (categorical, 2-D, missing cells allowed) against labels ``y``.

        Parameters
        ----------
        classes : sequence, optional
            Declared class labels: a declared class with no training row stays a class (JNCC2's
            convention).  Labels in ``y`` outside them are an error.  When not given, a pandas
            Categorical ``y`` declares its categories (:func:`declared_classes`).
        categories : {"seen", "declared"} or list of lists, default="seen"
            Values of each feature, i.e. :math:`F_j`: those seen in these rows; ``"declared"``:
            a pandas Categorical column's categories (other columns: seen values); or one list of
            values per feature, as scikit-learn's ``OneHotEncoder(categories=...)``.  A declared
            value never seen counts in :math:`|F_j|` with zero counts.
        """
        return cls.count_and_encode(X, y, classes, categories)[0]

    @classmethod
    def count_and_encode(cls, X, y, classes=None, categories="seen"):
        """:meth:`from_data` and the integer codes of its rows, from one pass over the data.

        Returns ``(tables, codes, y_codes)``: ``codes`` (n, m) is exactly ``tables.encode(X)``
        (every training value is a category, so no code is :data:`UNSEEN`) and ``y_codes`` (n,)
        the position of each label in ``tables.classes``.  Callers that need both (the AODE
        family counts pairs of values from the codes) skip a second validation and encoding.
        An integer ndarray is validated by its dtype alone and coded in one vectorised pass.
        """
        frame = _frame(X)
        labels = _label_array(y, frame.shape[0])
        try:         # one hash pass: missing labels are check_labels' (pd.isna's) NA, coded -1
            label_codes, present_labels = pd.factorize(labels)     # first-appearance order, as pd.unique
        except TypeError:                   # unhashable labels: check_labels' errors come first
            label_codes = None
        if label_codes is None:
            labels = check_labels(y, frame.shape[0])
            check_categories_policy(categories, frame.shape[1])
            label_codes, present_labels = pd.factorize(labels)
        _check_missing_labels(label_codes < 0)
        _check_label_values(labels, present_labels)
        policy = check_categories_policy(categories, frame.shape[1])
        if classes is None:                 # a Categorical y declares its categories as classes
            classes = declared_classes(y)
        declared = np.asarray([] if classes is None else list(classes), dtype=object)
        present_labels = np.asarray(present_labels, dtype=object)
        if classes is None:
            cls_values, label_lut = _sorted_categories(present_labels)
        else:
            cls_values = union_categories(declared, present_labels)
            extra = set(present_labels) - set(declared.tolist())
            if extra:
                raise ValueError(f"y has labels not among the declared classes: {sorted(map(str, extra))}")
            label_lut = pd.Index(cls_values).get_indexer(present_labels)
        y_codes = label_lut[label_codes].astype(np.int64)
        n_classes = len(cls_values)
        n, m = frame.shape
        integer = _is_integer_array(X)
        factorized = _factorize_integer_matrix(X) if integer else None
        codes_t = factorized[0] if factorized is not None else np.empty((m, n), dtype=np.int64)
        cat_list = []
        columns = [None] * m if integer else [col for _, col in frame.items()]
        for j, name in enumerate(frame.columns):
            col = columns[j]
            if factorized is not None:   # nothing to validate; sorted distinct values, positions
                fcodes, uniques = codes_t[j], factorized[1][j]
            elif integer:
                uniques = np.unique(X[:, j])
                fcodes = np.searchsorted(uniques, X[:, j])
            else:
                fcodes, uniques = _factorize(str(name), col)
            values = None if integer and isinstance(policy, str) else _declared_values(policy, j, name, col)
            if values is None and integer:
                cats, lut = uniques.astype(object), None                 # sorted: codes are positions
            elif values is None:
                cats, lut = _sorted_categories(uniques)
            else:
                cats = union_categories(values, np.asarray([], dtype=object))
                lut = pd.Index(cats).get_indexer(uniques)
                outside = lut < 0
                if outside.any():
                    raise ValueError(f"column {name!r} holds {uniques[outside][0]!r}, which is not among "
                                     f"its declared categories {cats.tolist()}")
            if lut is not None:
                codes_t[j] = np.append(lut, MISSING)[fcodes]
            elif factorized is None:
                codes_t[j] = fcodes
            cat_list.append(cats)
        # every feature table in one bincount: cell (offset_j + code) * C + class
        sizes = np.array([len(c) for c in cat_list], dtype=np.int64)
        offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        if numba_enabled() and codes_t.dtype == np.int64 and codes_t.flags.c_contiguous:
            flat = np.zeros(int(sizes.sum()) * n_classes)            # one compiled pass, same counts
            _kernels.count_cells(codes_t, offsets, y_codes, n_classes, flat)
        else:
            cells = (codes_t + offsets[:, None]) * n_classes + y_codes
            if not integer and codes_t.size and codes_t.min() < 0:
                cells = cells[codes_t >= 0]
            flat = np.bincount(cells.ravel(), minlength=int(sizes.sum()) * n_classes).astype(float)
        feature_counts = [flat[o * n_classes:(o + w) * n_classes].reshape(w, n_classes).T.copy()
                          for o, w in zip(offsets.tolist(), sizes.tolist())]
        class_counts = np.bincount(y_codes, minlength=n_classes).astype(float)
        tables = cls(cls_values, cat_list, class_counts, feature_counts,
                     np.asarray(frame.columns, dtype=object))
        absent = tables.absent_features()
        if absent.any():           # a feature missing in every row is MISSING, as in encode
            codes_t[absent] = MISSING
        codes = codes_t.T          # (n, m), Fortran-ordered: each feature's codes contiguous
        return tables, codes, y_codes

    @classmethod
    def from_codes(cls, X_codes, y_codes, n_values, n_classes: int, feature_names=None) -> CountTables:
        """Count integer-coded data: ``X_codes[i, j]`` in ``range(n_values[j])`` or :data:`MISSING`,
        ``y_codes[i]`` in ``range(n_classes)``.

        The fast path of the experiment engine (thousands of small fits): categories and classes
        are declared as ``0..k-1``, so a value or class absent from a small sample still counts in
        ``|F_j|`` and ``|C|``, as in a generator whose variables are known to be binary
        (:meth:`restrict_to_seen` gives the "values seen in training" policy instead).  A missing
        cell counts in ``n(c)`` only.
        """
        X_codes = np.asarray(X_codes, dtype=np.int64)
        y_codes = np.asarray(y_codes, dtype=np.int64)
        n_values = np.asarray(n_values, dtype=np.int64)
        if X_codes.ndim != 2 or y_codes.shape != (X_codes.shape[0],) or n_values.shape != (X_codes.shape[1],):
            raise ValueError("from_codes needs X_codes (n, m), y_codes (n,) and n_values (m,)")
        bad = (X_codes < 0) & (X_codes != MISSING)
        if (X_codes.size and (bad.any() or np.any(X_codes.max(axis=0) >= n_values))) or (
                y_codes.size and (y_codes.min() < 0 or y_codes.max() >= n_classes)):
            raise ValueError("a code lies outside its declared range")
        feature_counts = []
        for j, k in enumerate(n_values.tolist()):
            present = X_codes[:, j] >= 0
            flat = np.bincount(y_codes[present] * k + X_codes[present, j], minlength=n_classes * k)
            feature_counts.append(flat.reshape(n_classes, k).astype(float))
        names = np.arange(X_codes.shape[1]) if feature_names is None else feature_names
        return cls(np.arange(n_classes), [np.arange(k) for k in n_values.tolist()],
                   np.bincount(y_codes, minlength=n_classes).astype(float), feature_counts,
                   np.asarray(names, dtype=object))

    @property
    def n_features(self) -> int:
        return len(self.categories)

    def present_counts(self) -> np.ndarray:
        """``n_j(c)`` (m, C): class-``c`` training rows where feature ``j`` is present."""
        return np.array([t.sum(axis=1) for t in self.feature_counts]).reshape(self.n_features, -1)

    def missing_counts(self) -> np.ndarray:
        """``m_j(c) = n(c) - n_j(c)`` (m, C): class-``c`` training rows where feature ``j`` is missing."""
        return self.class_counts[None, :] - self.present_counts()

    def absent_features(self) -> np.ndarray:
        """Bool (m,): features missing in every training row (no information; left out)."""
        return np.array([t.sum() == 0 for t in self.feature_counts], dtype=bool)

    def restrict_to_seen(self, fixed=None) -> CountTables:
        """The same counts with each feature's categories restricted to the values seen (count > 0).

        Turns the tables of :meth:`from_codes` (every code of the file declared) into exactly the
        tables ``from_data`` gives on the same rows with ``categories="seen"``; classes stay as
        declared.  ``fixed`` (bool (m,), optional) marks features whose categories a policy fixes:
        those keep every value (a ``"declared"`` or per-feature-list policy).
        """
        fixed = np.zeros(len(self.feature_counts), dtype=bool) if fixed is None else np.asarray(fixed, bool)
        keep = [np.ones(t.shape[1], dtype=bool) if f else t.sum(axis=0) > 0
                for t, f in zip(self.feature_counts, fixed)]
        return CountTables(self.classes, [np.asarray(c)[k] for c, k in zip(self.categories, keep)],
                           self.class_counts, [t[:, k] for t, k in zip(self.feature_counts, keep)],
                           self.feature_names)

    def merge(self, other: CountTables) -> CountTables:
        """Add the counts of ``other`` (same features, possibly new classes or values)."""
        if self.n_features != other.n_features:
            raise ValueError(f"cannot merge count tables with {self.n_features} and "
                             f"{other.n_features} features")
        if not np.array_equal(self.feature_names.astype(str), other.feature_names.astype(str)):
            raise ValueError("cannot merge count tables with different feature names")
        classes = union_categories(self.classes, other.classes)
        class_counts = (_align(self.class_counts, self.classes, classes, 0)
                        + _align(other.class_counts, other.classes, classes, 0))
        categories, feature_counts = [], []
        for j in range(self.n_features):
            cats = union_categories(self.categories[j], other.categories[j])
            a = _align(_align(self.feature_counts[j], self.classes, classes, 0), self.categories[j], cats, 1)
            b = _align(_align(other.feature_counts[j], other.classes, classes, 0),
                       other.categories[j], cats, 1)
            categories.append(cats)
            feature_counts.append(a + b)
        return CountTables(classes, categories, class_counts, feature_counts, self.feature_names)

    def encode(self, X, who: str = "CountTables") -> np.ndarray:
        """Integer codes (n, m) of a new ``X``: :data:`UNSEEN` (-1) for a value unseen in training,
        :data:`MISSING` (-2) for a missing value and for every value of a feature missing in every
        training row (it carries no information).

        One hash pass per column (``pd.factorize``), then the few distinct values are matched to
        the categories, with ``Index.get_indexer``'s equality (``1 == 1.0 == True``, ``"1"``
        distinct; text against text through a dict, same matches); integer matrices are matched
        through a lookup table.  The array is Fortran-ordered (each feature's codes contiguous, as
        every consumer reads them).  ``who`` names the caller in error messages.
        """
        frame = _frame(X)
        if frame.shape[1] != self.n_features:
            raise ValueError(f"X has {frame.shape[1]} features, but {who} is expecting "
                             f"{self.n_features} features as input")
        if isinstance(X, pd.DataFrame) and not np.array_equal(
                np.asarray(frame.columns).astype(str), self.feature_names.astype(str)):
            raise ValueError("X's column names differ from those seen in fit: "
                             f"{list(frame.columns)} vs {list(self.feature_names)}")
        absent = self.absent_features()
        codes = np.empty(frame.shape, dtype=np.int64, order="F")   # each column contiguous
        integer = _is_integer_array(X)
        columns = zip(frame.columns, [None] * frame.shape[1]) if integer else frame.items()
        for j, (name, col) in enumerate(columns):
            if absent[j]:
                codes[:, j] = MISSING
                continue
            if integer and _integer_lookup(X[:, j], self.categories[j], codes[:, j]):
                continue
            fcodes, uniques = _factorize(str(name), frame.iloc[:, j] if col is None else col)
            lut = np.append(_positions(self.categories[j], uniques), MISSING)
            codes[:, j] = lut[fcodes]
        return codes

    def extended_counts(self) -> list:
        """Per feature, ``n(c, F_j = v)`` with one extra zero column for values unseen in training."""
        return [np.hstack([t, np.zeros((t.shape[0], 1))]) for t in self.feature_counts]
