"""NetworkLikelihood's closed form (003 Theorem 1) against the definition of the profile
likelihood.

:math:`\\mathrm{lik}_g(\\gamma) = \\sup\\{\\mathrm{lik}(\\theta) : g(\\theta) = \\gamma\\}` is computed
here by a generic optimiser (scipy's SLSQP, several random starts) over the raw conditional tables θ with the
constraint :math:`\\log g(\\theta) = \\log\\gamma`, and bounded from the other side by random θ: every
θ has :math:`\\mathrm{lik}(\\theta) \\le \\mathrm{lik}_g(g(\\theta))`.  Only the table rows that ``g``
touches are free (the others enter lik as separate factors, maximal at their frequencies whatever γ).
Random DAGs of 2-4 nodes with 2-3 values, small samples (so zero counts and empty parent
configurations occur), joint probabilities and ratios.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.optimize import minimize
from scipy.special import xlogy

from credal_core.likelihood.network import NetworkLikelihood
from tests._depth import cases

FLOOR = 1e-12


def random_case(rng):
    k = int(rng.integers(2, 5))
    names = [f"X{i}" for i in range(k)]
    parents = {}
    for i, name in enumerate(names):
        earlier = [names[j] for j in range(i) if rng.random() < 0.5]
        parents[name] = tuple(earlier[:2])
    order = list(rng.permutation(names))              # dict order need not be topological
    parents = {n: parents[n] for n in order}
    states = {n: int(rng.integers(2, 4)) for n in names}
    while True:
        n = int(rng.integers(4, 16))
        skew = {nm: rng.dirichlet(np.full(states[nm], 0.6)) for nm in names}
        frame = pd.DataFrame({nm: rng.choice(states[nm], size=n, p=skew[nm]) for nm in names})
        try:
            return NetworkLikelihood(parents=parents).fit(frame), frame
        except ValueError:
            continue


def random_function(net, rng):
    pick = {n: net.states_[n][int(rng.integers(len(net.states_[n])))] for n in net.nodes_}
    if rng.random() < 0.35:
        return net.profile_joint(pick), ("joint", pick)
    node = net.nodes_[int(rng.integers(len(net.nodes_)))]
    a, b = rng.choice(len(net.states_[node]), size=2, replace=False)
    a, b = net.states_[node][a], net.states_[node][b]
    evidence = {k: v for k, v in pick.items() if k != node}
    return net.profile_ratio(node, a, b, evidence), ("ratio", node, a, b, evidence)


def touched_rows(net, spec):
    """{(node, row): q vector} of g, computed from the definition (not from the module's cells)."""
    def row_of(node, assignment):
        pa = net.graph_[node]
        if not pa:
            return 0
        idx = [net.states_[p].index(assignment[p]) for p in pa]
        return int(np.ravel_multi_index(idx, [len(net.states_[p]) for p in pa]))

    q = {}
    if spec[0] == "joint":
        weighted = [(1, spec[1])]
    else:
        _, node, a, b, ev = spec
        weighted = [(1, {**ev, node: a}), (-1, {**ev, node: b})]
    for sign, asg in weighted:
        for node in net.nodes_:
            key = (node, row_of(node, asg))
            vec = q.setdefault(key, np.zeros(len(net.states_[node])))
            vec[net.states_[node].index(asg[node])] += sign
    return {k: v for k, v in q.items() if np.any(v != 0)}


class Problem:
    def __init__(self, net, spec):
        self.rows = touched_rows(net, spec)
        self.d = [net.counts_[node][row] for node, row in self.rows]
        self.q = list(self.rows.values())
        self.sizes = [len(v) for v in self.q]
        self.cuts = np.cumsum([0] + self.sizes)
        # the maximum of lik over these rows: each at its frequencies (uniform if empty), 0 log 0 = 0
        self.top = sum(xlogy(d, d / d.sum()).sum() if d.sum() > 0 else 0.0 for d in self.d)

    def split(self, x):
        return [x[self.cuts[i]:self.cuts[i + 1]] for i in range(len(self.sizes))]

    def log_lik(self, x):
        return sum(xlogy(d, t).sum() for d, t in zip(self.d, self.split(x))) - self.top

    def log_g(self, x):
        with np.errstate(divide="ignore", invalid="ignore"):      # 0 * log 0 cells are dropped
            return sum((q * np.log(t))[q != 0].sum() for q, t in zip(self.q, self.split(x)))

    def optimise(self, gamma, rng, starts=6):
        cons = [{"type": "eq", "fun": lambda x: self.log_g(x) - np.log(gamma)}]
        for i in range(len(self.sizes)):
            cons.append({"type": "eq", "fun": lambda x, i=i: x[self.cuts[i]:self.cuts[i + 1]].sum() - 1})
        best = -np.inf
        for _ in range(starts):
            x0 = np.concatenate([rng.dirichlet(np.ones(s)) for s in self.sizes])
            res = minimize(lambda x: -self.log_lik(np.maximum(x, FLOOR)), x0, method="SLSQP",
                           bounds=[(FLOOR, 1)] * x0.size, constraints=cons,
                           options={"ftol": 1e-12, "maxiter": 500})
            x = np.maximum(res.x, FLOOR)
            feasible = abs(self.log_g(x) - np.log(gamma)) < 1e-7 and all(
                abs(t.sum() - 1) < 1e-8 for t in self.split(x))
            if feasible:
                best = max(best, self.log_lik(x))
        return best

    def sample(self, rng, size):
        parts = []
        for s in self.sizes:
            conc = rng.choice([0.2, 1.0, 5.0], size=(size, 1))
            t = rng.gamma(np.broadcast_to(conc, (size, s)))
            t[rng.random((size, s)) < 0.1] = 0.0                 # boundary points too
            t[t.sum(axis=1) == 0, 0] = 1.0
            parts.append(t / t.sum(axis=1, keepdims=True))
        return np.concatenate(parts, axis=1)


def random_problem(seed):
    """(rng, profile, Problem) of a random graph, data and function drawn from ``seed``."""
    rng = np.random.default_rng(seed)
    net, _ = random_case(rng)
    prof, spec = random_function(net, rng)
    return rng, prof, Problem(net, spec)


@pytest.mark.parametrize("seed", range(cases(40)))
def test_profile_matches_constrained_optimiser(seed):
    rng, prof, prob = random_problem(1000 + seed)
    if prof.flat:
        # lik_g ≡ 1: g can take any value at no cost in likelihood
        assert np.all(prof(np.array([0.0, 0.5, 2.0, np.inf])) == 1.0)
        return
    lo, hi = prof.g_range
    gammas = []
    path = prof.path(9)
    gammas += list(path["gamma"].to_numpy()[[1, 4, 7]])
    if lo > 0:
        gammas.append(lo / 3)
    if np.isfinite(hi) and np.isfinite(prof.alpha_range[1]):
        gammas.append(hi * 2)
    for gamma in gammas:
        if not (0 < gamma < np.inf):
            continue
        exact = float(prof.log(gamma))
        found = prob.optimise(gamma, rng)
        assert found <= exact + 1e-6, (gamma, found, exact)            # nothing beats the profile
        if np.isfinite(exact) and exact > -25:
            assert found >= exact - 1e-4, (gamma, found, exact)        # and the optimiser reaches it


@pytest.mark.parametrize("seed", range(cases(60)))
def test_profile_is_the_upper_envelope_of_random_parameters(seed):
    rng, prof, prob = random_problem(5000 + seed)
    thetas = prob.sample(rng, 400)
    with np.errstate(divide="ignore", invalid="ignore"):
        lg = np.array([prob.log_g(t) for t in thetas])
    ll = np.array([prob.log_lik(t) for t in thetas])
    ok = ~np.isnan(lg) & np.isfinite(ll)
    envelope = prof.log(np.exp(lg[ok]))
    # far in the tails (lik ~ e^-100) α sits within a few ulps of its bound: log lik to ~1e-7 relative
    assert np.all(ll[ok] <= envelope + 1e-9 + 1e-7 * np.abs(ll[ok]))


@pytest.mark.parametrize("seed", range(cases(40)))
def test_path_points_are_attained(seed):
    """Each path point (g(θ[α]), lik(θ[α])) is a real parameter's value: rebuild θ[α] = <d + α q>
    from the counts and check g and lik by the definition."""
    _, prof, prob = random_problem(9000 + seed)
    if prof.flat:
        return
    path = prof.path(7)
    for alpha, gamma, lik in path.to_numpy():
        theta = np.concatenate([(d + alpha * q) / (d + alpha * q).sum() for d, q in zip(prob.d, prob.q)])
        assert np.exp(prob.log_g(theta)) == pytest.approx(gamma, rel=1e-9)
        assert np.exp(prob.log_lik(theta)) == pytest.approx(lik, rel=1e-9, abs=1e-300)
        assert float(prof(gamma)) == pytest.approx(lik, rel=1e-8, abs=1e-300)
