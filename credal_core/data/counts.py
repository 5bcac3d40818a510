"""Categorical data layer: validation, integer codes, and additive count tables.

Every naive classifier in this package is a function of two kinds of counts only (paper 000 §2):
``n(c)`` and ``n(c, F_j = v)``.  :class:`CountTables` holds them together with the class labels and
the categories of each feature.  Count tables from disjoint chunks of data add up
(:meth:`CountTables.merge`), so a file too large for memory can be learned chunk by chunk with a
result identical to a single pass.

Values never seen in training are not an error: they are simply values with zero counts.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import sparse
from sklearn.exceptions import DataConversionWarning

__all__ = ["CountTables", "Gather", "as_frame", "check_labels", "lookup", "lookup_sum", "union_categories"]


def _column_problem(name: str, col: pd.Series) -> str | None:
    """Return why a feature column is unusable, or None."""
    if col.isna().any():
        k = int(col.isna().sum())
        return (f"column {name!r} has {k} missing value(s) (NaN/None); impute them or encode "
                "'missing' as a category of its own before fitting")
    values = col.to_numpy()
    if values.dtype.kind == "f":
        if not np.all(np.isfinite(values)):
            return f"column {name!r} holds non-finite values (inf)"
        frac = values[values != np.round(values)]
        if frac.size:
            return (f"column {name!r} holds continuous values (e.g. {frac[0]!r}); discretise it "
                    "into categories first")
    elif values.dtype.kind == "c":
        return f"Complex data not supported: column {name!r} holds complex numbers"
    elif values.dtype.kind == "O":
        kind = pd.api.types.infer_dtype(values, skipna=False)
        if kind in ("floating", "mixed-integer-float", "mixed"):
            for v in values:
                if isinstance(v, (float, np.floating)) and (not np.isfinite(v) or v != round(v)):
                    return (f"column {name!r} holds continuous or non-finite values (e.g. {v!r}); "
                            "discretise it into categories first")
        try:
            pd.unique(col)
        except TypeError:
            return (f"column {name!r} holds unhashable values (e.g. lists, dicts); features must be "
                    "categorical")
    return None


def as_frame(X, *, what: str = "X") -> pd.DataFrame:
    """Validate a 2-D categorical input and return it as a DataFrame (columns kept as given).

    Raises
    ------
    ValueError
        If ``X`` is not 2-D, has no rows or no columns, or a column is continuous, missing or
        otherwise not categorical.
    """
    if sparse.issparse(X):
        raise TypeError(f"sparse input is not supported: pass {what} as a dense categorical table")
    if isinstance(X, pd.DataFrame):
        frame = X
    else:
        if isinstance(X, pd.Series):
            raise ValueError(f"{what} must be 2-D (rows × features); got a Series — use X.to_frame()")
        try:
            arr = np.asarray(X, dtype=object) if not isinstance(X, np.ndarray) else X
        except (ValueError, TypeError) as exc:  # ragged nested lists
            raise ValueError(f"{what} could not be read as a 2-D table: {exc}") from None
        if arr.ndim != 2:
            raise ValueError(f"{what} must be 2-D (rows × features); got {arr.ndim} dimension(s). "
                             "Reshape your data, e.g. X.reshape(-1, 1) for a single feature")
        frame = pd.DataFrame(arr)
    if frame.shape[0] == 0:
        raise ValueError(f"{what} has no rows: found array with 0 sample(s) (shape={frame.shape}) "
                         "while a minimum of 1 is required.")
    if frame.shape[1] == 0:
        raise ValueError(f"{what} has no columns (features): found array with 0 feature(s) "
                         f"(shape={frame.shape}) while a minimum of 1 is required.")
    if frame.columns.has_duplicates:
        dup = frame.columns[frame.columns.duplicated()][0]
        raise ValueError(f"{what} has duplicate column names (e.g. {dup!r})")
    for name in frame.columns:
        problem = _column_problem(str(name), frame[name])
        if problem:
            raise ValueError(problem)
    return frame


def check_labels(y, n_rows: int | None = None) -> np.ndarray:
    """Validate class labels: 1-D, no missing values, hashable, matching the number of rows."""
    if y is None:
        raise ValueError("this classifier requires y to be passed, but the target y is None.")
    if isinstance(y, pd.DataFrame):
        if y.shape[1] != 1:
            raise ValueError(f"y must be 1-D; got a table with {y.shape[1]} columns")
        y = y.iloc[:, 0]
    arr = np.asarray(y, dtype=object) if not isinstance(y, (np.ndarray, pd.Series)) else np.asarray(y)
    if arr.ndim == 2 and arr.shape[1] == 1:
        warnings.warn("A column-vector y was passed when a 1d array was expected; it was flattened "
                      "with ravel()", DataConversionWarning, stacklevel=3)
        arr = arr.ravel()
    if arr.ndim != 1:
        raise ValueError(f"y must be 1-D; got shape {arr.shape}")
    if n_rows is not None and arr.shape[0] != n_rows:
        raise ValueError(f"X has {n_rows} rows but y has {arr.shape[0]} labels")
    if arr.shape[0] == 0:
        raise ValueError("y is empty")
    if pd.isna(pd.Series(arr)).any():
        raise ValueError(f"y has {int(pd.isna(pd.Series(arr)).sum())} missing label(s)")
    if arr.dtype.kind == "f" or (arr.dtype.kind == "O" and pd.api.types.infer_dtype(arr) == "floating"):
        # numbers only: text labels never pay for the conversion
        values = pd.to_numeric(pd.Series(arr), errors="coerce").to_numpy()
        if np.any(~np.isfinite(values[~np.isnan(values)])):
            raise ValueError("y holds non-finite labels (inf); class labels must be categorical")
        if np.any(values != np.round(values)):
            raise ValueError("y holds continuous values; class labels must be categorical")
    return arr


def union_categories(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Union of two category arrays, sorted when the values are mutually orderable.

    Sorting makes the result independent of the order in which chunks arrive.
    """
    seen = pd.Index(a).append(pd.Index(b)).unique()
    try:
        return np.asarray(seen.sort_values(), dtype=object)
    except TypeError:  # e.g. ints mixed with strings: keep first-appearance order
        return np.asarray(seen, dtype=object)


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
    """Sufficient statistics of a naive classifier.

    Attributes
    ----------
    classes : ndarray of shape (C,)
        Class labels (sorted when orderable).
    categories : list of ndarray
        ``categories[j]`` are the values of feature ``j`` seen so far.
    class_counts : ndarray of shape (C,)
        ``n(c)``.
    feature_counts : list of ndarray
        ``feature_counts[j][c, v] = n(c, F_j = categories[j][v])``.
    feature_names : ndarray of shape (m,)
        Column names.
    """

    classes: np.ndarray
    categories: list
    class_counts: np.ndarray
    feature_counts: list
    feature_names: np.ndarray

    @classmethod
    def from_data(cls, X, y, classes=None) -> CountTables:
        """Count ``X`` (categorical, 2-D) against labels ``y``; ``classes`` may declare unseen labels."""
        frame = as_frame(X)
        labels = check_labels(y, frame.shape[0])
        declared = np.asarray([] if classes is None else list(classes), dtype=object)
        cls_values = union_categories(declared, pd.unique(pd.Series(labels, dtype=object)))
        if classes is not None:
            extra = set(pd.unique(pd.Series(labels, dtype=object))) - set(declared.tolist())
            if extra:
                raise ValueError(f"y has labels not among the declared classes: {sorted(map(str, extra))}")
        y_codes = pd.Index(cls_values).get_indexer(labels)
        n_classes = len(cls_values)
        categories, feature_counts = [], []
        for name in frame.columns:
            col = frame[name].to_numpy()
            cats = union_categories(np.asarray([], dtype=object), pd.unique(pd.Series(col, dtype=object)))
            codes = pd.Index(cats).get_indexer(col)
            table = np.zeros((n_classes, len(cats)))
            np.add.at(table, (y_codes, codes), 1.0)
            categories.append(cats)
            feature_counts.append(table)
        class_counts = np.bincount(y_codes, minlength=n_classes).astype(float)
        return cls(cls_values, categories, class_counts, feature_counts,
                   np.asarray(frame.columns, dtype=object))

    @classmethod
    def from_codes(cls, X_codes, y_codes, n_values, n_classes: int, feature_names=None) -> CountTables:
        """Count integer-coded data: ``X_codes[i, j]`` in ``range(n_values[j])``, ``y_codes[i]`` in
        ``range(n_classes)``.

        The fast path of the experiment engine (thousands of small fits): categories and classes
        are declared as ``0..k-1``, so a value or class absent from a small sample still counts in
        ``|F_j|`` and ``|C|``, as in a generator whose variables are known to be binary.
        """
        X_codes = np.asarray(X_codes, dtype=np.int64)
        y_codes = np.asarray(y_codes, dtype=np.int64)
        n_values = np.asarray(n_values, dtype=np.int64)
        if X_codes.ndim != 2 or y_codes.shape != (X_codes.shape[0],) or n_values.shape != (X_codes.shape[1],):
            raise ValueError("from_codes needs X_codes (n, m), y_codes (n,) and n_values (m,)")
        if (X_codes.size and (X_codes.min() < 0 or np.any(X_codes.max(axis=0) >= n_values))) or (
                y_codes.size and (y_codes.min() < 0 or y_codes.max() >= n_classes)):
            raise ValueError("a code lies outside its declared range")
        feature_counts = []
        for j, k in enumerate(n_values.tolist()):
            flat = np.bincount(y_codes * k + X_codes[:, j], minlength=n_classes * k)
            feature_counts.append(flat.reshape(n_classes, k).astype(float))
        names = np.arange(X_codes.shape[1]) if feature_names is None else feature_names
        return cls(np.arange(n_classes), [np.arange(k) for k in n_values.tolist()],
                   np.bincount(y_codes, minlength=n_classes).astype(float), feature_counts,
                   np.asarray(names, dtype=object))

    @property
    def n_features(self) -> int:
        return len(self.categories)

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
        """Integer codes (n, m) of a new ``X``; values unseen in training get code -1.

        ``who`` names the caller in error messages.
        """
        frame = as_frame(X)
        if frame.shape[1] != self.n_features:
            raise ValueError(f"X has {frame.shape[1]} features, but {who} is expecting "
                             f"{self.n_features} features as input")
        if isinstance(X, pd.DataFrame) and not np.array_equal(
                np.asarray(frame.columns).astype(str), self.feature_names.astype(str)):
            raise ValueError("X's column names differ from those seen in fit: "
                             f"{list(frame.columns)} vs {list(self.feature_names)}")
        codes = np.empty(frame.shape, dtype=np.int64)
        for j, name in enumerate(frame.columns):
            codes[:, j] = pd.Index(self.categories[j]).get_indexer(frame[name].to_numpy())
        return codes

    def extended_counts(self) -> list:
        """Per feature, ``n(c, F_j = v)`` with one extra zero column for values unseen in training."""
        return [np.hstack([t, np.zeros((t.shape[0], 1))]) for t in self.feature_counts]


class Gather:
    """Looks up per-(class, feature, value) tables for many instances at once.

    Built once per prediction call from integer codes (n, m); code -1 (a value unseen in
    training) selects the extra last column of each feature's extended table.  Indices are kept
    feature-major (m, n) and contiguous: one ``take`` per class is several times faster than
    fancy-indexing (C, V) tables, and sums over features run along the fast axis.
    """

    def __init__(self, codes: np.ndarray, n_values):
        widths = np.asarray(n_values, dtype=np.int64) + 1
        offsets = np.concatenate([[0], np.cumsum(widths)[:-1]])
        self.idx = np.ascontiguousarray((np.where(codes < 0, widths - 1, codes) + offsets).T)

    def take(self, extended: list) -> np.ndarray:
        """``extended[j][c, code[i, j]]`` as an array (C, m, n)."""
        flat = np.concatenate(extended, axis=1)
        return np.stack([row.take(self.idx) for row in flat])

    def sum(self, extended: list) -> np.ndarray:
        """``sum_j extended[j][c, code[i, j]]`` as an array (C, n)."""
        flat = np.concatenate(extended, axis=1)
        return np.stack([row.take(self.idx).sum(axis=0) for row in flat])

    def sum_many(self, named: dict) -> dict:
        """:meth:`sum` for several table lists at once (one gather per class for all of them)."""
        names = list(named)
        flat = np.stack([np.concatenate(named[k], axis=1) for k in names], axis=1)   # (C, P, total)
        out = np.stack([row.take(self.idx, axis=1).sum(axis=1) for row in flat], axis=1)  # (P, C, n)
        return dict(zip(names, out))


def lookup(codes: np.ndarray, extended: list) -> np.ndarray:
    """``extended[j][c, codes[i, j]]`` as an array (C, m, n); see :class:`Gather`."""
    return Gather(codes, [t.shape[1] - 1 for t in extended]).take(extended)


def lookup_sum(codes: np.ndarray, extended: list) -> np.ndarray:
    """``sum_j extended[j][c, codes[i, j]]`` as an array (C, n); see :class:`Gather`."""
    return Gather(codes, [t.shape[1] - 1 for t in extended]).sum(extended)
