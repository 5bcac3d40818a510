"""Categorical data layer: validation, integer codes, and additive count tables.

Every naive classifier in this package is a function of two kinds of counts only (paper 000 §2):
``n(c)`` and ``n(c, F_j = v)``.  :class:`CountTables` holds them together with the class labels and
the categories of each feature.  Count tables from disjoint chunks of data add up
(:meth:`CountTables.merge`), so a file too large for memory can be learned chunk by chunk with a
result identical to a single pass.

Values never seen in training are not an error: they are simply values with zero counts.  Missing
values (NaN / None / pandas NA) are missing at random by default: counted per feature over the rows
where the feature is present, and left out of a test instance's product (code :data:`MISSING`).
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import sparse
from sklearn.exceptions import DataConversionWarning

from .._compiled import numba_enabled
from . import _kernels

__all__ = ["MISSING", "UNSEEN", "CountTables", "Gather", "as_frame", "check_categories_policy",
           "check_labels", "declared_classes", "labels_as_text", "lookup", "lookup_sum", "union_categories"]


UNSEEN = -1
"""Code of a test value never seen in training: it selects the extra zero-count column of
:meth:`CountTables.extended_counts`."""
MISSING = -2
"""Code of a missing test value (NaN / None / pandas NA): the feature is left out of the naive
product (factor 1, log-term 0, for every class)."""


def _frame(X, what: str = "X") -> pd.DataFrame:
    """``X`` as a DataFrame after the structural checks only (2-D, rows, columns, unique names)."""
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
    return frame


def _values_problem(name: str, uniques: np.ndarray) -> str | None:
    """Why the distinct present values of a feature column are not categories, or None."""
    kind = uniques.dtype.kind
    if kind == "f":
        if not np.all(np.isfinite(uniques)):
            return f"column {name!r} holds non-finite values (inf)"
        frac = uniques[uniques != np.round(uniques)]
        if frac.size:
            return (f"column {name!r} holds continuous values (e.g. {frac[0]!r}); discretise it "
                    "into categories first")
    elif kind == "c":
        return f"Complex data not supported: column {name!r} holds complex numbers"
    elif kind == "O" and pd.api.types.infer_dtype(uniques, skipna=True) in (
            "floating", "mixed-integer-float", "mixed"):
        for v in uniques:
            if isinstance(v, (float, np.floating)) and (not np.isfinite(v) or v != round(v)):
                return (f"column {name!r} holds continuous or non-finite values (e.g. {v!r}); "
                        "discretise it into categories first")
    return None


def _factorize(name: str, col: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """One hash pass over a column: codes into its distinct present values (-1 where missing) and
    those values, checked to be categorical.

    Only the distinct values are validated, so a text column costs one pass, not three.  The
    values keep the column's dtype, so matching them against categories afterwards
    (``Index.get_indexer``) gives exactly what matching the whole column would.
    """
    if col.dtype.kind == "c":
        raise ValueError(f"Complex data not supported: column {name!r} holds complex numbers")
    if getattr(col.dtype, "storage", None) == "pyarrow" and isinstance(col.dtype, pd.StringDtype):
        return _factorize_arrow_strings(col)          # text: nothing to validate
    try:
        codes, uniques = pd.factorize(col, use_na_sentinel=True)
    except TypeError:
        raise ValueError(f"column {name!r} holds unhashable values (e.g. lists, dicts); features "
                         "must be categorical") from None
    uniques = np.asarray(uniques)
    problem = _values_problem(name, uniques)
    if problem:
        raise ValueError(problem)
    return np.asarray(codes, dtype=np.int64), uniques


def _factorize_arrow_strings(col: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """``pd.factorize`` of a pyarrow-backed text column, without pandas' wrapper: the same calls
    pandas makes (``dictionary_encode`` with nulls masked, chunks combined, nulls -> -1), so the
    same codes (first-appearance order) and values (an object array of ``str``).  (A compiled hash
    over the UTF-8 bytes measured 2x slower than arrow's own on nursery's columns.)"""
    import pyarrow.compute as pc

    array = col.array.__arrow_array__()
    encoded = array.dictionary_encode(null_encoding="mask").combine_chunks()
    indices = encoded.indices
    if indices.null_count > 0:
        indices = pc.fill_null(indices, -1)
    codes = indices.to_numpy(zero_copy_only=False).astype(np.int64)
    return codes, np.asarray(encoded.dictionary.to_numpy(zero_copy_only=False), dtype=object)


def as_frame(X, *, what: str = "X") -> pd.DataFrame:
    """Validate a 2-D categorical input and return it as a DataFrame (columns kept as given).

    Missing values (NaN / None / pandas NA) are accepted: they are missing at random by default
    (see :class:`CountTables`).

    Raises
    ------
    ValueError
        If ``X`` is not 2-D, has no rows or no columns, or a column is continuous, non-finite,
        unhashable or otherwise not categorical.
    """
    frame = _frame(X, what)
    if not _is_integer_array(X):
        for name in frame.columns:
            _factorize(str(name), frame[name])
    return frame


def _is_integer_array(X) -> bool:
    return isinstance(X, np.ndarray) and X.dtype.kind in "iu" and X.ndim == 2


def check_labels(y, n_rows: int | None = None) -> np.ndarray:
    """Validate class labels: 1-D, no missing values, hashable, matching the number of rows."""
    arr = _label_array(y, n_rows)
    _check_missing_labels(pd.isna(arr))     # the ndarray itself: no Series (text labels: no copy)
    _check_label_values(arr)
    return arr


def declared_classes(y) -> np.ndarray | None:
    """The classes a label column declares, or None: a pandas Categorical's categories (e.g. an
    ARFF header's class values), used or not.

    The one rule for classes everywhere (every estimator's ``fit`` and ``partial_fit`` when
    ``classes`` is not given, the Compare page, the sweeps, the CLI): a declared class without a
    training row stays a class — |C| is the declared one, as in JNCC2 — since the imprecise models
    spread their prior over every class (an NCC cannot rule out a class it has never seen)."""
    if isinstance(y, pd.DataFrame) and y.shape[1] == 1:
        y = y.iloc[:, 0]
    dtype = getattr(y, "dtype", None)
    if isinstance(dtype, pd.CategoricalDtype):
        return np.asarray(dtype.categories, dtype=object)
    return None


def labels_as_text(y) -> tuple[np.ndarray, np.ndarray]:
    """A data set's class labels as text and its classes, for the experiments (Compare, sweeps, CLI).

    Returns ``(labels, classes)``: each label as ``str`` (an object array), and the distinct labels
    together with the declared classes (:func:`declared_classes`), as text, sorted.  One rule for
    every experiment path, so the same file gives the same classes, in the same order (which decides
    ties), wherever it is evaluated.  As text, any label is a class (a numeric class column of a CSV
    too); missing labels and a shape that is not one label per row raise ``ValueError``.
    """
    arr = _label_array(y, None)
    _check_missing_labels(pd.isna(arr))
    text = np.asarray(pd.Series(arr, dtype=object).astype(str), dtype=object)
    declared = declared_classes(y)
    extra = np.asarray([] if declared is None else [str(v) for v in declared], dtype=object)
    return text, np.unique(np.concatenate([text, extra]))


def _label_array(y, n_rows: int | None) -> np.ndarray:
    """The structural checks of :func:`check_labels`: y as a non-empty 1-D array of ``n_rows``."""
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
    return arr


def _check_missing_labels(is_missing: np.ndarray) -> None:
    missing = np.flatnonzero(is_missing)
    if missing.size:
        rows = ", ".join(str(i) for i in missing[:5]) + (", ..." if missing.size > 5 else "")
        raise ValueError(f"y has {missing.size} missing label(s) (rows {rows}, counting from 0); a "
                         "training row needs its class: drop those rows or fill in their labels")


def _check_label_values(arr: np.ndarray, distinct=None) -> None:
    """Numeric labels must be finite whole numbers (checked after the missing ones).  ``distinct``:
    the distinct labels, if known; when they are all text, so is every label (no scan)."""
    if distinct is not None and arr.dtype.kind == "O" and all(isinstance(v, str) for v in distinct):
        return
    # a list like [0, 0.5, 1] arrives as object "mixed-integer-float": as numeric as a float array
    if arr.dtype.kind == "f" or (arr.dtype.kind == "O" and pd.api.types.infer_dtype(arr) in (
            "floating", "mixed-integer-float")):
        # numbers only: text labels never pay for the conversion
        values = pd.to_numeric(pd.Series(arr), errors="coerce").to_numpy()
        if np.any(~np.isfinite(values[~np.isnan(values)])):
            raise ValueError("y holds non-finite labels (inf); class labels must be categorical")
        if np.any(values != np.round(values)):
            raise ValueError("y holds continuous values; class labels must be categorical")


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


def _declared_values(policy, j: int, name, col: pd.Series):
    """The declared values of feature ``j`` under a categories policy, or None (values seen)."""
    if isinstance(policy, str):
        if policy == "declared" and isinstance(col.dtype, pd.CategoricalDtype):
            return np.asarray(col.cat.categories, dtype=object)
        return None
    return np.asarray(list(policy[j]), dtype=object)


def check_categories_policy(policy, n_features: int | None = None):
    """Validate ``categories``: ``"seen"``, ``"declared"`` or one list of values per feature."""
    if isinstance(policy, str):
        if policy not in ("seen", "declared"):
            raise ValueError(f"categories must be 'seen', 'declared' or a list of per-feature value "
                             f"lists; got {policy!r}")
        return policy
    try:
        lists = [list(v) for v in policy]
    except TypeError:
        raise ValueError(f"categories must be 'seen', 'declared' or a list of per-feature value lists; "
                         f"got {policy!r}") from None
    if n_features is not None and len(lists) != n_features:
        raise ValueError(f"categories lists {len(lists)} features but X has {n_features}")
    return lists


def _sorted_categories(uniques: np.ndarray):
    """``union_categories([], uniques)`` for distinct values, and each value's position in it.

    Sorted when the values are mutually orderable (Python's ``<``, as ``Index.sort_values``),
    else in first-appearance order.  Returns (categories as an object array, positions (len,))."""
    uniques = np.asarray(uniques, dtype=object)
    try:
        order = np.argsort(uniques, kind="stable")
    except TypeError:  # e.g. ints mixed with strings: keep first-appearance order
        return uniques, np.arange(uniques.size)
    lut = np.empty(uniques.size, dtype=np.int64)
    lut[order] = np.arange(uniques.size)
    return uniques[order], lut


# An integer matrix is coded through one table of presence flags when its columns' value ranges
# add up to at most this many slots (else column by column with np.unique).
_INTEGER_SPAN_SLOTS = 1 << 22


def _factorize_integer_matrix(X: np.ndarray):
    """Codes into each column's sorted distinct values and those values, for an integer matrix.

    One flag per value slot of all columns' ranges marks the values present; a cumulative count
    numbers them in sorted order.  With numba (any dtype but uint64, whose values may not fit int64)
    the ranges, flags and codes come from the compiled loops of :mod:`._kernels`, one pass each;
    otherwise numpy works feature-major (a transposed copy: numpy's elementwise loops are slow along
    a short last axis).  Both give the same integers.  Returns (codes (m, n) int64, list of
    per-column value arrays of X's dtype), or None when the ranges are too wide (the caller then
    uses ``np.unique``).
    """
    if X.size == 0:
        return None
    compiled = numba_enabled() and X.dtype != np.uint64
    if compiled:
        X64 = np.ascontiguousarray(X, dtype=np.int64)
        lo, hi = np.empty(X.shape[1], dtype=np.int64), np.empty(X.shape[1], dtype=np.int64)
        _kernels.integer_ranges(X64, lo, hi)
        mins, maxs = lo.tolist(), hi.tolist()
    else:
        mins, maxs = X.min(axis=0).tolist(), X.max(axis=0).tolist()
    # ranges in Python integers: int64 arithmetic would wrap on extreme values (e.g. -2**63 and
    # 2**63 - 1 in one column), and uint64 values past 2**63 do not fit the int64 codes
    spans = [int(h) - int(v) + 1 for v, h in zip(mins, maxs)]
    if sum(spans) > _INTEGER_SPAN_SLOTS or max(maxs) > np.iinfo(np.int64).max:
        return None
    lo = np.asarray(mins, dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(spans)[:-1]]).astype(np.int64)
    if compiled:
        present = np.zeros(sum(spans), dtype=bool)
        codes = np.empty(X.shape[::-1], dtype=np.int64)
        _kernels.integer_codes(X64, lo, offsets, present, codes)
    else:
        slot = np.ascontiguousarray(X.T, dtype=np.int64) - (lo - offsets)[:, None]   # X never written
        present = np.bincount(slot.ravel(), minlength=sum(spans)) > 0
        rank = np.cumsum(present) - 1                     # slot -> position among present slots
        codes = np.take(rank - np.repeat(rank[offsets], spans), slot)   # each column's minimum -> 0
    values = [(lo[j] + np.flatnonzero(present[o:o + w])).astype(X.dtype)
              for j, (o, w) in enumerate(zip(offsets.tolist(), spans))]
    return codes, values


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


def _positions(categories: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``Index(categories).get_indexer(values)`` (-1: not a category) for distinct ``values``.

    Text against text (the usual case) through a dict: building a pandas Index of strings costs
    more than the whole lookup.  String equality is the same either way; anything else goes to
    ``get_indexer``."""
    if len(categories) <= 4096 and all(isinstance(v, str) for v in categories) and all(
            isinstance(v, str) for v in values):
        where = {v: i for i, v in enumerate(categories.tolist())}
        return np.array([where.get(v, UNSEEN) for v in values.tolist()], dtype=np.int64)
    return pd.Index(categories).get_indexer(values)


def _integer_lookup(values: np.ndarray, categories: np.ndarray, out: np.ndarray) -> bool:
    """Codes of an integer column through a lookup table, when every category is a (non-bool)
    integer; returns False (nothing written) otherwise.  Same matches as ``Index.get_indexer``."""
    cats = np.asarray(categories)
    if cats.size == 0 or not all(isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))
                                 for v in cats.tolist()):
        return False
    lo, hi = min(cats.tolist()), max(cats.tolist())
    big = np.iinfo(np.int64).max
    if hi - lo > 1_000_000 or hi > big or (values.dtype == np.uint64 and values.size and values.max() > big):
        return False                                      # (int64 arithmetic below would wrap)
    cats = cats.astype(np.int64)
    lut = np.full(hi - lo + 2, UNSEEN, dtype=np.int64)   # last slot: out of range
    lut[cats - lo] = np.arange(cats.size)
    shifted = values.astype(np.int64) - lo
    shifted[(shifted < 0) | (shifted > hi - lo)] = hi - lo + 1
    out[:] = lut[shifted]
    return True


class Gather:
    """Looks up per-(class, feature, value) tables for many instances at once.

    Built once per prediction call from integer codes (n, m); code :data:`UNSEEN` (-1) selects the
    extra last column of each feature's extended table, and code :data:`MISSING` (-2) a column of
    zeros appended after all features: a missing value adds 0 to every sum (its log-factor is 0,
    so it leaves the naive product) and :meth:`take` gives ``missing`` for it (callers working
    with counts mask it themselves).  Indices are kept feature-major (m, n) and contiguous: one
    ``take`` per class is several times faster than fancy-indexing (C, V) tables, and sums over
    features run along the fast axis.
    """

    def __init__(self, codes: np.ndarray, n_values):
        widths = np.asarray(n_values, dtype=np.int64) + 1
        offsets = np.concatenate([[0], np.cumsum(widths)[:-1]])
        self.total = int(widths.sum())
        idx = np.where(codes < 0, widths - 1, codes) + offsets
        if codes.size and codes.min() == MISSING:
            idx[codes == MISSING] = self.total
        self.idx = np.ascontiguousarray(idx.T)

    def _flat(self, extended: list, missing: float = 0.0) -> np.ndarray:
        flat = np.concatenate(extended, axis=1)
        return np.hstack([flat, np.full((flat.shape[0], 1), missing)])

    def take(self, extended: list, missing: float = 0.0) -> np.ndarray:
        """``extended[j][c, code[i, j]]`` as an array (C, m, n); ``missing`` where the code is MISSING."""
        flat = self._flat(extended, missing)
        return np.stack([row.take(self.idx) for row in flat])

    def sum(self, extended: list) -> np.ndarray:
        """``sum_j extended[j][c, code[i, j]]`` as an array (C, n) (missing values add 0)."""
        flat = self._flat(extended)
        return np.stack([row.take(self.idx).sum(axis=0) for row in flat])

    def sum_many(self, named: dict) -> dict:
        """:meth:`sum` for several table lists at once (one gather per class for all of them)."""
        names = list(named)
        flat = np.stack([self._flat(named[k]) for k in names], axis=1)                # (C, P, total)
        out = np.stack([row.take(self.idx, axis=1).sum(axis=1) for row in flat], axis=1)  # (P, C, n)
        return dict(zip(names, out))


def lookup(codes: np.ndarray, extended: list, missing: float = 0.0) -> np.ndarray:
    """``extended[j][c, codes[i, j]]`` as an array (C, m, n); see :class:`Gather`."""
    return Gather(codes, [t.shape[1] - 1 for t in extended]).take(extended, missing)


def lookup_sum(codes: np.ndarray, extended: list) -> np.ndarray:
    """``sum_j extended[j][c, codes[i, j]]`` as an array (C, n); see :class:`Gather`."""
    return Gather(codes, [t.shape[1] - 1 for t in extended]).sum(extended)
