"""The reject option's cross-validation with three classes and missing training values: the NCC's exact
lower posterior exists in every fold now (credal_core._ncc_lower_split), so the NCC is averaged over
every fold, as the CMA is.  The same data on which it used to drop out of some folds (NaN where a rival
failed its convexity certificate)."""
import numpy as np
import pandas as pd

from credal_core.data.counts import labels_as_text
from credal_core.data.preparation import Preparation
from credal_core.experiments.compare import ClassifierSpec
from credal_core.experiments.engine import make_splits
from credal_core.naive.ncc import NCC
from credal_core.reject import lower_top_posterior, reject_costs_of
from credal_core.reject_cv import reject_cross_validation

SPECS = (ClassifierSpec("NCC", "NCC", {"s": 1.0}), ClassifierSpec("CMA", "CMA", {"s": 2.0}))


def test_the_ncc_serves_every_fold_with_missing_training_values(monkeypatch):
    import credal_core._ncc_lower as lower

    calls = []
    real = lower.split_log_ratio
    monkeypatch.setattr(lower, "split_log_ratio", lambda *a, **k: calls.append(1) or real(*a, **k))
    rng = np.random.default_rng(4)
    X = pd.DataFrame({f"f{j}": rng.choice(["a", "b", "c"], 90) for j in range(3)})
    y = pd.Series(rng.choice(["p", "q", "r"], 90))
    X = X.mask(rng.random(X.shape) < 0.2)
    got = reject_cross_validation(X, y, specs=SPECS, missing="ignore", n_splits=5, n_repeats=2, seed=0,
                                  d_grid=(0.2,))
    labels, classes = labels_as_text(y)
    for split in make_splits(labels, protocol="cv", n_splits=5, n_repeats=2, seed=0):
        prep = Preparation(numeric=[], discretiser="mdl", n_bins=5, missing="ignore", non_mar=[])
        model = NCC(s=1.0).fit(prep.fit_transform(X.iloc[split.train], labels[split.train]),
                               labels[split.train], classes=classes)
        X_test = prep.transform(X.iloc[split.test])
        assert not np.isnan(lower_top_posterior(model, X_test)).any()
        reject_costs_of(model, X_test, labels[split.test], [0.2])       # no fold refused
    assert calls                                # the split path served some of these folds
    assert (got.loc[got["model"] == "NCC", "folds"] == 10).all()
    assert (got.loc[got["model"] == "CMA", "folds"] == 10).all()
