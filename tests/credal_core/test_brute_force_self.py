"""Sanity tests of the brute-force references themselves (no ``credal_core`` needed).

Each reference in brute_force.py is checked against something derived by hand
from the definitions or printed in the papers, and against random sampling of
the parameter sets (an optimiser that claims an infimum must never be beaten by
a random feasible point).
"""

import itertools

import brute_force as bf
import numpy as np
import pytest
from scipy.optimize import brentq, minimize


def _random_counts(rng, K, sizes, rows, absent=None):
    """Counts of a random data set (rows of class/feature values) as count arrays."""
    present = [c for c in range(K) if c != absent]
    cls = rng.choice(present, size=rows)
    feats = [rng.integers(v, size=rows) for v in sizes]
    n_c = np.array([np.sum(cls == c) for c in range(K)])
    n_cf = [np.array([[np.sum((cls == c) & (f == v)) for v in range(size)] for c in range(K)])
            for f, size in zip(feats, sizes)]
    return n_c, n_cf, cls, feats


# ---------------------------------------------------------------------------
# (0) The SLSQP driver: scipy's own steps
# ---------------------------------------------------------------------------


def test_slsqp_driver_ends_where_scipy_minimize_ends(monkeypatch):
    # bf._slsqp_run calls scipy's SLSQP core directly; on every solve of an NCC infimum, an LNCC
    # supremum, a constrained LNCC supremum ("le") and a profile point ("eq"), the end point must be
    # bit for bit the one of scipy.optimize.minimize(method="SLSQP") with the same options.
    driver, seen = bf._slsqp_run, []

    def both(fun, x0, constraints, dim, bounds):
        ours = driver(fun, x0, constraints, dim, bounds)
        ref = minimize(fun, x0, jac=True, method="SLSQP", bounds=[bounds] * dim, constraints=constraints,
                       options=bf._SLSQP).x
        assert np.array_equal(ours, ref), (ours, ref)
        seen.append(tuple(sorted(c["type"] for c in constraints)))
        return ours

    monkeypatch.setattr(bf, "_slsqp_run", both)
    rng = np.random.default_rng(7)
    n_c, n_cf, _, _ = _random_counts(rng, 3, [2, 3], rows=9)
    inst = (1, 2)
    bf.ncc_min_ratio(n_c, n_cf, inst, 0, 1, s=1.0, epsilon=0.1, n_random=2)
    bf.lncc_critical_alpha(n_c, n_cf, inst, 0, 1, include_instance=True)
    bf.lncc_critical_alpha(n_c, n_cf, inst, 1, 0, include_instance=False)
    bf.lncc_profile(n_c, n_cf, inst, 0, 1, [-0.5, 0.5], include_instance=True, n_random=1)
    assert {("eq",), ("eq", "ineq"), ("eq", "eq")} <= set(seen), set(seen)


# ---------------------------------------------------------------------------
# (1) NCC
# ---------------------------------------------------------------------------


def _perks_log_joint(n_c, n_cf, inst, s, c):
    """Perks NBC (api sketch / 000 §2.1): theta_c=(n(c)+s/K)/(N+s), theta_f|c=(n(c,f)+s/(K|F|))/(n(c)+s/K)."""
    K, N = len(n_c), n_c.sum()
    val = np.log((n_c[c] + s / K) / (N + s))
    for j, f in enumerate(inst):
        V = n_cf[j].shape[1]
        val += np.log((n_cf[j][c, f] + s / (K * V)) / (n_c[c] + s / K))
    return val


@pytest.mark.parametrize("seed", range(6))
def test_ncc_epsilon_one_is_the_perks_nbc_ratio(seed):
    # epsilon = 1 leaves the single prior t = t_Perks: the "infimum" is the Perks NBC ratio.
    rng = np.random.default_rng(seed)
    K = 2 + seed % 2
    n_c, n_cf, _, _ = _random_counts(rng, K, [2, 3], rows=7)
    inst = (1, 2)
    for s in (1.0, 2.5):
        for a, b in itertools.permutations(range(K), 2):
            want = np.exp(_perks_log_joint(n_c, n_cf, inst, s, a) - _perks_log_joint(n_c, n_cf, inst, s, b))
            got = bf.ncc_min_ratio(n_c, n_cf, inst, a, b, s=s, epsilon=1.0, n_random=1)
            assert got == pytest.approx(want, rel=1e-9)


@pytest.mark.parametrize("seed", range(8))
def test_ncc_single_feature_hand_formula(seed):
    # m = 1: P_t(c, f~) = (n(c, f~) + s t(c, f~)) / (N + s) (the n(c) + s t(c) cancel).
    # The ratio is smallest with t(a, f~) as small and t(b, f~) as large as
    # possible, jointly feasible (u(b) = u(b, f~) = 1, u(a) = 0):
    #   t(a, f~) = eps / (K V),  t(b, f~) = (1 - eps) + eps / (K V)   (V >= 2).
    rng = np.random.default_rng(100 + seed)
    K, V = 2 + seed % 2, 2 + seed % 3 // 2
    n_c, n_cf, _, _ = _random_counts(rng, K, [V], rows=int(rng.integers(2, 9)))
    inst = (int(rng.integers(V)),)
    s, eps = (1.0, 2.0)[seed % 2], (0.0, 0.3, 0.0, 0.7)[seed % 4]
    for a, b in itertools.permutations(range(K), 2):
        lo = s * eps / (K * V)
        want = (n_cf[0][a, inst[0]] + lo) / (n_cf[0][b, inst[0]] + s * (1 - eps) + lo)
        got = bf.ncc_min_ratio(n_c, n_cf, inst, a, b, s=s, epsilon=eps)
        assert got == pytest.approx(want, rel=1e-7, abs=1e-8)


@pytest.mark.parametrize("seed", range(10))
def test_ncc_matches_one_dimensional_reduction(seed):
    # eps = 0, m >= 2, every V_j >= 2.  For fixed t(a), t(b) the ratio is
    # smallest with t(a, f~_j) = 0 and t(b, f~_j) = t(b) (each factor is
    # monotone); then P(a) ~ (n(a) + s t(a))^(1-m) prod_j n(a, f~_j) decreases
    # in t(a), so t(a) = 1 - t(b) and (paper 000, display after eq. 5)
    #   inf = min_{t in [0,1]} [(n(a)+s(1-t)) / (n(b)+s t)]^(1-m) prod_j n(a,f~_j)/(n(b,f~_j)+s t).
    # A dense grid in t gives an independent value.
    rng = np.random.default_rng(200 + seed)
    K = 2 + seed % 2
    sizes = [2, 3, 2][: 2 + seed % 2]
    n_c, n_cf, _, _ = _random_counts(rng, K, sizes, rows=int(rng.integers(3, 13)),
                                     absent=K - 1 if seed % 5 == 0 and K == 3 else None)
    inst = tuple(int(rng.integers(v)) for v in sizes)
    s, m = (1.0, 2.0)[seed % 2], len(sizes)
    t = np.linspace(0.0, 1.0, 200_001)
    for a, b in itertools.permutations(range(K), 2):
        # Endpoints may give x/0 or 0*inf (a class without data); those grid
        # points are dropped (NaN), the interior still approaches the infimum.
        with np.errstate(all="ignore"):
            val = ((n_c[a] + s * (1 - t)) / (n_c[b] + s * t)) ** (1 - m)
            for j, f in enumerate(inst):
                val = val * n_cf[j][a, f] / (n_cf[j][b, f] + s * t)
        want = np.nanmin(val)
        got = bf.ncc_min_ratio(n_c, n_cf, inst, a, b, s=s, epsilon=0.0)
        assert got == pytest.approx(want, rel=1e-6, abs=1e-8), (a, b, n_c, n_cf, inst)


def _random_u(rng, K, sizes, conc):
    """A random feasible u of the NCC (class masses, then tables scaled by the class mass)."""
    u_c = rng.dirichlet(np.full(K, conc))
    u_cf = [[u_c[c] * rng.dirichlet(np.full(v, conc)) for v in sizes] for c in range(K)]
    return u_c, u_cf


def _ncc_ratio_from_u(n_c, n_cf, inst, s, eps, u_c, u_cf, a, b):
    """P_t(a, f~) / P_t(b, f~) straight from 000 eqs. 1-3 with t = (1-eps) u + eps t_Perks."""
    K, N = len(n_c), n_c.sum()
    out = []
    for c in (a, b):
        t_c = (1 - eps) * u_c[c] + eps / K
        p = (n_c[c] + s * t_c) / (N + s)
        for j, f in enumerate(inst):
            t_cf = (1 - eps) * u_cf[c][j][f] + eps / (K * n_cf[j].shape[1])
            p *= (n_cf[j][c, f] + s * t_cf) / (n_c[c] + s * t_c)
        out.append(p)
    return out[0] / out[1]


@pytest.mark.parametrize("seed", range(3))
def test_ncc_infimum_never_beaten_by_random_priors(seed):
    rng = np.random.default_rng(300 + seed)
    K = 2 + seed % 2
    sizes = [2, 3, 2][: 1 + seed % 3]
    absent = 0 if seed == 5 else None
    n_c, n_cf, _, _ = _random_counts(rng, K, sizes, rows=int(rng.integers(2, 10)), absent=absent)
    inst = tuple(int(rng.integers(v)) for v in sizes)
    s, eps = (1.0, 2.0)[seed % 2], (0.0, 0.1, 0.5)[seed % 3]
    for a, b in itertools.permutations(range(K), 2):
        brute = bf.ncc_min_ratio(n_c, n_cf, inst, a, b, s=s, epsilon=eps)
        with np.errstate(all="ignore"):  # exact zeros in the samples give 0/0: dropped
            sampled = np.nanmin([
                _ncc_ratio_from_u(n_c, n_cf, inst, s, eps, *_random_u(rng, K, sizes, conc), a, b)
                for conc in (0.05, 0.3, 1.0) for _ in range(700)
            ])
        # Absolute slack: where the infimum is 0 the brute force stops at ~FLOOR.
        assert brute <= sampled * (1 + 1e-9) + 1e-9


@pytest.mark.parametrize("seed", range(4))
def test_ncc_early_stop_gives_the_same_verdict(seed):
    # stop_below = 1 - 1e-6 (used by the cross-check) may stop at a witness
    # ratio < 1 instead of the infimum; the verdict must not change.
    rng = np.random.default_rng(800 + seed)
    K = 3
    n_c, n_cf, _, _ = _random_counts(rng, K, [2, 2], rows=int(rng.integers(3, 12)))
    inst = (0, 1)
    for a, b in itertools.permutations(range(K), 2):
        full = bf.ncc_min_ratio(n_c, n_cf, inst, a, b, s=1.0, epsilon=0.0)
        quick = bf.ncc_min_ratio(n_c, n_cf, inst, a, b, s=1.0, epsilon=0.0, stop_below=1 - 1e-6)
        assert quick >= full * (1 - 1e-12)
        assert (quick < 1 - 1e-6) == (full < 1 - 1e-6)


def test_ncc_class_without_data_never_dominates_at_epsilon_zero():
    # n(a) = 0, eps = 0: P_t(a, f~) = s t(a)/(N+s) * prod_j t(a, f~_j)/t(a) -> 0 as t(a) -> 0
    # (closure of T), so the infimum is 0.  With eps > 0 it is bounded away from 0.
    n_c = np.array([0, 3])
    n_cf = [np.array([[0, 0], [2, 1]])]
    assert bf.ncc_min_ratio(n_c, n_cf, (0,), 0, 1, s=1.0, epsilon=0.0) < 1e-9
    # eps = 0.2, m = 1 (hand formula above): (0 + 0.2/4) / (2 + 0.8 + 0.2/4)
    got = bf.ncc_min_ratio(n_c, n_cf, (0,), 0, 1, s=1.0, epsilon=0.2)
    assert got == pytest.approx(0.05 / 2.85, rel=1e-7)


# ---------------------------------------------------------------------------
# (2) LNCC
# ---------------------------------------------------------------------------

# Paper 000, Example 2: class (c, ~c), one Boolean feature (f, ~f);
# data (c, f) x5, (c, ~f), (~c, f), (~c, ~f); instance F = f.
EX2 = (np.array([6, 2]), [np.array([[5, 1], [1, 1]])], (0,))

# Paper 000, Example 3: n = 100; n(c) = 50, n(c, f1~) = 50, n(c, f2~) = 0;
# n(~c) = 50, n(~c, f1~) = 1, n(~c, f2~) = 1; Boolean features, instance (f1~, f2~).
EX3 = (np.array([50, 50]), [np.array([[50, 0], [1, 49]]), np.array([[0, 50], [1, 49]])], (0, 0))


def test_lncc_example2_profile_matches_the_paper():
    # Theorems 1-2 for Example 2: t in [-11/2, 3/2], ratio (11+2t)/(3-2t) and
    # profile likelihood proportional to (11+2t)^5 (3-2t), maximal at t = 1/3.
    # (The extracted text prints "(3-t)"; from Theorem 2, l'' = (3/2 - t)^1 and
    # p' + p'' = 7, so the factor is (3-2t): it must vanish at t = 3/2, where
    # P(~c, f) = 0 and the likelihood of the (~c, f) row is 0.)
    t = np.array([-5.0, -4.0, -2.0, -1.0, 0.0, 1.0 / 3.0, 1.0, 1.4])
    log_ratio = np.log((11 + 2 * t) / (3 - 2 * t))
    n_c, n_cf, inst = EX2
    got = bf.lncc_profile(n_c, n_cf, inst, 0, 1, log_ratio, include_instance=True)

    def prof(x):
        return (11 + 2 * x) ** 5 * (3 - 2 * x)

    want = prof(t) / prof(1.0 / 3.0)
    np.testing.assert_allclose(got, want, rtol=1e-6)
    printed = (11 + 2 * t) ** 5 * (3 - t)
    assert not np.allclose(got, printed / printed.max(), rtol=1e-2)


def test_lncc_example2_critical_alpha():
    # c dominates ~c iff alpha > L(-2)/L(1/3) (ratio <= 1 iff t <= -2):
    # 7^6 / ((35/3)^5 * 7/3) = 0.23328 exactly.  Without the instance the
    # profile is (5+t)^5 (1-t) on [-5, 1] (data counts shifted by -+t), maximal
    # at t = 0, ratio <= 1 iff t <= -2: 3^6 / 5^5 = 0.23328 as well.
    # The paper's Monte Carlo (Fig. 2): no dominance at alpha = .2, dominance at .75.
    n_c, n_cf, inst = EX2
    for include in (True, False):
        crit = bf.lncc_critical_alpha_matrix(n_c, n_cf, inst, include_instance=include)
        print(f"Example 2, include_instance={include}: critical alpha c>~c {crit[0, 1]:.8f}, "
              f"~c>c {crit[1, 0]:.8f}")
        assert crit[0, 1] == pytest.approx(0.23328, abs=1e-7)
        assert crit[1, 0] == 1.0
        assert 0.2 <= crit[0, 1] < 0.75


def test_lncc_example3_consistent_with_the_paper():
    n_c, n_cf, inst = EX3
    with_inst = bf.lncc_critical_alpha_matrix(n_c, n_cf, inst, include_instance=True)
    without = bf.lncc_critical_alpha_matrix(n_c, n_cf, inst, include_instance=False)
    print(f"Example 3 with the instance:    c dominates ~c iff alpha > {with_inst[0, 1]:.8f}; "
          f"~c>c critical {with_inst[1, 0]:.8f}")
    print(f"Example 3 without the instance: ~c dominates c iff alpha > {without[1, 0]:.8f}; "
          f"c>~c critical {without[0, 1]:.8f}")
    # "the LNCC classifies the new instance as c when ... alpha >= 0.22"
    assert 0.21 < with_inst[0, 1] <= 0.22
    assert with_inst[1, 0] == 1.0
    # "without ... the classifier would return both classes (if alpha <= 0.98)";
    # the ML NBC returns ~c, so for alpha above the threshold ~c dominates.
    assert 0.98 <= without[1, 0] < 0.985
    assert without[0, 1] == 1.0

    # Independent values.  With the instance, Theorem 2: L(t) ~ l' l'' (p' + p'')
    # with l' = 1, l'' = (3/2-t)^2 (101/2-t)^-50, p' = 1/2+t,
    # p'' = (3/2-t)^2/(101/2-t), ratio p'/p'' on t in [-1/2, 3/2].
    def log_l(x):
        return 2 * np.log(1.5 - x) - 50 * np.log(50.5 - x) + np.log(0.5 + x + (1.5 - x) ** 2 / (50.5 - x))

    def log_r(x):
        return np.log(0.5 + x) + np.log(50.5 - x) - 2 * np.log(1.5 - x)

    grid = np.linspace(-0.5, 1.5, 400_001)[1:-1]
    t0 = brentq(log_r, -0.49, 1.49, xtol=1e-15)
    assert with_inst[0, 1] == pytest.approx(np.exp(log_l(t0) - log_l(grid).max()), abs=1e-6)
    # Without the instance, maximise l_d subject to ratio = r by the Lagrangian
    # l_d * r^t: counts of the instance cells shifted by +t for c, -t for ~c:
    # theta_c = (50+t)/100, theta_{f2~|c} = t/(50+t), theta_~c = (50-t)/100,
    # theta_{fj~|~c} = (1-t)/(50-t); l_d ~ (1-t)^2 (50-t)^-50 (max at t = 0),
    # ratio t(50-t)/(1-t)^2 = 1 at 2t^2 - 52t + 1 = 0.
    t1 = (52 - np.sqrt(52**2 - 8)) / 4
    assert without[1, 0] == pytest.approx((1 - t1) ** 2 * (1 - t1 / 50) ** -50, abs=1e-6)


@pytest.mark.parametrize("seed", range(4))
def test_lncc_dropping_other_classes_is_exact(seed):
    rng = np.random.default_rng(400 + seed)
    n_c, n_cf, _, _ = _random_counts(rng, 3, [2, 3], rows=int(rng.integers(4, 12)))
    inst = (int(rng.integers(2)), int(rng.integers(3)))
    include = bool(seed % 2)
    for a, b in ((0, 1), (2, 0)):
        reduced = bf.lncc_critical_alpha(n_c, n_cf, inst, a, b, include_instance=include)
        full = bf.lncc_critical_alpha(n_c, n_cf, inst, a, b, include_instance=include, reduce=False)
        assert reduced == pytest.approx(full, abs=1e-6)


def _row_likelihood(theta_c, theta_f, cls, feats):
    """prod over training rows of theta_c * prod_j theta_{f_j|c} (the definition of l_d)."""
    lik = 1.0
    for i, c in enumerate(cls):
        lik *= theta_c[c]
        for j, f in enumerate(feats):
            lik *= theta_f[c][j][f[i]]
    return lik


@pytest.mark.parametrize("seed", range(6))
def test_lncc_suprema_never_beaten_by_random_parameters(seed):
    # Full parametrisation (all classes), likelihood evaluated row by row.
    rng = np.random.default_rng(500 + seed)
    K = 2 + seed % 2
    sizes = [2, 3][: 1 + seed % 2]
    n_c, n_cf, cls, feats = _random_counts(rng, K, sizes, rows=int(rng.integers(3, 8)))
    inst = tuple(int(rng.integers(v)) for v in sizes)
    include = seed < 3
    a, b = 0, 1
    log_sup, _ = bf.lncc_log_sup(n_c, n_cf, inst, a, b, include_instance=include, reduce=False)
    crit = bf.lncc_critical_alpha(n_c, n_cf, inst, a, b, include_instance=include, reduce=False)
    sup, sup_con = np.exp(log_sup), crit * np.exp(log_sup)
    for conc in (0.2, 1.0, 5.0):
        for _ in range(1500):
            th_c = rng.dirichlet(np.full(K, conc))
            th_f = [[rng.dirichlet(np.full(v, conc)) for v in sizes] for _ in range(K)]
            joint = [th_c[c] * np.prod([th_f[c][j][f] for j, f in enumerate(inst)]) for c in (a, b)]
            lik = _row_likelihood(th_c, th_f, cls, feats) * (joint[0] + joint[1] if include else 1.0)
            assert lik <= sup * (1 + 1e-7)
            if joint[0] <= joint[1]:
                assert lik <= sup_con * (1 + 1e-7) + 1e-300


def test_lncc_zero_over_zero_at_the_maximum():
    # Without the instance, at the ML point both P(a, f~) and P(b, f~) are 0
    # (a zero count on the instance value for each class): 0 <= 0, so the ML
    # point itself satisfies P(a) <= P(b) (and P(b) <= P(a)): both critical
    # alphas are 1 (neither class can dominate at any alpha < 1).
    n_c = np.array([1, 1, 1])
    n_cf = [np.array([[1, 0], [1, 0], [0, 1]]), np.array([[1, 0], [0, 1], [1, 0]])]
    crit = bf.lncc_critical_alpha_matrix(n_c, n_cf, (0, 1), include_instance=False)
    assert crit[0, 2] == pytest.approx(1.0, abs=1e-9)
    assert crit[2, 0] == pytest.approx(1.0, abs=1e-9)


# ---------------------------------------------------------------------------
# (3) Critical perturbation threshold
# ---------------------------------------------------------------------------


def test_threshold_hand_case():
    # Data (a, v0) x2, (b, v1); instance v0; K = 2, |F| = 2, N = 3.
    # Laplace: P(a) P(v0|a) = 3/5 * 3/4 > P(b) P(v0|b) = 2/5 * 1/3, so c^ = a.
    # At s the worst case is t = b, t_{a} away from v0, t_{b} on v0:
    #   [3/(2+s)] * [3/(4+s)] / [(1+s)/(3+s)] = 1  <=>  s^3 + 7 s^2 + 5 s - 19 = 0.
    n_c = np.array([2, 1])
    n_cf = [np.array([[2, 0], [0, 1]])]
    want = brentq(lambda s: s**3 + 7 * s**2 + 5 * s - 19, 0.0, 2.0, xtol=1e-15)
    assert bf.perturbation_threshold(n_c, n_cf, (0,)) == pytest.approx(want, rel=1e-9)


def test_threshold_hand_case_two_features_three_classes():
    # Classes a, b, c with n = (3, 1, 0), two Boolean features; rows
    # (a, 0, 0) x2, (a, 0, 1), (b, 1, 0); instance (0, 0).  N = 4, K = 3.
    # Against b: [4/(2+s)] * [4/(5+s)] * [3/(5+s)] / ([(1+s)/(3+s)] * [(2+s)/(3+s)])
    # Against c: [4/(1+s)] * [4/(5+s)] * [3/(5+s)] / ([(1+s)/(2+s)]^2)
    # The threshold is the smaller root of "ratio = 1".
    n_c = np.array([3, 1, 0])
    n_cf = [np.array([[3, 0], [0, 1], [0, 0]]), np.array([[2, 1], [1, 0], [0, 0]])]

    def vs_b(s):
        return np.log(4 / (2 + s) * 4 / (5 + s) * 3 / (5 + s) * (3 + s) ** 2 / ((1 + s) * (2 + s)))

    def vs_c(s):
        return np.log(4 / (1 + s) * 4 / (5 + s) * 3 / (5 + s) * (2 + s) ** 2 / (1 + s) ** 2)

    want = min(brentq(vs_b, 0, 50, xtol=1e-15), brentq(vs_c, 0, 50, xtol=1e-15))
    assert bf.perturbation_threshold(n_c, n_cf, (0, 0)) == pytest.approx(want, rel=1e-9)


def test_threshold_is_zero_on_a_laplace_tie():
    n_c = np.array([1, 1])
    n_cf = [np.array([[1, 0], [0, 1]])]
    # Instance v0: [2/(2+s)] * [2/(3+s)] / [(1+s)/(3+s)] = 1  <=>  s^2 + 3 s - 2 = 0.
    assert bf.perturbation_threshold(n_c, n_cf, (0,)) == pytest.approx((np.sqrt(17) - 3) / 2, rel=1e-9)
    # Symmetric data: exact tie for an instance value that neither class has.
    n_cf = [np.array([[1, 0, 0], [0, 1, 0]])]
    assert bf.perturbation_threshold(n_c, n_cf, (2,)) == 0.0


@pytest.mark.parametrize("seed", range(5))
def test_threshold_vertices_beat_random_local_pmfs(seed):
    # The enumeration claims the infimum over the (continuous) local pmf sets
    # sits at vertices: random pmfs must never give a smaller ratio.
    rng = np.random.default_rng(600 + seed)
    K = 2 + seed % 2
    sizes = [2, 3, 2][: 1 + seed % 3]
    n_c, n_cf, _, _ = _random_counts(rng, K, sizes, rows=int(rng.integers(2, 10)))
    inst = tuple(int(rng.integers(v)) for v in sizes)
    N = n_c.sum()
    for s in (0.3, 2.0):
        for top, b in itertools.permutations(range(K), 2):
            vertex = bf.laplace_idm_min_log_ratio(n_c, n_cf, inst, top, b, s)
            for _ in range(400):
                t = rng.dirichlet(np.full(K, 0.3))
                val = np.log((n_c[top] + 1 + s * t[top]) / (N + K + s))
                val -= np.log((n_c[b] + 1 + s * t[b]) / (N + K + s))
                for j, f in enumerate(inst):
                    t_top, t_b = rng.dirichlet(np.full(sizes[j], 0.3), size=2)
                    val += np.log((n_cf[j][top, f] + 1 + s * t_top[f]) / (n_c[top] + sizes[j] + s))
                    val -= np.log((n_cf[j][b, f] + 1 + s * t_b[f]) / (n_c[b] + sizes[j] + s))
                assert val >= vertex - 1e-12


@pytest.mark.parametrize("seed", range(5))
def test_threshold_dominance_is_monotone_in_s(seed):
    # Nested sets => the infimum of the ratio decreases with s (bisection is valid),
    # and the brute-force threshold sits exactly where the dominance switches.
    rng = np.random.default_rng(700 + seed)
    K = 2 + seed % 2
    sizes = [3, 2]
    n_c, n_cf, _, _ = _random_counts(rng, K, sizes, rows=int(rng.integers(3, 12)))
    inst = (0, 1)
    s_grid = np.linspace(0.0, 10.0, 101)
    for top, b in itertools.permutations(range(K), 2):
        vals = [bf.laplace_idm_min_log_ratio(n_c, n_cf, inst, top, b, s) for s in s_grid]
        assert np.all(np.diff(vals) <= 1e-12)
    thr = bf.perturbation_threshold(n_c, n_cf, inst)
    if thr > 0:
        scores = bf.laplace_scores_exact(n_c, n_cf, inst)
        top = scores.index(max(scores))
        worst = [min(bf.laplace_idm_min_log_ratio(n_c, n_cf, inst, top, b, s)
                     for b in range(K) if b != top) for s in (thr * (1 - 1e-7), thr * (1 + 1e-7))]
        assert worst[0] > 0 > worst[1]


def test_encode_instance_conventions():
    import pandas as pd

    X = pd.DataFrame({"x0": ["v0", "v1", "v0"], "x1": ["a", "a", "a"]})
    y = np.array(["p", "q", "q"], dtype=object)
    n_c, n_cf, inst, n_values = bf.encode_instance(X, y, ["p", "q", "r"], ["v1", "new"])
    assert n_c.tolist() == [1, 2, 0]
    assert n_cf[0].tolist() == [[1, 0], [1, 1], [0, 0]]
    assert n_cf[1].tolist() == [[1, 0], [2, 0], [0, 0]]  # extra zero column for "new"
    assert inst == (1, 1)
    assert n_values == (2, 1)  # "slot": |F_j| counts the training values only
    assert bf.encode_instance(X, y, ["p", "q"], ["v1", "new"], unseen="extend")[3] == (2, 2)


def test_random_case_is_reproducible():
    one, two = bf.random_case(7), bf.random_case(7)
    assert one[0].equals(two[0]) and list(one[1]) == list(two[1]) and one[3].equals(two[3])
    X, y, classes, X_test = bf.random_case(8, absent_class=True)
    assert len(classes) == 3 and len(set(y)) == 2
