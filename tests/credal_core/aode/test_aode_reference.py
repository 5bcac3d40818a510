"""Our AODE family vs the paper authors' published CV results (reference/compaode, may be absent).

The authors' per-fold results (10-fold CV, 50 folds = 5 runs on monks, 9 folds on kr_vs_kp) are in
``reference/compaode/results/results-cluster/per_fold_csv``; the UCI copies in ``reference/uci`` are
the same data (monks: train+test merged, all features categorical, so no discretisation differs).
Folds are not reproducible (the authors seeded with cputime), so means are compared within
3 standard errors of the difference, plus 0.005 for their implementation details (posteriors floored
at 1e-4, CLL terms floored at 0.01).  Measured: e.g. kr_vs_kp BMA-AODE 0.939 vs 0.939, AODE 0.895 vs
0.896; monks2 BMA-AODE 0.611 vs 0.603.
"""

import numpy as np
import pandas as pd
import pytest

from credal_core.aode import AODE, CredalBMAAODE, CredalCompAODE
from credal_core.resampling import repeated_stratified_kfold
from tests.credal_core._helpers import reference_data

REFERENCE = reference_data()
PER_FOLD = REFERENCE / "compaode" / "results" / "results-cluster" / "per_fold_csv"

# ours -> column of the authors' table (C-DBMA = COMP-AODE, DBMA = BMA-AODE; README there)
COLUMNS = {"AODE": "acc_AODE", "COMP-AODE": "acc_C-DBMA-AODE", "BMA-AODE": "acc_DBMA-AODE",
           "det COMP-AODE*": "det_C-DBMA-AODE*", "det BMA-AODE*": "det_DBMA-AODE*"}
CASES = [("monks1", "monks1_merged_reorder", 2), ("monks2", "monks2_merged_reorder", 2),
         ("monks3", "monks3_merged_reorder", 2), ("kr_vs_kp", "kr_vs_kp", 1)]


def our_folds(name, n_repeats):
    data = pd.read_csv(REFERENCE / "uci" / f"{name}.csv", dtype=str)
    X, y = data.drop(columns="class"), data["class"].to_numpy()
    rows = []
    for train, test in repeated_stratified_kfold(y, n_splits=10, n_repeats=n_repeats, seed=0):
        Xtr, Xte, yte = X.iloc[train], X.iloc[test], y[test]
        comp = CredalCompAODE().fit(Xtr, y[train])
        bma = CredalBMAAODE().fit(Xtr, y[train])
        rows.append({"AODE": np.mean(AODE().fit(Xtr, y[train]).predict(Xte) == yte),
                     "COMP-AODE": np.mean(comp.predict(Xte) == yte),
                     "BMA-AODE": np.mean(bma.predict(Xte) == yte),
                     "det COMP-AODE*": np.mean(comp.predict_set(Xte).sum(axis=1) == 1),
                     "det BMA-AODE*": np.mean(bma.predict_set(Xte).sum(axis=1) == 1)})
    return pd.DataFrame(rows)


@pytest.mark.parametrize("name,ref_name,n_repeats", CASES)
def test_cv_results_match_the_authors(name, ref_name, n_repeats):
    ref_file = PER_FOLD / f"{ref_name}_mdl_discr.csv"
    if not ref_file.is_file() or not (REFERENCE / "uci" / f"{name}.csv").is_file():
        pytest.skip("outside reference data (shared/reference) not available")
    ref = pd.read_csv(ref_file)
    ref = ref[ref["completed"] == 1]
    ours = our_folds(name, n_repeats)
    for key, column in COLUMNS.items():
        sd = max(ref[column].std(), ours[key].std())
        tol = 3 * sd * np.sqrt(1 / len(ref) + 1 / len(ours)) + 0.005
        assert ours[key].mean() == pytest.approx(ref[column].mean(), abs=tol), key
    if name in ("monks2", "kr_vs_kp"):       # the paper's headline: BMA differs from AODE both ways
        gap = ours["BMA-AODE"].mean() - ours["AODE"].mean()
        assert (gap < -0.02) if name == "monks2" else (gap > 0.02)
