"""A two-class count table as a data set of the page "Classifier selection" (lesson 6's problems; no
streamlit here).

Lesson 6 asks about the critical perturbation threshold of the Laplace NBC on a small count table
(``app_support.pair_tables``: ``n(c)``, ``n(¬c)`` and, per feature, how often each class was
seen with the instance's value ``x``).  Its link opens the page with ``data=counts`` and the table in
one compact parameter, ``counts=<n(c)>-<n(¬c)>,<n(c, x₁)>-<n(¬c, x₁)>,…`` (e.g. ``8-6,5-2,3-4``);
the page expands it into rows with :func:`~app_support.pair_tables.pair_frame` (the lesson's own
expansion) and shows, beside its split-based view, both NBCs' thresholds of the instance ``x|x…``
on **all** rows: :func:`threshold`, the one function the lesson grades with.
"""
from __future__ import annotations

import functools

import numpy as np
import pandas as pd

from app_support.pair_tables import VALUES, pair_frame, pair_instance
from credal_core import NaiveBayes
from credal_core.likelihood.pair_input import PairInput

__all__ = ["COUNTS", "DEFAULT_TABLE", "MAX_ROWS", "MAX_FEATURES", "parse_table", "format_table",
           "table_name", "is_table", "table_of", "frame", "threshold", "instance_values"]

COUNTS = "counts"                # the data choice of a count table
_PREFIX = COUNTS + ":"           # a count table's data-set name in the page's caches: "counts:8-6,5-2,3-4"
DEFAULT_TABLE = "8-6,5-2,3-4"    # chosen in the data box without a link: c wins on f1 and f2
MAX_ROWS, MAX_FEATURES = 400, 6  # a link with more rows or features is not one of the lessons'


def parse_table(text: str) -> PairInput:
    """The table of ``counts=…`` (``ValueError`` saying what is wrong: format, sizes, a feature count
    above its class count)."""
    text = str(text).strip()
    parts = text.split(",")
    if len(text) > 200 or len(parts) < 2:
        raise ValueError("expected n(c)-n(¬c) then one count pair per feature, e.g. 8-6,5-2,3-4")
    if len(parts) - 1 > MAX_FEATURES:
        raise ValueError(f"at most {MAX_FEATURES} features; got {len(parts) - 1}")
    pair = PairInput.from_text(",".join(parts[1:]), parts[0])
    if pair is None:
        raise ValueError("each entry must be two whole numbers joined by '-', e.g. 8-6,5-2,3-4, "
                         "with every feature count at most its class count")
    if min(pair.n_c, pair.n_not) < 1 or pair.n_c + pair.n_not > MAX_ROWS:
        raise ValueError(f"each class needs at least 1 row and the table at most {MAX_ROWS} rows; "
                         f"got {pair.n_c} + {pair.n_not}")
    return pair


def format_table(pair: PairInput) -> str:
    counts, totals = pair.to_text()
    return f"{totals},{counts}"


def table_name(pair: PairInput) -> str:
    """The data-set name of a count table (the key of the page's shared caches)."""
    return _PREFIX + format_table(pair)


def is_table(name: str) -> bool:
    return str(name).startswith(_PREFIX)


def table_of(name: str) -> PairInput:
    return parse_table(str(name)[len(_PREFIX):])


def frame(pair: PairInput) -> tuple[pd.DataFrame, np.ndarray]:
    """The table's rows, ``(X, y)``: :func:`~app_support.pair_tables.pair_frame` (features ``f1 …``
    with the declared values ``x`` and ``o``)."""
    return pair_frame(pair)


def instance_values(pair: PairInput) -> tuple:
    """The instance the table is about: the value ``x`` of every feature."""
    return (VALUES[0],) * len(pair.counts_c)


def threshold(pair: PairInput, features: tuple[str, ...]) -> float:
    r"""The critical perturbation threshold (004) of the Laplace NBC on ``features``, trained on all
    rows of the table, at the instance ``x|x…``:
    :meth:`credal_core.NaiveBayes.perturbation_threshold` with both values of every feature declared
    (:math:`|\mathcal F_i| = 2`)."""
    return _threshold(pair, tuple(features))


@functools.lru_cache(maxsize=1024)
def _threshold(pair: PairInput, features: tuple[str, ...]) -> float:
    X, y = frame(pair)
    cols = list(features)
    model = NaiveBayes(prior="laplace", categories="declared").fit(X[cols], y)
    return float(model.perturbation_threshold(pair_instance(pair)[cols])[0])
