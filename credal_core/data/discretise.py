r"""Discretisers for numeric features: Fayyad–Irani MDL (001 §3), equal frequency, median split (004).

Each learns cut points :math:`t_1 < \dots < t_m` from training values only and maps a value ``v`` to
bin 0 if :math:`v \le t_1`, bin ``j`` if :math:`t_j < v \le t_{j+1}`, bin ``m`` if :math:`v > t_m`
(a value equal to a cut goes to the lower bin, as in JNCC2).  Bins are labelled by their intervals,
e.g. ``(-inf, 5.75]``, so a discretised table stays readable.  Missing values (NaN) stay missing.

scikit-learn has no MDL discretiser (``KBinsDiscretizer`` is unsupervised); this one follows
Fayyad and Irani (1993): recursively split an interval S of N instances at the boundary point T
minimising the class entropy :math:`E(T; S) = \frac{N_1}{N}{\rm Ent}(S_1) + \frac{N_2}{N}{\rm Ent}(S_2)`,
and accept the split iff

.. math::
    {\rm Gain}(T; S) > \frac{\log_2(N-1)}{N} + \frac{\Delta(T; S)}{N}, \qquad
    \Delta = \log_2(3^k - 2) - \big[k\,{\rm Ent}(S) - k_1{\rm Ent}(S_1) - k_2{\rm Ent}(S_2)\big],

with :math:`k, k_1, k_2` the numbers of classes present in :math:`S, S_1, S_2` and entropies in bits.
"""
from __future__ import annotations

import math

import numpy as np

from .._checks import check_integer

__all__ = ["mdl_cut_points", "equal_frequency_cut_points", "median_cut_point", "apply_cut_points",
           "bin_labels", "DISCRETISERS"]


def _entropy(counts: np.ndarray) -> float:
    total = counts.sum()
    p = counts[counts > 0] / total
    return float(-(p * np.log2(p)).sum())


def _clean(values, labels=None):
    values = np.asarray(values, dtype=float)
    keep = np.isfinite(values)
    if labels is None:
        return values[keep], None
    labels = np.asarray(labels)
    if labels.shape != values.shape:
        raise ValueError("values and labels must have the same length")
    return values[keep], labels[keep]


def mdl_cut_points(values, labels, *, jncc2_quirk: bool = False) -> np.ndarray:
    """Fayyad–Irani MDL cut points of one numeric feature (missing values ignored), sorted.

    Candidate cuts are the midpoints between consecutive distinct values; the best one of an
    interval is the one with the least class entropy (Fayyad and Irani prove it lies on a class
    boundary), ties to the leftmost.  An interval is split again on both sides after an accepted cut.

    ``jncc2_quirk=True`` reproduces JNCC2 1.11, which never considers the cut before the feature's
    largest training value (its candidate loop stops two positions before the end of the whole sorted
    column); with it the reference cut points of JNCC2's examples are matched exactly (tests); the
    textbook rule differs from them on one feature (glass K: an extra cut isolating the largest value).

    Examples
    --------
    >>> mdl_cut_points([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], list("aaaaabbbbb"))
    array([5.5])
    >>> mdl_cut_points([1, 2, 3, 4], list("abab")).size   # no split pays for itself
    0
    """
    values, labels = _clean(values, labels)
    if values.size < 2:
        return np.empty(0)
    order = np.argsort(values, kind="stable")
    x = values[order]
    _, y = np.unique(labels[order], return_inverse=True)
    n_classes = int(y.max()) + 1
    onehot = np.zeros((x.size, n_classes))
    onehot[np.arange(x.size), y] = 1
    cum = np.vstack([np.zeros(n_classes), np.cumsum(onehot, axis=0)])   # cum[i] = counts of x[:i]
    cuts: list[float] = []
    stack = [(0, x.size)]
    while stack:
        lo, hi = stack.pop()
        n = hi - lo
        if n < 2:
            continue
        # positions i (lo < i < hi) with x[i-1] < x[i]: the cut between them
        positions = lo + 1 + np.flatnonzero(x[lo + 1:hi] > x[lo:hi - 1])
        if jncc2_quirk:
            positions = positions[x.size - positions >= 2]
        if positions.size == 0:
            continue
        total = cum[hi] - cum[lo]
        left = cum[positions] - cum[lo]
        right = total - left
        n_left = left.sum(axis=1)
        n_right = right.sum(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            pl = left / n_left[:, None]
            pr = right / n_right[:, None]
            ent_left = -np.where(left > 0, pl * np.log2(np.where(pl > 0, pl, 1)), 0).sum(axis=1)
            ent_right = -np.where(right > 0, pr * np.log2(np.where(pr > 0, pr, 1)), 0).sum(axis=1)
        weighted = (n_left * ent_left + n_right * ent_right) / n
        best = int(np.argmin(weighted))
        ent_all = _entropy(total)
        gain = ent_all - weighted[best]
        k = int((total > 0).sum())
        k1 = int((left[best] > 0).sum())
        k2 = int((right[best] > 0).sum())
        delta = math.log2(3 ** k - 2) - (k * ent_all - k1 * ent_left[best] - k2 * ent_right[best])
        if gain > (math.log2(n - 1) + delta) / n:
            i = int(positions[best])
            cuts.append((x[i - 1] + x[i]) / 2)
            stack.append((lo, i))
            stack.append((i, hi))
    return np.array(sorted(cuts))


def equal_frequency_cut_points(values, n_bins: int = 5) -> np.ndarray:
    """Cuts at the training quantiles 1/n_bins, …, (n_bins−1)/n_bins (duplicates merged).

    A cut is the midpoint between the two training values around the quantile, so no training
    value sits on a cut; heavily repeated values can give fewer bins than asked.
    """
    check_integer("n_bins", n_bins, 2)
    x, _ = _clean(values)
    x = np.sort(x)
    if x.size < 2:
        return np.empty(0)
    cuts = []
    for q in range(1, n_bins):
        i = int(round(q * x.size / n_bins))
        if 0 < i < x.size and x[i - 1] < x[i]:
            cuts.append((x[i - 1] + x[i]) / 2)
    return np.unique(np.asarray(cuts, dtype=float))


def median_cut_point(values) -> np.ndarray:
    """One cut at the training median (004's binary split): ``v <= median`` is bin 0."""
    x, _ = _clean(values)
    if x.size == 0:
        return np.empty(0)
    median = float(np.median(x))
    return np.array([median]) if (x > median).any() else np.empty(0)


def apply_cut_points(values, cuts) -> np.ndarray:
    """Bin index per value (float array; NaN stays NaN): bin j holds (t_j, t_{j+1}]."""
    values = np.asarray(values, dtype=float)
    bins = np.searchsorted(np.asarray(cuts, float), values, side="left").astype(float)
    bins[~np.isfinite(values)] = np.nan
    return bins


def bin_labels(cuts) -> list[str]:
    """Readable labels of the bins: ``(-inf, t1]``, ``(t1, t2]``, …, ``(tm, inf)``.

    Six significant digits, or as many more as it takes for distinct cuts to print distinctly (cuts
    such as 1.7e12 + 1 and 1.7e12 + 2 must not merge two bins into one category).
    """
    cuts = [float(t) for t in cuts]
    for digits in range(6, 18):
        shown = [f"{t:.{digits}g}" for t in cuts]
        if len(set(shown)) == len(set(cuts)):
            break
    edges = ["-inf"] + shown + ["inf"]
    labels = [f"({a}, {b}]" for a, b in zip(edges[:-1], edges[1:])]
    labels[-1] = labels[-1][:-1] + ")"
    return labels


DISCRETISERS = {
    "mdl": "Fayyad–Irani MDL (supervised; 001)",
    "equal_frequency": "equal-frequency bins",
    "median": "median split (004)",
}
