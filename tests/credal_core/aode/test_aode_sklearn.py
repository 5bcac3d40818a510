"""scikit-learn's estimator checks for the AODE family."""
import pytest

from credal_core.aode import AODE, BMAAODE, CompAODE, CredalBMAAODE, CredalCompAODE
from tests.credal_core._sklearn_checks import assert_passes_sklearn_checks


@pytest.mark.parametrize("estimator", [AODE(), AODE(combine="joint", estimator="laplace", frequency_limit=1),
                                       BMAAODE(), CompAODE(), CredalBMAAODE(), CredalCompAODE()],
                         ids=repr)
def test_sklearn_estimator_checks(estimator):
    assert_passes_sklearn_checks(estimator)
