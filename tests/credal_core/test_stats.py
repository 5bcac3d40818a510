"""credal_core.stats: Wilcoxon pairs, Friedman / Iman-Davenport, Nemenyi (Demšar 2006).

Expected values are worked by hand (the arithmetic is spelled out in the tests), taken from Demšar's
printed tables, or computed by slow generic methods: exact enumeration of all 2^N sign flips for the
Wilcoxon p-value, numerical integration of the studentized-range distribution for q_alpha, and
scipy.stats.friedmanchisquare for the Friedman statistic.
"""

from __future__ import annotations

import itertools
from math import sqrt

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, stats

from credal_core.stats import (
    friedman_test,
    nemenyi_critical_difference,
    nemenyi_groups,
    ranks_per_dataset,
    wilcoxon_pairs,
)


# ---------------------------------------------------------------- ranks
def test_ranks_by_hand_with_ties():
    scores = pd.DataFrame({"A": [0.9, 0.5, 0.2], "B": [0.8, 0.5, 0.2], "C": [0.9, 0.7, 0.2],
                           "D": [0.1, 0.5, 0.3]}, index=["d1", "d2", "d3"])
    expected = pd.DataFrame({"A": [1.5, 3.0, 3.0], "B": [3.0, 3.0, 3.0], "C": [1.5, 1.0, 3.0],
                             "D": [4.0, 3.0, 1.0]}, index=["d1", "d2", "d3"])
    # d1: A and C share ranks 1,2 -> 1.5; d2: C first, A/B/D share 2,3,4 -> 3; d3: D first, rest share 2,3,4
    pd.testing.assert_frame_equal(ranks_per_dataset(scores), expected)


def test_float_noise_does_not_break_a_tie():
    scores = pd.DataFrame({"A": [0.7 + 0.1, 0.3], "B": [0.8, 0.1 + 0.2]})
    assert 0.7 + 0.1 != 0.8 and 0.1 + 0.2 != 0.3
    assert ranks_per_dataset(scores).to_numpy().tolist() == [[1.5, 1.5], [1.5, 1.5]]
    assert wilcoxon_pairs(scores).loc[0, "ties"] == 2


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 7).flatmap(lambda k: st.lists(
    st.lists(st.integers(0, 4), min_size=k, max_size=k), min_size=2, max_size=8)))
def test_ranks_sum_per_row_and_follow_the_scores(rows):
    scores = pd.DataFrame(np.array(rows, float) / 4, columns=[f"c{j}" for j in range(len(rows[0]))])
    ranks = ranks_per_dataset(scores).to_numpy()
    k = scores.shape[1]
    np.testing.assert_allclose(ranks.sum(axis=1), k * (k + 1) / 2)
    assert ranks.min() >= 1 and ranks.max() <= k
    s = scores.to_numpy()
    for a, b in itertools.combinations(range(k), 2):
        np.testing.assert_array_equal(np.sign(ranks[:, a] - ranks[:, b]), -np.sign(s[:, a] - s[:, b]))


# ---------------------------------------------------------------- Wilcoxon
def test_wilcoxon_by_hand():
    # differences A - B: +0.05, -0.01, +0.03, 0, +0.03, +0.10, -0.02, +0.04
    a = [0.85, 0.70, 0.93, 0.60, 0.83, 0.90, 0.75, 0.64]
    b = [0.80, 0.71, 0.90, 0.60, 0.80, 0.80, 0.77, 0.60]
    result = wilcoxon_pairs(pd.DataFrame({"A": a, "B": b})).iloc[0]
    # |d| sorted: 0 (r1), .01 (r2), .02 (r3), .03 .03 (r4.5 each), .04 (r6), .05 (r7), .10 (r8)
    # R+ = 4.5+4.5+6+7+8 + 1/2 = 30.5 ; R- = 2+3 + 1/2 = 5.5
    assert (result.wins, result.ties, result.losses) == (5, 1, 2)
    assert result.rank_sum_a == 30.5 and result.rank_sum_b == 5.5 and result.statistic == 5.5
    assert result.better == "A"
    assert result.mean_difference == pytest.approx(0.22 / 8)
    assert result.p_value == pytest.approx(_sign_flip_p_value(np.array(a) - np.array(b)), abs=1e-12)


def _sign_flip_p_value(d: np.ndarray) -> float:
    """Two-sided p of R+ by enumerating all 2^N sign flips (zeros split evenly, ties averaged)."""
    d = np.round(d, 12)
    rank = stats.rankdata(np.abs(d))
    zero_half = rank[d == 0].sum() / 2
    nonzero = rank[d != 0]
    observed = rank[d > 0].sum() + zero_half
    # every one of the 2^N sign patterns, as rows of a 0/1 matrix (sums of half-integers: exact)
    m = len(nonzero)
    signs = np.array(list(itertools.product((0, 1), repeat=m)), dtype=float).reshape(2 ** m, m)
    sums = signs @ nonzero + zero_half
    tol = 1e-9
    return min(1.0, 2 * min(np.mean(sums <= observed + tol), np.mean(sums >= observed - tol)))


def test_wilcoxon_p_values_match_exact_enumeration_on_random_cases():
    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(300):
        n = int(rng.integers(2, 12))
        a = rng.integers(0, 6, n) / 5                       # coarse grid: many ties and zero differences
        b = rng.integers(0, 6, n) / 5
        if np.all(np.round(a - b, 12) == 0):
            continue
        row = wilcoxon_pairs(pd.DataFrame({"a": a, "b": b})).iloc[0]
        assert row.p_value == pytest.approx(_sign_flip_p_value(a - b), abs=1e-9), (a, b)
        assert row.statistic == min(row.rank_sum_a, row.rank_sum_b)
        assert row.rank_sum_a + row.rank_sum_b == n * (n + 1) / 2
        checked += 1
    assert checked >= 250


def test_wilcoxon_statistic_and_p_value_agree_with_scipy_without_ties():
    rng = np.random.default_rng(3)
    for _ in range(50):
        n = int(rng.integers(6, 60))
        a, b = rng.random(n), rng.random(n)
        row = wilcoxon_pairs(pd.DataFrame({"a": a, "b": b})).iloc[0]
        reference = stats.wilcoxon(a, b, method="exact")     # exact distribution, no ties or zeros
        assert row.statistic == pytest.approx(reference.statistic)
        assert row.p_value == pytest.approx(reference.pvalue, rel=1e-9)


def test_wilcoxon_with_ties_and_zeros_agrees_with_scipys_permutation_test():
    rng = np.random.default_rng(5)
    for _ in range(12):                                     # scipy's permutation test is slow
        n = int(rng.integers(3, 12))
        a, b = rng.integers(0, 4, n) / 3, rng.integers(0, 4, n) / 3
        d = np.round(a - b, 12)
        if np.all(d == 0):
            continue
        row = wilcoxon_pairs(pd.DataFrame({"a": a, "b": b})).iloc[0]
        # scipy: zero_method="zsplit"; for N <= 13 with ties or zeros "auto" enumerates all sign flips
        reference = stats.wilcoxon(d, zero_method="zsplit")
        assert row.statistic == pytest.approx(reference.statistic)
        assert row.p_value == pytest.approx(reference.pvalue, rel=1e-9)


def test_wilcoxon_many_data_sets_with_ties_matches_monte_carlo_sign_flips():
    rng = np.random.default_rng(1)
    a, b = rng.integers(0, 20, 80) / 19, rng.integers(0, 20, 80) / 19     # ties and zero differences
    row = wilcoxon_pairs(pd.DataFrame({"a": a, "b": b})).iloc[0]
    d = np.round(a - b, 12)
    rank = stats.rankdata(np.abs(d))[d != 0]
    observed = rank[d[d != 0] > 0].sum()
    flips = rng.integers(0, 2, (200_000, rank.size)) @ rank                    # R+ under random signs
    monte_carlo = 2 * min(np.mean(flips <= observed + 1e-9), np.mean(flips >= observed - 1e-9))
    assert 0.01 < row.p_value < 0.2
    assert row.p_value == pytest.approx(monte_carlo, abs=5 * sqrt(0.25 / 200_000) * 2)   # 5 sigma
    asymptotic = stats.wilcoxon(d, zero_method="zsplit", method="asymptotic")        # scipy beyond N = 13
    assert row.statistic == pytest.approx(asymptotic.statistic)
    assert row.p_value == pytest.approx(asymptotic.pvalue, abs=0.01)


@pytest.mark.parametrize("n, p, significant, has_note", [(5, 0.0625, False, True), (6, 0.03125, True, False)])
def test_too_few_data_sets_are_reported_not_failed(n, p, significant, has_note):
    scores = pd.DataFrame({"A": np.linspace(0.6, 0.9, n), "B": np.linspace(0.5, 0.7, n)})   # A always better
    row = wilcoxon_pairs(scores).iloc[0]
    assert row.p_value == pytest.approx(p) and bool(row.significant) is significant
    assert bool(row.note) is has_note
    if has_note:
        assert f"2/2^{n}" in row.note and "no difference can be significant" in row.note


def test_all_equal_scores_give_p_one():
    scores = pd.DataFrame({"A": [0.5, 0.6, 0.7], "B": [0.5, 0.6, 0.7]})
    row = wilcoxon_pairs(scores).iloc[0]
    assert row.p_value == 1.0 and row.ties == 3 and row.better == "" and not row.significant
    assert "equal" in row.note


def test_every_pair_once_in_column_order_and_no_nan():
    rng = np.random.default_rng(0)
    scores = pd.DataFrame(rng.random((9, 4)), columns=["NBC", "NCC", "LNCC", "AODE"])
    table = wilcoxon_pairs(scores, alpha=0.1)
    pairs = list(zip(table.classifier_a, table.classifier_b))
    assert pairs == list(itertools.combinations(scores.columns, 2))
    assert (table.wins + table.ties + table.losses == 9).all()
    assert not table.isna().any().any()
    assert ((table.p_value >= 0) & (table.p_value <= 1)).all()
    assert (table.significant == (table.p_value < 0.1)).all()


# ---------------------------------------------------------------- Friedman
def test_friedman_by_hand_without_ties():
    scores = pd.DataFrame({"A": [0.9, 0.8, 0.7, 0.9, 0.6], "B": [0.8, 0.7, 0.6, 0.7, 0.8],
                           "C": [0.7, 0.9, 0.5, 0.6, 0.7]})
    result = friedman_test(scores)
    # ranks per data set: (1,2,3) (2,3,1) (1,2,3) (1,2,3) (3,1,2) -> R = (8/5, 10/5, 12/5)
    assert result.average_ranks.tolist() == pytest.approx([1.6, 2.0, 2.4])
    n, k = 5, 3
    chi2 = 12 * n / (k * (k + 1)) * (1.6 ** 2 + 2.0 ** 2 + 2.4 ** 2 - k * (k + 1) ** 2 / 4)   # = 5 * 0.32
    assert chi2 == pytest.approx(1.6)
    assert result.statistic == pytest.approx(chi2)
    assert result.p_value == pytest.approx(np.exp(-chi2 / 2))          # chi2 with 2 df: sf(x) = e^(-x/2)
    f_f = (n - 1) * chi2 / (n * (k - 1) - chi2)                          # = 6.4 / 8.4
    assert result.iman_davenport_statistic == pytest.approx(6.4 / 8.4)
    assert result.iman_davenport_p_value == pytest.approx(stats.f.sf(f_f, 2, 8))
    assert (result.n_datasets, result.n_classifiers, result.note) == (5, 3, "")


def test_friedman_by_hand_with_ties():
    scores = pd.DataFrame({"A": [0.9, 0.8, 0.7, 0.5], "B": [0.9, 0.6, 0.6, 0.6], "C": [0.5, 0.6, 0.8, 0.4]})
    # ranks: (1.5,1.5,3) (1,2.5,2.5) (2,3,1) (2,1,3) -> sums (6.5, 8, 9.5), R = (1.625, 2, 2.375)
    result = friedman_test(scores)
    assert result.average_ranks.tolist() == [1.625, 2.0, 2.375]
    n, k = 4, 3
    uncorrected = 12 * n / (k * (k + 1)) * (1.625 ** 2 + 2 ** 2 + 2.375 ** 2 - 12)   # = 4 * 0.28125 = 1.125
    ties = 2 * (2 ** 3 - 2)                                                         # two pairs of ties
    corrected = uncorrected / (1 - ties / (n * k * (k ** 2 - 1)))                    # 1.125 / 0.875
    assert corrected == pytest.approx(9 / 7)
    assert result.statistic == pytest.approx(9 / 7)
    assert result.statistic == pytest.approx(stats.friedmanchisquare(*scores.to_numpy().T).statistic)


def test_friedman_matches_scipy_on_random_tables_with_ties():
    rng = np.random.default_rng(11)
    for _ in range(200):
        n, k = int(rng.integers(2, 12)), int(rng.integers(3, 7))
        values = rng.integers(0, 4, (n, k)) / 3
        if all(len(set(row)) == 1 for row in values):
            continue
        result = friedman_test(pd.DataFrame(values))
        reference = stats.friedmanchisquare(*values.T)
        assert result.statistic == pytest.approx(reference.statistic, rel=1e-10, abs=1e-12)
        assert result.p_value == pytest.approx(reference.pvalue, rel=1e-9, abs=1e-15)
        chi2 = reference.statistic
        if result.iman_davenport_statistic is not None:
            f_f = (n - 1) * chi2 / (n * (k - 1) - chi2)
            assert result.iman_davenport_statistic == pytest.approx(f_f, rel=1e-9, abs=1e-12)
            assert result.iman_davenport_p_value == pytest.approx(stats.f.sf(f_f, k - 1, (k - 1) * (n - 1)))


def test_friedman_degenerate_tables():
    tied = friedman_test(pd.DataFrame({"A": [0.5, 0.7], "B": [0.5, 0.7]}))
    assert (tied.statistic, tied.p_value, tied.iman_davenport_p_value) == (0.0, 1.0, 1.0)
    assert tied.average_ranks.tolist() == [1.5, 1.5] and tied.note
    same_order = friedman_test(pd.DataFrame({"A": [0.9, 0.8, 0.7], "B": [0.5, 0.6, 0.4],
                                             "C": [0.1, 0.2, 0.3]}))
    assert same_order.statistic == pytest.approx(3 * 2)                # N(k-1): perfect agreement
    assert same_order.iman_davenport_statistic is None and same_order.iman_davenport_p_value == 0.0
    assert same_order.p_value == pytest.approx(np.exp(-3.0))
    two = friedman_test(pd.DataFrame({"A": [0.9, 0.8, 0.1], "B": [0.5, 0.6, 0.4]}))   # k = 2 allowed
    # ranks A: 1,1,2 -> R = (4/3, 5/3); chi2 = 12*3/6 * (16/9 + 25/9 - 4.5) = 6 * 1/18 = 1/3
    assert two.statistic == pytest.approx(1 / 3)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 6).flatmap(lambda k: st.lists(
    st.lists(st.integers(0, 5), min_size=k, max_size=k), min_size=2, max_size=10)))
def test_friedman_bounds_and_invariance_under_monotone_rescaling(rows):
    values = np.array(rows, float) / 5
    n, k = values.shape
    result = friedman_test(pd.DataFrame(values))
    assert 0 <= result.statistic <= n * (k - 1) + 1e-9
    assert 0 <= result.p_value <= 1 and 0 <= result.iman_davenport_p_value <= 1
    assert result.average_ranks.sum() == pytest.approx(k * (k + 1) / 2)
    rescaled = friedman_test(pd.DataFrame(np.exp(3 * values) - 7))       # same order on every row
    assert rescaled.statistic == pytest.approx(result.statistic)
    reordered = friedman_test(pd.DataFrame(values[::-1]))                 # data-set order is irrelevant
    assert reordered.statistic == pytest.approx(result.statistic)


# ---------------------------------------------------------------- Nemenyi
DEMSAR_Q_005 = [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164]   # Demšar 2006, Table 5(a)
DEMSAR_Q_010 = [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920]   # Table 5(a), alpha 0.10


@pytest.mark.parametrize("alpha, table", [(0.05, DEMSAR_Q_005), (0.10, DEMSAR_Q_010)])
def test_q_alpha_matches_demsars_table(alpha, table):
    for k, printed in zip(range(2, 11), table):
        q = nemenyi_critical_difference(6, k, alpha) / sqrt(k * (k + 1) / 36)      # undo sqrt(k(k+1)/(6N))
        assert q == pytest.approx(printed, abs=1e-3), k                           # printed to 3 decimals


def _range_cdf(w: float, k: int) -> float:
    """P(max - min of k iid N(0,1) <= w) = k * int phi(z) (Phi(z+w) - Phi(z))^(k-1) dz."""
    integrand = lambda z: stats.norm.pdf(z) * (stats.norm.cdf(z + w) - stats.norm.cdf(z)) ** (k - 1)  # noqa: E731
    return k * integrate.quad(integrand, -np.inf, np.inf, epsabs=1e-12)[0]


@pytest.mark.parametrize("k, alpha", [(2, 0.05), (4, 0.05), (7, 0.1), (12, 0.01)])
def test_critical_difference_from_the_range_distribution(k, alpha):
    n = 14
    cd = nemenyi_critical_difference(n, k, alpha)
    q_alpha = cd / sqrt(k * (k + 1) / (6 * n))
    assert _range_cdf(q_alpha * sqrt(2), k) == pytest.approx(1 - alpha, abs=1e-7)


def test_demsars_worked_example_critical_difference():
    # Demšar 2006 §3.2.4: four classifiers on 14 data sets, q_0.05 = 2.569, CD = 2.569 sqrt(4*5/(6*14)) = 1.25
    assert nemenyi_critical_difference(14, 4) == pytest.approx(2.569 * sqrt(20 / 84), abs=5e-4)
    assert round(nemenyi_critical_difference(14, 4), 2) == 1.25


def test_nemenyi_groups_by_hand():
    ranks = pd.Series({"D": 4.0, "A": 1.2, "C": 2.9, "B": 1.9})
    # sorted A 1.2, B 1.9, C 2.9, D 4.0; spans A-B .7, A-C 1.7, B-C 1.0, B-D 2.1, C-D 1.1
    assert nemenyi_groups(ranks, 1.25) == [["A", "B"], ["B", "C"], ["C", "D"]]
    assert nemenyi_groups(ranks, 1.05) == [["A", "B"], ["B", "C"]]
    assert nemenyi_groups(ranks, 0.5) == []
    assert nemenyi_groups(ranks, 2.9) == [["A", "B", "C", "D"]]
    assert nemenyi_groups(ranks, 1.7) == [["A", "B"], ["B", "C"], ["C", "D"]]   # A-C span = CD: apart
    assert nemenyi_groups(ranks, 1.71) == [["A", "B", "C"], ["C", "D"]]         # B-C lies inside A-C
    assert nemenyi_groups(pd.Series({"A": 1.0, "B": 2.0}), 1.0) == []          # difference = CD: significant
    assert nemenyi_groups(pd.Series({"A": 1.5, "B": 1.5, "C": 3.0}), 1.0) == [["A", "B"]]


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("function", [wilcoxon_pairs, friedman_test, ranks_per_dataset])
def test_bad_tables_raise_clear_errors(function):
    with pytest.raises(ValueError, match="at least 2 classifiers"):
        function(pd.DataFrame({"A": [0.1, 0.2]}))
    with pytest.raises(ValueError, match="at least 2 data sets"):
        function(pd.DataFrame({"A": [0.1], "B": [0.2]}))
    with pytest.raises(ValueError, match=r"\('iris', 'B'\)"):
        function(pd.DataFrame({"A": [0.1, 0.2], "B": [np.nan, 0.3]}, index=["iris", "wine"]))
    with pytest.raises(ValueError, match="not"):
        function(pd.DataFrame({"A": [0.1, 0.2], "B": ["x", "y"]}))
    with pytest.raises(ValueError, match="unique"):
        function(pd.DataFrame([[0.1, 0.2], [0.3, 0.4]], columns=["A", "A"]))
    with pytest.raises(ValueError, match="finite"):
        function(pd.DataFrame({"A": [0.1, np.inf], "B": [0.2, 0.3]}))


def test_object_columns_of_numbers_are_accepted_but_text_and_booleans_are_not():
    scores = pd.DataFrame({"A": pd.Series([0.9, 0.8], dtype=object), "B": [0.5, 0.85]})
    assert ranks_per_dataset(scores).to_numpy().tolist() == [[1.0, 2.0], [2.0, 1.0]]
    with pytest.raises(ValueError, match=r"not: \['A'\]"):
        ranks_per_dataset(pd.DataFrame({"A": ["0.9", "0.8"], "B": [0.5, 0.85]}))
    with pytest.raises(ValueError, match=r"not: \['B'\]"):
        ranks_per_dataset(pd.DataFrame({"A": [0.9, 0.8], "B": [True, False]}))


def test_bad_parameters_raise_clear_errors():
    scores = pd.DataFrame({"A": [0.1, 0.2], "B": [0.2, 0.3]})
    for alpha in (0, 1, -0.1, float("nan"), "0.05", True):
        with pytest.raises(ValueError, match="alpha"):
            wilcoxon_pairs(scores, alpha=alpha)
        with pytest.raises(ValueError, match="alpha"):
            nemenyi_critical_difference(10, 3, alpha)
    with pytest.raises(ValueError, match="n_datasets"):
        nemenyi_critical_difference(1, 3)
    with pytest.raises(ValueError, match="n_classifiers"):
        nemenyi_critical_difference(10, 1.5)
    with pytest.raises(ValueError, match="cd"):
        nemenyi_groups(pd.Series({"A": 1.0, "B": 2.0}), 0.0)
    with pytest.raises(ValueError, match="finite"):
        nemenyi_groups(pd.Series({"A": 1.0, "B": np.nan}), 1.0)
