"""The exact LNCC profile likelihood against dense grids of the paper's own formulas (000 Thm 2).

The grid code below re-implements l', l'', p', p'' of 000 Theorem 2 literally (products and
powers, 0^0 = 0/0 = 1), independently of credal_core.likelihood.pairwise, and is only trusted where the grid
is fine enough: the comparisons allow for the grid's resolution.
"""
from collections import Counter

import numpy as np
import pytest

from credal_core.likelihood.pairwise import (
    PairCounts,
    critical_alpha_pairs,
    dominance_verdicts,
    log_ratio,
    side_logs,
)
from credal_core.likelihood.profile import PairProfile


def paper_log_l(t, n1, c1, n2, c2):
    """log of l'(t) l''(t) (p'(t) + p''(t)) from 000 Theorem 2, literally.

    Equal counts give equal factors, so each distinct count is evaluated once and raised to its
    multiplicity (the grid has two million points and some cases fifty features).
    """
    a1, a2 = n1 + 0.5 + t, n2 + 0.5 - t
    m1, m2 = Counter(c1), Counter(c2)
    lp1 = np.log(a1) + sum(k * (np.log(c + 0.5 + t) - np.log(a1)) for c, k in m1.items())
    lp2 = np.log(a2) + sum(k * (np.log(c + 0.5 - t) - np.log(a2)) for c, k in m2.items())
    l1 = n1 * np.log(a1) + sum(k * (c * np.log(c + 0.5 + t) - n1 * np.log(a1)) for c, k in m1.items())
    l2 = n2 * np.log(a2) + sum(k * (c * np.log(c + 0.5 - t) - n2 * np.log(a2)) for c, k in m2.items())
    return l1 + l2 + np.logaddexp(lp1, lp2), lp1 - lp2


def grid_critical(n1, c1, n2, c2, num=2_000_001):
    a, b = -min(c1) - 0.5, min(c2) + 0.5
    t = np.linspace(a, b, num)[1:-1]
    with np.errstate(divide="ignore", invalid="ignore"):
        log_l, log_r = paper_log_l(t, n1, c1, n2, c2)
    top = log_l.max()
    return np.exp(log_l[log_r <= 0].max() - top), np.exp(log_l[log_r >= 0].max() - top), log_l, t


@pytest.mark.parametrize("n1, c1, n2, c2", [
    (10, [5] * 50, 10, [5] * 50),          # symmetric and bimodal: t = 0 is a local minimum
    (10, [5] * 50, 11, [5] * 50),          # bimodal, asymmetric
    (12, [6] * 30 + [2] * 5, 9, [5] * 35),  # bimodal, uneven features
    (50, [50, 0], 50, [1, 1]),             # 000 Example 3 (zero count: a = -1/2 end point)
    (6, [5], 2, [1]),                      # 000 Example 2
    (30, [12, 20, 7, 30], 25, [10, 3, 25, 18]),
])
def test_critical_alpha_matches_dense_grid(n1, c1, n2, c2):
    exact_ab, exact_ba = critical_alpha_pairs(PairCounts([n1], [c1], [n2], [c2]))
    grid_ab, grid_ba, log_l, t = grid_critical(n1, c1, n2, c2)
    # a grid point of either set can never beat the exact supremum (up to rounding), and on a
    # step of ~5e-6 in t the grid misses it by at most slope × step
    assert exact_ab[0] >= grid_ab - 1e-12 and exact_ba[0] >= grid_ba - 1e-12
    assert exact_ab[0] == pytest.approx(grid_ab, abs=2e-5)
    assert exact_ba[0] == pytest.approx(grid_ba, abs=2e-5)


def test_bimodal_case_is_really_bimodal():
    # guards the test above: with 50 features of balanced counts L has two maxima
    _, _, log_l, t = grid_critical(10, [5] * 50, 10, [5] * 50, num=20001)
    inner = (log_l[1:-1] > log_l[:-2]) & (log_l[1:-1] > log_l[2:])
    assert inner.sum() == 2


def test_curve_without_instance_peaks_at_one():
    # 003 Cor. 1: the data-only profile has its maximum 1 at the maximum-likelihood estimate
    p = PairProfile(50, 50, [50, 0], [1, 1], include_instance=False)
    c = p.curve(4001)
    assert c["likelihood"].max() == pytest.approx(1.0, abs=1e-12)
    assert c["t"][c["likelihood"].idxmax()] == pytest.approx(0.0, abs=1e-12)


def _random_pairs(rng, k, m, missing):
    """k random items of a pair of classes (zero counts, counts equal to n, and with ``missing``
    per-feature sample sizes below n, missing test values and free conditionals)."""
    n1, n2 = rng.integers(0, 30, k).astype(float), rng.integers(1, 30, k).astype(float)
    d1 = np.where(rng.random((k, m)) < 0.3, np.floor(rng.random((k, m)) * (n1[:, None] + 1)), n1[:, None])
    d2 = np.where(rng.random((k, m)) < 0.3, np.floor(rng.random((k, m)) * (n2[:, None] + 1)), n2[:, None])
    if not missing:
        d1, d2 = n1[:, None] + 0 * d1, n2[:, None] + 0 * d2
    c1 = np.floor(rng.random((k, m)) ** 2 * (d1 + 1)).clip(0, d1)
    c2 = np.floor(rng.random((k, m)) ** 2 * (d2 + 1)).clip(0, d2)
    gone = (rng.random((k, m)) < 0.2) if missing else np.zeros((k, m), bool)
    return PairCounts(n1, c1, n2, c2, d1, d2, gone) if missing else PairCounts(n1, c1, n2, c2)


@pytest.mark.parametrize("missing", [False, True])
@pytest.mark.parametrize("include", [True, False])
def test_dominance_verdicts_equal_alpha_above_the_critical_levels(missing, include):
    """The exact route of the LNCC's verdicts (settling at the root, the search that stops once they
    are proven) against ``alpha > critical_alpha_pairs``, items by the hundred, alpha on the levels,
    one ulp either side, tiny and usual."""
    rng = np.random.default_rng(3 + 2 * missing + include)
    pc = _random_pairs(rng, 400, 6, missing)
    if missing:
        assert pc.has_den and (pc.seg1 | pc.seg2).any()
    crit_ab, crit_ba = critical_alpha_pairs(pc, include)
    levels = np.concatenate([crit_ab, crit_ba])
    levels = levels[(levels > 0) & (levels < 1)]
    assert levels.size > 100
    alphas = [1e-300, 1e-20, 0.3, 0.75, 1.0]
    for level in rng.choice(levels, 4):
        alphas += [float(level), float(np.nextafter(level, 2.0)), float(np.nextafter(level, -1.0))]
    for alpha in alphas:
        ab, ba = dominance_verdicts(pc, alpha, include)
        np.testing.assert_array_equal(ab, alpha > crit_ab, err_msg=repr(alpha))
        np.testing.assert_array_equal(ba, alpha > crit_ba, err_msg=repr(alpha))
    assert not dominance_verdicts(pc, 0.0, include)[0].any()


@pytest.mark.parametrize("missing", [False, True])
@pytest.mark.parametrize("shift", [1.0, 0.0])
def test_log_ratio_is_the_difference_of_the_side_logs(monkeypatch, missing, shift):
    """log r = log p_a - log p_b (one set of sums behind both), on both paths (with missing training
    values and numba the sums are compiled row by row: equal to 1e-12)."""
    rng = np.random.default_rng(int(shift) + 2 * missing)
    pc = _random_pairs(rng, 300, 7, missing)
    top = pc.u_max if shift else pc.u_max - 1.0
    live = np.flatnonzero(top > pc.u_min)
    u = pc.u_min[live] + (top - pc.u_min)[live] * rng.uniform(0.01, 0.99, live.size)
    got = {}
    for flag in ("0", "1"):
        monkeypatch.setenv("CREDAL_NUMBA", flag)
        value, slope, size = log_ratio(pc, live, u, shift)
        lpa, lpb, _, _ = side_logs(pc, live, u, shift)
        np.testing.assert_array_equal(value, lpa - lpb)
        assert np.all(np.isfinite(slope)) and np.all(size >= np.abs(value) * (1 - 1e-12))
        got[flag] = (value, slope, size, lpa, lpb)
    for have, want in zip(got["1"], got["0"]):
        np.testing.assert_allclose(have, want, rtol=1e-12, atol=1e-12)
