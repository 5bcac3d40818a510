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

    ``jncc2_quirk=True`` reproduces JNCC2 1.11's ``MdlDiscretizer`` (:func:`_jncc2_cut_points`), whose
    search differs from the textbook in three ways: a candidate of an interval needs at least two of
    the interval's values on its right; when no candidate qualifies, the feature's first class-boundary
    candidate is still tried if it lies just before the interval's last value; and the accepted cut is
    the one of highest gain among the candidates passing their *own* MDL threshold (the textbook takes
    the best candidate and then tests it).  With it the reference cut points of JNCC2's examples are
    matched exactly (tests); the textbook rule differs from them on one feature (glass K: an extra cut
    isolating the largest value).  The class order of the entropy sums is that of the sorted labels
    (pass integer codes in declaration order to repeat JNCC2's floating-point rounding exactly).

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
    values = values + 0.0                 # -0.0 and 0.0 are one value
    order = np.argsort(values, kind="stable")
    x = values[order]
    _, y = np.unique(labels[order], return_inverse=True)
    n_classes = int(y.max()) + 1
    onehot = np.zeros((x.size, n_classes), dtype=np.int64)
    onehot[np.arange(x.size), y] = 1
    cum = np.vstack([np.zeros(n_classes, dtype=np.int64), np.cumsum(onehot, axis=0)])   # counts of x[:i]
    if jncc2_quirk:
        return _jncc2_cut_points(x, y, cum)
    cuts: list[float] = []
    stack = [(0, x.size)]
    while stack:
        lo, hi = stack.pop()
        n = hi - lo
        if n < 2:
            continue
        # positions i (lo < i < hi) with x[i-1] < x[i]: the cut between them
        positions = lo + 1 + np.flatnonzero(x[lo + 1:hi] > x[lo:hi - 1])
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


_LN2 = math.log(2)
_JAVA_MIN_DOUBLE = 5e-324           # Double.MIN_VALUE: JNCC2's initial "best gain" (so a gain must be > 0)


def _boundary_positions(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Positions i (cut between x[i-1] and x[i]) at class boundaries, as JNCC2 lists its candidates.

    Values are grouped by equality; a candidate separates two consecutive groups unless both hold a
    single class, the same one.
    """
    starts = np.concatenate([[0], 1 + np.flatnonzero(x[1:] != x[:-1])])
    group = np.cumsum(np.r_[0, x[1:] != x[:-1]])
    pairs = np.unique(np.stack([group, y], axis=1), axis=0)      # distinct (group, class)
    n_cls = np.bincount(pairs[:, 0], minlength=starts.size)
    single = np.full(starts.size, -1)
    single[pairs[:, 0]] = pairs[:, 1]                            # meaningful where n_cls == 1
    keep = (n_cls[:-1] > 1) | (n_cls[1:] > 1) | (single[:-1] != single[1:])
    return starts[1:][keep]


def _java_entropy(counts: np.ndarray, table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""Entropy in bits and number of classes present, per row, in JNCC2's floating-point order:

    .. math:: {\rm Ent} = \Big(N\ln N - \sum_c n_c \ln n_c\Big) \Big/ (N \ln 2)

    with ``table[n] = n ln n`` (``math.log``) and the sum subtracted class by class.
    """
    total = counts.sum(axis=1)
    info = table[total]
    for c in range(counts.shape[1]):
        info = info - table[counts[:, c]]         # subtracting 0.0 (an absent class) is exact
    return info / (total * _LN2), (counts > 0).sum(axis=1).astype(float)


def _jncc2_cut_points(x: np.ndarray, y: np.ndarray, cum: np.ndarray) -> np.ndarray:
    r"""JNCC2 1.11's ``MdlDiscretizer`` on sorted values ``x`` with class codes ``y`` (see mdl_cut_points).

    Per interval ``[lo, hi)``: the candidates are the class-boundary positions ``p`` with
    ``lo < p <= hi - 2``; if there are none, the feature's first boundary ``p0`` is tried when
    ``lo < p0 = hi - 1`` (JNCC2 falls back on its first candidate; anywhere else that candidate's
    entropies are NaN and it is refused).  Every candidate is tested against its own threshold
    :math:`[\log_2(N-1) + \log_2(3^k-2) - k{\rm Ent}(S) + k_1{\rm Ent}(S_1) + k_2{\rm Ent}(S_2)]/N`
    and the passing one of highest gain (the first on ties) is accepted.
    """
    boundaries = _boundary_positions(x, y)
    if boundaries.size == 0:
        return np.empty(0)
    table = np.zeros(x.size + 1)
    table[1:] = [k * math.log(k) for k in range(1, x.size + 1)]
    cuts: list[float] = []
    stack = [(0, x.size)]
    while stack:
        lo, hi = stack.pop()
        cand = boundaries[(boundaries > lo) & (boundaries <= hi - 2)]
        if cand.size == 0:
            if not lo < boundaries[0] == hi - 1:
                continue
            cand = boundaries[:1]
        length = hi - lo
        ent_all, k = _java_entropy((cum[hi] - cum[lo])[None, :], table)
        ent_left, k_left = _java_entropy(cum[cand] - cum[lo], table)
        ent_right, k_right = _java_entropy(cum[hi] - cum[cand], table)
        gain = ent_all[0] - (ent_left * (cand - lo) + ent_right * (hi - cand)) / length
        threshold = math.log(length - 1) / _LN2 + math.log(3 ** int(k[0]) - 2) / _LN2
        threshold = threshold - ent_all[0] * k[0]
        threshold = (threshold + (ent_left * k_left + ent_right * k_right)) / length
        passing = (gain > threshold) & (gain > _JAVA_MIN_DOUBLE)
        if not passing.any():
            continue
        p = int(cand[int(np.argmax(np.where(passing, gain, -np.inf)))])
        cuts.append((x[p] + x[p - 1]) / 2)
        stack.append((lo, p))
        stack.append((p, hi))
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
