"""Bayesian tests (baycomp) against the definitions of Benavoli et al. (JMLR 2017): the correlated
t-test's closed form, the signed-rank test's Dirichlet-process posterior sampled independently."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from credal_core.stats_bayesian import (
    correlated_t_test,
    correlated_t_tests,
    decision,
    signed_rank_test,
    signed_rank_tests,
)
from tests._depth import cases

pytest.importorskip("baycomp")


def _correlated_by_definition(a, b, k, rope):
    z = np.asarray(b) - np.asarray(a)
    n = z.size
    rho = 1.0 / k
    scale = np.sqrt((1.0 / n + rho / (1.0 - rho)) * z.var(ddof=1))
    t = stats.t(df=n - 1, loc=z.mean(), scale=scale)
    return t.cdf(-rope), t.cdf(rope) - t.cdf(-rope), t.sf(rope)


def test_correlated_t_test_is_the_students_t_posterior_with_rho_one_over_k():
    rng = np.random.default_rng(5)
    for _ in range(cases(100)):
        k, r = int(rng.integers(2, 11)), int(rng.integers(1, 6))
        a = rng.random(k * r)
        b = a + rng.normal(rng.normal(0, 0.02), 0.03, k * r)
        rope = float(rng.choice([0.0, 0.01, 0.05]))
        got = correlated_t_test(a, b, n_folds=k, rope=rope)
        left, middle, right = _correlated_by_definition(a, b, k, rope)
        assert got.p_left == pytest.approx(left, abs=1e-10) and got.p_right == pytest.approx(right, abs=1e-10)
        assert got.p_rope == pytest.approx(middle if rope else 0.0, abs=1e-10)


def _signed_rank_by_definition(a, b, rope, prior, draws, rng):
    z = np.concatenate([[0.0], np.asarray(b) - np.asarray(a)])
    sums = z[:, None] + z[None, :]
    above = (sums > 2 * rope) + 0.5 * (sums == 2 * rope)
    below = (-sums > 2 * rope) + 0.5 * (-sums == 2 * rope)
    weights = rng.dirichlet(np.r_[prior, np.ones(z.size - 1)], draws)
    left = np.einsum("si,ij,sj->s", weights, below, weights)
    right = np.einsum("si,ij,sj->s", weights, above, weights)
    theta = np.column_stack([left, 1 - left - right, right])
    return np.bincount(theta.argmax(axis=1), minlength=3) / draws


def test_signed_rank_test_samples_the_dirichlet_process_posterior():
    rng = np.random.default_rng(11)
    for _ in range(cases(12)):
        n = int(rng.integers(3, 15))
        a = rng.random(n)
        b = a + rng.normal(rng.normal(0, 0.01), 0.02, n)
        got = signed_rank_test(a, b, rope=0.01, nsamples=20_000, seed=int(rng.integers(1000)))
        want = _signed_rank_by_definition(a, b, 0.01, 0.5, 20_000, rng)
        tolerance = 4 * np.sqrt(0.25 / 20_000) * np.sqrt(2)             # two independent samples
        np.testing.assert_allclose([got.p_left, got.p_rope, got.p_right], want, atol=tolerance)
        assert got.sample.shape == (20_000, 3)


def test_limits_and_seed():
    a = np.array([0.70, 0.80, 0.75, 0.90, 0.60, 0.85])
    assert signed_rank_test(a, a + 0.1).p_right > 0.95
    assert signed_rank_test(a + 0.1, a).p_left > 0.95
    assert signed_rank_test(a, a + 0.001).p_rope > 0.95
    first, again = signed_rank_test(a, a + 0.02, seed=3), signed_rank_test(a, a + 0.02, seed=3)
    assert first == again and np.array_equal(first.sample, again.sample)
    same = correlated_t_test(a, a, n_folds=3)
    assert (same.p_left, same.p_rope, same.p_right) == (0.0, 1.0, 0.0)
    assert decision(signed_rank_test(a, a + 0.1), ("A", "B")) == "B better"


def test_tables_of_pairs_and_per_dataset():
    scores = pd.DataFrame({"A": [0.8, 0.7, 0.9, 0.6], "B": [0.85, 0.72, 0.95, 0.61],
                           "C": [0.5, 0.6, 0.7, 0.4]})
    table = signed_rank_tests(scores, nsamples=2000)
    assert table[["classifier_a", "classifier_b"]].values.tolist() == [["A", "B"], ["A", "C"], ["B", "C"]]
    np.testing.assert_allclose(table[["p_left", "p_rope", "p_right"]].sum(axis=1), 1.0)
    tidy = pd.DataFrame({"dataset": "d", "classifier": ["A", "B"] * 6,
                         "repeat": np.repeat([0, 0, 0, 1, 1, 1], 2),
                         "fold": np.repeat([0, 1, 2, 0, 1, 2], 2),
                         "u65": [0.7, 0.8, 0.72, 0.79, 0.69, 0.83, 0.71, 0.8, 0.7, np.nan, 0.68, 0.8]})
    per = correlated_t_tests(tidy, "u65", n_folds=3)
    assert len(per) == 1 and per.loc[0, "decision"].startswith("skipped")
    tidy.loc[tidy["u65"].isna(), "u65"] = 0.81
    per = correlated_t_tests(tidy, "u65", n_folds=3)
    a = tidy[tidy.classifier == "A"].u65.to_numpy()
    b = tidy[tidy.classifier == "B"].u65.to_numpy()
    assert per.loc[0, "p_right"] == pytest.approx(_correlated_by_definition(a, b, 3, 0.01)[2], abs=1e-10)


@pytest.mark.parametrize("call, message", [
    (lambda: correlated_t_test([0.1, 0.2, 0.3], [0.2, 0.2, 0.2, 0.1], n_folds=2), "same length"),
    (lambda: correlated_t_test([0.1, 0.2, 0.3], [0.2, 0.2, 0.2], n_folds=2), "whole repetitions"),
    (lambda: correlated_t_test([0.1, 0.2], [0.2, 0.2], n_folds=2, rope=-0.1), "rope"),
    (lambda: signed_rank_test([0.1], [0.2]), "at least 2 data sets"),
    (lambda: signed_rank_test([0.1, np.nan], [0.2, 0.3]), "finite"),
])
def test_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()
