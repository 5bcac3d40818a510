"""The Home page's live example as one core call, pinned to the page's former computation."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from app_support.data import load_sample
from credal_core import NCC, NaiveBayes
from credal_core.experiments.holdout_example import holdout_example
from credal_core.metrics import credal_scores, precise_accuracy_split

N_TRAIN = 200
S_GRID = tuple(round(0.1 * k, 1) for k in range(1, 101))      # the Home page's slider


def old_home_path(X: pd.DataFrame, y: pd.Series, s_values) -> dict:
    """What pages/home.py computed before (pd.factorize over all rows, the NCC on integer codes)."""
    codes = np.column_stack([pd.factorize(X[c])[0] for c in X.columns])
    y_true = y.to_numpy()[N_TRAIN:]
    nbc_pred = NaiveBayes(s=1.0).fit(X.iloc[:N_TRAIN], y.iloc[:N_TRAIN]).predict(X.iloc[N_TRAIN:])
    ncc = NCC(s=S_GRID[0]).fit(codes[:N_TRAIN], y.to_numpy()[:N_TRAIN])
    views = {}
    for s in s_values:
        sets = np.asarray(ncc.set_params(s=s).predict_set(codes[N_TRAIN:]), dtype=bool)
        column = {label: j for j, label in enumerate(ncc.classes_.tolist())}
        views[s] = {"sets": sets, "scores": credal_scores(y_true, sets, ncc.classes_),
                    "split": precise_accuracy_split(y_true, nbc_pred, sets, ncc.classes_),
                    "indeterminate": int((sets.sum(axis=1) > 1).sum()),
                    "contains_truth": np.array([lab in column and bool(sets[i, column[lab]])
                                                for i, lab in enumerate(y_true)])}
    return views


@pytest.fixture(scope="module")
def both():
    X, y = load_sample("synthetic_nb")
    return old_home_path(X, y, S_GRID), holdout_example(X, y, N_TRAIN, S_GRID)


def _same(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for key in a:
        assert a[key] == pytest.approx(b[key], nan_ok=True), key


def test_every_number_of_the_home_page_is_the_former_pages(both):
    old, new = both
    assert list(new) == list(S_GRID)
    for s in S_GRID:
        assert np.array_equal(new[s]["sets"], old[s]["sets"]), s
        assert np.array_equal(new[s]["contains_truth"], old[s]["contains_truth"]), s
        assert new[s]["indeterminate"] == old[s]["indeterminate"]
        _same(new[s]["scores"], old[s]["scores"])
        _same(new[s]["split"], old[s]["split"])


def test_recorded_values_of_the_page():
    """Numbers the Home page showed before the move (recorded by running the old code)."""
    X, y = load_sample("synthetic_nb")
    views = holdout_example(X, y, N_TRAIN, (0.1, 1.0, 2.0, 5.0, 10.0))
    shown = {s: (v["scores"]["determinacy"], v["scores"]["single_accuracy"], v["split"]["accuracy"],
                 v["split"]["accuracy_indeterminate"]) for s, v in views.items()}
    assert shown[0.1] == pytest.approx((1.0, 0.77, 0.77, np.nan), nan_ok=True)
    assert shown[1.0] == pytest.approx((0.88, 0.8181818181818182, 0.77, 0.4166666666666667))
    assert shown[2.0] == pytest.approx((0.81, 0.8271604938271605, 0.77, 0.5263157894736842))
    assert shown[5.0] == pytest.approx((0.55, 0.9272727272727272, 0.77, 0.5777777777777777))
    assert shown[10.0] == pytest.approx((0.22, 0.9545454545454546, 0.77, 0.717948717948718))


def test_a_test_value_unseen_in_training_takes_no_part():
    X = pd.DataFrame({"f": ["a", "a", "b", "b", "c"], "g": ["x", "y", "x", "y", "x"]})
    y = ["yes", "yes", "no", "no", "no"]
    view = holdout_example(X, y, 4, (1.0,))[1.0]
    assert view["sets"].shape == (1, 2) and list(view["classes"]) == ["no", "yes"]
    assert view["sets"].all() and view["contains_truth"].all() and view["indeterminate"] == 1


def test_a_test_class_unseen_in_training_is_refused():
    X = pd.DataFrame({"f": ["a", "a", "b", "b", "c"]})
    with pytest.raises(ValueError, match="maybe"):
        holdout_example(X, ["yes", "yes", "no", "no", "maybe"], 4, (1.0,))


@pytest.mark.parametrize("n_train", [0, 5, -1])
def test_a_split_without_training_or_test_rows_is_refused(n_train):
    X = pd.DataFrame({"f": ["a", "b", "a", "b", "a"]})
    with pytest.raises(ValueError, match="n_train"):
        holdout_example(X, ["p", "q", "p", "q", "p"], n_train, (1.0,))
