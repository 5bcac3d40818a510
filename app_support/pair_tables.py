"""The two-class count tables the lessons ask about and the Classifier selection page opens (lesson 6's
link), shared by both (no streamlit here): a :class:`~credal_core.likelihood.pair_input.PairInput` —
``n(c)``, ``n(¬c)`` and, per feature j, how often each class was seen with the instance's value ``f̃_j`` —
as training rows with exactly those counts (binary features: the instance's value ``x`` or another value
``o``, both declared as categories), the instance, and the table as markdown."""

from __future__ import annotations

import numpy as np
import pandas as pd

from credal_core.likelihood.pair_input import PairInput

__all__ = ["C", "NOT_C", "CLASSES", "VALUES", "pair_frame", "pair_instance", "counts_table"]

C, NOT_C = "c", "¬c"
CLASSES = (C, NOT_C)
VALUES = ("x", "o")  # x: the instance's value of the feature; o: any other value


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


def counts_table(pair: PairInput) -> str:
    """The counts as a small markdown table (what a question shows)."""
    rows = [f"| f̃{j + 1} | {a} | {b} |" for j, (a, b) in enumerate(zip(pair.counts_c, pair.counts_not))]
    return "\n".join(
        ["| | c | ¬c |", "|---|---|---|", f"| class count n(·) | {pair.n_c} | {pair.n_not} |", *rows]
    )
