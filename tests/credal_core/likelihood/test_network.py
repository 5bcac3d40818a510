"""NetworkLikelihood: examples worked by hand, the naive case against the existing code, bad input."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from credal_core import LNCC
from credal_core.likelihood.network import NetworkLikelihood
from credal_core.likelihood.profile import PairProfile
from tests._depth import cases


def test_one_node_joint_by_hand():
    """One node A with counts x: 3, y: 1 and g = P(A = x) = θ_x.

    The constraint θ_x = γ fixes θ, so lik_g(γ) = γ^3 (1-γ) / ((3/4)^3 (1/4)).  Theorem 1: q = +1 at
    x, so α ∈ [-3, +inf), θ[α]_x = (3+α)/(4+α) covers ]0, 1[, MLE 3/4; at α = -3, θ_x = 0 with
    lik 0; α = +inf gives θ_x = 1 with lik 0 (the y count), and γ > 1 is impossible (lik 0).
    """
    net = NetworkLikelihood(parents={"A": ()}).fit(pd.DataFrame({"A": list("xxxy")}))
    p = net.profile_joint({"A": "x"})
    g = np.linspace(0, 1, 41)
    np.testing.assert_allclose(p(g), g ** 3 * (1 - g) / (0.75 ** 3 * 0.25), rtol=1e-10, atol=1e-14)
    assert p.alpha_range == (-3.0, np.inf)
    assert p.mle == pytest.approx(0.75, rel=1e-14)
    assert np.all(p(np.array([1.5, 7.0])) == 0)
    lo, hi = p.region(0.15)
    for end in (lo, hi):                     # the region's ends are where the curve crosses 0.15
        assert end ** 3 * (1 - end) / (0.75 ** 3 * 0.25) == pytest.approx(0.15, rel=1e-9)


def test_two_node_ratio_by_hand():
    """A -> B; A: x x x y y; B given A = x: u v u, given A = y: u v.  g = P(A=x | B=u) / P(A=y | B=u).

    Theorem 1: q = +1 at (A=x), -1 at (A=y) (one row, Q = 0), +1 at (B=u | A=x), -1 at (B=u | A=y);
    α ∈ [-2, 1].  θ[α]: θ_x = (3+α)/5, θ_y = (2-α)/5, θ_u|x = (2+α)/(3+α), θ_u|y = (1-α)/(2-α), so
    g(α) = (2+α)/(1-α) and lik(α) = [(3+α)/3]^3 [(2-α)/2]^2 [3(2+α)/(2(3+α))]^2 [3/(3+α)]
    [2(1-α)/(2-α)] [2/(2-α)] = (2+α)^2 (1-α) / 4.  With α = (γ-2)/(1+γ):
    lik_g(γ) = 27 γ^2 / (4 (1+γ)^3) — the binomial profile of p = P(A=x | B=u) (counts 2 and 1) in
    the odds γ = p/(1-p), as the reversed graph B -> A (Markov equivalent) says directly.
    """
    frame = pd.DataFrame({"A": list("xxxyy"), "B": list("uvuuv")})
    for parents in ({"A": (), "B": ("A",)}, {"B": (), "A": ("B",)}):
        p = NetworkLikelihood(parents=parents).fit(frame).profile_ratio("A", "x", "y", {"B": "u"})
        g = np.array([0.0, 0.05, 0.5, 1.0, 2.0, 3.5, 40.0])
        np.testing.assert_allclose(p(g), 27 * g ** 2 / (4 * (1 + g) ** 3), rtol=1e-10, atol=1e-15)
        assert p.mle == pytest.approx(2.0, rel=1e-13)
        assert p(np.inf) == 0.0
    path = NetworkLikelihood(parents={"A": (), "B": ("A",)}).fit(frame).profile_ratio(
        "A", "x", "y", {"B": "u"}).path(11)
    a = path["alpha"].to_numpy()
    np.testing.assert_allclose(path["gamma"], (2 + a) / (1 - a), rtol=1e-12)
    np.testing.assert_allclose(path["likelihood"], (2 + a) ** 2 * (1 - a) / 4, rtol=1e-12)


def test_end_cases():
    # a value never seen with its parent configuration: α_lo = 0, lik_g = 1 on [0, g(θ_lo)]
    frame = pd.DataFrame({"A": list("xxyy"), "B": list("uuuv")})
    net = NetworkLikelihood(parents={"A": (), "B": ("A",)}).fit(frame)
    p = net.profile_ratio("A", "x", "y", {"B": "v"})      # n(B=v | A=x) = 0
    assert p.alpha_range[0] == 0.0
    lo, hi = p.mle_range
    assert lo == 0.0 and p(np.array([0.0, hi / 2])).tolist() == [1.0, 1.0]
    assert p.region(0.5)[0] == 0.0
    # both values unseen in the ratio's own row: flat (α_lo = α_hi = 0)
    net = NetworkLikelihood(parents={"A": ("B",), "B": ()}).fit(pd.DataFrame({"A": list("xyxx"),
                                                                               "B": list("uuuw")}))
    p = net.profile_ratio("A", "y", "x", {"B": "w"})
    assert not p.flat          # x was seen with w
    q = net.profile_ratio("B", "u", "w", {"A": "y"})
    assert q.alpha_range[1] == 0.0 or q.alpha_range[0] <= 0


@pytest.mark.parametrize("seed", range(cases(30)))
def test_naive_graph_matches_the_lncc_without_instance(seed):
    """On the naive graph the ratio of two classes is 003 Corollary 1: the LNCC with
    include_instance=False has sup_{γ<=1} lik_g = lik_g(1) when the MLE exceeds 1, else 1."""
    rng = np.random.default_rng(seed)
    n, m = int(rng.integers(6, 30)), int(rng.integers(1, 4))
    X = pd.DataFrame({f"F{j}": rng.choice(list("pqr"[:int(rng.integers(2, 4))]), n) for j in range(m)})
    y = rng.choice(list("abc"), n)
    frame = X.assign(C=y)
    if frame.nunique().min() < 2:
        return
    parents = {"C": (), **{f"F{j}": ("C",) for j in range(m)}}
    net = NetworkLikelihood(parents=parents).fit(frame)
    lncc = LNCC(include_instance=False).fit(X, y)
    row = X.iloc[[int(rng.integers(n))]]
    crit = lncc.critical_alpha(row)[0]
    classes = list(lncc.classes_)
    for i, a in enumerate(classes):
        for k, b in enumerate(classes):
            if a == b:
                continue
            p = net.profile_ratio("C", a, b, row.iloc[0].to_dict())
            expected = 1.0 if p.mle_range[0] <= 1 else float(p(1.0))
            assert crit[i, k] == pytest.approx(expected, rel=1e-8, abs=1e-12)


def test_naive_graph_matches_pair_profile_curve():
    X = pd.DataFrame({"F": list("xxxxxyxy")})
    y = list("ccccccdd")           # 000 Example 2's counts: n(c)=6, n(d)=2, n(c, x)=5, n(d, x)=1
    net = NetworkLikelihood(parents={"C": (), "F": ("C",)}).fit(X.assign(C=y))
    p = net.profile_ratio("C", "c", "d", {"F": "x"})
    pair = PairProfile(6, 2, [5], [1], include_instance=False)
    post = np.linspace(0.02, 0.98, 25)
    np.testing.assert_allclose(p(post / (1 - post)), pair.envelope(post), rtol=1e-9)


def test_bad_input_names_the_problem():
    frame = pd.DataFrame({"A": list("xxyy"), "B": list("uvuv"), "C": list("pqqp")})
    with pytest.raises(ValueError, match="cycle: .*A.*B|cycle: .*B.*A"):
        NetworkLikelihood(parents={"A": ("B",), "B": ("A",)}).fit(frame)
    with pytest.raises(ValueError, match="cycle"):
        NetworkLikelihood(parents={"A": ("C",), "B": ("A",), "C": ("B",)}).fit(frame)
    with pytest.raises(ValueError, match="unknown node 'Z'"):
        NetworkLikelihood(parents={"A": ("Z",)}).fit(frame)
    with pytest.raises(ValueError, match=r"parent set of 'C' too large.*16 configurations.*only 4 rows"):
        big = frame.assign(D=list("abcd"))
        NetworkLikelihood(parents={"A": (), "B": (), "D": (), "C": ("A", "B", "D")}).fit(big)
    with pytest.raises(ValueError, match="missing values in \\['B'\\]"):
        NetworkLikelihood(parents={"A": (), "B": ()}).fit(frame.assign(B=["u", None, "u", "v"]))
    net = NetworkLikelihood(parents={"A": (), "B": ("A",)}).fit(frame)
    with pytest.raises(ValueError, match="unknown value 'w' of node 'B'"):
        net.profile_joint({"A": "x", "B": "w"})
    with pytest.raises(ValueError, match="unknown node"):
        net.profile_ratio("Q", "x", "y", {"B": "u"})
    with pytest.raises(ValueError, match="different"):
        net.profile_ratio("A", "x", "x", {"B": "u"})
    with pytest.raises(ValueError, match="missing: \\['B'\\]"):
        net.profile_ratio("A", "x", "y", {})
    with pytest.raises(ValueError, match="beta"):
        net.profile_joint({"A": "x", "B": "u"}).region(1.0)
    with pytest.raises(ValueError, match="gamma"):
        net.profile_joint({"A": "x", "B": "u"})(np.array([-1.0]))


def test_undefined_zero_and_infinity_is_refused():
    """Theorem 1 leaves g undefined when 0 and +inf appear in its product.  For a joint probability or
    a ratio this cannot happen at a path end (a -1 cell empties only at α = 0 with a +1 cell, which
    is the flat case), so the check is exercised on cells placed at such an end by hand."""
    from credal_core.likelihood.network import PathItems

    items = PathItems([[2.0, 1.0]], [[1.0, -1.0]], [[0.0, 0.0]], [[0.0, 0.0]])
    items.alpha_lo[:] = -2.0            # +1 cell at 2 - 2 = 0 (g -> 0) ...
    items.d[0, 1] = -2.0                # ... and the -1 cell at -2 + 2 = 0 (g -> +inf)
    with pytest.raises(ValueError, match="undefined"):
        items.ends("lo")
