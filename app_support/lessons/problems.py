"""The small problems the lessons' questions are about, drawn from a seed (no streamlit here).

A *pair problem* is a two-class count table, :class:`~credal_core.likelihood.pair_input.PairInput`:
``n(c)``, ``n(¬c)`` and, per feature j, how often each class was seen with the instance's value
``f̃_j``.  :func:`pair_frame` turns it into training rows with exactly those counts (binary features:
the instance's value ``x`` or another value ``o``, both declared as categories), so every classifier
of ``credal_core`` can be fitted on the same problem the profile likelihood describes.
"""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd

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
]

C, NOT_C = "c", "¬c"
CLASSES = (C, NOT_C)
VALUES = ("x", "o")  # x: the instance's value of the feature; o: any other value


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


def _column(values) -> pd.Categorical:
    return pd.Categorical(values, categories=list(VALUES))


def pair_frame(pair: PairInput) -> tuple[pd.DataFrame, np.ndarray]:
    """Training rows with exactly the problem's counts: ``(X, y)``, features ``f1 … fm``."""
    columns = {}
    for j, (a, b) in enumerate(zip(pair.counts_c, pair.counts_not)):
        columns[f"f{j + 1}"] = _column(
            ["x"] * a + ["o"] * (pair.n_c - a) + ["x"] * b + ["o"] * (pair.n_not - b)
        )
    y = np.array([C] * pair.n_c + [NOT_C] * pair.n_not, dtype=object)
    return pd.DataFrame(columns), y


def pair_instance(pair: PairInput) -> pd.DataFrame:
    """The instance to classify: the value ``x`` of every feature."""
    return pd.DataFrame({f"f{j + 1}": _column(["x"]) for j in range(len(pair.counts_c))})


def scaled(params: dict, factor: int) -> dict:
    """A pair problem's parameters with every count multiplied by ``factor`` (same proportions)."""
    return {
        **params,
        "n_c": factor * params["n_c"],
        "n_not": factor * params["n_not"],
        "counts_c": [factor * v for v in params["counts_c"]],
        "counts_not": [factor * v for v in params["counts_not"]],
    }


def counts_table(pair: PairInput) -> str:
    """The counts as a small markdown table (what a question shows)."""
    rows = [f"| f̃{j + 1} | {a} | {b} |" for j, (a, b) in enumerate(zip(pair.counts_c, pair.counts_not))]
    return "\n".join(
        ["| | c | ¬c |", "|---|---|---|", f"| class count n(·) | {pair.n_c} | {pair.n_not} |", *rows]
    )
