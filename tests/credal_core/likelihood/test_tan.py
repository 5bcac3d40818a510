"""LTANC (likelihood-based credal TAN): tree, exact critical levels against brute force, consistency.

The brute force maximises, by SLSQP with several random starts over the raw TAN parameters the
instance touches (the class distribution and, for each feature, its distribution given (a, parent
value) and (b, parent value) — every other row is a separate factor, maximal at its frequencies),
the likelihood of the data times P(a, f) + P(b, f), with and without the constraint
P(a, f) <= P(b, f): critical_alpha[a, b] is the ratio of the two maxima (000 §4's definition).
Counts are taken from the data frame directly, not from the model's tables.
"""
from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy.optimize import minimize
from scipy.special import xlogy

from credal_core import LNCC
from credal_core.likelihood.network import NetworkLikelihood
from credal_core.likelihood.tan import LTANC, chow_liu_parents
from tests._depth import cases

FLOOR = 1e-12


def random_data(rng, m=None, n=None):
    m = int(rng.integers(2, 4)) if m is None else m
    n = int(rng.integers(8, 25)) if n is None else n
    C = int(rng.integers(2, 4))
    while True:
        ks = [int(rng.integers(2, 4)) for _ in range(m)]
        X = pd.DataFrame({f"F{j}": rng.choice(list("pqr")[:ks[j]], n) for j in range(m)})
        # correlated features so that the tree has something to find
        for j in range(1, m):
            copy = rng.random(n) < 0.5
            prev = X[f"F{j - 1}"]
            X.loc[copy, f"F{j}"] = prev[copy].where(prev[copy].isin(list("pqr")[:ks[j]]), "p")
        y = rng.choice(list("abc")[:C], n)
        if len(set(y)) >= 2 and X.nunique().min() >= 2:
            return X, y


def brute_critical(X, y, parents, inst, a, b, rng, starts=6):
    classes = sorted(set(y))
    feats = list(X.columns)
    values = {f: sorted(set(X[f])) for f in feats}
    nc = np.array([np.sum(y == c) for c in classes], float)
    blocks = [("C", None, len(classes))]
    counts = [nc]
    pick = {}
    for j, f in enumerate(feats):
        p = parents[j]
        for c in (a, b):
            rows = (y == c) & ((X[feats[p]] == inst[feats[p]]) if p >= 0 else True)
            counts.append(np.array([np.sum(rows & (X[f] == v)) for v in values[f]], float))
            blocks.append((f, c, len(values[f])))
            pick[(j, c)] = (len(blocks) - 1, values[f].index(inst[f]))
    cuts = np.cumsum([0] + [k for _, _, k in blocks])
    ia, ib = classes.index(a), classes.index(b)

    def split(x):
        return [x[cuts[i]:cuts[i + 1]] for i in range(len(blocks))]

    def log_p(parts, c, ic):
        return np.log(parts[0][ic]) + sum(np.log(parts[pick[(j, c)][0]][pick[(j, c)][1]])
                                          for j in range(len(feats)))

    def objective(x):
        parts = split(np.maximum(x, FLOOR))
        data = sum(xlogy(d, t).sum() for d, t in zip(counts, parts))
        return data + np.logaddexp(log_p(parts, a, ia), log_p(parts, b, ib))

    def best(constrained):
        cons = [{"type": "eq", "fun": lambda x, i=i: x[cuts[i]:cuts[i + 1]].sum() - 1}
                for i in range(len(blocks))]
        if constrained:
            cons.append({"type": "ineq", "fun": lambda x: log_p(split(np.maximum(x, FLOOR)), b, ib)
                         - log_p(split(np.maximum(x, FLOOR)), a, ia)})
        out = -np.inf
        for k in range(starts):
            x0 = np.concatenate([rng.dirichlet(np.ones(s)) for _, _, s in blocks])
            if k == 0:      # one start at the data's frequencies
                x0 = np.concatenate([(d + 0.5) / (d + 0.5).sum() for d in counts])
            res = minimize(lambda x: -objective(x), x0, method="SLSQP", bounds=[(FLOOR, 1)] * x0.size,
                           constraints=cons, options={"ftol": 1e-13, "maxiter": 800})
            x = np.maximum(res.x, FLOOR)
            ok = all(abs(t.sum() - 1) < 1e-7 for t in split(x))
            if constrained:
                ok &= log_p(split(x), b, ib) - log_p(split(x), a, ia) > -1e-7
            if ok:
                out = max(out, objective(x))
        return out

    return float(np.exp(min(best(True) - best(False), 0.0)))


@pytest.mark.parametrize("seed", range(cases(25)))
def test_critical_alpha_matches_brute_force(seed):
    rng = np.random.default_rng(300 + seed)
    X, y = random_data(rng)
    model = LTANC().fit(X, y)
    row = X.iloc[[int(rng.integers(len(X)))]]
    crit = model.critical_alpha(row)[0]
    classes = list(model.classes_)
    a, b = rng.choice(len(classes), size=2, replace=False)
    brute = brute_critical(X, y, model.parents_, row.iloc[0], classes[a], classes[b], rng)
    assert crit[a, b] == pytest.approx(brute, abs=2e-4), (crit[a, b], brute)


@pytest.mark.parametrize("seed", range(cases(20)))
def test_one_feature_is_the_lncc(seed):
    """With one feature the TAN is the naive graph: the LNCC's exact levels, with and without the instance."""
    rng = np.random.default_rng(seed)
    X, y = random_data(rng, m=1, n=int(rng.integers(5, 40)))
    Xt = pd.DataFrame({"F0": sorted(set(X["F0"]))})
    for inc in (True, False):
        ours = LTANC(include_instance=inc).fit(X, y).critical_alpha(Xt)
        theirs = LNCC(include_instance=inc).fit(X, y).critical_alpha(Xt)
        np.testing.assert_allclose(ours, theirs, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("seed", range(cases(20)))
def test_without_instance_is_the_network_profile(seed):
    """include_instance=False: critical_alpha[a, b] = lik_g(1) when the MLE of the ratio exceeds 1, else
    1 — NetworkLikelihood's profile on the same graph."""
    rng = np.random.default_rng(700 + seed)
    X, y = random_data(rng)
    model = LTANC(include_instance=False).fit(X, y)
    graph = model.graph("C")
    assert graph == {"C": (), **{f: ("C",) if p < 0 else ("C", X.columns[p])
                                 for f, p in zip(X.columns, model.parents_)}}
    net = NetworkLikelihood(parents=graph).fit(X.assign(C=y))
    row = X.iloc[[int(rng.integers(len(X)))]]
    crit = model.critical_alpha(row)[0]
    classes = list(model.classes_)
    for i, k in itertools.permutations(range(len(classes)), 2):
        p = net.profile_ratio("C", classes[i], classes[k], row.iloc[0].to_dict())
        expected = 1.0 if p.mle_range[0] <= 1 else float(p(1.0))
        assert crit[i, k] == pytest.approx(expected, rel=1e-8, abs=1e-12)


def _all_trees_best(w):
    m = w.shape[0]
    edges = list(itertools.combinations(range(m), 2))
    best = -np.inf
    for subset in itertools.combinations(edges, m - 1):
        parent = list(range(m))

        def find(i):
            while parent[i] != i:
                i = parent[i]
            return i
        ok = True
        for i, j in subset:
            ri, rj = find(i), find(j)
            if ri == rj:
                ok = False
                break
            parent[ri] = rj
        if ok:
            best = max(best, sum(w[i, j] for i, j in subset))
    return best


@pytest.mark.parametrize("seed", range(cases(20)))
def test_chow_liu_tree_is_a_maximum_spanning_tree(seed):
    rng = np.random.default_rng(seed)
    m = int(rng.integers(2, 6))
    w = rng.random((m, m))
    w = w + w.T
    parents = chow_liu_parents(w)
    assert (parents == -1).sum() == 1 and parents[0] == -1
    weight = sum(w[j, p] for j, p in enumerate(parents) if p >= 0)
    assert weight == pytest.approx(_all_trees_best(w), rel=1e-12)


def test_cmi_by_definition_and_tree_links_copies():
    rng = np.random.default_rng(1)
    n = 400
    f0 = rng.choice(list("ab"), n)
    X = pd.DataFrame({"F0": f0, "F1": rng.choice(list("ab"), n), "F2": f0})    # F2 copies F0
    y = rng.choice(list("xy"), n)
    model = LTANC().fit(X, y)
    assert model.parents_[2] == 0
    # I(F0; F2 | C) = H(F0 | C) for a copy
    frame = pd.DataFrame({"f": f0, "c": y})
    p = frame.value_counts(normalize=True)
    pc = frame["c"].value_counts(normalize=True)
    h = -sum(v * np.log(v / pc[c]) for (f, c), v in p.items())
    assert model.cmi_[0, 2] == pytest.approx(h, rel=1e-12)


def test_predict_set_and_missing_values():
    rng = np.random.default_rng(3)
    X, y = random_data(rng, m=3, n=40)
    model = LTANC(alpha=0.5).fit(X, y)
    sets = model.predict_set(X)
    crit = model.critical_alpha(X)
    dom = 0.5 > crit
    idx = np.arange(crit.shape[1])
    dom[:, idx, idx] = False
    np.testing.assert_array_equal(sets, ~dom.any(axis=1))       # no cycles here: maximal classes
    assert sets.any(axis=1).all()
    proba = model.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    with pytest.raises(ValueError, match="missing values"):
        LTANC().fit(X.assign(F0=[None] + list(X["F0"][1:])), y)
    with pytest.raises(ValueError, match="missing values"):
        model.predict_set(X.assign(F1=None))
    with pytest.raises(ValueError, match="alpha"):
        LTANC(alpha=1.5).fit(X, y)


@pytest.mark.parametrize("seed", range(cases(15)))
def test_predict_set_verdicts_equal_the_exact_levels(seed):
    """predict_set's bounded route (brackets of g = 1, then the exact route for open pairs) gives
    exactly ``alpha > critical_alpha`` — at levels on a grid and just around each pair's level."""
    rng = np.random.default_rng(900 + seed)
    X, y = random_data(rng, m=int(rng.integers(2, 5)), n=int(rng.integers(10, 60)))
    Xt, _ = random_data(rng, m=X.shape[1], n=30)
    Xt = Xt[[c for c in X.columns]]
    Xt = Xt[Xt.apply(lambda col: col.isin(set(X[col.name])), axis=0).all(axis=1)]
    if Xt.empty:
        return
    crit = LTANC().fit(X, y).critical_alpha(Xt)
    levels = list(np.linspace(0, 1, 11)) + list(np.clip(crit[crit < 1].ravel()[:5] * (1 + 1e-6), 0, 1))
    levels += list(crit[crit < 1].ravel()[:5] * (1 - 1e-6))
    for level in levels:
        model = LTANC(alpha=float(level)).fit(X, y)
        dom = model.dominance(Xt)
        expected = float(level) > crit
        idx = np.arange(crit.shape[1])
        expected[:, idx, idx] = False
        np.testing.assert_array_equal(dom, expected, err_msg=f"alpha={level}")


@pytest.mark.parametrize("seed", range(cases(10)))
def test_predict_set_shortcut_gives_the_maximal_set(seed):
    """predict_set tests the best-scored class's pairs first and skips the rest where it wins them
    all: the same sets as the maximal set of the full dominance."""
    from credal_core._base import maximal_set

    rng = np.random.default_rng(1500 + seed)
    X, y = random_data(rng, m=3, n=int(rng.integers(20, 80)))
    y = np.where(rng.random(len(y)) < 0.3, "c", y)          # three classes
    for level in (0.2, 0.75, 0.95):
        model = LTANC(alpha=level).fit(X, y)
        np.testing.assert_array_equal(model.predict_set(X), maximal_set(model.dominance(X)))


def test_tan_graph_naive_and_bad_input():
    from credal_core.likelihood.tan import tan_graph

    assert tan_graph([-1, -1], ["u", "v"], "K") == {"K": (), "u": ("K",), "v": ("K",)}
    assert tan_graph([-1, 0], ["u", "v"]) == {"C": (), "u": ("C",), "v": ("C", "u")}
    with pytest.raises(ValueError, match="2 parents for 1 features"):
        tan_graph([-1, 0], ["u"])
    with pytest.raises(ValueError, match="class node 'u'"):
        tan_graph([-1], ["u"], "u")
