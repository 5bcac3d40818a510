r"""Comparing classifiers over several data sets (paper 001 §3; Demšar, JMLR 7, 2006).

Input everywhere: a table ``scores`` with one row per data set and one column per classifier, each
cell one indicator (accuracy, u65, ...) where **higher is better**.

* Two classifiers: the Wilcoxon signed-rank test on the paired per-data-set scores
  (:func:`wilcoxon_pairs`, every pair of columns), as paper 001 does.
* Many classifiers: the Friedman test on the per-data-set ranks (:func:`friedman_test`, with the
  Iman-Davenport correction), then the Nemenyi post-hoc test: two classifiers differ significantly
  when their average ranks differ by at least the critical difference
  (:func:`nemenyi_critical_difference`, :func:`nemenyi_groups`).

Scores equal to ``DECIMALS`` decimal places count as equal (ties, zero differences), so that
floating-point noise in averaged indicators (``0.7 + 0.1`` vs ``0.8``) does not decide a rank.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import sqrt

import numpy as np
import pandas as pd
from scipy import stats

from ._checks import check_integer

__all__ = ["AcrossDatasets", "across_datasets", "DECIMALS", "FriedmanResult", "ranks_per_dataset",
           "wilcoxon_pairs", "friedman_test", "nemenyi_critical_difference", "nemenyi_groups"]

DECIMALS = 12


def _check_scores(scores) -> pd.DataFrame:
    """``scores`` as a float DataFrame (rows = data sets, columns = classifiers), or a clear ValueError."""
    frame = scores if isinstance(scores, pd.DataFrame) else pd.DataFrame(scores)
    if frame.shape[1] < 2:
        raise ValueError(f"need at least 2 classifiers (columns) to compare; got {frame.shape[1]}")
    if frame.shape[0] < 2:
        raise ValueError(f"need at least 2 data sets (rows) to compare classifiers; got {frame.shape[0]}")
    if frame.columns.has_duplicates:
        duplicated = sorted({str(c) for c in frame.columns[frame.columns.duplicated()]})
        raise ValueError(f"classifier names (columns) must be unique; repeated: {duplicated}")
    not_numeric = [str(c) for c in frame.columns if not _holds_numbers(frame[c])]
    if not_numeric:
        raise ValueError(f"scores must be numbers; these columns are not: {not_numeric}")
    values = frame.to_numpy(dtype=float)
    bad = ~np.isfinite(values)
    if bad.any():
        rows, cols = np.nonzero(bad)
        cells = [f"({frame.index[r]!r}, {frame.columns[c]!r})" for r, c in zip(rows[:5], cols[:5])]
        more = f" and {bad.sum() - 5} more" if bad.sum() > 5 else ""
        raise ValueError("scores must be finite numbers (no NaN / inf); missing or invalid cells "
                         f"(data set, classifier): {', '.join(cells)}{more}")
    return pd.DataFrame(values, index=frame.index, columns=frame.columns)


def _holds_numbers(column: pd.Series) -> bool:
    """Real numbers (a numeric dtype, or an object column of Python/numpy reals); no booleans, no text."""
    if pd.api.types.is_bool_dtype(column):
        return False
    if pd.api.types.is_numeric_dtype(column):
        return True
    real = (int, float, np.integer, np.floating)
    return column.dtype == object and all(isinstance(v, real) and not isinstance(v, (bool, np.bool_))
                                          for v in column)


def ranks_per_dataset(scores) -> pd.DataFrame:
    """Rank of each classifier on each data set: 1 = highest score, tied scores share their average rank.

    Parameters
    ----------
    scores : DataFrame (n_datasets, n_classifiers)
        One indicator per cell, higher is better, finite.

    Returns
    -------
    DataFrame of the same shape; every row sums to :math:`k(k+1)/2`.

    Examples
    --------
    >>> import pandas as pd
    >>> ranks_per_dataset(pd.DataFrame({"A": [0.9, 0.5], "B": [0.8, 0.5], "C": [0.9, 0.7]}))
         A    B    C
    0  1.5  3.0  1.5
    1  2.5  2.5  1.0
    """
    frame = _check_scores(scores)
    ranks = stats.rankdata(-np.round(frame.to_numpy(), DECIMALS), method="average", axis=1)
    return pd.DataFrame(ranks, index=frame.index, columns=frame.columns)


# ---------------------------------------------------------------- Wilcoxon, pairwise
def wilcoxon_pairs(scores, *, alpha: float = 0.05) -> pd.DataFrame:
    r"""Wilcoxon signed-rank test (two-sided) for every pair of classifiers over the data sets.

    For a pair (a, b) let :math:`d_i = \text{score}_a - \text{score}_b` on data set *i*, and rank the
    :math:`|d_i|` (ties get their average rank). With :math:`R^+` / :math:`R^-` the rank sums of the
    data sets where *a* / *b* is better, the statistic is (Demšar 2006, §3.1.3)

    .. math:: T = \min(R^+, R^-),

    small when one classifier is better on most data sets, by large margins.

    *Zero differences* (equal scores, to ``DECIMALS`` places) are ranked with the others and their rank
    sum is split evenly between :math:`R^+` and :math:`R^-` (Demšar's recommendation; scipy's
    ``zero_method="zsplit"``. Demšar also drops one zero when their number is odd; scipy does not).
    *p-values* are exact for any number of data sets: the null distribution of :math:`R^+` when
    each non-zero difference is equally likely to favour a or b (all :math:`2^{N'}` sign flips of
    the observed ranks, computed by convolution), two-sided
    :math:`p = \min(1, 2\min(P(R^+ \le r), P(R^+ \ge r)))`.  Without ties or zeros this is the
    classical exact Wilcoxon distribution (``scipy.stats.wilcoxon(..., method="exact")``); with them
    it is the exact conditional (permutation) distribution that ``scipy.stats.wilcoxon(d,
    zero_method="zsplit")`` uses for up to 13 data sets (scipy switches to the normal approximation
    beyond).  When every difference is zero, p = 1.

    *Few data sets*: with N data sets the smallest two-sided p-value the test can give is
    :math:`2/2^N` (every data set favours the same classifier), i.e. 0.0625 for N = 5.  With
    :math:`2/2^N \ge \alpha` (N ≤ 5 for α = 0.05) nothing can be significant; the column ``note``
    says so instead of failing.

    Parameters
    ----------
    scores : DataFrame (n_datasets, n_classifiers)
        One indicator per cell, higher is better; at least 2 rows and 2 columns, finite numbers.
    alpha : float, default 0.05
        Significance level for the column ``significant``.

    Returns
    -------
    DataFrame, one row per pair (a, b) with a before b in column order, columns
    ``classifier_a, classifier_b, n_datasets, wins, ties, losses`` (counted for a against b),
    ``mean_difference`` (mean of a − b), ``rank_sum_a`` (:math:`R^+`), ``rank_sum_b`` (:math:`R^-`),
    ``statistic`` (T), ``p_value``, ``significant`` (p < α), ``better`` (the classifier with the
    larger rank sum, ``""`` if equal) and ``note`` (``""`` or why the test cannot be significant).

    References
    ----------
    Corani & Antonucci, *Credal classification based on AODE and compression coefficients*, §3
    (paper 001). J. Demšar, *Statistical comparisons of classifiers over multiple data sets*,
    JMLR 7 (2006) 1-30, §3.1.3.

    Examples
    --------
    >>> import pandas as pd
    >>> scores = pd.DataFrame({"NBC": [0.80, 0.71, 0.90, 0.65, 0.77, 0.84],
    ...                        "NCC": [0.78, 0.70, 0.88, 0.60, 0.75, 0.83]})
    >>> row = wilcoxon_pairs(scores).iloc[0]
    >>> int(row.wins), float(row.statistic), round(float(row.p_value), 5), row.better
    (6, 0.0, 0.03125, 'NBC')
    """
    frame = _check_scores(scores)
    alpha = _check_alpha(alpha)
    values, names = frame.to_numpy(), [str(c) for c in frame.columns]
    n = values.shape[0]
    smallest_p = 2.0 / 2.0 ** n
    few_note = ""
    if smallest_p >= alpha:
        few_note = (f"with {n} data sets the smallest p-value this test can give is 2/2^{n} = "
                    f"{smallest_p:.4g}, not below alpha = {alpha:g}: no difference can be significant")
    rows = []
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            d = np.round(values[:, i] - values[:, j], DECIMALS)      # round the difference, not the scores
            rank = stats.rankdata(np.abs(d))
            half_zero = rank[d == 0].sum() / 2
            r_a, r_b = rank[d > 0].sum() + half_zero, rank[d < 0].sum() + half_zero
            if np.all(d == 0):
                p_value, note = 1.0, "all scores are equal on every data set"
            else:
                p_value, note = _signed_rank_p_value(d), few_note
            rows.append({
                "classifier_a": names[i], "classifier_b": names[j], "n_datasets": n,
                "wins": int((d > 0).sum()), "ties": int((d == 0).sum()), "losses": int((d < 0).sum()),
                "mean_difference": float(d.mean()),
                "rank_sum_a": float(r_a), "rank_sum_b": float(r_b), "statistic": float(min(r_a, r_b)),
                "p_value": min(max(p_value, 0.0), 1.0), "significant": bool(p_value < alpha),
                "better": names[i] if r_a > r_b else names[j] if r_b > r_a else "",
                "note": note,
            })
    return pd.DataFrame(rows)


def _signed_rank_p_value(d: np.ndarray) -> float:
    """Exact two-sided p-value of R+ under random signs of the non-zero differences (ties averaged).

    Average ranks are multiples of 1/2, so doubled ranks are integers and the null distribution of
    2 R+ is a convolution over the non-zero differences, each adding its doubled rank or 0 with
    probability 1/2.  Zero differences add the same half rank sum to every outcome and drop out.
    """
    doubled = np.rint(2 * stats.rankdata(np.abs(d))).astype(np.int64)
    flips = doubled[d != 0]
    observed = int(doubled[d > 0].sum())
    distribution = np.zeros(int(flips.sum()) + 1)
    distribution[0] = 1.0
    for rank in flips:
        shifted = np.zeros_like(distribution)
        shifted[rank:] = distribution[:-rank]
        distribution = 0.5 * (distribution + shifted)
    lower, upper = distribution[:observed + 1].sum(), distribution[observed:].sum()
    return float(min(1.0, 2.0 * min(lower, upper)))


# ---------------------------------------------------------------- Friedman
@dataclass(frozen=True)
class FriedmanResult:
    """Result of :func:`friedman_test`.

    Attributes
    ----------
    statistic : float
        Friedman's :math:`\\chi^2_F` (tie-corrected).
    p_value : float
        :math:`P(\\chi^2_{k-1} \\ge \\chi^2_F)`.
    iman_davenport_statistic : float or None
        :math:`F_F`; ``None`` when every data set ranks the classifiers identically (then
        :math:`\\chi^2_F = N(k-1)` and :math:`F_F` is unbounded; its p-value is 0).
    iman_davenport_p_value : float
        :math:`P(F_{k-1, (k-1)(N-1)} \\ge F_F)`.
    average_ranks : Series
        Average rank per classifier (1 = best), in column order.
    ranks : DataFrame
        Rank per data set and classifier.
    n_datasets, n_classifiers : int
    note : str
        ``""`` or a remark on a degenerate case.
    """

    statistic: float
    p_value: float
    iman_davenport_statistic: float | None
    iman_davenport_p_value: float
    average_ranks: pd.Series
    ranks: pd.DataFrame
    n_datasets: int
    n_classifiers: int
    note: str = ""


def friedman_test(scores) -> FriedmanResult:
    r"""Friedman test that all classifiers have the same average rank, with the Iman-Davenport F.

    On each of the N data sets the k classifiers are ranked (1 = best, ties averaged); with
    :math:`R_j` the average rank of classifier j (Demšar 2006, §3.2.2)

    .. math::
        \chi^2_F = \frac{1}{C}\,\frac{12N}{k(k+1)}\Big[\sum_j R_j^2 - \frac{k(k+1)^2}{4}\Big],
        \qquad C = 1 - \frac{\sum_i \sum_g (t_{ig}^3 - t_{ig})}{N k (k^2 - 1)},

        F_F = \frac{(N-1)\,\chi^2_F}{N(k-1) - \chi^2_F},

    where :math:`t_{ig}` are the sizes of the groups of tied scores on data set i (C = 1 without
    ties, which is Demšar's formula; with ties this is the usual correction, as in
    ``scipy.stats.friedmanchisquare``). :math:`\chi^2_F` is referred to :math:`\chi^2_{k-1}` and
    :math:`F_F` (Iman & Davenport 1980, less conservative) to the F distribution with
    :math:`k-1` and :math:`(k-1)(N-1)` degrees of freedom. Both are large-sample approximations
    (Demšar: roughly N > 10 and k > 5). If every classifier ties on every data set the statistic is 0
    and p = 1. k = 2 is allowed (it is then an approximate sign test; prefer :func:`wilcoxon_pairs`).

    Parameters
    ----------
    scores : DataFrame (n_datasets, n_classifiers)
        One indicator per cell, higher is better; at least 2 rows and 2 columns, finite numbers.

    Returns
    -------
    FriedmanResult

    References
    ----------
    Paper 001 §3 (Fig. 7); J. Demšar, JMLR 7 (2006), §3.2.2; R. L. Iman and J. M. Davenport,
    Communications in Statistics 9 (1980) 571-595.

    Examples
    --------
    >>> import pandas as pd
    >>> scores = pd.DataFrame({"A": [0.9, 0.8, 0.7, 0.9], "B": [0.8, 0.7, 0.6, 0.7],
    ...                        "C": [0.7, 0.9, 0.5, 0.6]})
    >>> result = friedman_test(scores)
    >>> result.average_ranks.tolist(), result.statistic
    ([1.25, 2.25, 2.5], 3.5)
    """
    ranks = ranks_per_dataset(scores)
    r = ranks.to_numpy()
    n, k = r.shape
    average = r.mean(axis=0)
    tie_sum = 0.0
    for row in r:
        _, sizes = np.unique(row, return_counts=True)
        tie_sum += float((sizes ** 3 - sizes).sum())
    correction = 1.0 - tie_sum / (n * k * (k * k - 1))
    average_ranks = pd.Series(average, index=ranks.columns, name="average_rank")
    if correction <= 0:                      # every row is one big tie: ranks carry no information
        return FriedmanResult(0.0, 1.0, 0.0, 1.0, average_ranks, ranks, n, k,
                              note="all classifiers tie on every data set")
    chi2 = 12.0 * n / (k * (k + 1)) * (np.sum(average ** 2) - k * (k + 1) ** 2 / 4.0) / correction
    chi2 = float(min(max(chi2, 0.0), n * (k - 1)))
    p_value = float(stats.chi2.sf(chi2, k - 1))
    if np.all(r == r[0]):                    # identical ranking everywhere: chi2 = N(k-1), F unbounded
        return FriedmanResult(chi2, p_value, None, 0.0, average_ranks, ranks, n, k,
                              note="every data set ranks the classifiers identically; F_F is unbounded")
    f_stat = (n - 1) * chi2 / (n * (k - 1) - chi2)
    f_p = float(stats.f.sf(f_stat, k - 1, (k - 1) * (n - 1)))
    return FriedmanResult(chi2, p_value, float(f_stat), f_p, average_ranks, ranks, n, k)


# ---------------------------------------------------------------- Nemenyi post-hoc
def _check_alpha(alpha) -> float:
    is_real = isinstance(alpha, (int, float, np.integer, np.floating)) and not isinstance(alpha, bool)
    if not is_real or not 0 < alpha < 1:
        raise ValueError(f"alpha must be a number in (0, 1); got {alpha!r}")
    return float(alpha)


def nemenyi_critical_difference(n_datasets: int, n_classifiers: int, alpha: float = 0.05) -> float:
    r"""Critical difference of the Nemenyi test (Demšar 2006, §3.2.2).

    Two of k classifiers compared on N data sets perform significantly differently (level α) when
    their average ranks differ by at least

    .. math:: CD = q_\alpha \sqrt{\frac{k(k+1)}{6N}}, \qquad
              q_\alpha = \frac{Q_{1-\alpha}(k, \infty)}{\sqrt 2},

    with :math:`Q_{1-\alpha}(k, \infty)` the upper-α quantile of the studentized range of k
    means with infinite degrees of freedom (``scipy.stats.studentized_range``); e.g.
    :math:`q_{0.05} = 2.343` for k = 3 in Demšar's Table 5 (2.3437 unrounded).

    Parameters
    ----------
    n_datasets : int, >= 2
    n_classifiers : int, >= 2
    alpha : float in (0, 1), default 0.05

    Returns
    -------
    float

    Examples
    --------
    >>> round(nemenyi_critical_difference(14, 4), 3)    # Demšar's example: q = 2.569, CD = 1.25
    1.254
    """
    n = check_integer("n_datasets", n_datasets, 2)
    k = check_integer("n_classifiers", n_classifiers, 2)
    alpha = _check_alpha(alpha)
    q_alpha = float(stats.studentized_range.ppf(1.0 - alpha, k, np.inf)) / sqrt(2.0)
    return q_alpha * sqrt(k * (k + 1) / (6.0 * n))


def nemenyi_groups(average_ranks: pd.Series, cd: float) -> list[list[str]]:
    """Maximal groups of classifiers whose average ranks all lie within less than ``cd`` of each other.

    Classifiers are sorted by average rank; a group is a run of consecutive ones whose first and last
    ranks differ by less than ``cd`` (so no two members are significantly different), kept only if it
    has at least two members and is not contained in another group. These are the bars of Demšar's
    critical-difference diagram.

    Parameters
    ----------
    average_ranks : Series
        Average rank per classifier (index = names), e.g. ``friedman_test(scores).average_ranks``.
    cd : float > 0
        Critical difference, e.g. from :func:`nemenyi_critical_difference`.

    Returns
    -------
    list of lists of names, each in rank order (best first); groups ordered by their best member.

    Examples
    --------
    >>> import pandas as pd
    >>> nemenyi_groups(pd.Series({"A": 1.2, "B": 1.9, "C": 2.9, "D": 4.0}), cd=1.25)
    [['A', 'B'], ['B', 'C'], ['C', 'D']]
    """
    ranks = _check_average_ranks(average_ranks)
    cd = float(cd) if isinstance(cd, (int, float, np.integer, np.floating)) else float("nan")
    if not np.isfinite(cd) or cd <= 0:
        raise ValueError(f"cd must be a finite number > 0; got {cd!r}")
    ordered = ranks.sort_values(kind="stable")
    names, values = [str(i) for i in ordered.index], ordered.to_numpy()
    groups, last_end = [], -1
    for start in range(len(values)):
        end = start
        while end + 1 < len(values) and values[end + 1] - values[start] < cd:
            end += 1
        if end > start and end > last_end:        # at least two members, not inside the previous group
            groups.append(names[start:end + 1])
            last_end = end
    return groups


def _check_average_ranks(average_ranks) -> pd.Series:
    ranks = pd.Series(average_ranks)
    if len(ranks) < 1:
        raise ValueError("average_ranks is empty")
    if ranks.index.has_duplicates:
        raise ValueError("average_ranks must have one entry per classifier (duplicate names)")
    values = pd.to_numeric(ranks, errors="coerce").astype(float)
    if not np.isfinite(values.to_numpy()).all():
        raise ValueError("average_ranks must be finite numbers")
    return values


@dataclass(frozen=True)
class AcrossDatasets:
    """Classifiers compared across data sets on one indicator (001 §3, Demšar 2006)."""

    scores: pd.DataFrame                 # data sets × classifiers (the indicator's mean over folds)
    left_out: list                       # classifiers without a score on some data set
    friedman: FriedmanResult | None      # None with fewer than two classifiers left
    critical_difference: float | None    # Nemenyi, α = 0.05
    pairs: pd.DataFrame | None           # Wilcoxon signed-rank test of every pair


def across_datasets(summaries: dict, indicator: str) -> AcrossDatasets:
    """Friedman, Nemenyi and Wilcoxon on ``indicator`` from per-data-set summaries.

    ``summaries`` maps a data set's name to its summary table (a ``classifier`` column and
    ``<indicator>_mean``).  A classifier without a score on some data set (e.g. it failed there) is
    left out, and said so; with fewer than two classifiers left no test is run.
    """
    scores = pd.DataFrame({name: table.set_index("classifier")[f"{indicator}_mean"]
                           for name, table in summaries.items()}).T
    left_out = [c for c in scores.columns if scores[c].isna().any()]
    scores = scores.drop(columns=left_out)
    if scores.shape[1] < 2:
        return AcrossDatasets(scores, left_out, None, None, None)
    result = friedman_test(scores)
    cd = nemenyi_critical_difference(result.n_datasets, result.n_classifiers)
    return AcrossDatasets(scores, left_out, result, cd, wilcoxon_pairs(scores))
