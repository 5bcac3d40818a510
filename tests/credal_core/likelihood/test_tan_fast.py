"""The LTANC's compiled certificates (credal_core.likelihood._tan_kernels) pinned to the slow route.

Every verdict the certificates issue must be ``alpha > critical_alpha`` (the exact levels of
``pair_critical_alphas``), and ``dominance`` / ``predict_set`` with numba must equal those without it
(``CREDAL_NUMBA=0``: ``pair_dominance`` alone), on many random small cases: zero counts and unseen test
values (small samples), ties (a data set and its copy with two classes swapped), and levels on a grid,
within 1e-9 of some pairs' critical levels and (for the certificates) at them.  ``certify`` runs as
Python when numba is absent, so the first test checks the certificates' logic either way.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from credal_core.likelihood._tan_kernels import certify
from credal_core.likelihood.tan import LTANC
from tests._depth import cases
from tests.credal_core.likelihood.test_tan import random_data


def _case(rng, tie=False):
    X, y = random_data(rng, m=int(rng.integers(1, 5)), n=int(rng.integers(6, 50)))
    if tie:             # the data and its copy with classes a and b swapped: the pair (a, b) is symmetric
        X = pd.concat([X, X], ignore_index=True)
        y = np.concatenate([y, np.where(y == "a", "b", np.where(y == "b", "a", y))])
    Xt, _ = random_data(rng, m=X.shape[1], n=12)
    Xt = pd.concat([Xt[list(X.columns)], X.iloc[:8]], ignore_index=True)
    Xt = Xt[Xt.apply(lambda col: col.isin(set(X[col.name])) | (rng.random(len(col)) < 0.3), axis=0)
            .all(axis=1)]
    return X, y, Xt


def _levels(crit, rng, exact=True):
    """A grid, and levels within 1e-9 of some pairs' critical levels (and at them with ``exact``)."""
    c = crit[(crit < 1) & (crit > 0)].ravel()
    picks = c[rng.permutation(c.size)[:4]]
    near = [*(picks * (1 + 1e-9)), *(picks * (1 - 1e-9))]
    return sorted({0.0, 0.3, 0.75, 1.0, *(picks if exact else ()), *near})


@pytest.mark.parametrize("seed", range(cases(40)))
def test_certificates_are_the_exact_verdicts(seed):
    rng = np.random.default_rng(4000 + seed)
    X, y, Xt = _case(rng, tie=seed % 4 == 0)
    model = LTANC().fit(X, y)
    crit = model.critical_alpha(Xt)
    codes = model._instance_codes(model._encode(Xt))
    C = len(model.classes_)
    a, b = np.triu_indices(C, k=1)
    rows = np.repeat(np.arange(len(Xt)), a.size)
    a, b = np.tile(a, len(Xt)), np.tile(b, len(Xt))
    for level in _levels(crit, rng):
        ab, ba, known = certify(codes, model.parents_, model._certify_tables, rows, a, b,
                                np.log(level) if level > 0 else -np.inf)
        np.testing.assert_array_equal(ab[known], (level > crit[rows, a, b])[known], err_msg=f"alpha={level}")
        np.testing.assert_array_equal(ba[known], (level > crit[rows, b, a])[known], err_msg=f"alpha={level}")


@pytest.mark.parametrize("seed", range(cases(40)))
def test_fast_route_equals_slow_route(seed, monkeypatch):
    """dominance and predict_set with the certificates (numba) equal the numpy route's.  Not at a
    critical level itself: there the slow route's bounds and its exact levels agree only up to
    rounding (the certificates leave such pairs open, as the first test checks)."""
    rng = np.random.default_rng(5000 + seed)
    X, y, Xt = _case(rng, tie=seed % 3 == 0)
    crit = LTANC().fit(X, y).critical_alpha(Xt)
    for level in _levels(crit, rng, exact=False):
        model = LTANC(alpha=float(level)).fit(X, y)
        monkeypatch.setenv("CREDAL_NUMBA", "1")
        fast_dom, fast_set = model.dominance(Xt), model.predict_set(Xt)
        monkeypatch.setenv("CREDAL_NUMBA", "0")
        slow_dom, slow_set = model.dominance(Xt), model.predict_set(Xt)
        np.testing.assert_array_equal(fast_dom, slow_dom, err_msg=f"alpha={level}")
        np.testing.assert_array_equal(fast_set, slow_set, err_msg=f"alpha={level}")
        expected = level > crit
        idx = np.arange(crit.shape[1])
        expected[:, idx, idx] = False
        np.testing.assert_array_equal(fast_dom, expected, err_msg=f"alpha={level}")


def test_certificates_settle_most_pairs_of_a_larger_sample():
    """On 600 rows of correlated features the certificates decide most pairs (a certificate that
    never decides would pass the tests above)."""
    rng = np.random.default_rng(7)
    X, y = random_data(rng, m=4, n=600)
    model = LTANC().fit(X.iloc[:500], y[:500])
    Xt = X.iloc[500:]
    codes = model._instance_codes(model._encode(Xt))
    a, b = np.triu_indices(len(model.classes_), k=1)
    rows = np.repeat(np.arange(len(Xt)), a.size)
    _, _, known = certify(codes, model.parents_, model._certify_tables, rows, np.tile(a, len(Xt)),
                          np.tile(b, len(Xt)), np.log(0.75))
    assert known.mean() > 0.5


def test_the_exact_route_alone_warns_once(monkeypatch):
    """Without numba the LTANC's verdicts come from the exact route alone: one RuntimeWarning per process
    naming the [fast] extra and how much slower, then silence; the verdicts are unchanged."""
    import warnings

    from credal_core.likelihood import tan as tan_module

    X, y, Xt = _case(np.random.default_rng(7), tie=False)
    model = LTANC(alpha=0.6).fit(X, y)
    monkeypatch.setenv("CREDAL_NUMBA", "1")
    fast = model.predict_set(Xt)
    monkeypatch.setattr(tan_module, "_WARNED", [])
    monkeypatch.setenv("CREDAL_NUMBA", "0")
    with pytest.warns(RuntimeWarning) as record:
        slow = model.predict_set(Xt)
    assert len(record) == 1
    assert "[fast]" in str(record[0].message) and "slower" in str(record[0].message)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_array_equal(model.predict_set(Xt), slow)
    np.testing.assert_array_equal(slow, fast)
