"""Paper 004's experiments: accuracy vs k (Fig. 3) and the comparison table (Table 2).

Protocol (004 Example 1 and §5): 100 random 70/30 training/test splits
(:func:`~credal_core.resampling.repeated_holdout`, seeded; unstratified by default, as the
paper's "randomly split"); on each split C1, C2 and the selectors (Euclidean and Chebyshev) are
learned on the training part and scored on the test part.  Accuracies are aggregated by the
engine's one rule (:func:`.engine.summarise`): the mean over the splits, with its standard
deviation over the splits (ddof 1) and the number of splits; no pooled figure is reported.
The feature subsets are fixed beforehand (004 chose them once per data set by SFS, Table 1), so the
same C1 and C2 are used on every split.  Everything returns tidy pandas DataFrames.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..data.counts import as_frame, check_labels, declared_classes
from ..selection.threshold import (
    DEFAULT_K_GRID,
    DISTANCES,
    EncodedData,
    class_values,
    cv_accuracy_by_k,
    fit_pair,
    pair_scores,
    resolve_features,
    selector_hits,
)
from .engine import FoldTask, make_splits, run_folds, summarise

__all__ = ["accuracy_vs_k", "comparison_table", "PAPER_FIG3_BALLOONS", "PAPER_TABLE2", "CLASSIFIERS"]

CLASSIFIERS = ("C1", "C2", "selector (Euclidean)", "selector (Chebyshev)")
_LABEL = {"euclidean": "selector (Euclidean)", "chebyshev": "selector (Chebyshev)"}

# 004 Table 2 (k chosen by CV in every run) and Example 4 / Fig. 3 (the peak at k = 3).
PAPER_TABLE2 = {
    "Balloons": {"C1": 0.776502, "C2": 0.746948, "selector (Euclidean)": 0.781039,
                 "selector (Chebyshev)": 0.781970},
    "BCW": {"C1": 0.974221, "C2": 0.972496, "selector (Euclidean)": 0.974710,
            "selector (Chebyshev)": 0.974710},
    "ACA": {"C1": 0.723675, "C2": 0.723190, "selector (Euclidean)": 0.724884,
            "selector (Chebyshev)": 0.724884},
    "MPG": {"C1": 0.920696, "C2": 0.917610, "selector (Euclidean)": 0.921039,
            "selector (Chebyshev)": 0.920697},
    "TIC": {"C1": 0.724366, "C2": 0.724363, "selector (Euclidean)": 0.733661,
            "selector (Chebyshev)": 0.732731},
}
PAPER_FIG3_BALLOONS = {"k": 3, "selector (Euclidean)": 0.788961, "selector (Chebyshev)": 0.788485}


def _prepare(X, y, features_1, features_2):
    frame = as_frame(X)
    labels = check_labels(y, frame.shape[0])
    names = list(frame.columns)
    cols = [[names.index(c) for c in resolve_features(frame, f, what=w)]
            for f, w in ((features_1, "features_1"), (features_2, "features_2"))]
    return EncodedData(frame, labels, class_values(frame, labels, declared_classes(y))), cols


@dataclass(frozen=True)
class _Protocol:
    cols: list
    ks: np.ndarray
    training_thresholds: str
    n_folds: int
    seed: int


def _splits(labels, n_repeats, test_size, stratify, seed):
    return make_splits(labels, protocol="holdout", n_repeats=n_repeats, test_size=test_size,
                       stratify=stratify, seed=seed)


def _fixed_k_fold(task: FoldTask) -> list[dict]:
    """One split of Fig. 3: C1, C2 and both selectors for every k of the grid."""
    data, split, p = task.data, task.split, task.settings
    models, pairs, correct = fit_pair(data, split.train, p.cols, p.training_thresholds, p.n_folds, p.seed)
    test_pairs, predicted, right = pair_scores(data, models, split.test)
    rows = [{"classifier": "C1", "k": int(k), "accuracy": right[:, 0].mean()} for k in p.ks]
    rows += [{"classifier": "C2", "k": int(k), "accuracy": right[:, 1].mean()} for k in p.ks]
    for d in DISTANCES:
        hits = selector_hits(pairs, correct, test_pairs, predicted, data.y[split.test], d, p.ks)
        rows += [{"classifier": _LABEL[d], "k": int(k), "accuracy": h / split.test.size}
                 for k, h in zip(p.ks, hits)]
    return rows


def accuracy_vs_k(X, y, *, features_1, features_2, ks=DEFAULT_K_GRID, n_repeats: int = 100,
                  test_size: float = 0.3, stratify: bool = False, seed: int = 0,
                  training_thresholds: str = "resubstitution", n_folds: int = 5, n_jobs: int | None = 1,
                  scheduler=None, progress=None) -> pd.DataFrame:
    """Test accuracy of C1, C2 and both selectors for each fixed ``k`` (004 Example 4, Fig. 3).

    Runs through the evaluation engine (``n_jobs``, ``scheduler``, ``progress`` as in
    :func:`.engine.run_folds`).

    Returns
    -------
    DataFrame, tidy: one row per (``classifier``, ``k``), in the order C1, C2, selector (Euclidean),
    selector (Chebyshev) and increasing ``k``, with ``accuracy`` (mean over the splits), ``std`` (its
    sample standard deviation over the splits, ddof 1; NaN with one split) and ``n_runs`` (the number
    of splits) — :func:`.engine.summarise`'s ``accuracy_mean``, ``accuracy_std`` and
    ``accuracy_runs``.  C1 and C2 do not depend on k; their rows repeat the same value for every k so
    the four curves plot alike.
    """
    data, cols = _prepare(X, y, features_1, features_2)
    ks = np.array(sorted(set(int(k) for k in ks)))
    if ks.size == 0 or ks.min() < 1:
        raise ValueError(f"ks must be positive integers; got {ks.tolist()}")
    protocol = _Protocol(cols, ks, training_thresholds, n_folds, seed)
    runs = run_folds(_fixed_k_fold, data, _splits(data.labels, n_repeats, test_size, stratify, seed),
                     protocol, n_jobs=n_jobs, scheduler=scheduler, progress=progress)
    out = summarise(runs, ["classifier", "k"], ["accuracy"]).rename(
        columns={"accuracy_mean": "accuracy", "accuracy_std": "std", "accuracy_runs": "n_runs"})
    return out[["classifier", "k", "accuracy", "std", "n_runs"]]


def _cv_k_fold(task: FoldTask) -> list[dict]:
    """One split of Table 2: C1, C2, and both selectors with k chosen by CV on the training part."""
    data, split, p = task.data, task.split, task.settings
    models, pairs, correct = fit_pair(data, split.train, p.cols, p.training_thresholds, p.n_folds, p.seed)
    test_pairs, predicted, right = pair_scores(data, models, split.test)
    rows = [{"classifier": "C1", "accuracy": right[:, 0].mean(), "k": 0},
            {"classifier": "C2", "accuracy": right[:, 1].mean(), "k": 0}]
    cv = cv_accuracy_by_k(data, split.train, p.cols, distances=DISTANCES, k_grid=p.ks,
                          training_thresholds=p.training_thresholds, n_folds=p.n_folds, seed=p.seed)
    for d in DISTANCES:
        k = int(p.ks[int(np.argmax(cv[d]))])                             # ties: the smallest k
        hits = selector_hits(pairs, correct, test_pairs, predicted, data.y[split.test], d, [k])[0]
        rows.append({"classifier": _LABEL[d], "accuracy": hits / split.test.size, "k": k})
    return rows


def holdout_with_cv_k(X, y, *, features_1, features_2, k_grid=DEFAULT_K_GRID, n_repeats: int = 100,
                      test_size: float = 0.3, stratify: bool = False, seed: int = 0,
                      training_thresholds: str = "resubstitution", n_folds: int = 5, n_jobs: int | None = 1,
                      scheduler=None, progress=None) -> pd.DataFrame:
    """Per split: accuracy of C1, C2 and both selectors with k chosen by CV on the training part (004 §5).

    Returns a tidy DataFrame: ``run``, ``classifier``, ``accuracy``, ``k`` (the k chosen in that run;
    0 for C1 and C2, which have none).  The selector of a run is exactly
    ``ThresholdSelector(k="cv", distance=..., random_state=seed)`` fitted on that run's training part.
    """
    data, cols = _prepare(X, y, features_1, features_2)
    protocol = _Protocol(cols, np.array(sorted(set(int(k) for k in k_grid))), training_thresholds, n_folds,
                         seed)
    runs = run_folds(_cv_k_fold, data, _splits(data.labels, n_repeats, test_size, stratify, seed), protocol,
                     n_jobs=n_jobs, scheduler=scheduler, progress=progress)
    return runs.rename(columns={"repeat": "run"})[["run", "classifier", "accuracy", "k"]]


def comparison_table(datasets: dict, *, n_repeats: int = 100, seed: int = 0, progress=None,
                     **protocol) -> pd.DataFrame:
    """004 Table 2 on the given data sets, with the paper's row beside ours where the data set is the same.

    Parameters
    ----------
    datasets : dict
        ``name -> (X, y, features_1, features_2)``.  A name that is a key of :data:`PAPER_TABLE2`
        (e.g. ``"Balloons"``) also gets the paper's row.
    progress : callable, optional
        ``progress(done, total)`` over the splits of all data sets.
    **protocol
        Passed to :func:`holdout_with_cv_k` (``test_size``, ``stratify``, ``k_grid``, ``n_jobs``,
        ``scheduler``, ...).

    Returns
    -------
    DataFrame with columns ``data set``, ``source`` ("ours" or "004 Table 2"), one accuracy column
    per classifier (:data:`CLASSIFIERS`; ours is the mean over the splits, :func:`.engine.summarise`),
    ``features C1``, ``features C2`` and ``median k`` (the median over runs of the k chosen by CV,
    Euclidean / Chebyshev; a description of the choices, not an indicator).
    """
    rows = []
    total = n_repeats * len(datasets)
    for i, (name, (X, y, f1, f2)) in enumerate(datasets.items()):
        step = None if progress is None else (lambda done, _, i=i: progress(i * n_repeats + done, total))
        runs = holdout_with_cv_k(X, y, features_1=f1, features_2=f2, n_repeats=n_repeats, seed=seed,
                                 progress=step, **protocol)
        mean = summarise(runs, ["classifier"], ["accuracy"]).set_index("classifier")["accuracy_mean"]
        k = runs.groupby("classifier")["k"].median()
        common = {"features C1": ", ".join(map(str, f1)), "features C2": ", ".join(map(str, f2))}
        rows.append({"data set": name, "source": "ours", **{c: float(mean[c]) for c in CLASSIFIERS},
                     **common, "median k": f"{k[_LABEL['euclidean']]:g} / {k[_LABEL['chebyshev']]:g}"})
        if name in PAPER_TABLE2:
            rows.append({"data set": name, "source": "004 Table 2", **PAPER_TABLE2[name], **common,
                         "median k": "not reported"})
    return pd.DataFrame(rows)
