"""Turn a raw table into categorical features, learning everything from the training fold only.

Numeric columns are discretised (MDL, equal frequency or median split; :mod:`credal_core.data.discretise`)
and missing values are imputed (median / mode of the training fold, as in 001 §3) or kept as a
category of their own.  ``fit`` sees the training rows only and ``transform`` applies what it
learned, so a test fold never influences its own preparation (no leakage).
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

__all__ = ["Preparation", "MISSING_CATEGORY"]

MISSING_CATEGORY = "missing"
MISSING_CHOICES = {"impute": "median / mode of the training fold (001)",
                   "category": "a separate 'missing' category"}


class Preparation:
    """Discretise numeric columns and handle missing values, fitted on training rows.

    Parameters
    ----------
    numeric : list of str
        Columns to discretise (their cells are numbers as text, or None when missing).
    discretiser : {"mdl", "equal_frequency", "median"}
    n_bins : int
        Bins of the equal-frequency discretiser.
    missing : {"impute", "category"}
    jncc2_quirk : bool
        MDL exactly as JNCC2 1.11 (see :func:`~credal_core.data.discretise.mdl_cut_points`).

    Examples
    --------
    >>> X = pd.DataFrame({"size": ["1", "2", "3", "10", "11", None],
    ...                   "colour": ["r", "g", None, "r", "g", "g"]})
    >>> y = ["a", "a", "a", "b", "b", "b"]
    >>> prep = Preparation(numeric=["size"], discretiser="median").fit(X.iloc[:5], y[:5])
    >>> prep.transform(X)["size"].tolist()
    ['(-inf, 3]', '(-inf, 3]', '(-inf, 3]', '(3, inf)', '(3, inf)', '(-inf, 3]']
    """

    def __init__(self, *, numeric=(), discretiser: str = "mdl", n_bins: int = 5, missing: str = "impute",
                 jncc2_quirk: bool = False):
        self.numeric = list(numeric)
        self.discretiser = discretiser
        self.n_bins = n_bins
        self.missing = missing
        self.jncc2_quirk = jncc2_quirk

    def fit(self, X: pd.DataFrame, y) -> Preparation:
        if self.discretiser not in DISCRETISERS:
            raise ValueError(f"discretiser must be one of {sorted(DISCRETISERS)}; got {self.discretiser!r}")
        if self.missing not in MISSING_CHOICES:
            raise ValueError(f"missing must be one of {sorted(MISSING_CHOICES)}; got {self.missing!r}")
        unknown = [c for c in self.numeric if c not in X.columns]
        if unknown:
            raise ValueError(f"numeric columns not in the table: {unknown}")
        y = np.asarray(y)
        self.cuts_, self.fill_ = {}, {}
        for name in X.columns:
            if name in self.numeric:
                values = pd.to_numeric(X[name], errors="coerce").to_numpy(float)
                present = np.isfinite(values)
                if self.discretiser == "mdl":
                    cuts = mdl_cut_points(values[present], y[present], jncc2_quirk=self.jncc2_quirk)
                elif self.discretiser == "equal_frequency":
                    cuts = equal_frequency_cut_points(values[present], self.n_bins)
                else:
                    cuts = median_cut_point(values[present])
                self.cuts_[name] = cuts
                self.fill_[name] = float(np.median(values[present])) if present.any() else None
            else:
                present = X[name].dropna()
                # ties between modes: the first in sorted order, so the result does not depend on row order
                self.fill_[name] = (sorted(present.value_counts()[lambda c: c == c.max()].index)[0]
                                    if len(present) else None)
        self.columns_ = list(X.columns)
        return self

    def transform(self, X: pd.DataFrame) -> pd.DataFrame:
        """Categorical table (strings) with the fitted cuts and fills; no missing cells remain."""
        out = {}
        for name in self.columns_:
            if name in self.cuts_:
                values = pd.to_numeric(X[name], errors="coerce").to_numpy(float)
                labels = np.array(bin_labels(self.cuts_[name]), dtype=object)
                missing = ~np.isfinite(values)
                if self.missing == "impute" and self.fill_[name] is not None:
                    values = np.where(missing, self.fill_[name], values)
                    missing = ~np.isfinite(values)
                bins = apply_cut_points(np.where(missing, 0.0, values), self.cuts_[name]).astype(int)
                column = labels[bins]
                column[missing] = MISSING_CATEGORY
            else:
                column = X[name].to_numpy(dtype=object).copy()
                missing = pd.isna(column)
                fill = self.fill_[name] if self.missing == "impute" and self.fill_[name] is not None \
                    else MISSING_CATEGORY
                column[missing] = fill
                column = column.astype(str).astype(object)
            out[name] = column
        return pd.DataFrame(out, index=X.index)

    def fit_transform(self, X: pd.DataFrame, y) -> pd.DataFrame:
        return self.fit(X, y).transform(X)
