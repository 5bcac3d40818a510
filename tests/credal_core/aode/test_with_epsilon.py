"""``with_epsilon(eps)``: a copy at another ε sharing the SPODE tables equals a fresh fit at that ε."""
import numpy as np
import pandas as pd
import pytest

from credal_core.aode import CredalBMAAODE, CredalCompAODE
from tests._depth import cases

COMP_ATTRIBUTES = ("weights_", "log_likelihoods_", "null_log_likelihood_", "compression_raw_",
                   "compression_interval_", "feasible_", "credal_feasible_")
BMA_ATTRIBUTES = ("weights_", "log_likelihoods_", "posterior_weights_", "kept_")


def _data(seed):
    """Random categorical data: some naive-Bayes-like (classes informative), some with holes."""
    rng = np.random.default_rng(seed)
    n, k, n_classes = int(rng.integers(12, 90)), int(rng.integers(2, 7)), int(rng.integers(2, 5))
    cards = rng.integers(2, 4, size=k)
    y = rng.integers(0, n_classes, n + 30)
    y[:n_classes] = np.arange(n_classes)
    strength = rng.uniform(0.0, 3.0)                  # 0: the features ignore the class
    cols = {}
    for j in range(k):
        logits = strength * rng.normal(size=(n_classes, cards[j]))
        p = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
        cols[f"f{j}"] = np.array([f"v{rng.choice(cards[j], p=p[c])}" for c in y], dtype=object)
    X = pd.DataFrame(cols)
    if seed % 3 == 0:
        X = X.mask(rng.random(X.shape) < 0.15)
    return X.iloc[:n], [f"c{c}" for c in y[:n]], X.iloc[n:]


def _epsilons(k_max):
    return sorted({1e-4, 0.003, 0.01, 0.04, 0.9 / k_max, 1.0 / k_max} - {0.01})


def _assert_same(got, fresh, test, attributes):
    for name in attributes:
        a, b = getattr(got, name), getattr(fresh, name)
        if b is None:
            assert a is None, name
        else:
            np.testing.assert_array_equal(a, b, err_msg=name)
    np.testing.assert_array_equal(got.dominance(test), fresh.dominance(test))
    np.testing.assert_array_equal(got.predict_set(test), fresh.predict_set(test))
    np.testing.assert_array_equal(got.predict_proba(test), fresh.predict_proba(test))
    np.testing.assert_array_equal(got.predict(test), fresh.predict(test))


@pytest.mark.filterwarnings("ignore:feature\\(s\\)")
@pytest.mark.parametrize("seed", range(cases(24)))
def test_with_epsilon_equals_a_fresh_fit(seed):
    X, y, test = _data(seed)
    k = X.shape[1]
    comp = CredalCompAODE(epsilon=0.01).fit(X, y)
    bma = CredalBMAAODE(epsilon=0.01).fit(X, y)
    seen = []
    for eps in _epsilons(k + 1):
        copy = comp.with_epsilon(eps)
        assert copy.epsilon == eps and comp.epsilon == 0.01 and copy.spodes_ is comp.spodes_
        fresh = CredalCompAODE(epsilon=eps).fit(X, y)
        _assert_same(copy, fresh, test, COMP_ATTRIBUTES)
        seen.append((copy.compression_interval_.copy(), copy.predict_set(test)))
    k_kept = int(bma.kept_.sum())
    for eps in _epsilons(k_kept):
        copy = bma.with_epsilon(eps)
        _assert_same(copy, CredalBMAAODE(epsilon=eps).fit(X, y), test, BMA_ATTRIBUTES)
    # the original is untouched by its copies
    _assert_same(comp, CredalCompAODE(epsilon=0.01).fit(X, y), test, COMP_ATTRIBUTES)
    # not vacuous: ε moves the intervals (and, on some data, the sets)
    assert not np.array_equal(seen[0][0], seen[-1][0])


def test_with_epsilon_changes_sets_on_some_data():
    changed = 0
    for seed in range(12):
        X, y, test = _data(seed)
        comp = CredalCompAODE(epsilon=1e-4).fit(X, y)
        wide = comp.with_epsilon(1.0 / (X.shape[1] + 1))
        changed += int(not np.array_equal(comp.predict_set(test), wide.predict_set(test)))
    assert changed >= 2


def test_with_epsilon_refuses_what_fit_refuses():
    X, y, _ = _data(1)
    k = X.shape[1]
    comp = CredalCompAODE().fit(X, y)
    too_large = 1.0 / k                                   # (k + 1) ε > 1
    with pytest.raises(ValueError, match=r"\(k\+1\)"):
        CredalCompAODE(epsilon=too_large).fit(X, y)
    with pytest.raises(ValueError, match=r"\(k\+1\)"):
        comp.with_epsilon(too_large)
    for bad in (0.0, 1.0, float("nan"), "0.1"):
        with pytest.raises(ValueError, match="epsilon must be"):
            comp.with_epsilon(bad)
    with pytest.raises(ValueError, match="epsilon must be"):
        CredalBMAAODE().fit(X, y).with_epsilon(-0.1)
    from sklearn.exceptions import NotFittedError
    with pytest.raises(NotFittedError):
        CredalCompAODE().with_epsilon(0.02)
