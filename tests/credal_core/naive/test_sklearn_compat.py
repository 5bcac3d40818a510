"""scikit-learn's estimator checks, all of which apply to categorical classifiers."""
import warnings

import pytest
from sklearn.utils.estimator_checks import check_estimator

from credal_core import LNCC, NCC, NaiveBayes

# Missing values are accepted (tag allow_nan), so the checks feed float data; this one shifts them
# by a non-integer mean, i.e. makes them continuous, which the classifiers rightly refuse.
EXPECTED = {"check_positive_only_tag_during_fit": "categorical data shifted by a non-integer mean "
            "become continuous values, refused with a clear error"}


@pytest.mark.parametrize("estimator", [NaiveBayes(), NaiveBayes(prior="laplace"), NCC(epsilon=0.1),
                                       NCC(non_mar_testing=[0], non_mar_training=[0]),
                                       LNCC(), LNCC(include_instance=False)], ids=repr)
def test_sklearn_estimator_checks(estimator):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = check_estimator(estimator, on_fail=None, expected_failed_checks=EXPECTED)
    failed = {r["check_name"]: str(r["exception"])[:200] for r in results if r["status"] == "failed"}
    assert not failed
    assert sum(r["status"] == "passed" for r in results) >= 50
