"""credal_core.stats against the reference libraries: the Nemenyi critical difference against
scikit-posthocs' Nemenyi p-values, the Wilcoxon p-values against scipy (ties and zeros included)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from credal_core.stats import friedman_test, nemenyi_critical_difference, wilcoxon_pairs
from tests._depth import cases

sp = pytest.importorskip("scikit_posthocs")


@pytest.mark.parametrize("alpha", [0.05, 0.10])
def test_a_rank_difference_beyond_the_critical_difference_is_exactly_scikit_posthocs_significance(alpha):
    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(cases(80)):
        n, k = int(rng.integers(3, 25)), int(rng.integers(2, 9))
        scores = rng.random((n, k)) + np.linspace(0, rng.random(), k)      # some real differences
        ranks = friedman_test(pd.DataFrame(scores)).average_ranks.to_numpy()
        cd = nemenyi_critical_difference(n, k, alpha)
        p = sp.posthoc_nemenyi_friedman(scores).to_numpy()
        for i in range(k):
            for j in range(i + 1, k):
                gap = abs(ranks[i] - ranks[j])
                if abs(gap - cd) > 1e-9:                                   # away from the boundary
                    assert (gap > cd) == (p[i, j] < alpha), (n, k, gap, cd, p[i, j])
                    checked += 1
    assert checked > 100


def test_the_critical_difference_is_where_scikit_posthocs_p_value_equals_alpha():
    # scikit-posthocs: p = P(Q > |R_i - R_j| sqrt(2) / sqrt(k(k+1)/(6N))), Q the studentized range
    for n, k, alpha in [(14, 4, 0.05), (10, 6, 0.1), (30, 2, 0.05), (5, 10, 0.01)]:
        cd = nemenyi_critical_difference(n, k, alpha)
        q = cd / np.sqrt(k * (k + 1) / (6.0 * n))
        assert stats.studentized_range.sf(q * np.sqrt(2.0), k, np.inf) == pytest.approx(alpha, abs=1e-9)


def test_wilcoxon_p_values_equal_scipy_zsplit_with_ties_and_zeros():
    rng = np.random.default_rng(3)
    for _ in range(cases(150)):
        n = int(rng.integers(3, 13))
        a, b = rng.integers(0, 6, n) / 10, rng.integers(0, 6, n) / 10
        if np.all(np.round(a - b, 12) == 0):
            continue
        ours = wilcoxon_pairs(pd.DataFrame({"a": a, "b": b})).iloc[0]
        theirs = stats.wilcoxon(np.round(a - b, 12), zero_method="zsplit")
        assert ours.p_value == pytest.approx(theirs.pvalue, abs=1e-12)
        assert ours.statistic == pytest.approx(theirs.statistic, abs=1e-12)
