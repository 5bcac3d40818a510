"""credal_core.reject_cv: the reject option's cross-validation equals a literal loop over the folds, and
runs unchanged in a process pool (the app's worker processes)."""
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pandas as pd
import pandas.testing as pdt

from credal_core.data.counts import labels_as_text
from credal_core.data.preparation import Preparation
from credal_core.datasets import load_dataset
from credal_core.experiments.compare import ClassifierSpec
from credal_core.experiments.engine import make_splits
from credal_core.model_averaging import CMA
from credal_core.naive.ncc import NCC
from credal_core.reject import lower_top_posterior, reject_costs_of
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
        ["cost", "rejected", "error"]].mean().assign(folds=3)[got.columns]
    pdt.assert_frame_equal(got, want)
    assert set(got["model"]) == {"NCC", "CMA"}


def _three_classes_missing():
    """Three classes, 20 % missing cells: where a rival's g_r fails the convexity certificate."""
    rng = np.random.default_rng(4)
    X = pd.DataFrame({f"f{j}": rng.choice(["a", "b", "c"], 90) for j in range(3)})
    y = pd.Series(rng.choice(["p", "q", "r"], 90))
    return X.mask(rng.random(X.shape) < 0.2), y


def test_the_ncc_serves_every_fold_with_missing_training_values(monkeypatch):
    """The NCC's exact lower posterior exists in every fold (credal_core._ncc_lower_split): it is averaged
    over every fold, as the CMA is — on the data where it used to drop out of some folds (NaN where a
    rival failed its convexity certificate)."""
    import credal_core._ncc_lower as lower

    calls = []
    real = lower.split_log_ratio
    monkeypatch.setattr(lower, "split_log_ratio", lambda *a, **k: calls.append(1) or real(*a, **k))
    X, y = _three_classes_missing()
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


def test_a_model_left_out_of_some_folds_says_over_how_many(monkeypatch):
    """A classifier refusing a fold (``reject_costs_of`` raising, e.g. a lower posterior whose certified
    search ran out of its budget) is left out of that fold; its mean is then over fewer folds, and
    ``folds`` says how many (the others stay at every fold).  The NCC itself serves every fold (the test
    above): here it is made to refuse its odd-numbered calls."""
    import credal_core.reject_cv as reject_cv

    calls = {"NCC": 0}
    real = reject_cv.reject_costs_of

    def refusing(model, X, y, d_values):
        if type(model).__name__ == "NCC":
            calls["NCC"] += 1
            if calls["NCC"] % 2 == 0:
                raise ValueError("no lower posterior on this fold")
        return real(model, X, y, d_values)

    monkeypatch.setattr(reject_cv, "reject_costs_of", refusing)
    X, y = _three_classes_missing()
    got = reject_cross_validation(X, y, specs=SPECS, missing="ignore", n_splits=5, n_repeats=2, seed=0,
                                  d_grid=(0.2,))
    assert calls["NCC"] == 10
    assert (got.loc[got["model"] == "NCC", "folds"] == 5).all()
    assert (got.loc[got["model"] == "CMA", "folds"] == 10).all()


def test_the_same_in_a_process_pool():
    X, y = _data()
    here = reject_cross_validation(X, y, specs=SPECS[:1], n_splits=2, n_repeats=1, d_grid=D_GRID[:3])
    with ProcessPoolExecutor(max_workers=1) as pool:
        there = reject_cross_validation(X, y, specs=SPECS[:1], n_splits=2, n_repeats=1, d_grid=D_GRID[:3],
                                        scheduler=pool)
    pdt.assert_frame_equal(here, there)
