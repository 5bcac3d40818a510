"""Conformal prediction sets (crepes) over the NBC / AODE: p-values equal their definition, marginal and
class-conditional coverage hold on exchangeable data, matched determinacy picks the closest level, and the
comparison engine scores the sets (empty ones included)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.model_selection import train_test_split

from credal_core import NCC
from credal_core.cli.classifiers import parse_classifiers
from credal_core.conformal import (
    ConformalClassifier,
    _matched_significance,
    conformal_p_values,
    prediction_sets,
)
from credal_core.datasets import load_dataset
from credal_core.experiments.compare import CONFORMAL_CLASSIFIERS, compare_classifiers
from credal_core.experiments.engine import make_splits
from tests._depth import cases, examples

pytest.importorskip("crepes")


def _p_by_definition(proba_cal, y_cal, proba_test, mondrian):
    alphas_cal = 1 - proba_cal[np.arange(len(y_cal)), y_cal]
    out = np.zeros(proba_test.shape)
    for i, row in enumerate(proba_test):
        for c, p in enumerate(row):
            pool = alphas_cal[y_cal == c] if mondrian else alphas_cal
            out[i, c] = (np.sum(pool >= 1 - p) + 1) / (len(pool) + 1)
    return out


@pytest.mark.parametrize("mondrian", [False, True])
def test_p_values_equal_the_definition(mondrian):
    rng = np.random.default_rng(8)
    for _ in range(cases(60)):
        q, n, k = int(rng.integers(1, 30)), int(rng.integers(1, 10)), int(rng.integers(2, 5))
        proba_cal = rng.dirichlet(np.ones(k), q).round(2)          # rounding makes ties
        proba_test = rng.dirichlet(np.ones(k), n).round(2)
        y_cal = rng.integers(0, k, q)
        got = conformal_p_values(proba_cal, y_cal, proba_test, mondrian=mondrian)
        np.testing.assert_allclose(got, _p_by_definition(proba_cal, y_cal, proba_test, mondrian), atol=1e-12)
        smooth = conformal_p_values(proba_cal, y_cal, proba_test, mondrian=mondrian, smoothing=True, seed=1)
        assert np.all(smooth <= got + 1e-12)                       # smoothed p-values never exceed them
        levels = np.sort(rng.random(3))
        nested = [prediction_sets(got, eps) for eps in levels]
        assert np.all(nested[1] <= nested[0]) and np.all(nested[2] <= nested[1])


def _naive_bayes_data(n, rng):
    priors = np.array([0.6, 0.3, 0.1])
    y = rng.choice(3, n, p=priors)
    chances = np.array([[[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.3, 0.3, 0.4]]] * 5)    # feature × class × value
    X = {f"f{j}": [f"v{rng.choice(3, p=chances[j, c])}" for c in y] for j in range(5)}
    return pd.DataFrame(X), np.array(["A", "B", "C"])[y]


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.integers(0, 6), min_size=2, max_size=30), st.integers(0, 2), st.floats(0.01, 0.6),
       st.booleans())
def test_coverage_exactly_over_every_choice_of_the_test_point(scores, n_classes_extra, eps, mondrian):
    """Exchangeability made exact: for a pool of calibration + test instances, each taken in turn as the
    test point (the others calibrate), the share covered is at least 1 - eps — overall for split
    conformal, within each class for Mondrian."""
    k = 2 + n_classes_extra
    labels = np.arange(len(scores)) % k
    proba = np.full((len(scores), k), 0.0)
    proba[np.arange(len(scores)), labels] = np.array(scores) / 6          # P(true class) in [0, 1]
    proba[np.arange(len(scores)), (labels + 1) % k] += 1 - proba[np.arange(len(scores)), labels]
    covered = np.zeros(len(scores), dtype=bool)
    for j in range(len(scores)):
        others = np.arange(len(scores)) != j
        p = conformal_p_values(proba[others], labels[others], proba[[j]], mondrian=mondrian)
        covered[j] = prediction_sets(p, eps)[0, labels[j]]
    groups = [labels == c for c in range(k)] if mondrian else [np.ones(len(scores), dtype=bool)]
    for group in groups:
        if group.any():
            assert covered[group].mean() >= 1 - eps - 1e-12


@pytest.mark.parametrize("mondrian", [False, True])
def test_coverage_on_naive_bayes_data_averaged_over_repetitions(mondrian):
    rng = np.random.default_rng(0)
    eps, reps, n_train, n_test = 0.1, 10, 2000, 3000
    coverage, by_class = [], []
    for seed in range(reps):
        X, y = _naive_bayes_data(n_train + n_test, rng)
        model = ConformalClassifier(mondrian=mondrian, significance=eps, calibration_size=0.5,
                                    random_state=seed).fit(X[:n_train], y[:n_train])
        sets = model.predict_set(X[n_train:])
        hit = sets[np.arange(n_test), [list(model.classes_).index(c) for c in y[n_train:]]]
        coverage.append(hit.mean())
        by_class.append([hit[y[n_train:] == c].mean() for c in model.classes_])
    # the guarantee holds on average over calibration and test draws; four standard errors of that
    # average (calibration: Beta spread with q rows; test: binomial), class C has 10 % of the rows
    for observed, share in ([np.mean(coverage), 1.0], *zip(np.mean(by_class, axis=0), (0.6, 0.3, 0.1))):
        q, n = share * n_train / 2, share * n_test
        slack = 4 * np.sqrt(eps * (1 - eps) * (1 / (q + 1) + 1 / n) / reps)
        if mondrian or share == 1.0:
            assert observed >= 1 - eps - slack, (observed, share)


def test_marginal_sets_under_cover_the_rare_class_where_mondrian_does_not():
    rng = np.random.default_rng(1)
    X, y = _naive_bayes_data(4000, rng)
    rare = {}
    for mondrian in (False, True):
        model = ConformalClassifier(mondrian=mondrian, significance=0.2).fit(X[:1000], y[:1000])
        sets = model.predict_set(X[1000:])
        column = list(model.classes_).index("C")
        rare[mondrian] = sets[y[1000:] == "C", column].mean()
    assert rare[False] < 0.8 <= rare[True] + 0.02


def test_matched_significance_is_the_closest_determinacy_on_a_fine_grid():
    rng = np.random.default_rng(5)
    for _ in range(cases(40)):
        p = rng.random((int(rng.integers(3, 40)), int(rng.integers(2, 5)))).round(2)
        target = float(rng.random())
        eps, det = _matched_significance(p, target)
        grid = np.unique(np.concatenate([np.linspace(1e-6, 1, 2001), p.ravel()]))
        gaps = [abs(np.mean(prediction_sets(p, e).sum(axis=1) == 1) - target) for e in grid]
        assert abs(det - target) == pytest.approx(min(gaps), abs=1e-12)
        assert np.mean(prediction_sets(p, eps).sum(axis=1) == 1) == pytest.approx(det)


def test_fit_matches_the_credal_classifiers_determinacy_on_the_calibration_rows():
    X, y = load_dataset("tic_tac_toe", return_X_y=True)
    y = y.to_numpy(dtype=object)
    model = ConformalClassifier(base="nbc", match="ncc", random_state=3).fit(X, y)
    proper, calibration = train_test_split(np.arange(len(y)), test_size=0.25, random_state=3, stratify=y)
    ncc = NCC().fit(X.iloc[proper], y[proper])
    assert model.target_determinacy_ == np.mean(ncc.predict_set(X.iloc[calibration]).sum(axis=1) == 1)
    assert abs(model.calibration_determinacy_ - model.target_determinacy_) < 0.05
    assert 0 < model.significance_ < 1 and model.n_calibration_ == len(calibration)


def test_the_engine_scores_conformal_sets_with_coverage_and_empty_sets():
    X, y = load_dataset("monks2", return_X_y=True)
    specs = list(CONFORMAL_CLASSIFIERS[:2]) + parse_classifiers("conformal-nbc:0.45")
    folds = compare_classifiers(X, y, specs=specs, n_splits=3, n_repeats=1, seed=2, n_jobs=1)
    assert (folds["error"] == "").all()
    assert {"coverage", "mean_set_size", "empty_set_rate"} <= set(folds.columns)
    assert folds.loc[folds["classifier"] == "conformal-NBC (significance=0.45)", "empty_set_rate"].max() > 0
    # fold 0 of the split-conformal NBC, recomputed from the estimator
    labels = y.astype(str).to_numpy()
    split = make_splits(labels, n_splits=3, n_repeats=1, seed=2)[0]
    model = CONFORMAL_CLASSIFIERS[0].make().fit(X.iloc[split.train], labels[split.train],
                                                classes=np.unique(labels))
    sets = model.predict_set(X.iloc[split.test])
    truth = [list(model.classes_).index(c) for c in labels[split.test]]
    row = folds[(folds["classifier"] == "conformal-NBC") & (folds["fold"] == 0)].iloc[0]
    assert row["coverage"] == sets[np.arange(len(truth)), truth].mean()
    assert row["mean_set_size"] == sets.sum(axis=1).mean()


def test_aliases_and_bad_parameters():
    (spec,) = parse_classifiers("Mondrian-AODE:match=lncc:alpha=0.3")
    assert spec.params == {"base": "aode", "mondrian": True, "significance": 0.1, "match": "lncc:alpha=0.3"}
    assert spec.label == "Mondrian-AODE (match=lncc:alpha=0.3)"
    with pytest.raises(ValueError, match="significance"):
        parse_classifiers("conformal-nbc:1.5")
    with pytest.raises(ValueError, match="no predict_set"):
        parse_classifiers("conformal-nbc:match=aode")
    with pytest.raises(ValueError, match="base must be"):
        ConformalClassifier(base="svm").fit(pd.DataFrame({"a": list("xyxy")}), list("abab"))
