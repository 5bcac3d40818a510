"""The Compare page's preparation around any estimator: discretise and handle missing values inside each fit.

``prepare(estimator, numeric=..., discretiser=..., missing=...)`` wraps a classifier so that every
``fit`` learns the preparation (:class:`~credal_core.data.preparation.Preparation`: cut points of the
numeric columns, imputation values) from its training rows only and every ``predict*`` applies it.
Used inside scikit-learn's cross-validation (``cross_val_score``, ``GridSearchCV``) the discretiser is
therefore learned inside each training fold, as the Compare page and the command line do — the test
fold never influences its own cut points.

Examples
--------
>>> from sklearn.model_selection import cross_val_score
>>> from credal_core import NaiveBayes
>>> from credal_core.data.prepare import prepare
>>> from credal_core.datasets import load_iris
>>> X, y = load_iris(return_X_y=True)                      # four numeric columns
>>> model = prepare(NaiveBayes(), numeric="auto")          # MDL cut points learned in each fit
>>> scores = cross_val_score(model, X, y, cv=5)
>>> bool(scores.mean() > 0.9)
True
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, clone

from .column_checks import warn_many_valued_integers
from .csv_loader import MAX_CODE_LEVELS
from .preparation import Preparation

__all__ = ["PreparedClassifier", "prepare", "numeric_columns"]


def numeric_columns(X: pd.DataFrame) -> list[str]:
    """Columns the Compare page proposes to discretise (its CSV loader's rule): every present value a
    number, and not whole numbers with at most ``MAX_CODE_LEVELS`` (12) distinct values (codes of
    categories, e.g. MONK's a1..a6)."""
    out = []
    for name in X.columns:
        column = X[name].dropna()
        categorical = isinstance(column.dtype, pd.CategoricalDtype)
        if column.empty or pd.api.types.is_bool_dtype(column) or categorical:
            continue
        if pd.api.types.is_numeric_dtype(column):
            values = column.to_numpy(dtype=float)
        else:
            values = pd.to_numeric(column.astype(str).str.strip(), errors="coerce").to_numpy(dtype=float)
        if not np.isfinite(values).all():
            continue
        whole = bool(np.all(values == np.round(values)))
        if not (whole and np.unique(values).size <= MAX_CODE_LEVELS):
            out.append(name)
    return out


def _as_text(X: pd.DataFrame, numeric: list[str]) -> pd.DataFrame:
    """Features as the loader gives them: categorical cells as text (None when missing), numbers kept."""
    out = X.copy()
    for name in out.columns:
        if name in numeric or isinstance(out[name].dtype, pd.CategoricalDtype):
            continue
        values = out[name].to_numpy(dtype=object)
        present = ~pd.isna(values)
        values[present] = [str(v) for v in values[present]]
        values[~present] = None
        out[name] = pd.Series(values, index=out.index, dtype=object)
    return out


class PreparedClassifier(ClassifierMixin, BaseEstimator):
    """A classifier behind the Compare page's preparation, learned in each ``fit``.

    Parameters
    ----------
    estimator : classifier
        Any estimator with ``fit`` / ``predict`` on categorical features (``credal_core``'s, or a
        scikit-learn pipeline); cloned at fit.
    numeric : "auto", "none" or list of str, default="auto"
        Columns to discretise: ``"auto"`` takes :func:`numeric_columns` of the training rows.
    discretiser : {"mdl", "equal_frequency", "median"}, default="mdl"
    n_bins : int, default=5
        Bins of ``"equal_frequency"``.
    missing : {"impute", "category", "ignore", "conservative"}, default="impute"
        See :mod:`credal_core.data.preparation`.
    non_mar : list of str, default=()
        With ``missing="conservative"``: columns not missing at random; an estimator taking
        ``non_mar_training`` / ``non_mar_testing`` (the NCC) gets them (NCC2's treatment).

    Attributes
    ----------
    preparation_ : Preparation
        The fitted preparation (``cuts_``: the cut points of each numeric column).
    estimator_ : classifier
        The fitted clone of ``estimator``.
    numeric_ : list of str
        The columns discretised.
    classes_ : ndarray
    warnings_ : list of str
        Integer columns left categorical with more than 20 distinct values (also warned as
        :class:`~credal_core.data.column_checks.ManyValuedIntegerWarning`).
    """

    def __init__(self, estimator, *, numeric="auto", discretiser: str = "mdl", n_bins: int = 5,
                 missing: str = "impute", non_mar=()):
        self.estimator = estimator
        self.numeric = numeric
        self.discretiser = discretiser
        self.n_bins = n_bins
        self.missing = missing
        self.non_mar = non_mar

    def _frame(self, X) -> pd.DataFrame:
        if isinstance(X, pd.DataFrame):
            return X
        X = pd.DataFrame(np.asarray(X, dtype=object))
        X.columns = [f"x{j}" for j in range(X.shape[1])]
        return X

    def fit(self, X, y, **fit_params):
        """Learn the preparation on (X, y), then fit a clone of ``estimator`` on the prepared rows
        (``fit_params``, e.g. ``classes=``, are passed on)."""
        X = self._frame(X)
        y = np.asarray(y, dtype=object)
        if isinstance(self.numeric, str):
            if self.numeric not in ("auto", "none"):
                raise ValueError(f"numeric must be 'auto', 'none' or a list of columns; got {self.numeric!r}")
            numeric = numeric_columns(X) if self.numeric == "auto" else []
        else:
            numeric = [str(c) for c in self.numeric]
        self.numeric_ = numeric
        self.warnings_ = warn_many_valued_integers(X, exclude=numeric, stacklevel=2)
        self.preparation_ = Preparation(numeric=numeric, discretiser=self.discretiser, n_bins=self.n_bins,
                                        missing=self.missing, non_mar=list(self.non_mar))
        prepared = self.preparation_.fit_transform(_as_text(X, numeric), y)
        self.estimator_ = clone(self.estimator)
        if self.missing == "conservative" and "non_mar_training" in self.estimator_.get_params():
            self.estimator_.set_params(**self.preparation_.ncc_params())
        self.estimator_.fit(prepared, y, **fit_params)
        self.classes_ = self.estimator_.classes_
        return self

    def transform(self, X) -> pd.DataFrame:
        """The prepared (categorical) features of X."""
        return self.preparation_.transform(_as_text(self._frame(X), self.numeric_))

    def predict(self, X):
        return self.estimator_.predict(self.transform(X))

    def predict_proba(self, X):
        return self.estimator_.predict_proba(self.transform(X))

    def predict_set(self, X):
        """The estimator's sets of classes (credal and conformal classifiers)."""
        return self.estimator_.predict_set(self.transform(X))


def prepare(estimator, *, numeric="auto", discretiser: str = "mdl", n_bins: int = 5, missing: str = "impute",
            non_mar=()) -> PreparedClassifier:
    """``estimator`` behind the Compare page's preparation (see :class:`PreparedClassifier`)."""
    return PreparedClassifier(estimator, numeric=numeric, discretiser=discretiser, n_bins=n_bins,
                              missing=missing, non_mar=non_mar)
