"""The small problems the lessons' questions are about, drawn from a seed (no streamlit here).

A *pair problem* is a two-class count table, :class:`~credal_core.likelihood.pair_input.PairInput`:
``n(c)``, ``n(¬c)`` and, per feature j, how often each class was seen with the instance's value
``f̃_j``.  :func:`pair_frame` turns it into training rows with exactly those counts (binary features:
the instance's value ``x`` or another value ``o``, both declared as categories), so every classifier
of ``credal_core`` can be fitted on the same problem the profile likelihood describes.  The table's
rows, instance and markdown live in :mod:`app_support.pair_tables` (the Classifier selection page opens
lesson 6's tables too) and are re-exported here.
"""

from __future__ import annotations

import functools

import numpy as np

from app_support.pair_tables import CLASSES, NOT_C, VALUES, C, counts_table, pair_frame, pair_instance
from credal_core.likelihood.pair_input import PairInput

__all__ = [
    "C",
    "NOT_C",
    "CLASSES",
    "random_pair",
    "pair_frame",
    "pair_instance",
    "pair_params",
    "pair_from_params",
    "counts_table",
    "scaled",
    "VALUES",
]


def random_pair(rng: np.random.Generator, *, features: int = 2, lo: int = 3, hi: int = 12) -> PairInput:
    """A random problem: class counts in [lo, hi], each feature count in [0, its class count]."""
    n_c, n_not = (int(v) for v in rng.integers(lo, hi + 1, size=2))
    counts_c = [int(v) for v in rng.integers(0, n_c + 1, size=features)]
    counts_not = [int(v) for v in rng.integers(0, n_not + 1, size=features)]
    return PairInput.from_counts(n_c, n_not, counts_c, counts_not)


def pair_params(pair: PairInput) -> dict:
    """The problem as JSON-able parameters of a question."""
    return {
        "n_c": pair.n_c,
        "n_not": pair.n_not,
        "counts_c": list(pair.counts_c),
        "counts_not": list(pair.counts_not),
    }


def pair_from_params(params: dict) -> PairInput:
    return _pair(params["n_c"], params["n_not"], tuple(params["counts_c"]), tuple(params["counts_not"]))


@functools.lru_cache(maxsize=512)
def _pair(n_c, n_not, counts_c, counts_not) -> PairInput:
    return PairInput.from_counts(n_c, n_not, counts_c, counts_not)


def scaled(params: dict, factor: int) -> dict:
    """A pair problem's parameters with every count multiplied by ``factor`` (same proportions)."""
    return {
        **params,
        "n_c": factor * params["n_c"],
        "n_not": factor * params["n_not"],
        "counts_c": [factor * v for v in params["counts_c"]],
        "counts_not": [factor * v for v in params["counts_not"]],
    }
