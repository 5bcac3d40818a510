"""The evaluation engine: split → prepare → fit → score → tidy rows, and one aggregation rule.

Every evaluation of the product goes through here — the Compare, AODE and Determinacy pages, the
command line, and the protocols of papers 000 (:mod:`.paper_000`), 001 (repeated stratified
k-fold) and 004 (:mod:`.paper_004`, repeated hold-out).  The one exception is the Home page's live
example (:mod:`.holdout_example`): one fixed split whose per-instance sets it draws, scored with the
same metric functions and tested equal to this engine's Compare fold function on that split
(``tests/credal_core/experiments/test_consolidation.py``):

1. :func:`make_splits` — seeded training / test splits (:mod:`credal_core.resampling`), each
   labelled with its repeat and fold;
2. a *fold function* (module level, so it can run in another process) turns one
   :class:`FoldTask` into tidy rows: it prepares the features from the training rows only, fits,
   and scores the test rows;
3. :func:`run_folds` runs the fold tasks here, on local cores, in a process pool or on a Dask
   cluster (:func:`.runner.run_tasks`) and stacks their rows;
4. :func:`summarise` averages: **the mean over folds, with its standard deviation and the number
   of folds that define the indicator** (an indicator undefined in a fold — single accuracy with no
   determinate instance — is left out of that fold's mean, not counted as 0).  The figures the
   engine reports are such means.  Pooled figures (all test predictions of all folds together: hits /
   rows) appear in one place only, as model-selection criteria inside the threshold selector of
   paper 004: the accuracy that ranks feature subsets in sequential forward selection
   (:func:`credal_core.selection.sfs.sequential_forward_selection`, ``ThresholdSelector.sfs_table_``)
   and the one that chooses k (:func:`credal_core.selection.plane.cv_accuracy_by_k`,
   ``ThresholdSelector.cv_accuracy_``, and so each run of 004's Table 2).  They are kept because
   they are the quantities 004's protocol maximises (the share of training rows classified right
   when held out), and changing them would change the chosen subsets and k, hence every 004
   result; they are labelled "pooled over folds (hits / rows)" where they are defined.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..resampling import repeated_holdout, repeated_stratified_kfold
from .runner import run_tasks

__all__ = ["Split", "FoldTask", "make_splits", "run_folds", "summarise"]


@dataclass(frozen=True)
class Split:
    """One training / test split: indices, its repeat and (for k-fold) its fold number."""

    train: np.ndarray
    test: np.ndarray
    repeat: int
    fold: int
    index: int


@dataclass(frozen=True)
class FoldTask:
    """What a fold function needs: the (shared) data, one split, and the settings of the run."""

    data: object
    split: Split
    settings: object


def make_splits(y, *, protocol: str = "cv", n_splits: int = 5, n_repeats: int = 10, test_size: float = 0.3,
                stratify: bool = True, seed: int = 0) -> list[Split]:
    """Splits of paper 001's protocol (``"cv"``: ``n_repeats`` × stratified ``n_splits``-fold) or 004's
    (``"holdout"``: ``n_repeats`` random splits holding out ``test_size``; 004 does not stratify)."""
    if protocol == "cv":
        pairs = repeated_stratified_kfold(y, n_splits=n_splits, n_repeats=n_repeats, seed=seed)
        return [Split(tr, te, i // n_splits, i % n_splits, i) for i, (tr, te) in enumerate(pairs)]
    if protocol == "holdout":
        pairs = repeated_holdout(y, n_repeats=n_repeats, test_size=test_size, stratify=stratify, seed=seed)
        return [Split(tr, te, i, 0, i) for i, (tr, te) in enumerate(pairs)]
    raise ValueError(f"protocol must be 'cv' or 'holdout'; got {protocol!r}")


def run_folds(fold_function: Callable[[FoldTask], list[dict]], data, splits: Sequence[Split], settings, *,
              n_jobs: int | None = 1, scheduler=None,
              progress: Callable[[int, int], None] | None = None) -> pd.DataFrame:
    """Rows of ``fold_function`` over every split, each tagged with ``repeat``, ``fold``, ``split``,
    ``n_train`` and ``n_test``; one DataFrame in split order whatever ran them."""
    tasks = [FoldTask(data, split, settings) for split in splits]
    parts = run_tasks(fold_function, tasks, n_jobs=n_jobs, scheduler=scheduler, progress=progress)
    rows = []
    for split, part in zip(splits, parts):
        for row in part:
            rows.append({"repeat": split.repeat, "fold": split.fold, "split": split.index,
                         "n_train": int(split.train.size), "n_test": int(split.test.size), **row})
    return pd.DataFrame(rows)


def summarise(results: pd.DataFrame, by: Sequence[str], indicators: Sequence[str]) -> pd.DataFrame:
    """Mean over folds, standard deviation (ddof 1; NaN with one fold) and number of folds defining
    each indicator, per group ``by`` (groups keep missing keys, e.g. ``s`` of the LNCC, and their
    order of first appearance)."""
    by = [k for k in by if k in results.columns]
    indicators = [k for k in indicators if k in results.columns]
    grouped = results.groupby(by, dropna=False, sort=False)[indicators]
    mean = grouped.mean().add_suffix("_mean")
    std = grouped.std(ddof=1).add_suffix("_std")
    runs = grouped.count().add_suffix("_runs")
    out = pd.concat([mean, std, runs], axis=1).reset_index()
    return out[list(by) + [f"{k}_{what}" for k in indicators for what in ("mean", "std", "runs")]]
