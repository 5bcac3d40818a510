"""scikit-learn's estimator checks, all of which apply to categorical classifiers."""
import warnings

import pytest
from sklearn.utils.estimator_checks import check_estimator

from credal_core import LNCC, NCC, NaiveBayes


@pytest.mark.parametrize("estimator", [NaiveBayes(), NaiveBayes(prior="laplace"), NCC(epsilon=0.1),
                                       LNCC(), LNCC(include_instance=False)], ids=repr)
def test_sklearn_estimator_checks(estimator):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = check_estimator(estimator, on_fail=None)
    failed = {r["check_name"]: str(r["exception"])[:200] for r in results if r["status"] == "failed"}
    assert not failed
    assert sum(r["status"] == "passed" for r in results) >= 50
