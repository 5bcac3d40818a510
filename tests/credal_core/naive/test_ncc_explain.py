"""The teaching explanation of one NCC verdict (credal_core.naive.ncc_explain).

Its verdict must be the NCC's own (``NCC.dominance``), and its least favourable completion of the
missing non-MAR test values must be the one the explicit enumeration of every completion finds, each
completion minimised along Zaffalon's one-parameter family from the raw definitions
(tests/credal_core/brute_force.py, code that shares nothing with the package).
"""
from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pandas as pd
import pytest

from credal_core import NCC, NaiveBayes
from credal_core._base import TIE
from credal_core.naive.ncc_explain import explain_dominance, hide_cells, nonmar_order, treatment_sets
from tests.credal_core.brute_force import (
    encode_instance_missing,
    is_missing,
    ncc2_min_ratio,
    ncc_line_min_ratio,
    random_case,
    with_missing,
)

WEATHER = pd.DataFrame(
    [row.split(",") for row in (
        "sunny,hot,high,false,no sunny,hot,high,true,no overcast,hot,high,false,yes "
        "rainy,mild,high,false,yes "
        "rainy,cool,normal,false,yes rainy,cool,normal,true,no overcast,cool,normal,true,yes "
        "sunny,mild,high,false,no sunny,cool,normal,false,yes rainy,mild,normal,false,yes "
        "sunny,mild,normal,true,yes overcast,mild,high,true,yes overcast,hot,normal,false,yes "
        "rainy,mild,high,true,no").split()],
    columns=["outlook", "temperature", "humidity", "windy", "play"])


def case(seed, *, training_holes=True):
    """A small random data set with holes, one instance with missing values, non-MAR declarations."""
    rng = np.random.default_rng(seed)
    X, y, _, X_test = random_case(seed, n_test=1, max_rows=10, max_features=3)
    X = with_missing(X, rng, 0.2 if training_holes else 0.0)
    X_test = with_missing(X_test, rng, 0.5, keep_one=False)
    names = list(X.columns)
    train = [c for c in names if rng.random() < 0.6] if training_holes else []
    test = [c for c in names if rng.random() < 0.8]
    hidden = sum(int(X[c].isna().sum()) for c in train)
    while hidden > 3:                        # keep the brute-force enumeration small
        c = next(c for c in train if X[c].isna().any())
        i = int(np.flatnonzero(X[c].isna().to_numpy())[0])
        X.iat[i, names.index(c)] = X[c].dropna().iloc[0]
        hidden -= 1
    return X, y, X_test, train, test


def fit(X, y, **params):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")          # a feature missing in every training row
        return NCC(**params).fit(X, y)


def test_verdict_is_the_nccs_own():
    verdicts, checked_products = {True: 0, False: 0}, 0
    for seed in range(300, 345):
        s, eps = [(1.0, 0.0), (2.0, 0.0), (0.5, 0.2)][seed % 3]
        X, y, X_test, train, test = case(seed)
        model = fit(X, y, s=s, epsilon=eps, non_mar_training=train, non_mar_testing=test)
        dom = model.dominance(X_test)[0]
        for ia, ib in itertools.permutations(range(len(model.classes_)), 2):
            e = explain_dominance(model, X_test, model.classes_[ia], model.classes_[ib])
            assert e.dominates == bool(dom[ia, ib]), (seed, ia, ib, e)
            # the explanation's own minimum (its table) tells the same verdict as the classifier
            assert (e.log_ratio > TIE) == e.dominates, (seed, ia, ib, e)
            verdicts[e.dominates] += 1
            if math.isfinite(e.log_ratio):         # the table's factors multiply to the ratio
                product = e.class_factor * float(np.prod(e.table["factor"].to_numpy()))
                assert product == pytest.approx(e.ratio, rel=1e-9)
                checked_products += 1
            else:
                assert (e.table["factor"] == 0).sum() >= 1
    assert verdicts[True] > 5 and verdicts[False] > 20 and checked_products > 20


def completions(X, row, test):
    """Every completion of the instance's missing non-MAR test values (values seen in training)."""
    cells = [j for j, name in enumerate(X.columns) if name in test and is_missing(row[j])
             and X[name].dropna().nunique() >= 2]
    domains = [sorted(set(X.iloc[:, j].dropna())) for j in cells]
    for values in itertools.product(*domains):
        filled = list(row)
        for j, v in zip(cells, values):
            filled[j] = v
        yield dict(zip([X.columns[j] for j in cells], values)), filled


def test_least_favourable_completion_is_the_enumerations():
    compared = 0
    for seed in range(500, 520):
        X, y, X_test, _, test = case(seed, training_holes=False)
        X = with_missing(X, np.random.default_rng(seed), 0.15)        # MAR holes in training
        model = fit(X, y, s=1.0, non_mar_testing=test)
        classes = list(model.classes_)
        row = list(X_test.iloc[0])
        options = list(completions(X, row, test))
        if len(options) < 2:
            continue
        for ia, ib in itertools.permutations(range(len(classes)), 2):
            ratios = []
            for chosen, filled in options:
                n_c, n_cf, n_jc, inst, n_values = encode_instance_missing(X, y, classes, filled)
                ratios.append((ncc_line_min_ratio(n_c, n_cf, inst, ia, ib, s=1.0, epsilon=0.0,
                                                  n_values=n_values, n_jc=n_jc, grid=101), chosen))
            lowest = min(r for r, _ in ratios)
            e = explain_dominance(model, X_test, classes[ia], classes[ib])
            assert e.ratio == pytest.approx(lowest, rel=1e-6, abs=1e-9), (seed, ia, ib)
            at_choice = next(r for r, chosen in ratios if chosen == e.completion)
            assert at_choice == pytest.approx(lowest, rel=1e-6, abs=1e-9), (seed, ia, ib, e.completion)
            compared += 1
    assert compared > 12


def test_verdict_with_nonmar_training_matches_the_enumeration():
    checked = 0
    for seed in range(700, 706):
        X, y, X_test, train, test = case(seed)
        model = fit(X, y, s=1.0, non_mar_training=train, non_mar_testing=test)
        classes = list(model.classes_)
        for ia, ib in itertools.permutations(range(len(classes)), 2):
            low = ncc2_min_ratio(X, y, classes, list(X_test.iloc[0]), ia, ib, s=1.0, epsilon=0.0,
                                 non_mar_training=train, non_mar_testing=test)
            if abs(low - 1) < 1e-6:
                continue
            e = explain_dominance(model, X_test, classes[ia], classes[ib])
            assert e.dominates == (low > 1), (seed, ia, ib, low, e)
            checked += 1
    assert checked > 8


def test_weather_counts_by_hand():
    # Row 1 of the weather data with its outlook missing (MAR), s = 1, "no" against "yes".  By hand:
    # n(no) = 5, n(yes) = 9; hot: 2 | 2, high: 4 | 3, false: 2 | 6.  At t(yes) = x the ratio is
    # (5 + 1 - x) / (9 + x) * 2/(6 - x) * 4/(6 - x) * 2/(6 - x) * (9 + x)^3 / ((2 + x)(3 + x)(6 + x)).
    X, y = WEATHER.drop(columns="play"), WEATHER["play"]
    instance = X.iloc[[0]].astype(object)
    instance.iloc[0, 0] = np.nan
    e = explain_dominance(NCC(s=1.0).fit(X, y), instance, "no", "yes")

    def ratio(x):
        return ((6 - x) / (9 + x) * 2 * 4 * 2 / (6 - x) ** 3 * (9 + x) ** 3
                / ((2 + x) * (3 + x) * (6 + x)))
    grid = np.linspace(0, 1, 100_001)
    assert e.ratio == pytest.approx(min(ratio(x) for x in grid), rel=1e-8)
    table = e.table.set_index("feature")
    assert table.loc["outlook", "factor"] == 1.0 and table.loc["outlook", "value used"] == "—"
    assert table.loc["humidity", ["n(a, v)", "n_j(a)", "n(b, v)", "n_j(b)"]].tolist() == [4, 5, 3, 9]
    assert not e.dominates and e.ratio < 1


def test_nonmar_training_uses_the_count_interval():
    X, y = WEATHER.drop(columns="play"), WEATHER["play"]
    X = X.astype(object)
    X.loc[[0, 7, 2], "outlook"] = np.nan              # two "no" rows and one "yes" row lose their outlook
    instance = X.iloc[[10]]                           # sunny, mild, normal, true: yes
    model = NCC(s=1.0, non_mar_training=["outlook"]).fit(X, y)
    e = explain_dominance(model, instance, "yes", "no")
    row = e.table.set_index("feature").loc["outlook"]
    # yes keeps its observed sunny count; no gets its two missing cells on "sunny": [1, 1 + 2]
    assert (row["n(a, v)"], row["n(b, v)"], row["missing m_j(b)"], row["n(b, v) used"]) == (2, 1, 2, 3)
    assert row["n_j(a)"] == 9 and row["n_j(b)"] == 5                 # every row counts once completed
    mar = explain_dominance(NCC(s=1.0).fit(X, y), instance, "yes", "no").table.set_index("feature")
    assert mar.loc["outlook", ["n_j(a)", "n_j(b)", "n(b, v) used"]].tolist() == [8, 3, 1]


def test_treatments_sets_grow_and_nbc_is_in_the_mar_set():
    for seed in range(900, 915):
        X, y, X_test, _, _ = case(seed)
        treatments = treatment_sets(X, y, X_test, s=1.0)
        kinds = [t.kind for t in treatments]
        assert kinds[:3] == ["nbc", "mar", "impute"] and set(kinds[3:]) <= {"conservative"}
        assert treatments[0].members[0] in treatments[1].members
        nbc = NaiveBayes(s=1.0).fit(X, y).predict(X_test)[0]
        assert treatments[0].members == (nbc,)
        previous = set(treatments[1].members)
        for t in treatments[3:]:
            assert previous <= set(t.members), (seed, t.name)
            previous = set(t.members)
        assert [t.non_mar for t in treatments[3:]] == [tuple(nonmar_order(X, X_test)[:k + 1])
                                                         for k in range(len(treatments) - 3)]


def test_imputation_row_is_the_ncc_on_mode_filled_data():
    X, y = WEATHER.drop(columns="play").astype(object), WEATHER["play"]
    X.loc[[2, 3, 5], "outlook"] = np.nan      # overcast, rainy, rainy: the rest has 5 sunny, 3 and 3
    instance = X.iloc[[4]].copy()
    instance.iloc[0, 0] = np.nan
    imputed = [t for t in treatment_sets(X, y, instance, s=1.0) if t.kind == "impute"][0]
    filled = X.fillna({"outlook": "sunny"})
    expected = NCC(s=1.0).fit(filled, y).predict_set(instance.fillna({"outlook": "sunny"}))[0]
    assert imputed.members == tuple(np.asarray(["no", "yes"])[expected])
    assert imputed.instance.iloc[0, 0] == "sunny"


def test_nonmar_order_puts_the_instances_missing_features_first():
    X = pd.DataFrame({"a": ["x", None, "y"], "b": ["u", "v", "u"], "c": [None, "p", "q"], "d": list("rrs")})
    instance = pd.DataFrame({"a": ["x"], "b": [None], "c": ["p"], "d": [None]})
    assert nonmar_order(X, instance) == ["b", "d", "a", "c"]


def test_hide_cells_mechanisms():
    X = pd.DataFrame({"f": ["u", "v"] * 500, "g": ["w"] * 1000})
    mnar = hide_cells(X, "f", 1.0, mechanism="mnar", value="u", seed=3)
    assert mnar["f"].isna().sum() == 500 and set(mnar["f"].dropna()) == {"v"} and mnar["g"].notna().all()
    mcar = hide_cells(X, "f", 0.3, mechanism="mcar", seed=3, protect=0)
    assert 230 < mcar["f"].isna().sum() < 370 and mcar["f"].iloc[0] == "u"
    assert mcar.equals(hide_cells(X, "f", 0.3, mechanism="mcar", seed=3, protect=0))      # seeded
    assert hide_cells(X, "f", 0.0, mechanism="mcar").equals(X.astype(object))
    with pytest.raises(ValueError):
        hide_cells(X, "f", 0.3, mechanism="sometimes")
