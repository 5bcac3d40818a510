"""Cross-check ``credal_core.LNCC.critical_alpha`` against the brute force of brute_force.py.

The brute force maximises the NBC likelihood over the raw parameters theta with
multistart SLSQP twice: over all theta, and over theta with
P_theta(a, f~) <= P_theta(b, f~) (paper 000, eq. 8).  critical_alpha[a, b] is
the ratio of the two suprema: a dominates b at level alpha iff
alpha > critical_alpha.  With ``include_instance=True`` the likelihood carries
the factor P(a, f~) + P(b, f~) (the paper's pairwise restriction of eq. 9).

Small random data sets (numpy seeds: 160 in the full run, three times as many in
the deep run, ``CREDAL_TEST_DEPTH=3``, see tests/_depth.py); off-diagonal
entries must agree to ABS_TOL (the brute force is an optimiser, not exact).
"""

import numpy as np
import pytest

from tests.credal_core._helpers import (
    assert_no_mismatch,
    class_pairs,
    counts_text,
    encoded_rows,
    fitted_cases,
    scenario,
    the_package,
)
from tests.credal_core.brute_force import encode_instance, lncc_critical_alpha_matrix

core = the_package()

ABS_TOL = 1e-4

# name: (number of data sets, random_case keywords, include_instance, test rows per set)
SCENARIOS = {
    "with-instance-K2": (40, {"n_classes": 2}, True, 2),
    "with-instance-K3": (28, {"n_classes": 3}, True, 1),
    "without-instance-K2": (40, {"n_classes": 2}, False, 2),
    "without-instance-K3": (28, {"n_classes": 3}, False, 1),
    "absent-class": (12, {"absent_class": True}, None, 1),
    "unseen-values": (12, {"unseen": True}, None, 1),
}


def _check(name, n_sets, case_kw, include, n_test, seed_base):
    failures, compared, strict = [], 0, 0
    def include_of(i):
        return bool(i % 2) if include is None else include

    def make(i):
        return core.LNCC(include_instance=include_of(i))

    for i, seed, X, y, _, X_test, model in fitted_cases(make, n_sets, seed_base, case_kw, n_test):
        inc, order = include_of(i), list(model.classes_)
        crit = np.asarray(model.critical_alpha(X_test), float)
        assert crit.shape == (len(X_test), len(order), len(order))
        for row, (n_c, n_cf, inst, _) in encoded_rows(encode_instance, X, y, order, X_test):
            brute = lncc_critical_alpha_matrix(n_c, n_cf, inst, include_instance=inc, seed=seed)
            for a, b in class_pairs(len(order)):
                got, want = crit[row, a, b], brute[a, b]
                compared += 1
                strict += want < 1 - ABS_TOL
                if not (np.isfinite(got) and abs(got - want) <= ABS_TOL):
                    failures.append(
                        f"{name} seed={seed} include_instance={inc} row={row} "
                        f"{order[a]} vs {order[b]}: package {got:.8g}, brute force {want:.8g}; "
                        f"{counts_text(n_c, n_cf, inst)}"
                    )
    print(f"{name}: {n_sets} data sets, {compared} entries compared, {strict} below 1")
    assert_no_mismatch(failures)
    return compared, strict


def test_scenarios_cover_160_data_sets():
    assert sum(v[0] for v in SCENARIOS.values()) >= 160


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_lncc_critical_alpha_matches_brute_force(name):
    seed_base, n_sets, (case_kw, include, n_test) = scenario(SCENARIOS, name)
    compared, strict = _check(name, n_sets, case_kw, include, n_test, seed_base)
    # Not vacuous: many entries are genuine thresholds below 1 (not just "never");
    # unseen values make most entries 1 (a class with a zero count rarely dominates).
    assert compared >= 2 * n_sets
    assert strict >= (3 if name.startswith("unseen") else n_sets // 2)
