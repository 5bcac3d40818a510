"""The LNCC's two verdict paths, row by row, against each other, the exact levels and the brute force.

With numba the compiled certificates (``credal_core.naive._lncc_kernels``) settle most verdicts and
the rows they leave go to the exact route of ``credal_core.likelihood.pairwise``; with
``CREDAL_NUMBA=0`` the exact route settles every row.  On many random small data sets (zero counts,
values unseen in training, a declared class without rows, missing training and test values, ties
between classes with equal counts; ``include_instance`` both ways) and at levels α that are tiny,
usual, 1, or placed exactly on (and one ulp off) a critical level, the verdicts of both paths must
be identical, equal to ``alpha > critical_alpha`` and — wherever α is clear of the optimiser's
tolerance — to the brute force of ``tests/credal_core/brute_force.py`` (000 eq. 8).
"""
import numpy as np
import pandas as pd
import pytest

from credal_core import LNCC
from credal_core._base import maximal_set
from credal_core._compiled import numba_enabled
from tests._depth import cases
from tests.credal_core.brute_force import (
    encode_instance,
    lncc_critical_alpha_matrix,
    random_case,
    with_missing,
)
from tests.credal_core.brute_force_lncc import lncc_critical_alpha_observed, observed_counts

ABS_TOL = 1e-4          # the brute force is an optimiser: verdicts compared where |α - level| > this


def _alphas(rng, crit, off):
    out = [1e-300, 1e-20, 0.05, 0.5, 0.75, 1.0]
    levels = np.unique(crit[:, off])
    levels = levels[(levels > 0) & (levels < 1)]
    for level in rng.choice(levels, min(2, levels.size), replace=False) if levels.size else []:
        out += [float(level), float(np.nextafter(level, 2.0)), float(np.nextafter(level, -1.0))]
    return out


def _modes():
    """The paths to compare: "1" (numba, when installed) and "0" (without it)."""
    return [flag for flag in ("1", "0") if flag == "0" or numba_enabled()]


def _check_paths(monkeypatch, rng, model, X_test, brute_row):
    """Each path's verdicts equal ``alpha > critical_alpha`` (the levels computed on that path)
    exactly, the two paths' verdicts and levels are equal (up to rounding where a profile has its
    own denominators, i.e. missing training values, whose sums are compiled row by row with numba),
    and the verdicts equal the brute force (``brute_row(i, n_random)``: the levels (C, C) of row i)
    wherever α is clear of its tolerance; returns the number of verdicts compared with it.  A row
    whose brute force disagrees is computed again from more starting points (the optimiser can
    miss a supremum with few)."""
    crit = {}
    for flag in _modes():
        monkeypatch.setenv("CREDAL_NUMBA", flag)
        crit[flag] = model.critical_alpha(X_test)
    ref = crit["0"]
    np.testing.assert_allclose(crit[_modes()[0]], ref, rtol=1e-12, atol=1e-300)
    brute = np.stack([brute_row(i, 4) for i in range(len(X_test))])
    n_classes = ref.shape[1]
    off = ~np.eye(n_classes, dtype=bool)
    compared = 0
    for alpha in _alphas(rng, ref, off):
        model.set_params(alpha=alpha)
        doms = {}
        for flag in _modes():
            monkeypatch.setenv("CREDAL_NUMBA", flag)
            doms[flag] = dom = model.dominance(X_test)
            expected = (alpha > crit[flag]) & off
            np.testing.assert_array_equal(dom, expected, err_msg=f"numba={flag} alpha={alpha!r}")
            np.testing.assert_array_equal(model.predict_set(X_test), maximal_set(expected),
                                          err_msg=f"numba={flag} alpha={alpha!r}")
        # the paths agree wherever their levels are equal, or α is not within rounding of them
        same = (crit[_modes()[0]] == ref) | (np.abs(alpha - ref) > 1e-12 * alpha)
        np.testing.assert_array_equal(doms[_modes()[0]][same], doms["0"][same], err_msg=f"alpha={alpha!r}")
        expected = (alpha > ref) & off
        clear = off & (np.abs(alpha - brute) > ABS_TOL)
        for i in np.unique(np.nonzero(clear & (expected != (alpha > brute)))[0]):
            brute[i] = brute_row(i, 30)
        clear = off & (np.abs(alpha - brute) > ABS_TOL)
        np.testing.assert_array_equal(expected[clear], (alpha > brute)[clear], err_msg=f"alpha={alpha!r}")
        compared += int(clear.sum())
    return compared


def _exactly_equal_levels(monkeypatch, model, X_test):
    """With complete training data both paths compute the same levels, bit for bit."""
    levels = []
    for flag in _modes():
        monkeypatch.setenv("CREDAL_NUMBA", flag)
        levels.append(model.critical_alpha(X_test))
    assert all(np.array_equal(level, levels[0]) for level in levels)


SEEDS = range(cases(24))


@pytest.mark.parametrize("include", [True, False])
@pytest.mark.parametrize("kind", ["plain", "unseen", "absent-class"])
def test_both_paths_equal_the_exact_levels_and_the_brute_force(monkeypatch, include, kind):
    rng = np.random.default_rng(7)
    compared = 0
    for seed in SEEDS:
        X, y, classes, X_test = random_case(50_000 + seed, n_test=2, unseen=kind == "unseen",
                                            absent_class=kind == "absent-class")
        model = LNCC(include_instance=include)
        if kind == "absent-class":
            model.partial_fit(X, y, classes=classes)
        else:
            model.fit(X, y)
        order = list(model.classes_)

        def brute(i, n_random, X=X, y=y, X_test=X_test, order=order, seed=seed):
            return lncc_critical_alpha_matrix(*encode_instance(X, y, order, list(X_test.iloc[i]))[:3],
                                              include_instance=include, seed=seed, n_random=n_random)

        _exactly_equal_levels(monkeypatch, model, X_test)
        compared += _check_paths(monkeypatch, rng, model, X_test, brute)
    assert compared > 20 * len(SEEDS)


@pytest.mark.parametrize("include", [True, False])
def test_both_paths_with_missing_values(monkeypatch, include):
    rng = np.random.default_rng(8)
    compared = 0
    for seed in SEEDS:
        X, y, _, X_test = random_case(60_000 + seed, n_test=3)
        X = with_missing(X, np.random.default_rng(seed), 0.2)
        X_test = with_missing(X_test, np.random.default_rng(seed + 1), 0.3, keep_one=False)
        if seed % 3 == 0:                                   # complete training data, holes in the test rows
            X = X.ffill().bfill()
        model = LNCC(include_instance=include).fit(X, y)
        order = list(model.classes_)
        Xo = X.astype(object).where(X.notna(), None).to_numpy()

        def brute(i, n_random, Xo=Xo, y=y, X_test=X_test, order=order, seed=seed):
            row = [None if pd.isna(v) else v for v in X_test.iloc[i]]
            n_c, n_cf, inst = observed_counts(Xo, np.asarray(y), order, row)
            out = np.ones((len(order), len(order)))
            for a in range(len(order)):
                for b in range(len(order)):
                    if a != b:
                        out[a, b] = lncc_critical_alpha_observed(
                            n_c, n_cf, inst, a, b, include_instance=include, seed=seed, n_random=n_random + 2)
            return out

        compared += _check_paths(monkeypatch, rng, model, X_test, brute)
    assert compared > 20 * len(SEEDS)


@pytest.mark.parametrize("include", [True, False])
def test_both_paths_on_ties_and_repeated_rows(monkeypatch, include):
    """Two classes with identical counts (every level 1: nothing dominates either), a third that
    differs, rows repeated many times (the paths settle distinct rows once)."""
    X = pd.DataFrame({"f": ["x", "y", "x", "y", "x", "x", "y", "y", "x"],
                      "g": ["u", "v", "u", "v", "u", "v", "v", "u", "u"]})
    y = ["a", "a", "b", "b", "c", "c", "c", "c", "c"]
    X_test = pd.DataFrame({"f": ["x", "y", "x", "z"] * 50, "g": ["u", "v", "v", "u"] * 50})
    model = LNCC(include_instance=include).fit(X, y)
    crit = model.critical_alpha(X_test)
    assert np.all(crit[:, 0, 1] == 1.0) and np.all(crit[:, 1, 0] == 1.0)    # a and b tie
    rng = np.random.default_rng(9)
    distinct = {}

    def brute(i, n_random):
        key = (i % 4, n_random)                             # the test rows repeat every 4
        if key not in distinct:
            distinct[key] = lncc_critical_alpha_matrix(
                *encode_instance(X, np.asarray(y), list(model.classes_), list(X_test.iloc[i]))[:3],
                include_instance=include, seed=0, n_random=n_random)
        return distinct[key]

    _exactly_equal_levels(monkeypatch, model, X_test)
    assert _check_paths(monkeypatch, rng, model, X_test, brute) > 200


def test_the_exact_route_alone_warns_once(monkeypatch):
    """Without numba every verdict comes from the exact route: one RuntimeWarning per process naming
    the [fast] extra and how much slower, then silence; the verdicts are those of the levels."""
    import warnings

    from credal_core.naive import lncc as lncc_module

    monkeypatch.setattr(lncc_module, "_WARNED", [])
    monkeypatch.setenv("CREDAL_NUMBA", "0")
    X, y, _, X_test = random_case(5, n_test=4)
    model = LNCC().fit(X, y)
    with pytest.warns(RuntimeWarning, match=r"\[fast\].*|slower") as record:
        dom = model.dominance(X_test)
    assert len(record) == 1
    assert "[fast]" in str(record[0].message) and "slower" in str(record[0].message)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.array_equal(model.predict_set(X_test), maximal_set(dom))
    off = ~np.eye(dom.shape[1], dtype=bool)
    np.testing.assert_array_equal(dom, (model.alpha > model.critical_alpha(X_test)) & off)


@pytest.mark.parametrize("params, name", [({"alpha": -0.1}, "alpha"), ({"alpha": 1.5}, "alpha"),
                                          ({"alpha": float("nan")}, "alpha"),
                                          ({"alpha": float("inf")}, "alpha"),
                                          ({"alpha": True}, "alpha"), ({"alpha": "0.5"}, "alpha"),
                                          ({"include_instance": 1}, "include_instance"),
                                          ({"include_instance": "yes"}, "include_instance"),
                                          ({"categories": "bogus"}, "categories")])
def test_bad_parameters_are_refused_by_the_constraints(params, name):
    """LNCC's checks are scikit-learn's ``_parameter_constraints`` (no method shadows its
    ``_validate_params``); a bad value is a ValueError naming the parameter, at fit and from
    ``check_parameters``."""
    assert "_validate_params" not in vars(LNCC) and set(LNCC._parameter_constraints) == {
        "alpha", "include_instance", "categories"}
    X, y, _, _ = random_case(1)
    with pytest.raises(ValueError, match=name):
        LNCC(**params).fit(X, y)
    with pytest.raises(ValueError, match=name):
        LNCC(**params).check_parameters()


@pytest.mark.parametrize("params", [{"alpha": 0}, {"alpha": 1}, {"alpha": np.float32(0.5)},
                                    {"include_instance": np.bool_(False)}, {"categories": "declared"}])
def test_good_parameters_fit(params):
    X, y, _, X_test = random_case(2)
    assert LNCC(**params).fit(X, y).predict_set(X_test).any(axis=1).all()
