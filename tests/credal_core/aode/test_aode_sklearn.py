"""scikit-learn's estimator checks for the AODE family."""
import warnings

import pytest
from sklearn.utils.estimator_checks import check_estimator

from credal_core.aode import AODE, BMAAODE, CompAODE, CredalBMAAODE, CredalCompAODE


@pytest.mark.parametrize("estimator", [AODE(), BMAAODE(), CompAODE(), CredalBMAAODE(), CredalCompAODE()],
                         ids=repr)
def test_sklearn_estimator_checks(estimator):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = check_estimator(estimator, on_fail=None)
    failed = {r["check_name"]: str(r["exception"])[:300] for r in results if r["status"] == "failed"}
    assert not failed
    assert sum(r["status"] == "passed" for r in results) >= 50
