"""``profile_ratio(..., include_instance=True)`` (000 §4's likelihood on any network) against brute force.

The brute force is the definition: :math:`\\sup\\{\\mathrm{lik}_d(\\theta)(P_\\theta(a, \\text{rest}) +
P_\\theta(b, \\text{rest})) : g(\\theta) = \\gamma\\}` by SLSQP with several random starts over the table rows
``g`` touches (the other rows, those of the realisations' common part included, are separable factors
whose maximum does not depend on γ), divided by the same supremum without the constraint.  Random DAGs
of 2-4 nodes (tests/credal_core/likelihood/test_network_brute.py's cases), small samples with zero
counts.  Also: 000 Example 3 by hand, the LNCC on the naive graph, and the LTANC's critical levels on
its TAN against ``region_parts``.
"""
from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy.optimize import minimize
from scipy.special import xlogy

from credal_core import LNCC
from credal_core.likelihood.instance_ratio import InstanceRatioProfile
from credal_core.likelihood.network import NetworkLikelihood
from credal_core.likelihood.tan import LTANC, tan_graph
from tests._depth import cases
from tests.credal_core.likelihood.test_network_brute import FLOOR, Problem, random_case
from tests.credal_core.likelihood.test_tan import random_data


def random_ratio(net, rng):
    pick = {n: net.states_[n][int(rng.integers(len(net.states_[n])))] for n in net.nodes_}
    node = net.nodes_[int(rng.integers(len(net.nodes_)))]
    i, k = rng.choice(len(net.states_[node]), size=2, replace=False)
    a, b = net.states_[node][i], net.states_[node][k]
    evidence = {n: v for n, v in pick.items() if n != node}
    return node, a, b, evidence


class InstanceProblem(Problem):
    """Problem (the touched rows, their counts d and exponents q) with the instance's term."""

    def __init__(self, net, spec):
        super().__init__(net, spec)
        _, node, a, b, ev = spec
        keys = list(self.rows)
        self.cells = []
        for value in (a, b):
            asg = {**ev, node: value}
            cells = []
            for i, (nd, row) in enumerate(keys):
                pa = net.graph_[nd]
                own = 0 if not pa else int(np.ravel_multi_index(
                    [net.states_[p].index(asg[p]) for p in pa], [len(net.states_[p]) for p in pa]))
                if own == row:
                    cells.append(self.cuts[i] + net.states_[nd].index(asg[nd]))
            self.cells.append(cells)

    def log_lik(self, x):
        with np.errstate(divide="ignore"):
            la, lb = (np.log(x[c]).sum() for c in self.cells)
        return sum(xlogy(d, t).sum() for d, t in zip(self.d, self.split(x))) + np.logaddexp(la, lb)

    def best(self, rng, gamma=None, starts=8):
        cons = [{"type": "eq", "fun": lambda x, i=i: x[self.cuts[i]:self.cuts[i + 1]].sum() - 1}
                for i in range(len(self.sizes))]
        if gamma is not None:
            cons.append({"type": "eq", "fun": lambda x: self.log_g(x) - np.log(gamma)})
        out = -np.inf
        for k in range(starts):
            x0 = np.concatenate([rng.dirichlet(np.ones(s)) for s in self.sizes])
            if k == 0:
                x0 = np.concatenate([(d + 0.5) / (d + 0.5).sum() for d in self.d])
            res = minimize(lambda x: -self.log_lik(np.maximum(x, FLOOR)), x0, method="SLSQP",
                           bounds=[(FLOOR, 1)] * x0.size, constraints=cons,
                           options={"ftol": 1e-13, "maxiter": 800})
            x = np.maximum(res.x, FLOOR)
            ok = all(abs(t.sum() - 1) < 1e-8 for t in self.split(x))
            if gamma is not None:
                ok &= abs(self.log_g(x) - np.log(gamma)) < 1e-7
            if ok:
                out = max(out, self.log_lik(x))
        return out


@pytest.mark.parametrize("seed", range(cases(30)))
def test_instance_profile_matches_constrained_optimiser(seed):
    rng = np.random.default_rng(11000 + seed)
    net, _ = random_case(rng)
    node, a, b, ev = random_ratio(net, rng)
    prof = net.profile_ratio(node, a, b, ev, include_instance=True)
    assert isinstance(prof, InstanceRatioProfile)
    prob = InstanceProblem(net, ("ratio", node, a, b, ev))
    top = prob.best(rng)
    assert prof.log(prof.mle) == pytest.approx(0.0, abs=1e-9)
    gammas = [g for g in prof.path(9)["gamma"].to_numpy()[[1, 4, 7]] if 0 < g < np.inf]
    gammas += [0.3, 1.0, 3.0]
    if 0 < prof.mle < np.inf:
        gammas.append(prof.mle)
    for gamma in gammas:
        exact = float(prof.log(gamma))
        found = prob.best(rng, gamma) - top
        assert found <= exact + 1e-6, (gamma, found, exact)            # nothing beats the profile
        if exact > -20:
            assert found >= exact - 1e-4, (gamma, found, exact)        # and the optimiser reaches it


@pytest.mark.parametrize("seed", range(cases(30)))
def test_without_instance_is_theorem_1_and_with_it_differs_by_the_factor(seed):
    """include_instance=False is the data's profile (the existing NetworkProfile); with the instance
    (1 + γ) times the profile of d + e_b, renormalised: their ratio over γ is (1 + γ) up to a constant."""
    rng = np.random.default_rng(12000 + seed)
    net, frame = random_case(rng)
    node, a, b, ev = random_ratio(net, rng)
    plain = net.profile_ratio(node, a, b, ev)
    assert not isinstance(plain, InstanceRatioProfile)
    assert plain.cells.equals(net.profile_ratio(node, a, b, ev, include_instance=False).cells)
    prof = net.profile_ratio(node, a, b, ev, include_instance=True)
    # the counts d + e_b: the data with one more row, the instance labelled b
    extra = pd.DataFrame([{**ev, node: b}])[list(frame.columns)].astype(frame.dtypes.to_dict())
    grown = NetworkLikelihood(parents=net.parents).fit(pd.concat([frame, extra], ignore_index=True))
    base = grown.profile_ratio(node, a, b, ev)
    gam = np.geomspace(1e-3, 1e3, 25)
    diff = prof.log(gam) - np.log1p(gam) - base.log(gam)
    finite = np.isfinite(diff)
    assert np.ptp(diff[finite]) < 1e-8 if finite.any() else True
    assert (prof.cells["instance"] >= 0).all() and prof.cells["instance"].sum() >= 1


@pytest.mark.parametrize("seed", range(cases(60)))
def test_region_parts_are_the_level_set(seed):
    """region_parts(β) against the curve itself: lik = β at every finite positive end, > β inside each
    part, <= β in the gaps between parts (bimodal profiles) and just outside the hull; the MLE at 1."""
    rng = np.random.default_rng(14000 + seed)
    net, _ = random_case(rng)
    try:
        prof = net.profile_ratio(*random_ratio(net, rng), include_instance=True)
    except ValueError:          # g undefined at an end of the path (0 and inf together)
        return
    assert float(prof.log(prof.mle)) == pytest.approx(0.0, abs=1e-9)
    for beta in (0.0, 0.05, 0.3, 0.7, 0.95, 0.999):
        parts = prof.region_parts(beta)
        assert prof.region(beta) == (parts[0][0], parts[-1][1])
        for lo, hi in parts:
            assert lo <= hi
            ends = [g for g in (lo, hi) if 0 < g < np.inf]
            if beta > 0:
                np.testing.assert_allclose(prof(np.array(ends)), beta, rtol=1e-6)
            if 0 < lo and hi < np.inf:
                assert float(prof(np.sqrt(lo * hi))) > beta
        for (_, h1), (l2, _) in zip(parts[:-1], parts[1:]):
            assert float(prof(np.sqrt(h1 * l2))) <= beta + 1e-9
        lo, hi = parts[0][0], parts[-1][1]
        if lo > 0:
            assert float(prof(lo * 0.999)) <= beta + 1e-9
        if hi < np.inf:
            assert float(prof(hi * 1.001)) <= beta + 1e-9


def test_example_3_of_paper_000():
    """000 Example 3: with the instance the LNCC picks c for α >= 0.22; without it, both classes while
    α <= 0.98 — the profile of the ratio at γ = 1 (where its sup over γ <= 1 is attained)."""
    rows = ([("c", "f1", "g0")] * 50 + [("nc", "f1", "g0"), ("nc", "h0", "f2")] + [("nc", "h0", "g0")] * 48)
    frame = pd.DataFrame(rows, columns=["C", "F1", "F2"])
    net = NetworkLikelihood(parents={"C": (), "F1": ("C",), "F2": ("C",)}).fit(frame)
    ev = {"F1": "f1", "F2": "f2"}
    with_instance = float(net.profile_ratio("C", "c", "nc", ev, include_instance=True)(1.0))
    without = float(net.profile_ratio("C", "c", "nc", ev)(1.0))
    assert 0.21 < with_instance <= 0.22          # c dominates for α above it: "α >= 0.22" in print
    assert 0.98 <= without < 0.99                # both classes "if α <= 0.98"


@pytest.mark.parametrize("seed", range(cases(15)))
def test_naive_graph_and_tan_levels_from_region_parts(seed):
    """The LNCC (naive graph) and the LTANC (its TAN) with the instance: critical_alpha[a, b] is the sup
    of this profile over γ <= 1, so {lik > β} reaches γ <= 1 for β just below it and not just above."""
    rng = np.random.default_rng(13000 + seed)
    X, y = random_data(rng, m=int(rng.integers(1, 4)))
    for model in (LNCC().fit(X, y), LTANC().fit(X, y)):
        parents = model.parents_ if isinstance(model, LTANC) else np.full(X.shape[1], -1)
        net = NetworkLikelihood(parents=tan_graph(parents, X.columns)).fit(X.assign(C=y))
        row = X.iloc[[int(rng.integers(len(X)))]]
        crit = model.critical_alpha(row)[0]
        classes = list(model.classes_)
        for i, k in itertools.permutations(range(len(classes)), 2):
            prof = net.profile_ratio("C", classes[i], classes[k], row.iloc[0].to_dict(),
                                     include_instance=True)
            level = crit[i, k]
            if level >= 1 - 1e-9:
                assert prof.mle <= 1 + 1e-9 or float(prof(1.0)) > 1 - 1e-6
                continue
            below = prof.region_parts(level * (1 - 1e-6))
            above = prof.region_parts(min(level * (1 + 1e-6), 0.999999))
            assert below[0][0] <= 1.0, (level, below)
            assert above[0][0] > 1.0 - 1e-9, (level, above)


def test_bad_include_instance():
    frame = pd.DataFrame({"A": list("xxy"), "B": list("uvu")})
    net = NetworkLikelihood(parents={"A": (), "B": ("A",)}).fit(frame)
    with pytest.raises(ValueError, match="include_instance"):
        net.profile_ratio("A", "x", "y", {"B": "u"}, include_instance="yes")
