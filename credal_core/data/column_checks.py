"""Checks of feature columns a researcher needs to hear about before a classifier counts them.

A credal (or naive Bayes) classifier treats every feature as categorical: an integer column such as a
cholesterol level with 152 distinct values becomes 152 categories, each seen a handful of times, and
the imprecise classifiers then rarely decide (the NCC's determinacy on UCI heart-c drops to about 0.26).
:func:`many_valued_integer_columns` finds such columns; :func:`warn_many_valued_integers` warns,
naming each column and the choice to discretise it.

``MAX_INTEGER_LEVELS`` is the threshold: a column whose present values are all whole numbers (integer
dtype, whole floats, or text such as ``"152"``) with **more than 20** distinct values is flagged.
Twenty keeps integer codes of categories (MONK's a1..a6, Likert scales, counts of children) quiet,
and flags measurements recorded as integers (age in years, blood pressure, cholesterol).
"""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

__all__ = ["MAX_INTEGER_LEVELS", "ManyValuedIntegerWarning", "many_valued_integer_columns",
           "many_valued_integer_message", "warn_many_valued_integers"]

MAX_INTEGER_LEVELS = 20


class ManyValuedIntegerWarning(UserWarning):
    """An integer feature with more than :data:`MAX_INTEGER_LEVELS` distinct values is taken as categories."""


def _whole_numbers(column: pd.Series) -> np.ndarray | None:
    """The present values as floats when every one is a whole number, else None."""
    present = column.dropna()
    if isinstance(column.dtype, pd.CategoricalDtype):
        present = present.astype(object)
    if pd.api.types.is_bool_dtype(present):
        return None
    if pd.api.types.is_numeric_dtype(present):
        values = present.to_numpy(dtype=float)
    else:
        values = pd.to_numeric(present.astype(str).str.strip(), errors="coerce").to_numpy(dtype=float)
    if values.size == 0 or not np.isfinite(values).all() or not np.all(values == np.round(values)):
        return None
    return values


def many_valued_integer_columns(X: pd.DataFrame, *, exclude=(), threshold: int = MAX_INTEGER_LEVELS
                                ) -> dict[str, int]:
    """Columns of ``X`` (but not ``exclude``, e.g. those to be discretised) whose present values are all
    whole numbers with more than ``threshold`` distinct values; name → number of distinct values.

    Examples
    --------
    >>> X = pd.DataFrame({"chol": range(100, 130), "sex": [0, 1] * 15, "ok": ["a"] * 30})
    >>> many_valued_integer_columns(X)
    {'chol': 30}
    >>> many_valued_integer_columns(X, exclude=["chol"])
    {}
    """
    if not isinstance(X, pd.DataFrame):
        X = pd.DataFrame(X)
    skip = {str(c) for c in exclude}
    out = {}
    for name in X.columns:
        if str(name) in skip:
            continue
        values = _whole_numbers(X[name])
        if values is not None:
            distinct = int(np.unique(values).size)
            if distinct > threshold:
                out[str(name)] = distinct
    return out


def many_valued_integer_message(name: str, distinct: int) -> str:
    """The sentence the package, the command line and the app say about one such column."""
    return (f"column '{name}' holds {distinct} distinct whole numbers and is taken as {distinct} "
            f"categories (more than {MAX_INTEGER_LEVELS}); if it is a measurement, discretise it "
            "(command line: --numeric; Compare page: 'Numeric columns to discretise'; Python: "
            "credal_core.data.prepare.prepare(numeric=[...]))")


def warn_many_valued_integers(X: pd.DataFrame, *, exclude=(), stacklevel: int = 2) -> list[str]:
    """Warn (:class:`ManyValuedIntegerWarning`) once per column found by
    :func:`many_valued_integer_columns`; returns the messages."""
    messages = [many_valued_integer_message(name, n)
                for name, n in many_valued_integer_columns(X, exclude=exclude).items()]
    for message in messages:
        warnings.warn(message, ManyValuedIntegerWarning, stacklevel=stacklevel + 1)
    return messages
