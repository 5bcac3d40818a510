"""credal_core.reject_cv: the reject option's cross-validation equals a literal loop over the folds, and
runs unchanged in a process pool (the app's worker processes)."""
from concurrent.futures import ProcessPoolExecutor

import pandas as pd
import pandas.testing as pdt

from credal_core.data.counts import labels_as_text
from credal_core.data.preparation import Preparation
from credal_core.datasets import load_dataset
from credal_core.experiments.compare import ClassifierSpec
from credal_core.experiments.engine import make_splits
from credal_core.model_averaging import CMA
from credal_core.naive.ncc import NCC
from credal_core.reject import reject_costs_of
from credal_core.reject_cv import D_GRID, reject_cross_validation

SPECS = (ClassifierSpec("NCC", "NCC", {"s": 1.0}), ClassifierSpec("CMA", "CMA", {"s": 2.0}),
         ClassifierSpec("NBC", "NaiveBayes", {"s": 1.0}))        # precise: no set, left out of every fold


def _data():
    data = load_dataset("monks1")
    return data.data.astype(str), data.target


def test_mean_over_folds_of_reject_costs_of():
    X, y = _data()
    got = reject_cross_validation(X, y, specs=SPECS, n_splits=3, n_repeats=1, seed=2, d_grid=(0.1, 0.3))
    labels, classes = labels_as_text(y)
    parts = []
    for split in make_splits(labels, protocol="cv", n_splits=3, n_repeats=1, seed=2):
        prep = Preparation(numeric=[], discretiser="mdl", n_bins=5, missing="impute", non_mar=[])
        X_train = prep.fit_transform(X.iloc[split.train], labels[split.train])
        X_test = prep.transform(X.iloc[split.test])
        for name, model in (("NCC", NCC(s=1.0)), ("CMA", CMA(s=2.0))):
            model.fit(X_train, labels[split.train], classes=classes)
            parts.append(reject_costs_of(model, X_test, labels[split.test], [0.1, 0.3]).assign(model=name))
    want = pd.concat(parts).groupby(["model", "d", "classifier"], sort=False, as_index=False)[
        ["cost", "rejected", "error"]].mean()[got.columns]
    pdt.assert_frame_equal(got, want)
    assert set(got["model"]) == {"NCC", "CMA"}


def test_the_same_in_a_process_pool():
    X, y = _data()
    here = reject_cross_validation(X, y, specs=SPECS[:1], n_splits=2, n_repeats=1, d_grid=D_GRID[:3])
    with ProcessPoolExecutor(max_workers=1) as pool:
        there = reject_cross_validation(X, y, specs=SPECS[:1], n_splits=2, n_repeats=1, d_grid=D_GRID[:3],
                                        scheduler=pool)
    pdt.assert_frame_equal(here, there)
