"""Cross-check ``NaiveBayes(prior="laplace").perturbation_threshold`` against brute force.

The brute force (brute_force.perturbation_threshold) bisects on s; at each s it
decides whether the Laplace NBC class dominates every other class under the
Laplace-IDM NCC of paper 004 (§3) by enumerating *every* vertex combination of
the separately specified local pmf sets.  It returns 0 when the Laplace NBC
has an exact tie (decided with rationals).  Small random data sets (numpy
seeds, over 200 in total), three test rows each.
"""

import numpy as np
import pytest

from tests.credal_core._helpers import (
    assert_no_mismatch,
    counts_text,
    encoded_rows,
    fitted_cases,
    scenario,
    the_package,
)
from tests.credal_core.brute_force import (
    encode_instance,
    laplace_scores_exact,
    perturbation_threshold,
)

core = the_package()

RTOL, ATOL = 1e-6, 1e-9

# name: (number of data sets, random_case keywords)
SCENARIOS = {
    "K2": (70, {"n_classes": 2}),
    "K3": (60, {"n_classes": 3}),
    "absent-class": (30, {"absent_class": True}),
    # Tiny data: exact ties of the Laplace NBC are frequent.
    "tiny": (45, {"max_rows": 4, "max_features": 2}),
}
# Unseen test values depend on a convention (brute_force.UNSEEN_CONVENTION):
# here |F_j| in n(c) + |F_j| is the number of values seen in training.
UNSEEN = (25, {"unseen": True})


def _laplace_nbc(_):
    return core.NaiveBayes(prior="laplace")


def _check(name, n_sets, case_kw, seed_base):
    failures, positive, zero = [], 0, 0
    for _, seed, X, y, _, X_test, model in fitted_cases(_laplace_nbc, n_sets, seed_base, case_kw):
        order = list(model.classes_)
        got = np.asarray(model.perturbation_threshold(X_test), float)
        assert got.shape == (len(X_test),)
        for row, (n_c, n_cf, inst, n_values) in encoded_rows(encode_instance, X, y, order, X_test):
            want = perturbation_threshold(n_c, n_cf, inst, n_values)
            positive += want > 0
            zero += want == 0
            if not (np.isfinite(got[row]) and np.isclose(got[row], want, rtol=RTOL, atol=ATOL)):
                failures.append(
                    f"{name} seed={seed} row={row}: package {got[row]:.12g}, brute force {want:.12g}; "
                    f"{counts_text(n_c, n_cf, inst)} "
                    f"|F_j|={n_values}"
                )
    print(f"{name}: {n_sets} data sets, {positive} positive thresholds, {zero} ties (threshold 0)")
    assert_no_mismatch(failures)
    return positive, zero


def test_scenarios_cover_200_data_sets():
    assert sum(v[0] for v in SCENARIOS.values()) >= 200


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_threshold_matches_brute_force(name):
    seed_base, n_sets, (case_kw,) = scenario(SCENARIOS, name, scaled=False)
    positive, zero = _check(name, n_sets, case_kw, seed_base)
    assert positive >= n_sets  # not vacuous
    if name == "tiny":
        assert zero > 0  # the tie rule is exercised


def test_threshold_unseen_values():
    n_sets, case_kw = UNSEEN
    _check("unseen", n_sets, case_kw, 90_000)


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_laplace_label_is_the_exact_argmax(name):
    """The Laplace NBC label (the class the threshold is about), from exact rationals."""
    seed_base, n_sets, (case_kw,) = scenario(SCENARIOS, name, scaled=False)
    failures = []
    for _, seed, X, y, _, X_test, model in fitted_cases(_laplace_nbc, n_sets, seed_base, case_kw):
        order = list(model.classes_)
        pred = np.asarray(model.predict(X_test))
        for row, (n_c, n_cf, inst, n_values) in encoded_rows(encode_instance, X, y, order, X_test):
            scores = laplace_scores_exact(n_c, n_cf, inst, n_values)
            if scores.count(max(scores)) > 1:
                continue  # a tie: any of the tied labels is acceptable
            want = order[scores.index(max(scores))]
            if pred[row] != want:
                failures.append(f"{name} seed={seed} row={row}: predict {pred[row]}, want {want}")
    assert not failures, "\n".join(failures[:10])
