"""Validation of categorical data: the checks every estimator, the sweeps and the CLI share.

A feature table must be 2-D, with rows, columns and unique column names, and each column categorical
(finite whole numbers, text, or any hashable value; never continuous, complex or unhashable).  Each
column is checked through one hash pass (:func:`_factorize`) whose codes the encoders reuse, so a text
column is read once.  Class labels: 1-D, one per row, no missing label, categorical.  The one rule for
classes everywhere is :func:`declared_classes`; a ``categories`` policy is checked by
:func:`check_categories_policy`.
"""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
from scipy import sparse
from sklearn.exceptions import DataConversionWarning

__all__ = ["as_frame", "check_categories_policy", "check_labels", "declared_classes", "labels_as_text"]

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
