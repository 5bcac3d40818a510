"""The reject option (paper 001 §3.5) under the comparison's cross-validation, fold by fold in the engine.

Each fold (:func:`reject_fold`, a module-level fold function, so it runs in worker processes or on a
Dask cluster like every other cross-validation here) prepares the features on its training rows,
fits every chosen credal classifier and scores its test rows with
:func:`credal_core.reject.reject_costs_of` over a grid of rejection costs d; a classifier that
refuses the fold (e.g. a lower posterior it cannot give) is left out of that fold, and so is any
classifier without sets or without an exact lower posterior
(see :func:`credal_core.reject.lower_top_posterior`).
:func:`reject_cross_validation` averages over the folds.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pandas as pd

from .data.counts import labels_as_text
from .data.preparation import Preparation
from .experiments.compare import ComparisonData
from .experiments.engine import FoldTask, make_splits, run_folds
from .reject import reject_costs_of

__all__ = ["D_GRID", "reject_fold", "reject_cross_validation"]

D_GRID = tuple(round(0.01 * k, 2) for k in range(1, 50))             # d in (0, 1/2)
COLUMNS = ["model", "d", "classifier", "cost", "rejected", "error", "folds"]


@dataclass(frozen=True)
class RejectSettings:
    preparation: dict
    specs: tuple
    d_grid: tuple


def reject_fold(task: FoldTask) -> list[dict]:
    """Rows (``model``, ``d``, ``classifier``, ``cost``, ``rejected``, ``error``) of one fold."""
    data, split, settings = task.data, task.split, task.settings
    y, prep, rows = data.labels, Preparation(**settings.preparation), []
    X_train = prep.fit_transform(data.frame.iloc[split.train], y[split.train])
    X_test = prep.transform(data.frame.iloc[split.test])
    for spec in settings.specs:
        model = spec.make()
        if not hasattr(model, "predict_set"):             # a precise classifier: nothing to compare
            continue
        try:
            model.fit(X_train, y[split.train], classes=data.classes)
            part = reject_costs_of(model, X_test, y[split.test], list(settings.d_grid))
        except (ValueError, NotImplementedError, TypeError):     # TypeError: no exact lower posterior
            continue
        rows += [{"model": spec.label, **row} for row in part.to_dict("records")]
    return rows


def reject_cross_validation(X: pd.DataFrame, y, *, specs: Sequence, numeric: Sequence[str] = (),
                            discretiser: str = "mdl", n_bins: int = 5, missing: str = "impute", non_mar=(),
                            n_splits: int = 5, n_repeats: int = 2, seed: int = 0, d_grid=D_GRID,
                            n_jobs: int | None = 1, scheduler=None,
                            progress: Callable[[int, int], None] | None = None) -> pd.DataFrame:
    """Mean over ``n_repeats`` × stratified ``n_splits``-fold CV (the comparison's splits) of the
    reject-option costs of every credal classifier of ``specs`` (``ClassifierSpec``) against its
    precise counterpart, per (``model``, ``d``, ``classifier``): ``cost``, ``rejected``, ``error``, and
    ``folds``, how many folds the mean is over (a model refusing a fold — e.g. COMP-AODE* where its
    lower posterior is not available — is averaged over fewer folds than the others: shown, not
    hidden)."""
    labels, classes = labels_as_text(y)
    preparation = {"numeric": list(numeric), "discretiser": discretiser, "n_bins": n_bins, "missing": missing,
                   "non_mar": list(non_mar)}
    splits = make_splits(labels, protocol="cv", n_splits=n_splits, n_repeats=n_repeats, seed=seed)
    frame = run_folds(reject_fold, ComparisonData(X.reset_index(drop=True), labels, classes), splits,
                      RejectSettings(preparation, tuple(specs), tuple(d_grid)), n_jobs=n_jobs,
                      scheduler=scheduler, progress=progress)
    if frame.empty or "model" not in frame.columns:
        return pd.DataFrame(columns=COLUMNS)
    groups = frame.groupby(["model", "d", "classifier"], sort=False, as_index=False)
    means = groups[["cost", "rejected", "error"]].mean()
    return means.assign(folds=groups.size()["size"].to_numpy())[COLUMNS]
