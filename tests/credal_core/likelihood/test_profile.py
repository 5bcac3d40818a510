"""PairProfile (the page-facing LNCC profile) and the one-parameter likelihood helpers."""
import numpy as np
import pytest
from scipy.special import xlogy
from scipy.stats import binom

from credal_core.likelihood import (
    bernoulli_likelihood_interval,
    idm_interval,
    multinomial_cloud,
    multinomial_profile,
    vacuous_probability,
)
from credal_core.likelihood.profile import PairProfile, paper_presets


def test_example2_numbers():
    # 000 Ex. 2: [a, b] = [-11/2, 3/2]; L ∝ (11+2t)^5 (3-2t) peaks at t = 1/3; ratio 1 at t = -2
    p = PairProfile(6, 2, [5], [1])
    assert p.t_range == (-5.5, 1.5)
    assert p.t_hat == pytest.approx(1 / 3, abs=1e-9)
    assert p.t_at_ratio_one == pytest.approx(-2, abs=1e-12)
    assert p.critical_alpha == pytest.approx(729 / 3125, rel=1e-12)
    assert p.critical_alpha_reverse == 1.0
    assert p.dominance(0.24) == (True, False) and p.dominance(0.23) == (False, False)
    c = p.curve(500)
    t = c["t"].to_numpy()[1:-1]
    analytic = (11 + 2 * t) ** 5 * (3 - 2 * t) / ((11 + 2 / 3) ** 5 * (3 - 2 / 3))
    np.testing.assert_allclose(c["likelihood"].to_numpy()[1:-1], analytic, rtol=1e-10)
    assert c["likelihood"].max() == 1.0


def test_example3_numbers_and_presets():
    pr = paper_presets()["000 Example 3"]
    with_i = PairProfile(pr["n_c"], pr["n_not"], pr["counts_c"], pr["counts_not"])
    without = PairProfile(pr["n_c"], pr["n_not"], pr["counts_c"], pr["counts_not"], include_instance=False)
    assert round(with_i.critical_alpha, 3) == 0.212 and with_i.critical_alpha_reverse == 1.0
    assert without.critical_alpha == 1.0 and round(without.critical_alpha_reverse, 3) == 0.981
    assert with_i.t_range == (-0.5, 1.5)


def random_profiles(count, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        m = int(rng.integers(1, 4))
        n1, n2 = rng.integers(0, 12, 2)
        c1 = rng.integers(0, n1 + 1, m)
        c2 = rng.integers(0, n2 + 1, m)
        yield n1, n2, c1, c2, bool(rng.integers(0, 2))


@pytest.mark.parametrize("case", list(random_profiles(60)) + [
    (6, 2, [5], [1], True), (6, 2, [5], [1], False), (50, 50, [50, 0], [1, 1], True),
    (50, 50, [50, 0], [1, 1], False), (10, 10, [5] * 30, [5] * 30, True)])
def test_monte_carlo_points_lie_under_the_envelope(case):
    n1, n2, c1, c2, inst = case
    p = PairProfile(n1, n2, c1, c2, include_instance=inst)
    cloud = p.sample_cloud(4000, seed=3)
    env = p.envelope(cloud["posterior"].to_numpy())
    assert np.all(cloud["likelihood"].to_numpy() <= env * (1 + 1e-9) + 1e-12)
    # the envelope agrees with the curve it is drawn from
    c = p.curve(200)
    inner = (c["posterior"] > 1e-6) & (c["posterior"] < 1 - 1e-6)
    np.testing.assert_allclose(p.envelope(c["posterior"][inner].to_numpy()),
                               c["likelihood"][inner].to_numpy(), rtol=1e-6, atol=1e-9)


def test_cloud_upper_edge_approaches_the_envelope():
    p = PairProfile(6, 2, [5], [1])                   # 000 Example 2 / Fig. 2
    bins = np.linspace(0.05, 0.95, 19)

    def gap(size):
        cloud = p.sample_cloud(size, seed=1)
        which = np.digitize(cloud["posterior"], bins)
        gaps = []
        for b in range(1, bins.size):
            inside = cloud[which == b]
            top = p.envelope(np.array([bins[b - 1], bins[b]])).min()   # envelope low on the bin
            gaps.append(max(top - (inside["likelihood"].max() if len(inside) else 0.0), 0.0))
        return np.mean(gaps)

    small, large = gap(300), gap(100_000)
    assert large < small and large < 0.02


def test_alpha_cut_ends_have_likelihood_alpha():
    p = PairProfile(6, 2, [5], [1])
    lo, hi = p.alpha_cut(0.5)
    np.testing.assert_allclose(p.envelope(np.array([lo, hi])), 0.5, rtol=1e-6)
    assert lo < 0.5 < hi or lo > 0.5   # here the cut lies right of 1/2 only at high α
    assert p.alpha_cut(0.0) == pytest.approx((0.0, 1.0))


@pytest.mark.parametrize("bad, message", [
    ((6, 2, [7], [1]), "exceeds"), ((6, 2, [-1], [1]), "negative"), ((6, 2, [], []), "at least one"),
    ((6, 2, [1, 2], [1]), "one entry per feature"), ((6, float("nan"), [1], [1]), "finite")])
def test_bad_counts(bad, message):
    with pytest.raises(ValueError, match=message):
        PairProfile(*bad)


@pytest.mark.parametrize("n, N", [(5, 10), (50, 100), (500, 1000), (3, 10), (0, 7), (7, 7)])
@pytest.mark.parametrize("alpha", [0.15, 0.5, 0.85])
def test_bernoulli_interval_ends_have_likelihood_alpha(n, N, alpha):
    lo, hi = bernoulli_likelihood_interval(n, N, alpha)

    def lik(theta):   # normalised binomial likelihood, 0^0 = 1
        return np.exp(xlogy(n, theta) + xlogy(N - n, 1 - theta) - xlogy(n, n / N) - xlogy(N - n, 1 - n / N))

    for end, boundary in ((lo, 0.0), (hi, 1.0)):
        assert end == boundary or lik(end) == pytest.approx(alpha, rel=1e-9)
    grid = np.linspace(0, 1, 100001)
    inside = grid[lik(grid) >= alpha]
    assert inside.min() == pytest.approx(lo, abs=2e-5) and inside.max() == pytest.approx(hi, abs=2e-5)


def test_bernoulli_interval_closed_form_at_one_half():
    # n/N = 1/2: lik = (4θ(1-θ))^(N/2), so the ends solve 4θ(1-θ) = α^(2/N)
    for N in (2, 10, 1000):
        q = 0.85 ** (2 / N)
        lo, hi = bernoulli_likelihood_interval(N / 2, N, 0.85)
        assert lo == pytest.approx((1 - np.sqrt(1 - q)) / 2, rel=1e-10)
        assert hi == pytest.approx((1 + np.sqrt(1 - q)) / 2, rel=1e-10)


def test_idm_interval():
    assert idm_interval(5, 10, 2) == (5 / 12, 7 / 12)
    with pytest.raises(ValueError):
        idm_interval(5, 10, 0)


@pytest.mark.parametrize("p", [0.5, 0.3])
def test_vacuous_probability_against_enumeration(p):
    # enumerate k = 0..n and apply each classifier's rule directly
    for n in (0, 1, 2, 7, 40, 333):
        k = np.arange(n + 1)
        pmf = binom.pmf(k, n, p)
        for s in (0.5, 2.0, 5.0):
            vac = (k <= n - k + s) & (n - k <= k + s)
            assert vacuous_probability(n, s=s, p=p) == pytest.approx(pmf[vac].sum(), abs=1e-12)
        for beta in (0.05, 0.15, 0.6):
            log_lik1 = n * np.log(0.5) - xlogy(k, k / max(n, 1)) - xlogy(n - k, (n - k) / max(n, 1))
            vac = log_lik1 >= np.log(beta)
            assert vacuous_probability(n, beta=beta, p=p) == pytest.approx(pmf[vac].sum(), abs=1e-12)


def test_vacuous_probability_vectorised_and_fast():
    n = np.unique(np.logspace(0, 5, 120).astype(int))
    out = vacuous_probability(n, beta=0.15)
    assert out.shape == n.shape and np.all((out >= 0) & (out <= 1))
    assert vacuous_probability(100_000, s=2) < vacuous_probability(1000, s=2)
    with pytest.raises(ValueError):
        vacuous_probability(10)


def _vacuous_probability_before(n, *, beta=None, s=None, p=0.5):
    """The implementation before the bisection (one full array of k per size, then searchsorted)."""
    from scipy.special import bdtr

    sizes = np.atleast_1d(np.asarray(n))
    out = np.empty(sizes.size)
    for i, size in enumerate(sizes.astype(np.int64)):
        if s is not None:
            k_lo = int(np.ceil((size - s) / 2))
        else:
            k = np.arange(size // 2 + 1)
            log_lik = (size * np.log(0.5) - xlogy(k, k / max(size, 1))
                       - xlogy(size - k, (size - k) / max(size, 1)))
            k_lo = int(np.searchsorted(log_lik, np.log(beta)))
        k_lo = max(k_lo, 0)
        k_hi = size - k_lo
        below = bdtr(k_lo - 1, size, p) if k_lo >= 1 else 0.0
        out[i] = (bdtr(k_hi, size, p) - below) if k_lo <= k_hi else 0.0
    return out if np.ndim(n) else float(out[0])


def test_vacuous_probability_equals_the_full_array_search_exactly():
    grid = np.unique(2 * np.round(np.geomspace(1, 50_000, 260)).astype(int))      # the page's sizes
    sizes = np.concatenate([np.arange(0, 1_500), grid, [99_999, 100_000]])
    for p in (0.5, 0.3, 0.71, 0.0, 1.0):
        for beta in (0.01, 0.15, 0.5, 0.99, 1.0):
            np.testing.assert_array_equal(vacuous_probability(sizes, beta=beta, p=p),
                                          _vacuous_probability_before(sizes, beta=beta, p=p))
        for s in (0.1, 1.0, 2.0, 7.5):
            np.testing.assert_array_equal(vacuous_probability(sizes, s=s, p=p),
                                          _vacuous_probability_before(sizes, s=s, p=p))
    assert vacuous_probability(1000, beta=0.15) == _vacuous_probability_before(1000, beta=0.15)
    assert isinstance(vacuous_probability(7, s=2), float)


def test_multinomial_cloud_under_profile():
    cloud = multinomial_cloud([2, 4, 3], [0, 1], size=20000, seed=2)
    env = multinomial_profile([2, 4, 3], [0, 1], cloud["g"].to_numpy())
    assert np.all(cloud["likelihood"].to_numpy() <= env * (1 + 1e-12))
    assert cloud["likelihood"].max() > 0.9


def test_bernoulli_interval_vectorised_equals_scalar_calls():
    N = np.array([0, 1, 2, 7, 10, 100, 1000, 12.5])
    n = np.array([0, 1, 1, 3, 0, 50, 1000, 4.25])
    lo, hi = bernoulli_likelihood_interval(n, N, 0.85)
    for i in range(N.size):
        assert (lo[i], hi[i]) == pytest.approx(bernoulli_likelihood_interval(n[i], N[i], 0.85), abs=1e-13)


@pytest.mark.parametrize("inst", [True, False])
@pytest.mark.parametrize("counts", [(0, 0, [0], [0]), (0, 0, [0, 0], [0, 0]), (5, 3, [0, 0], [0, 0]),
                                    (4, 0, [4], [0])])
def test_degenerate_counts_give_finite_answers(counts, inst):
    # no data, or zero counts on both sides (003 Cor. 1: lik_g ≡ 1 without the instance)
    p = PairProfile(*counts, include_instance=inst)
    for value in (p.critical_alpha, p.critical_alpha_reverse, p.t_hat):
        assert np.isfinite(value)
    lo, hi = p.alpha_cut(0.5)
    assert 0 <= lo <= hi <= 1
    cloud = p.sample_cloud(500, seed=0)
    assert np.all(np.isfinite(cloud.to_numpy()))
    assert np.all(cloud["likelihood"].to_numpy() <= p.envelope(cloud["posterior"].to_numpy()) + 1e-12)
    assert np.all(np.isfinite(p.curve(50)[["posterior", "likelihood"]].to_numpy()))


@pytest.mark.parametrize("alpha", [1.5, -0.1, float("nan"), "0.5"])
def test_profile_rejects_bad_alpha(alpha):
    p = PairProfile(6, 2, [5], [1])
    with pytest.raises(ValueError, match="alpha"):
        p.alpha_cut(alpha)
    with pytest.raises(ValueError, match="alpha"):
        p.dominance(alpha)


def _alpha_cut_before(p: PairProfile, alpha: float, num: int = 4001, curve=None):
    """PairProfile.alpha_cut as it was: one scalar bisection per end (``curve``: ``p.curve(num)``, if
    already drawn)."""
    from scipy.special import expit

    from credal_core.likelihood.pairwise import log_ratio

    if p._flat:
        return 0.0, 1.0
    curve = p.curve(num) if curve is None else curve
    inside = np.flatnonzero(curve["likelihood"].to_numpy() >= alpha)
    if inside.size == 0:
        return float("nan"), float("nan")
    u = curve["t"].to_numpy() + 0.5 * p._shift
    ends = []
    for i, j in ((inside[0], inside[0] - 1), (inside[-1], inside[-1] + 1)):
        if j < 0 or j >= u.size:
            ends.append(u[i])
            continue
        a, b = u[j], u[i]
        for _ in range(60):
            mid = 0.5 * (a + b)
            if np.exp(p._log_lik([mid])[0] - p._top) >= alpha:
                b = mid
            else:
                a = mid
        ends.append(b)
    with np.errstate(divide="ignore"):
        post = expit(log_ratio(p._pc, np.zeros(2, dtype=int), np.array(ends), p._shift)[0])
    return float(post[0]), float(post[1])


def _profiles():
    rng = np.random.default_rng(11)
    cases = [(6, 2, [5], [1]), (6, 2, [5, 0], [1, 2]), (10, 3, [2, 7, 10], [3, 0, 1]), (0, 0, [0], [0]),
             (4, 4, [0], [4]), (40, 13, [31, 2], [9, 13])]
    for _ in range(12):
        m = int(rng.integers(1, 5))
        n_c, n_not = int(rng.integers(0, 60)), int(rng.integers(0, 60))
        cases.append((n_c, n_not, rng.integers(0, n_c + 1, m).tolist(),
                      rng.integers(0, n_not + 1, m).tolist()))
    for n_c, n_not, c1, c2 in cases:
        for include in (True, False):
            yield PairProfile(n_c, n_not, c1, c2, include_instance=include)


def test_alpha_cuts_of_a_grid_equal_the_scalar_bisections_exactly():
    grid = [round(i / 100, 2) for i in range(101)]
    for p in _profiles():
        cuts = p.alpha_cuts(grid)
        assert cuts.shape == (len(grid), 2)
        curve = p.curve(4001)
        for index in sorted({*range(0, 101, 20), 23, 50, 100}):    # the old code is slow: a sample
            alpha, row = grid[index], cuts[index]
            want = _alpha_cut_before(p, alpha, curve=curve)
            np.testing.assert_array_equal(row, want)
            np.testing.assert_array_equal(p.alpha_cut(alpha), want)
    with pytest.raises(ValueError):
        next(_profiles()).alpha_cuts([0.5, 1.5])
