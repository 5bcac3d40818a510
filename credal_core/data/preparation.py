"""Turn a raw table into categorical features, learning everything from the training fold only.

Numeric columns are discretised (MDL, equal frequency or median split; :mod:`credal_core.data.discretise`)
and missing values are handled in one of four ways (``missing=``):

``"impute"``
    the median / mode of the training fold (paper 001, §3);
``"category"``
    a category of its own, ``"missing"``;
``"ignore"``
    left missing (NaN): every classifier of the package takes them as missing at random (MAR), counting
    each feature over the training rows where it is present and leaving a missing test value out of
    the naive product;
``"conservative"``
    left missing, and the columns named in ``non_mar`` (or ``non_mar_training`` / ``non_mar_testing``)
    are declared *not* missing at random for the NCC, which then treats them with Zaffalon's
    conservative inference rule (NCC2, Corani & Zaffalon 2008): a class must dominate for every
    completion of those values.  :meth:`Preparation.ncc_params` gives the keyword arguments of
    :class:`~credal_core.naive.ncc.NCC`.  The other classifiers have no conservative treatment and
    take every missing value as MAR, as with ``"ignore"``.

``fit`` sees the training rows only and ``transform`` applies what it learned, so a test fold never
influences its own preparation (no leakage).  Discretised columns come out as pandas Categorical
with every bin of the fold as a category; a Categorical input column keeps its declared categories
(an ARFF header's values), so the classifiers' ``categories="declared"`` policy can count them.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .discretise import (
    DISCRETISERS,
    apply_cut_points,
    bin_labels,
    equal_frequency_cut_points,
    mdl_cut_points,
    median_cut_point,
)

__all__ = ["Preparation", "MISSING_CATEGORY", "MISSING_CHOICES"]

MISSING_CATEGORY = "missing"
MISSING_CHOICES = {"impute": "impute (paper 001): median / mode of the training fold",
                   "category": "category: a separate 'missing' value",
                   "ignore": "ignore (MAR): the classifiers skip missing values",
                   "conservative": "conservative (NCC2): chosen columns not missing at random"}


class Preparation:
    """Discretise numeric columns and handle missing values, fitted on training rows.

    Parameters
    ----------
    numeric : list of str
        Columns to discretise (their cells are numbers as text, or None when missing).
    discretiser : {"mdl", "equal_frequency", "median"}
    n_bins : int
        Bins of the equal-frequency discretiser.
    missing : {"impute", "category", "ignore", "conservative"}
        See the module's description.
    jncc2_quirk : bool
        MDL exactly as JNCC2 1.11 (see :func:`~credal_core.data.discretise.mdl_cut_points`).
    non_mar, non_mar_training, non_mar_testing : list of str
        With ``missing="conservative"`` only: the columns whose missing values are not MAR in training
        and testing (``non_mar``), in training only, or in testing only (JNCC2's ``NonMar.txt``).  A
        name that is not a column is an error; a declared column left out of the features (empty, or
        by ``drop_single_valued``) has no effect (JNCC2 does the same).
    drop_single_valued : bool
        Leave out a column with a single possible value in the training fold: a numeric column
        without a cut, a categorical column with one declared value (Categorical) or one value seen.
        JNCC2 does so; under MAR such a column is neutral anyway (factor 1), but a non-MAR declaration
        on it would not be.

    Attributes
    ----------
    columns_ : list of str
        The feature columns ``transform`` returns (entirely missing ones are left out).
    cuts_, fill_ : dict
        Cut points of each numeric column; imputation value of each column.
    notes_ : list of str
        What the user should know (columns left out and why).
    non_mar_training_, non_mar_testing_ : list of str
        The non-MAR declarations that act (columns kept), for the NCC (:meth:`ncc_params`).

    Examples
    --------
    >>> X = pd.DataFrame({"size": ["1", "2", "3", "10", "11", None],
    ...                   "colour": ["r", "g", None, "r", "g", "g"]})
    >>> y = ["a", "a", "a", "b", "b", "b"]
    >>> prep = Preparation(numeric=["size"], discretiser="median").fit(X.iloc[:5], y[:5])
    >>> prep.transform(X)["size"].tolist()
    ['(-inf, 3]', '(-inf, 3]', '(-inf, 3]', '(3, inf)', '(3, inf)', '(-inf, 3]']
    >>> prep = Preparation(missing="conservative", non_mar=["colour"]).fit(X, y)
    >>> prep.transform(X)["colour"].tolist()[2], prep.ncc_params()["non_mar_testing"]
    (nan, ['colour'])
    """

    def __init__(self, *, numeric=(), discretiser: str = "mdl", n_bins: int = 5, missing: str = "impute",
                 jncc2_quirk: bool = False, non_mar=(), non_mar_training=(), non_mar_testing=(),
                 drop_single_valued: bool = False):
        self.numeric = list(numeric)
        self.discretiser = discretiser
        self.n_bins = n_bins
        self.missing = missing
        self.jncc2_quirk = jncc2_quirk
        self.non_mar = list(non_mar)
        self.non_mar_training = list(non_mar_training)
        self.non_mar_testing = list(non_mar_testing)
        self.drop_single_valued = drop_single_valued

    def _check(self, X: pd.DataFrame) -> None:
        if self.discretiser not in DISCRETISERS:
            raise ValueError(f"discretiser must be one of {sorted(DISCRETISERS)}; got {self.discretiser!r}")
        if self.missing not in MISSING_CHOICES:
            raise ValueError(f"missing must be one of {sorted(MISSING_CHOICES)}; got {self.missing!r}")
        unknown = [c for c in self.numeric if c not in X.columns]
        if unknown:
            raise ValueError(f"numeric columns not in the table: {unknown}")
        declared = self.non_mar + self.non_mar_training + self.non_mar_testing
        if declared and self.missing != "conservative":
            raise ValueError(f"non-MAR columns are used by missing='conservative' only; got missing="
                             f"{self.missing!r} with non-MAR columns {declared}")
        unknown = [c for c in dict.fromkeys(declared) if c not in X.columns]
        if unknown:
            raise ValueError(f"non-MAR columns not in the table: {unknown} (columns: {list(X.columns)[:10]})")

    def fit(self, X: pd.DataFrame, y) -> Preparation:
        self._check(X)
        y = np.asarray(y)
        self.cuts_, self.fill_, self.categories_, self.notes_ = {}, {}, {}, []
        self.columns_ = []
        for name in X.columns:
            column = X[name]
            if name in self.numeric:
                values = pd.to_numeric(column, errors="coerce").to_numpy(float)
                present = np.isfinite(values)
                if self.discretiser == "mdl":
                    cuts = mdl_cut_points(values[present], y[present], jncc2_quirk=self.jncc2_quirk)
                elif self.discretiser == "equal_frequency":
                    cuts = equal_frequency_cut_points(values[present], self.n_bins)
                else:
                    cuts = median_cut_point(values[present])
                self.cuts_[name] = cuts
                self.fill_[name] = float(np.median(values[present])) if present.any() else None
                single = cuts.size == 0
            else:
                present = column.dropna()
                # ties between modes: the first in sorted order, so the result does not depend on row order
                counts = present.value_counts()
                self.fill_[name] = _first(counts[counts == counts.max()].index) if len(present) else None
                if isinstance(column.dtype, pd.CategoricalDtype):
                    self.categories_[name] = list(column.cat.categories)
                    single = len(self.categories_[name]) == 1
                else:
                    single = present.nunique() == 1
            if self.fill_[name] is None:
                if len(X):
                    self.notes_.append(f"column '{name}' has no value in the training rows; it is left out")
                continue
            if self.drop_single_valued and single:
                self.notes_.append(f"column '{name}' has a single value in the training rows (no cut, or "
                                   "one category); it is left out")
                continue
            self.columns_.append(name)
        kept = set(self.columns_)
        training = list(dict.fromkeys(self.non_mar + self.non_mar_training))
        testing = list(dict.fromkeys(self.non_mar + self.non_mar_testing))
        self.non_mar_training_ = [c for c in training if c in kept]
        self.non_mar_testing_ = [c for c in testing if c in kept]
        for name in dict.fromkeys(training + testing):
            if name not in kept and len(X):
                self.notes_.append(f"the non-MAR declaration of '{name}' has no effect: the column is "
                                   "left out")
        return self

    def ncc_params(self) -> dict:
        """Keyword arguments of :class:`~credal_core.naive.ncc.NCC` for the non-MAR columns (empty lists
        unless ``missing="conservative"``)."""
        return {"non_mar_training": list(self.non_mar_training_),
                "non_mar_testing": list(self.non_mar_testing_)}

    def transform(self, X: pd.DataFrame) -> pd.DataFrame:
        """Categorical table with the fitted cuts and fills.

        ``"impute"`` and ``"category"`` leave no missing cell (a column entirely missing in training
        is left out); ``"ignore"`` and ``"conservative"`` leave them as NaN.
        """
        out = {}
        for name in self.columns_:
            if name in self.cuts_:
                out[name] = self._numeric(name, X[name])
            else:
                out[name] = self._categorical(name, X[name])
        return pd.DataFrame(out, index=X.index, columns=self.columns_)

    def _numeric(self, name: str, column: pd.Series) -> pd.Categorical:
        values = pd.to_numeric(column, errors="coerce").to_numpy(float)
        missing = ~np.isfinite(values)
        if self.missing == "impute":
            values, missing = np.where(missing, self.fill_[name], values), np.zeros_like(missing)
        codes = apply_cut_points(np.where(missing, 0.0, values), self.cuts_[name]).astype(int)
        categories = bin_labels(self.cuts_[name])
        if self.missing == "category":
            categories = categories + [MISSING_CATEGORY]
            codes[missing] = len(categories) - 1
        else:
            codes[missing] = -1                              # NaN in the Categorical
        return pd.Categorical.from_codes(codes, categories=categories)

    def _categorical(self, name: str, column: pd.Series):
        values = column.to_numpy(dtype=object).copy()
        missing = pd.isna(values)
        if self.missing == "impute":
            values[missing] = self.fill_[name]
        elif self.missing == "category":
            values[missing] = MISSING_CATEGORY
        declared = self.categories_.get(name)
        if declared is not None:
            categories = list(declared)
            if self.missing == "category" and MISSING_CATEGORY not in categories:
                categories.append(MISSING_CATEGORY)
            return pd.Categorical(values, categories=categories)
        present = ~pd.isna(values)
        values[present] = values[present].astype(str)
        values[~present] = np.nan
        return values

    def fit_transform(self, X: pd.DataFrame, y) -> pd.DataFrame:
        return self.fit(X, y).transform(X)


def _first(values) -> object:
    """The first value in sorted order (as text when the values do not compare, e.g. 1 and 'x')."""
    try:
        return sorted(values)[0]
    except TypeError:
        return sorted(values, key=str)[0]
