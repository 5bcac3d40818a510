"""scikit-learn's estimator checks, all of which apply to categorical classifiers."""
import pytest

from credal_core import LNCC, NCC, NaiveBayes
from tests.credal_core._sklearn_checks import assert_passes_sklearn_checks


@pytest.mark.parametrize("estimator", [NaiveBayes(), NaiveBayes(prior="laplace"), NCC(epsilon=0.1),
                                       NCC(non_mar_testing=[0], non_mar_training=[0]),
                                       LNCC(), LNCC(include_instance=False)], ids=repr)
def test_sklearn_estimator_checks(estimator):
    assert_passes_sklearn_checks(estimator)
