"""Exact COMP-AODE* dominance (001 §2.5) vs multi-start SLSQP on eq. 15, on ≥ 200 random cases.

Ours: closed-form inner problem (water-filling / vertex) for the verdict, Dinkelbach for the ratio.
"""
import numpy as np
import pytest

from credal_core.aode._dominance import comp_dominance, comp_min_ratio
from tests.credal_core import brute_force_aode as bf

N_CASES = 200


def comp_case(rng):
    k_kept = int(rng.integers(1, 6))
    k = k_kept + int(rng.integers(0, 3))                 # k > k_kept: some SPODEs infeasible
    epsilon = float(rng.choice([0.01, 0.05, rng.uniform(0.001, 1 / (k + 1))]))
    n_classes = int(rng.integers(2, 4))
    post = rng.dirichlet(np.full(n_classes, 0.8), size=k_kept)
    if rng.random() < 0.5:
        post = 0.6 * post[:1] + 0.4 * post
    d_null = rng.uniform(4, 40)                          # D = -(LL_0 + log eps): small makes log y matter
    low = rng.uniform(0.02, 0.9, size=k_kept)            # lower compression coefficients, all positive
    base = d_null * low - np.log(epsilon)                # pi_j(eps) = (base_j + log eps)/D = low_j
    total = 1 - (k - k_kept + 1) * epsilon
    return post, base, epsilon, total, k == k_kept


def test_comp_closed_form_matches_multistart_slsqp_on_eq15():
    rng = np.random.default_rng(99)
    verdicts, n_ineq = [], 0
    for case in range(N_CASES):
        post, base, epsilon, total, equality = comp_case(rng)
        n_ineq += not equality
        dom = comp_dominance(post[None], base, epsilon, total, equality)[0]
        # one random ordered pair per case (SLSQP is slow); all pairs' verdicts are checked below
        x, z = rng.choice(post.shape[1], size=2, replace=False)
        alpha, beta = post[:, x], post[:, z]
        ours, y = comp_min_ratio(alpha, beta, base, epsilon, total, equality)
        # our minimiser is feasible and attains our value
        assert np.all(y >= epsilon * (1 - 1e-12))
        if equality:
            assert y.sum() == pytest.approx(total, abs=1e-12)
        else:
            assert y.sum() <= total + 1e-12
        assert bf.eq15_objective(y, alpha, beta, base) == pytest.approx(ours, rel=1e-12)
        best, _ = bf.comp_min_ratio_slsqp(alpha, beta, base, epsilon, total, equality,
                                          n_random=2, seed=case)
        assert ours <= best + 1e-9 * abs(best)          # global: never above a local search
        assert ours == pytest.approx(best, rel=1e-6)    # and the search finds it
        if abs(best - 1) > 1e-6:
            assert dom[x, z] == (best > 1)
            verdicts.append(best > 1)
        # every ordered pair: the verdict agrees with the sign of the exact minimum ratio - 1
        for a in range(post.shape[1]):
            for b in range(post.shape[1]):
                if a != b:
                    ratio, _ = comp_min_ratio(post[:, a], post[:, b], base, epsilon, total, equality)
                    if abs(ratio - 1) > 1e-9:
                        assert dom[a, b] == (ratio > 1)
    assert sum(verdicts) >= 30 and len(verdicts) - sum(verdicts) >= 30 and n_ineq >= 50
