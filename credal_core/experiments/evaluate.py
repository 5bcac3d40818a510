"""One training / test experiment: fit the naive classifiers on counts, score every setting.

A *grid* names the classifier settings of a sweep: NCC_ε for each (s, ε), LNCC_α for each α (the
critical levels are computed once per test instance and compared with every α, which gives the
same sets as one ``LNCC(alpha=α)`` per α — ``alpha > critical_alpha`` is the LNCC's definition), and
the Perks NBC whose labels give NBC-I.  Test instances are deduplicated and weighted by their
multiplicity: a 10,000-instance test set over 10 binary features has at most 2¹¹ distinct
(instance, class) pairs, and every indicator is a weighted mean.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._base import check_number, maximal_set
from ..data.counts import CountTables
from ..metrics import credal_scores, precise_accuracy_split
from ..naive.lncc import LNCC
from ..naive.naive_bayes import NaiveBayes
from ..naive.ncc import NCC

__all__ = ["ClassifierGrid", "INDICATORS", "evaluate", "distinct_rows"]

INDICATORS = ("determinacy", "single_accuracy", "set_accuracy", "indeterminate_size",
              "discounted_accuracy", "u65", "u80", "nbc_accuracy", "nbc_i")


@dataclass(frozen=True)
class ClassifierGrid:
    """The classifier settings of a sweep.

    Parameters
    ----------
    epsilons : tuple of float
        NCC_ε contaminations in [0, 1] (000 Table 1: 0.05, 0.15, 0.25, 0.35).
    alphas : tuple of float
        LNCC_α levels in [0, 1] (000 Table 1: 0.35, 0.55, 0.75, 0.95).
    s_values : tuple of float
        IDM strengths for the NCC (and the Perks NBC of NBC-I uses the first).
    include_instance : bool
        The LNCC's likelihood includes the instance (000 §4).
    """

    epsilons: tuple = (0.05, 0.15, 0.25, 0.35)
    alphas: tuple = (0.35, 0.55, 0.75, 0.95)
    s_values: tuple = (1.0,)
    include_instance: bool = True

    def __post_init__(self):
        for name in ("epsilons", "alphas", "s_values"):
            object.__setattr__(self, name, tuple(float(v) for v in getattr(self, name)))
        if not self.epsilons and not self.alphas:
            raise ValueError("the grid is empty: give at least one ε (NCC) or one α (LNCC)")
        if not self.s_values:
            raise ValueError("give at least one s for the NCC and the NBC")
        for e in self.epsilons:
            check_number("epsilon", e, 0.0, 1.0)
        for a in self.alphas:
            check_number("alpha", a, 0.0, 1.0)
        for s in self.s_values:
            check_number("s", s, 0.0, low_open=True)


def distinct_rows(X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct (instance, class) pairs of a coded test set and their multiplicities."""
    joint, counts = np.unique(np.column_stack([X, y]), axis=0, return_counts=True)
    return joint[:, :-1], joint[:, -1], counts.astype(float)


def _row(classifier, s, epsilon, alpha, scores, split):
    row = {"classifier": classifier, "s": s, "epsilon": epsilon, "alpha": alpha}
    row.update(scores)
    row["nbc_accuracy"] = split["accuracy"]
    row["nbc_i"] = split["accuracy_indeterminate"]
    return row


def evaluate(tables: CountTables, X_test: np.ndarray, y_test: np.ndarray, weight: np.ndarray,
             grid: ClassifierGrid) -> list[dict]:
    """Indicators of every grid setting on one coded test set (rows of a tidy table).

    ``tables`` are the training counts (classes ``0..C-1``, categories ``0..k-1``: see
    :meth:`CountTables.from_codes`); ``X_test`` (n, m) codes (-1 for a value unseen in training),
    ``y_test`` class codes, ``weight`` multiplicities.  NBC-I (000 §5) is the accuracy of the precise
    counterpart on the instances where the credal classifier is indeterminate: the Perks NBC with the
    NCC's ``s`` for NCC_ε, the Perks NBC with ``s = 1`` for LNCC_α (``s`` is not a parameter of the
    LNCC: its rows have ``s = nan``).
    """
    classes = np.arange(len(tables.classes))
    rows = []
    nbc_labels = {}
    for s in grid.s_values:
        nbc = NaiveBayes(s=s).fit_counts(tables)
        nbc_labels[s] = np.argmax(nbc.joint_log_likelihood_codes(X_test), axis=0)
        singletons = np.eye(len(classes), dtype=bool)[nbc_labels[s]]
        rows.append(_row("NBC", s, np.nan, np.nan,
                         credal_scores(y_test, singletons, classes, sample_weight=weight),
                         precise_accuracy_split(y_test, nbc_labels[s], singletons, classes,
                                                sample_weight=weight)))
        for eps in grid.epsilons:
            ncc = NCC(s=s, epsilon=eps).fit_counts(tables)
            sets = maximal_set(ncc.dominance_codes(X_test))
            rows.append(_row("NCC", s, eps, np.nan,
                             credal_scores(y_test, sets, classes, sample_weight=weight),
                             precise_accuracy_split(y_test, nbc_labels[s], sets, classes,
                                                    sample_weight=weight)))
    if grid.alphas:
        lncc = LNCC(include_instance=grid.include_instance).fit_counts(tables)
        crit = lncc.critical_alpha_codes(X_test)
        # the LNCC's precise counterpart is the Perks NBC with s = 1, whatever s the NCC uses
        reference = (nbc_labels[1.0] if 1.0 in nbc_labels
                     else np.argmax(lncc.joint_log_likelihood_codes(X_test), axis=0))
        for alpha in grid.alphas:
            sets = maximal_set(alpha > crit)
            rows.append(_row("LNCC", np.nan, np.nan, alpha,
                             credal_scores(y_test, sets, classes, sample_weight=weight),
                             precise_accuracy_split(y_test, reference, sets, classes,
                                                    sample_weight=weight)))
    return rows
