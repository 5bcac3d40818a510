"""Reject option (001 §3.5): exact lower posteriors against generic optimisers, costs against a loop."""
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy.optimize import linprog, minimize

from credal_core.aode import BMAAODE, CompAODE, CredalBMAAODE, CredalCompAODE
from credal_core.model_averaging import CMA, BMANaive
from credal_core.naive.ncc import NCC
from credal_core.reject import (
    credal_rejects,
    lower_top_posterior,
    precise_rejects,
    reject_costs,
    reject_costs_of,
)
from credal_core.tree import CredalDecisionTree
from tests._depth import cases


def small_data(rng, n_classes=2, missing=0.0, max_features=3):
    n, m = rng.integers(6, 25), rng.integers(1, max_features + 1)
    y = rng.integers(0, n_classes, n)
    y[:n_classes] = np.arange(n_classes)
    X = (y[:, None] + rng.integers(0, 2, (n, m)) * rng.integers(0, 3, (n, m))) % 3
    X = pd.DataFrame(X.astype(float), columns=[f"f{j}" for j in range(m)])
    if missing:
        X = X.mask(rng.random(X.shape) < missing)
    return X, y


def ncc_lower_by_optimiser(model, x_codes, c, starts=4, seed=0):
    """min over Zaffalon's full prior set (class and feature masses) of P(c | x), by SLSQP."""
    t = model.tables_
    s, eps = float(model.s), float(model.epsilon)
    C, sigma = 2, s * (1 - float(model.epsilon))
    feats = [j for j in range(len(t.categories)) if x_codes[j] >= 0]
    sizes = [len(t.categories[j]) for j in feats]
    offs = C + C * np.cumsum([0] + sizes)

    def joint(z, k):
        p = t.class_counts[k] + s * eps / C + sigma * z[k]
        for q, j in enumerate(feats):
            v = len(t.categories[j])
            cell = t.feature_counts[j][k, x_codes[j]] + s * eps / (C * v)
            mass = z[offs[q] + k * sizes[q] + x_codes[j]]
            p *= (cell + sigma * mass) / (t.feature_counts[j][k].sum() + s * eps / C + sigma * z[k])
        return p

    def objective(z):
        a, b = joint(z, c), joint(z, 1 - c)
        return a / (a + b)

    cons = [{"type": "eq", "fun": lambda z: z[0] + z[1] - 1}]
    for q in range(len(feats)):
        for k in range(C):
            lo = offs[q] + k * sizes[q]
            cons.append({"type": "eq", "fun": lambda z, lo=lo, q=q, k=k: z[lo:lo + sizes[q]].sum() - z[k]})
    rng = np.random.default_rng(seed)
    best = 1.0
    for _ in range(starts):
        u = rng.dirichlet(np.ones(C))
        z0 = np.concatenate([u] + [np.concatenate([u[k] * rng.dirichlet(np.ones(sz)) for k in range(C)])
                                   for sz in sizes])
        res = minimize(objective, z0, method="SLSQP", bounds=[(0, 1)] * len(z0), constraints=cons,
                       options={"ftol": 1e-15, "maxiter": 1000})
        z = res.x
        if z.min() >= -1e-10 and max(abs(con["fun"](z)) for con in cons) < 1e-9:
            best = min(best, objective(z))
    return best


@pytest.mark.parametrize("epsilon,missing", [(0.0, 0.0), (0.0, 0.2), (0.3, 0.1)])
def test_ncc_lower_posterior_equals_the_optimiser_over_the_prior_set(epsilon, missing, monkeypatch):
    import credal_core.reject as reject_module

    interior = []                                   # rows whose maximiser is inside (0, 1): the root branch
    root = reject_module.increasing_root
    monkeypatch.setattr(reject_module, "increasing_root",
                        lambda f, lo, hi, **k: interior.append(lo.size) or root(f, lo, hi, **k))
    rng = np.random.default_rng(int(epsilon * 10) + int(missing * 100))
    for _ in range(cases(12)):
        n, m = int(rng.integers(4, 12)), int(rng.integers(1, 4))
        y = rng.integers(0, 2, n)
        y[:2] = [0, 1]
        X = pd.DataFrame(rng.integers(0, 2, (n, m)).astype(float), columns=[f"f{j}" for j in range(m)])
        if missing:
            X = X.mask(rng.random(X.shape) < missing)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = NCC(s=float(rng.choice([1.0, 3.0, 10.0])), epsilon=epsilon).fit(X, y)
        row = X.iloc[[int(rng.integers(len(X)))]]
        codes = model.encode(row)[0]
        for c in range(2):
            got = lower_top_posterior(model, row, [c])[0]
            want = ncc_lower_by_optimiser(model, codes, c)
            assert got <= want + 1e-9
            assert got == pytest.approx(want, abs=1e-6)
            assert got <= model.predict_proba(row)[0, c] + 1e-12   # Perks' prior is in the set
    assert sum(interior) >= cases(12) // 3


def test_ncc_more_than_two_classes_is_computed_without_gaps_in_the_rivals_counts():
    X, y = small_data(np.random.default_rng(0), 3)         # complete data: every row has a value
    low = lower_top_posterior(NCC().fit(X, y), X)
    assert np.isfinite(low).all() and np.all((low >= 0) & (low <= 1))


def test_bma_aode_lower_posterior_equals_the_linear_programme():
    rng = np.random.default_rng(4)
    for _ in range(cases(20)):
        X, y = small_data(rng, int(rng.integers(2, 4)))
        X["g"] = (y + rng.integers(0, 2, len(y))) % 2
        model = CredalBMAAODE(epsilon=0.05).fit(X, y)
        post = model.spode_posteriors(X)[:, model.kept_, :]
        w = model.weights_[model.kept_]
        k = len(w)
        for i in range(min(len(X), 4)):
            for c in range(len(model.classes_)):
                a, b = w * post[i, :, c], w
                # Charnes-Cooper: min a.y s.t. b.y = 1, y_j >= eps z, sum y = z
                cost = np.append(a, 0.0)
                a_eq = np.vstack([np.append(b, 0.0), np.append(np.ones(k), -1.0)])
                a_ub = np.hstack([-np.eye(k), np.full((k, 1), 0.05)])
                res = linprog(cost, A_ub=a_ub, b_ub=np.zeros(k), A_eq=a_eq, b_eq=[1.0, 0.0],
                              bounds=[(0, None)] * (k + 1))
                got = lower_top_posterior(model, X.iloc[[i]], [c])[0]
                assert got == pytest.approx(res.fun, abs=1e-9)


@pytest.mark.parametrize("missing", [0.0, 0.3])
def test_comp_aode_lower_posterior_equals_the_optimiser(missing):
    rng = np.random.default_rng(5 + int(missing * 10))
    done = partial = 0
    for _ in range(cases(20)):
        X, y = small_data(rng, 2)
        X["g"] = (y + rng.integers(0, 2, len(y))) % 2
        model = CredalCompAODE(epsilon=0.02).fit(X, y)
        keep, base, total, equality = model.comp_problem()
        row = X.iloc[[0]].copy()
        if missing:
            row = row.mask(rng.random(row.shape) < missing)
        got = lower_top_posterior(model, row, [0])[0]
        if np.isnan(got):
            continue
        all_post = model.spode_posteriors(row)[0][keep, 0]
        on = ~np.isnan(all_post)                          # SPODEs whose parent is present
        p = np.nan_to_num(all_post)
        k = int(keep.sum())

        def post(yv):
            pi = base + np.log(yv)
            return (p * pi * on).sum() / (pi * on).sum()

        cons = [{"type": "eq" if equality else "ineq", "fun": lambda yv: total - yv.sum()}]
        best = min(minimize(post, np.full(k, total / k) if s == 0 else 0.02 + rng.dirichlet(np.ones(k))
                            * (total - 0.02 * k), method="SLSQP", bounds=[(0.02, 1)] * k,
                            constraints=cons, options={"ftol": 1e-15}).fun for s in range(5))
        assert got <= best + 1e-9 and got == pytest.approx(best, abs=1e-6)
        done += 1
        partial += int(not on.all())
    assert done >= 1 and (partial >= 1 or not missing)


def test_tree_and_cma_lower_posteriors():
    rng = np.random.default_rng(6)
    X, y = small_data(rng, 3)
    cdt = CredalDecisionTree().fit(X, y)
    node_counts = cdt._leaf_counts(cdt.encode(X))
    low = lower_top_posterior(cdt, X, np.zeros(len(X), dtype=int))
    assert np.allclose(low, node_counts[:, 0] / (node_counts.sum(axis=1) + 1.0))
    cma = CMA().fit(X, y)
    assert np.all(lower_top_posterior(cma, X) <= BMANaive().fit(X, y).predict_proba(X).max(axis=1) + 1e-12)


def test_reject_costs_against_a_loop_and_the_superset_property():
    rng = np.random.default_rng(7)
    y = rng.integers(0, 2, 200)
    X = pd.DataFrame((y[:, None] + rng.integers(0, 2, (200, 4)) * rng.integers(0, 3, (200, 4))) % 3)
    fit, test = slice(0, 60), slice(60, None)
    ncc = NCC().fit(X[fit], y[fit])
    proba, sets = ncc.predict_proba(X[test]), ncc.predict_set(X[test])
    low = lower_top_posterior(ncc, X[test])
    d_grid = [0.05, 0.2, 0.45]
    frame = reject_costs(y[test], proba, sets, low, d_grid, ncc.classes_)
    for d in d_grid:
        want = {"precise": [], "credal": []}
        for i, truth in enumerate(y[test]):
            top = int(np.argmax(proba[i]))
            want["precise"].append(d if proba[i, top] < 1 - d else float(top != truth))
            single = sets[i].sum() == 1
            cls = int(np.argmax(sets[i]))
            want["credal"].append(d if (not single or low[i] < 1 - d) else float(cls != truth))
        for name, costs in want.items():
            got = frame[(frame.d == d) & (frame.classifier == name)]["cost"].item()
            assert got == pytest.approx(np.mean(costs))
        assert not (precise_rejects(proba, d) & ~credal_rejects(sets, low, d)).any()   # 001: a superset
    assert set(frame.columns) == {"d", "classifier", "cost", "rejected", "error"}
    pd.testing.assert_frame_equal(reject_costs_of(ncc, X[test], y[test], d_grid), frame)


@pytest.mark.parametrize("d", [0.0, 0.5, -0.1, [0.1, 0.7]])
def test_bad_cost(d):
    with pytest.raises(ValueError, match="d must lie"):
        reject_costs([0], [[0.6, 0.4]], [[True, False]], [0.6], d, [0, 1])


def test_unsupported_model():
    X, y = small_data(np.random.default_rng(1))
    with pytest.raises(TypeError, match="no lower posterior"):
        lower_top_posterior(BMAAODE().fit(X, y), X)
    assert CompAODE  # the precise counterpart has no credal set


@pytest.mark.parametrize("make", [NCC, CMA, CredalDecisionTree, CredalBMAAODE, CredalCompAODE])
def test_reject_costs_of_is_reject_costs_with_every_rows_lower_posterior(make):
    """reject_costs_of computes the lower posterior only on the rows whose set is one class (the only
    ones reject_costs reads): the same frame as with lower_top_posterior of every row, for a table given
    as a DataFrame, an integer array and a list of rows."""
    rng = np.random.default_rng(11)
    d_grid = [0.02, 0.15, 0.3, 0.49]
    for _ in range(cases(12)):
        X, y = small_data(rng, n_classes=int(rng.integers(2, 4)), missing=0.1 * rng.integers(0, 2))
        half = len(X) // 2
        model = make().fit(X.iloc[:half], y[:half], classes=np.unique(y))
        test, truth = X.iloc[half:], y[half:]
        try:
            low = lower_top_posterior(model, test)
        except (NotImplementedError, ValueError):
            continue
        want = reject_costs(truth, model.predict_proba(test), model.predict_set(test), low, d_grid,
                            model.classes_)
        pd.testing.assert_frame_equal(reject_costs_of(model, test, truth, d_grid), want)
        if not X.isna().any().any():                          # integers hold no missing value
            ints = X.to_numpy().astype(int)
            on_ints = make().fit(ints[:half], y[:half], classes=np.unique(y))
            pd.testing.assert_frame_equal(reject_costs_of(on_ints, ints[half:], truth, d_grid), want)
            rows = ints[half:].tolist()
            pd.testing.assert_frame_equal(reject_costs_of(on_ints, rows, truth, d_grid), want)
