"""One experiment's scoring equals the public API applied instance by instance."""
import numpy as np
import pandas as pd
import pytest

from credal_core import LNCC, NCC, NaiveBayes
from credal_core.data.counts import CountTables
from credal_core.experiments.evaluate import ClassifierGrid, distinct_rows, evaluate
from credal_core.experiments.generator import draw_chances, sample_naive
from credal_core.metrics import credal_scores, precise_accuracy_split


def _frame(X):
    return pd.DataFrame(X, columns=[f"f{j}" for j in range(X.shape[1])])


@pytest.mark.parametrize("seed", range(6))
def test_deduplicated_weighted_scores_equal_the_public_api_on_every_instance(seed):
    rng = np.random.default_rng(seed)
    n_classes = 2 + seed % 2
    theta = draw_chances(rng, n_features=6, n_classes=n_classes)
    while True:                       # every value and class seen: both routes know the same categories
        X, y = sample_naive(rng, theta, 40)
        if all(len(np.unique(X[:, j])) == 2 for j in range(6)) and len(np.unique(y)) == n_classes:
            break
    X_test, y_test = sample_naive(rng, theta, 3000)
    grid = ClassifierGrid(epsilons=(0.0, 0.3), alphas=(0.2, 0.75), s_values=(1.0, 2.0))
    tables = CountTables.from_codes(X, y, np.full(6, 2), n_classes)
    Xu, yu, w = distinct_rows(X_test, y_test)
    assert w.sum() == 3000 and len(yu) < 3000
    rows = {(r["classifier"], r["s"], r["epsilon"], r["alpha"]): r
            for r in evaluate(tables, Xu, yu, w, grid)}
    assert len(rows) == 2 * 3 + 2
    classes = np.arange(n_classes)
    nbc = {s: NaiveBayes(s=s).fit(_frame(X), y).predict(_frame(X_test)) for s in (1.0, 2.0)}
    expected = {}
    for s in (1.0, 2.0):
        for eps in (0.0, 0.3):
            model = NCC(s=s, epsilon=eps).fit(_frame(X), y)
            expected[("NCC", s, eps)] = (model.predict_set(_frame(X_test)), s)
    for alpha in (0.2, 0.75):
        expected[("LNCC", alpha)] = (LNCC(alpha=alpha).fit(_frame(X), y).predict_set(_frame(X_test)), 1.0)
    for key, row in rows.items():
        if key[0] == "NBC":
            assert row["determinacy"] == 1.0
            assert row["nbc_accuracy"] == pytest.approx(np.mean(nbc[key[1]] == y_test))
            continue
        sets, s = expected[key[:3]] if key[0] == "NCC" else expected[("LNCC", key[3])]
        want = credal_scores(y_test, sets, classes)
        split = precise_accuracy_split(y_test, nbc[s], sets, classes)
        for name, value in want.items():
            assert row[name] == pytest.approx(value, nan_ok=True, abs=1e-12), (key, name)
        assert row["nbc_i"] == pytest.approx(split["accuracy_indeterminate"], nan_ok=True, abs=1e-12)


@pytest.mark.parametrize("kwargs", [{"epsilons": (), "alphas": ()}, {"epsilons": (1.5,)}, {"alphas": (-0.1,)},
                                    {"s_values": ()}, {"s_values": (0.0,)}])
def test_bad_grids_are_refused(kwargs):
    with pytest.raises(ValueError):
        ClassifierGrid(**kwargs)


def test_lncc_nbc_i_uses_its_own_precise_counterpart_whatever_the_ncc_s():
    rng = np.random.default_rng(21)
    theta = draw_chances(rng, n_features=5)
    X, y = sample_naive(rng, theta, 30)
    X_test, y_test = sample_naive(rng, theta, 2000)
    tables = CountTables.from_codes(X, y, np.full(5, 2), 2)
    Xu, yu, w = distinct_rows(X_test, y_test)
    rows = evaluate(tables, Xu, yu, w, ClassifierGrid(epsilons=(0.1,), alphas=(0.9,), s_values=(3.0,)))
    lncc_row = next(r for r in rows if r["classifier"] == "LNCC")
    assert np.isnan(lncc_row["s"])
    model = LNCC(alpha=0.9).fit_counts(tables)
    want = precise_accuracy_split(yu, model.predict(Xu), model.predict_set(Xu), np.arange(2), sample_weight=w)
    assert lncc_row["nbc_i"] == pytest.approx(want["accuracy_indeterminate"], nan_ok=True)
    ncc_row = next(r for r in rows if r["classifier"] == "NCC")
    ncc = NCC(s=3.0, epsilon=0.1).fit_counts(tables)
    want = precise_accuracy_split(yu, ncc.predict(Xu), ncc.predict_set(Xu), np.arange(2), sample_weight=w)
    assert ncc_row["nbc_i"] == pytest.approx(want["accuracy_indeterminate"], nan_ok=True)
