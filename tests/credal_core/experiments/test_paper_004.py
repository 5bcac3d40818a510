"""004's protocol (Fig. 3 accuracy vs k, Table 2): every number re-derived through the public estimators."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from credal_core.experiments.paper_004 import (
    CLASSIFIERS,
    PAPER_TABLE2,
    accuracy_vs_k,
    comparison_table,
    holdout_with_cv_k,
)
from credal_core.naive.naive_bayes import NaiveBayes
from credal_core.resampling import repeated_holdout
from credal_core.selection.threshold import ThresholdSelector

BALLOONS = Path(__file__).resolve().parents[3] / "sample_data" / "balloons.csv"
F1, F2 = ["color", "size", "act", "age"], ["color", "act", "age"]      # 004 Table 1


@pytest.fixture(scope="module")
def balloons():
    frame = pd.read_csv(BALLOONS, dtype=str)
    return frame, frame.pop("inflated").to_numpy()


def test_accuracy_vs_k_equals_refitting_each_split(balloons):
    X, y = balloons
    ks = (1, 3, 7, 60)
    table = accuracy_vs_k(X, y, features_1=F1, features_2=F2, ks=ks, n_repeats=4, seed=5)
    assert set(table["classifier"]) == set(CLASSIFIERS) and len(table) == 4 * len(ks)
    splits = list(repeated_holdout(y, n_repeats=4, test_size=0.3, stratify=False, seed=5))
    for name, feats in (("C1", F1), ("C2", F2)):
        want = np.mean([np.mean(NaiveBayes(prior="laplace").fit(X.iloc[tr][feats], y[tr])
                                .predict(X.iloc[te][feats]) == y[te]) for tr, te in splits])
        np.testing.assert_allclose(table.loc[table["classifier"] == name, "accuracy"], want)
    for distance, name in (("euclidean", "selector (Euclidean)"), ("chebyshev", "selector (Chebyshev)")):
        for k in ks:
            runs = [np.mean(ThresholdSelector(features_1=F1, features_2=F2, k=k, distance=distance)
                            .fit(X.iloc[tr], y[tr]).predict(X.iloc[te]) == y[te]) for tr, te in splits]
            row = table[(table["classifier"] == name) & (table["k"] == k)]
            assert row["accuracy"].item() == pytest.approx(np.mean(runs))
            assert row["std"].item() == pytest.approx(np.std(runs, ddof=1))
            assert row["n_runs"].item() == 4
    assert np.isfinite(table[["accuracy", "std"]].to_numpy()).all()
    assert list(table.columns) == ["classifier", "k", "accuracy", "std", "n_runs"]
    assert table["classifier"].tolist() == [c for c in CLASSIFIERS for _ in ks]
    assert table["k"].tolist() == list(ks) * len(CLASSIFIERS)


def _per_split_accuracies(X, y, splits, ks):
    """Test accuracy of every (classifier, k) on every split, refitting the public estimators."""
    out = {}
    for name, feats in (("C1", F1), ("C2", F2)):
        acc = [np.mean(NaiveBayes(prior="laplace").fit(X.iloc[tr][feats], y[tr]).predict(X.iloc[te][feats])
                       == y[te]) for tr, te in splits]
        out.update({(name, k): acc for k in ks})
    for distance, name in (("euclidean", "selector (Euclidean)"), ("chebyshev", "selector (Chebyshev)")):
        for k in ks:
            selector = ThresholdSelector(features_1=F1, features_2=F2, k=k, distance=distance)
            out[name, k] = [np.mean(selector.fit(X.iloc[tr], y[tr]).predict(X.iloc[te]) == y[te])
                            for tr, te in splits]
    return out


@pytest.mark.parametrize("n_repeats", [2, 5])
def test_fig3_sd_is_the_engines_ddof1_rule_and_the_means_are_unchanged(balloons, n_repeats):
    """Issue 12: one aggregation rule.  Fig. 3 used the population sd (ddof 0) before; through
    :func:`engine.summarise` it is the sample sd (ddof 1), i.e. the old value times sqrt(n / (n - 1)),
    while the mean over the splits is the same number."""
    X, y = balloons
    ks = (2, 5)
    table = accuracy_vs_k(X, y, features_1=F1, features_2=F2, ks=ks, n_repeats=n_repeats, seed=7)
    splits = list(repeated_holdout(y, n_repeats=n_repeats, test_size=0.3, stratify=False, seed=7))
    per_split = _per_split_accuracies(X, y, splits, ks)
    old = pd.DataFrame([{"classifier": c, "k": k, "accuracy": a} for (c, k), accs in per_split.items()
                        for a in accs]).groupby(["classifier", "k"])["accuracy"]
    old_mean, old_std = old.mean(), old.std(ddof=0)                 # the formula before the engine
    factor = np.sqrt(n_repeats / (n_repeats - 1))
    spread = 0
    for row in table.itertuples(index=False):
        assert row.n_runs == n_repeats
        assert row.accuracy == pytest.approx(old_mean[row.classifier, row.k], abs=1e-15)
        assert row.std == pytest.approx(old_std[row.classifier, row.k] * factor, rel=1e-12, abs=1e-15)
        spread += old_std[row.classifier, row.k] > 0
    assert spread > 0                                   # the relation is tested on a nonzero sd


def test_fig3_with_one_split_has_no_sd(balloons):
    X, y = balloons
    table = accuracy_vs_k(X, y, features_1=F1, features_2=F2, ks=(3,), n_repeats=1, seed=1)
    assert table["std"].isna().all() and (table["n_runs"] == 1).all()
    assert table["accuracy"].notna().all()


def test_cv_protocol_equals_threshold_selector_with_k_cv(balloons):
    X, y = balloons
    grid = (2, 3, 5, 9)
    runs = holdout_with_cv_k(X, y, features_1=F1, features_2=F2, k_grid=grid, n_repeats=3, seed=2)
    splits = list(repeated_holdout(y, n_repeats=3, test_size=0.3, stratify=False, seed=2))
    for run, (tr, te) in enumerate(splits):
        for distance, name in (("euclidean", "selector (Euclidean)"), ("chebyshev", "selector (Chebyshev)")):
            sel = ThresholdSelector(features_1=F1, features_2=F2, k="cv", k_grid=grid, distance=distance,
                                    random_state=2).fit(X.iloc[tr], y[tr])
            row = runs[(runs["run"] == run) & (runs["classifier"] == name)]
            assert row["k"].item() == sel.k_
            assert row["accuracy"].item() == pytest.approx(np.mean(sel.predict(X.iloc[te]) == y[te]))


def test_comparison_table_has_the_papers_row_beside_ours(balloons):
    X, y = balloons
    table = comparison_table({"Balloons": (X, y, F1, F2)}, n_repeats=3, k_grid=(2, 3, 4))
    assert table["source"].tolist() == ["ours", "004 Table 2"]
    paper = table[table["source"] == "004 Table 2"].iloc[0]
    assert [paper[c] for c in CLASSIFIERS] == [PAPER_TABLE2["Balloons"][c] for c in CLASSIFIERS]
    assert not table.isna().any().any()
    # ours: the mean over the splits of each classifier's per-split accuracy (and the median chosen k)
    runs = holdout_with_cv_k(X, y, features_1=F1, features_2=F2, n_repeats=3, k_grid=(2, 3, 4))
    ours = table[table["source"] == "ours"].iloc[0]
    for c in CLASSIFIERS:
        accs = runs.loc[runs["classifier"] == c, "accuracy"].to_numpy()
        assert accs.size == 3 and ours[c] == pytest.approx(accs.sum() / 3, abs=1e-15)
    ks = [np.median(runs.loc[runs["classifier"] == c, "k"]) for c in CLASSIFIERS[2:]]
    assert ours["median k"] == f"{ks[0]:g} / {ks[1]:g}"


def test_balloons_reproduces_the_shape_of_fig3(balloons):
    """004 Example 4: the selectors beat C1 (and C2) at small k and fall back to C1 as k grows.

    Our absolute numbers differ from the paper's (their splits are unknown: C1 0.752 here vs 0.777).
    With every row tied at the k-th distance counted (the neighbourhood no longer depends on the row
    order) our peak is at k = 2 (0.7696) with k = 3 next (0.7678); 004 peaks at k = 3.  From k = 9 on
    our selectors are within ±0.001 of C1, whereas 004 Fig. 3 stays above it for all k.  The margins
    asserted are loose: a single test instance changing its class in one of the 100 splits moves a
    selector's accuracy by 1 / (23 * 100) = 0.0004.
    """
    X, y = balloons
    table = accuracy_vs_k(X, y, features_1=F1, features_2=F2, ks=range(2, 21), n_repeats=100, seed=0)
    acc = table.pivot(index="k", columns="classifier", values="accuracy")
    c1, c2 = acc["C1"].iloc[0], acc["C2"].iloc[0]
    assert c1 > c2 + 0.01
    for name in ("selector (Euclidean)", "selector (Chebyshev)"):
        assert (acc.loc[2:3, name] > c1 + 0.01).all()          # the gain of 004 Fig. 3 at small k
        assert (acc.loc[2:8, name] >= c1).all()
        assert acc[name].idxmax() in (2, 3)
        assert (acc.loc[9:20, name] - c1).abs().max() < 0.002   # large k: back to the better classifier
