"""The artificial generator of paper 000 §5.1."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credal_core.experiments.generator import draw_chances, sample_naive


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), m=st.integers(1, 30), n_classes=st.integers(2, 4),
       gap=st.sampled_from([0.0, 0.05, 0.1, 0.2]))
def test_every_draw_keeps_the_gap(seed, m, n_classes, gap):
    theta = draw_chances(np.random.default_rng(seed), n_features=m, n_classes=n_classes, min_gap=gap)
    assert theta.shape == (n_classes, m)
    assert np.all((theta >= 0) & (theta <= 1))
    for a in range(n_classes):
        for b in range(a + 1, n_classes):
            assert np.all(np.abs(theta[a] - theta[b]) >= gap)


def test_rejection_is_uniform_on_the_constrained_square():
    # Uniform on {|x - y| >= 0.1} in the unit square: |x - y| has density proportional to (1 - u)
    # on [0.1, 1], so P(|x - y| >= 0.55) = 0.45^2 / 0.9^2 = 0.25 and P(x > y) = 1/2.
    theta = draw_chances(np.random.default_rng(7), n_features=40_000)
    gap = np.abs(theta[0] - theta[1])
    assert abs(np.mean(gap >= 0.55) - 0.25) < 0.01          # standard error 0.0022
    assert abs(np.mean(theta[0] > theta[1]) - 0.5) < 0.01
    assert abs(np.mean(theta[0]) - 0.5) < 0.01               # symmetric about 1/2


def test_samples_follow_the_model():
    rng = np.random.default_rng(3)
    theta = np.array([[0.1, 0.8], [0.6, 0.3]])
    X, y = sample_naive(rng, theta, 60_000)
    assert set(np.unique(X)) == {0, 1} and set(np.unique(y)) == {0, 1}
    assert abs(y.mean() - 0.5) < 0.01                        # uniform class
    for c in (0, 1):
        assert np.allclose(X[y == c].mean(axis=0), theta[c], atol=0.01)
    # features independent given the class (naive model)
    inside = X[y == 0]
    joint = np.mean((inside[:, 0] == 1) & (inside[:, 1] == 1))
    assert abs(joint - 0.1 * 0.8) < 0.01


@pytest.mark.parametrize("kwargs", [{"n_features": 0}, {"n_classes": 1}, {"min_gap": 1.0}, {"min_gap": -0.1},
                                    {"n_classes": 8, "min_gap": 0.1}])
def test_bad_generator_settings_are_refused(kwargs):
    with pytest.raises(ValueError):
        draw_chances(np.random.default_rng(0), **kwargs)


def test_bad_sample_size_is_refused():
    with pytest.raises(ValueError, match="integer >= 1"):
        sample_naive(np.random.default_rng(0), np.full((2, 3), 0.5), 0)
