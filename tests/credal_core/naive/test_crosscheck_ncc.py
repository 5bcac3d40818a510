"""Cross-check ``credal_core.NCC.dominance`` against the brute force of brute_force.py.

The brute force minimises P_t(a, f~) / P_t(b, f~) over the raw IDM parameters
(paper 000, eq. 5, epsilon-contaminated as in §2.2) with multistart SLSQP, on
small random data sets.  Each scenario below draws its own reproducible data
sets (numpy seeds); together they are 113 data sets in the full run and three
times as many in the deep run (``CREDAL_TEST_DEPTH=3``, see tests/_depth.py).

Verdicts are compared off the diagonal.  Since every brute-force value is a
ratio *attained* at a genuine prior, it is an upper bound on the infimum:

* package says "a dominates b"        -> brute minimum must be > 1 - 1e-9
  (otherwise the brute force holds a prior under which a is not more probable);
* package says "a does not dominate b" -> brute minimum must be <= 1 + 1e-6
  (otherwise the optimiser found no prior breaking dominance: likely a package
  error, possibly an optimiser miss; the message prints the case to replay).

Pairs whose brute-force minimum is within 1e-6 of 1 are ties: they are checked
by the two assertions but not counted as compared verdicts.
"""

import numpy as np
import pytest

from tests._depth import cases
from tests.credal_core._helpers import (
    Verdicts,
    class_pairs,
    counts_text,
    encoded_rows,
    fitted_cases,
    scenario,
    the_package,
)
from tests.credal_core.brute_force import encode_instance, ncc_min_ratio_matrix

core = the_package()

TIE = 1e-6

# name: (number of data sets, random_case keywords, epsilons, s values).
# Parameters cycle over the data sets so each combination is well represented.
SCENARIOS = {
    "eps0-K2": (27, {"n_classes": 2}, (0.0,), (1.0, 2.0, 0.5)),
    "eps0-K3": (18, {"n_classes": 3}, (0.0,), (1.0, 2.0)),
    "eps-positive": (40, {}, (0.05, 0.2, 0.5, 1.0), (1.0, 2.0)),
    "absent-class": (16, {"absent_class": True}, (0.0, 0.1), (1.0, 2.0)),
    "unseen-eps0": (12, {"unseen": True}, (0.0,), (1.0, 2.0)),
}
# Test values never seen in training with epsilon > 0 depend on a convention
# (see brute_force.UNSEEN_CONVENTION), so they get their own test below.
UNSEEN_EPS = (10, {"unseen": True}, (0.05, 0.3), (1.0,))


def _check(name, n_sets, case_kw, epsilons, s_values, seed_base):
    verdicts = Verdicts(TIE)
    def parameters(i):
        return s_values[(i // len(epsilons)) % len(s_values)], epsilons[i % len(epsilons)]

    def make(i):
        s, eps = parameters(i)
        return core.NCC(s=s, epsilon=eps)

    for i, seed, X, y, classes, X_test, model in fitted_cases(make, n_sets, seed_base, case_kw):
        (s, eps), order = parameters(i), list(model.classes_)
        assert sorted(order) == sorted(classes if case_kw.get("absent_class") else set(y))
        dom = np.asarray(model.dominance(X_test))
        assert dom.shape == (len(X_test), len(order), len(order))
        for row, (n_c, n_cf, inst, n_values) in encoded_rows(encode_instance, X, y, order, X_test):
            # An attained ratio below 1 - TIE already certifies "no dominance"
            # and is all these checks need, so the search may stop there.
            brute = ncc_min_ratio_matrix(
                n_c, n_cf, inst, s=s, epsilon=eps, n_values=n_values, seed=seed, stop_below=1 - TIE
            )
            for a, b in class_pairs(len(order)):
                verdicts.check(bool(dom[row, a, b]), brute[a, b],
                               f"{name} seed={seed} s={s} eps={eps} row={row} {order[a]} vs {order[b]} "
                               f"({counts_text(n_c, n_cf, inst)})")
    print(f"{name}: {n_sets} data sets, {verdicts.compared} verdicts compared, {verdicts.ties} ties, "
          f"{verdicts.counts[True]} dominating / {verdicts.counts[False]} not")
    verdicts.assert_sound(both=False)
    return verdicts.compared, verdicts.counts


def test_scenarios_cover_110_data_sets():
    assert sum(v[0] for v in SCENARIOS.values()) >= 110


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_ncc_dominance_matches_brute_force(name):
    seed_base, n_sets, (case_kw, epsilons, s_values) = scenario(SCENARIOS, name)
    compared, verdicts = _check(name, n_sets, case_kw, epsilons, s_values, seed_base)
    # The comparison must not be vacuous: both verdicts occur in every scenario.
    assert compared >= n_sets
    assert verdicts[False] > 0
    if not name.startswith("unseen"):
        assert verdicts[True] > 0


def test_ncc_unseen_values_with_epsilon():
    """Unseen test values with epsilon > 0 (convention-dependent: see brute_force).

    With UNSEEN_CONVENTION = "slot" the Perks share of an unseen value is
    1/(K |F_j|) with |F_j| the number of values seen in training.
    """
    n_sets, case_kw, epsilons, s_values = UNSEEN_EPS
    n_sets = cases(n_sets)
    _check("unseen-eps", n_sets, case_kw, epsilons, s_values, 90_000)
