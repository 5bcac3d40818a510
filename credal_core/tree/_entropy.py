r"""Entropies of the split criteria: Shannon's and the upper entropy of the IDM credal set.

The imprecise Dirichlet model with counts :math:`n_1..n_C` (total N) and strength ``s`` gives the
credal set :math:`\{p : p_i = (n_i + s\,t_i)/(N + s),\ t \in \Delta_C\}`.  Its maximum-entropy
distribution (Abellán & Moral 2005; Abellán 2006 for the IDM) spreads the ``s`` extra
observations over the smallest counts, levelling them: :math:`p_i = \max(n_i, L)/(N+s)` with the
level ``L`` solving :math:`\sum_i \max(n_i, L) = N + s`.  It is the exact maximiser: every other
member of the set majorises it (it is obtained from any of them by moving mass from larger to smaller
cells), and entropy is Schur-concave.  The Weka plugin's ``E_ContingencyTables.reps`` pours the mass
in unit steps (``min(s, #ties)`` per round over the current minima), which is the same distribution
whenever each round's share stays within the gap to the next count — always with integer counts
and ``s <= 1``, the setting of paper 001 (``-S 1.0``).

Entropies are in bits (the plugin's ``Utils.log2``), so the plugin's stopping threshold (gain below
Weka's ``SMALL`` = 1e-6) has the same meaning here.
"""
from __future__ import annotations

import numpy as np

__all__ = ["max_entropy_distribution", "upper_entropy", "shannon_entropy"]


def max_entropy_distribution(counts, s: float) -> np.ndarray:
    """The maximum-entropy member of the IDM credal set of each row of ``counts`` (..., C).

    Rows with ``N + s = 0`` give the uniform distribution.
    """
    n = np.asarray(counts, dtype=float)
    shape = n.shape
    n = n.reshape(-1, shape[-1])
    k = n.shape[1]
    srt = np.sort(n, axis=1)
    cum = np.cumsum(srt, axis=1)
    ranks = np.arange(1, k + 1)
    level = (s + cum) / ranks                        # level if the k smallest are raised
    nxt = np.hstack([srt[:, 1:], np.full((len(n), 1), np.inf)])
    ok = level <= nxt                                # first k whose level stays below the next count
    first = np.argmax(ok, axis=1)
    top = level[np.arange(len(n)), first]
    total = n.sum(axis=1) + s
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.maximum(n, top[:, None]) / total[:, None]
    p[total <= 0] = 1.0 / k
    return p.reshape(shape)


def _entropy_bits(p: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, -p * np.log2(np.where(p > 0, p, 1.0)), 0.0)
    return terms.sum(axis=-1)


def upper_entropy(counts, s: float) -> np.ndarray:
    r"""Upper (maximum) Shannon entropy, in bits, of the IDM credal set of each row of ``counts``."""
    return _entropy_bits(max_entropy_distribution(counts, s))


def shannon_entropy(counts) -> np.ndarray:
    """Shannon entropy, in bits, of the relative frequencies of each row of ``counts`` (0 if empty)."""
    n = np.asarray(counts, dtype=float)
    total = n.sum(axis=-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(total > 0, n / np.where(total > 0, total, 1.0), 0.0)
    return _entropy_bits(p)
