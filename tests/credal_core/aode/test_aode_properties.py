"""Hypothesis properties the theory of paper 001 guarantees for BMA-AODE* and COMP-AODE*."""
import numpy as np
import pandas as pd
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from credal_core.aode import BMAAODE, CompAODE, CredalBMAAODE, CredalCompAODE

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def data(draw):
    n = draw(st.integers(4, 30))
    k = draw(st.integers(1, 4))
    n_classes = draw(st.integers(2, 3))
    cards = draw(st.lists(st.integers(1, 3), min_size=k, max_size=k))
    rows = draw(st.lists(st.tuples(*[st.integers(0, c - 1) for c in cards]), min_size=n, max_size=n))
    y = draw(st.lists(st.integers(0, n_classes - 1), min_size=n, max_size=n))
    y[0], y[1] = 0, 1
    X = pd.DataFrame(np.array(rows, dtype=int).astype(str), columns=[f"f{j}" for j in range(k)])
    test = pd.DataFrame(np.array(draw(st.lists(st.tuples(*[st.integers(0, 3) for _ in cards]),
                                                min_size=1, max_size=8)), dtype=int).astype(str),
                        columns=X.columns)                       # value 3 is never seen in training
    return X, np.array(y), test


def label_index(model, X):
    return np.searchsorted(model.classes_, model.predict(X))


def check_sets(model, test):
    dom = model.dominance(test)
    sets = model.predict_set(test)
    assert sets.any(axis=1).all()                                          # never empty
    assert not (dom & np.swapaxes(dom, 1, 2)).any()                        # asymmetric
    np.testing.assert_array_equal(sets, ~dom.any(axis=1))                  # maximality, no cycles
    return sets


@SETTINGS
@given(data(), st.sampled_from([0.0, 0.001, 0.01, 0.1]))
def test_bma_precise_label_is_in_the_credal_set(d, epsilon):
    X, y, test = d
    model = CredalBMAAODE(epsilon=epsilon).fit(X, y)
    sets = check_sets(model, test)
    assert sets[np.arange(len(test)), label_index(model, test)].all()      # 001 §2.3


@SETTINGS
@given(data(), st.sampled_from([0.001, 0.01, 0.1]))
def test_comp_precise_label_is_in_the_credal_set_when_feasible_sets_agree(d, epsilon):
    X, y, test = d
    assume((X.shape[1] + 1) * epsilon <= 1)
    model = CredalCompAODE(epsilon=epsilon).fit(X, y)
    sets = check_sets(model, test)
    assume(np.array_equal(model.feasible_, model.credal_feasible_))       # 001 footnote 3
    assert sets[np.arange(len(test)), label_index(model, test)].all()      # 001 §2.5


@SETTINGS
@given(data())
def test_bma_sets_shrink_as_epsilon_grows_and_collapse_to_bma_aode(d):
    X, y, test = d
    previous = None
    k_kept = int(BMAAODE().fit(X, y).kept_.sum())
    for eps in (0.0, 0.2 / k_kept, 0.6 / k_kept, 1.0 / k_kept):
        sets = CredalBMAAODE(epsilon=eps).fit(X, y).predict_set(test)
        if previous is not None:
            assert not (sets & ~previous).any()                            # nested credal sets
        previous = sets
    # epsilon = 1/k: the credal set is the uniform prior alone, i.e. BMA-AODE itself
    proba = BMAAODE().fit(X, y).predict_proba(test)
    clear = np.sort(proba, axis=1)[:, -1] - np.sort(proba, axis=1)[:, -2] > 1e-9
    assert (previous.sum(axis=1)[clear] == 1).all()


@SETTINGS
@given(data())
def test_comp_at_the_single_prior_is_comp_aode(d):
    X, y, test = d
    k = X.shape[1]
    model = CredalCompAODE(epsilon=1.0 / (k + 1)).fit(X, y)      # eq. 9 = {eq. 5's prior}
    assume(model.feasible_.all())
    proba = CompAODE(epsilon=1.0 / (k + 1)).fit(X, y).predict_proba(test)
    clear = np.sort(proba, axis=1)[:, -1] - np.sort(proba, axis=1)[:, -2] > 1e-9
    sets = model.predict_set(test)
    assert (sets.sum(axis=1)[clear] == 1).all()
    assert sets[np.arange(len(test)), label_index(model, test)].all()


@SETTINGS
@given(data())
def test_outputs_are_finite(d):
    X, y, test = d
    for cls in (BMAAODE, CompAODE):
        m = cls().fit(X, y)
        assert np.all(np.isfinite(m.predict_proba(test))) and np.all(np.isfinite(m.weights_))
        assert np.all(np.isfinite(m.log_likelihoods_))
