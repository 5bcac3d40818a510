"""Sweeps over α, ε, s and the sample size, on the artificial generator or on a data set.

Each sweep is split into independent, self-seeded tasks (see :mod:`.runner`) and returns a tidy
DataFrame: one row per (training set, classifier setting) with the indicators of
:data:`~.evaluate.INDICATORS`; :func:`summarise` averages them per setting.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._checks import check_integer
from ..data.counts import CountTables, as_frame, labels_as_text
from .engine import FoldTask, make_splits, run_folds
from .engine import summarise as engine_summarise
from .evaluate import INDICATORS, ClassifierGrid, distinct_rows, evaluate
from .generator import draw_chances, sample_naive
from .runner import run_tasks

__all__ = ["ArtificialTask", "DatasetSettings", "CodedData", "seen_values_only", "artificial_experiment",
           "dataset_experiment", "encode_dataset", "summarise", "setting_label"]

KEYS = ["classifier", "s", "epsilon", "alpha", "d"]


@dataclass(frozen=True)
class ArtificialTask:
    """All training sets of one (θ draw, sample size d) pair of paper 000 §5.1."""

    theta_index: int
    d: int
    n_train: int
    n_test: int
    n_features: int
    n_classes: int
    min_gap: float
    grid: ClassifierGrid
    seed: int


def run_artificial_task(task: ArtificialTask) -> list[dict]:
    # θ depends on (seed, θ index) only: the same 20 models are used at every sample size.
    theta = draw_chances(np.random.default_rng([task.seed, task.theta_index]), n_features=task.n_features,
                         n_classes=task.n_classes, min_gap=task.min_gap)
    rng = np.random.default_rng([task.seed, task.theta_index, task.d])
    X_test, y_test, weight = distinct_rows(*sample_naive(rng, theta, task.n_test))
    n_values = np.full(task.n_features, 2)
    rows = []
    for repeat in range(task.n_train):
        X, y = sample_naive(rng, theta, task.d)
        tables = CountTables.from_codes(X, y, n_values, task.n_classes)
        for row in evaluate(tables, X_test, y_test, weight, task.grid):
            row.update(d=task.d, theta=task.theta_index, repeat=repeat)
            rows.append(row)
    return rows


def artificial_experiment(*, sample_sizes: Sequence[int] = (25, 50, 100), n_theta: int = 20,
                          n_train: int = 30, n_test: int = 10_000, n_features: int = 10,
                          n_classes: int = 2, min_gap: float = 0.1, grid: ClassifierGrid | None = None,
                          seed: int = 0, n_jobs: int | None = 1, scheduler=None,
                          progress: Callable[[int, int], None] | None = None) -> pd.DataFrame:
    """Paper 000 §5.1's protocol: ``n_theta`` models × ``n_train`` training sets per sample size.

    Defaults are the paper's (20 θ × 30 training sets for d ∈ {25, 50, 100}, 10,000 test
    instances, 10 binary features, gap 0.1).  Returns one row per (d, θ, training set, setting).
    """
    grid = grid or ClassifierGrid()
    sample_sizes = [check_integer("a sample size d", d, 1) for d in sample_sizes]
    if not sample_sizes:
        raise ValueError("give at least one sample size d")
    small = [d for d in sample_sizes if d < n_classes]
    if small:
        raise ValueError(f"sample size d={small[0]} is smaller than the number of classes ({n_classes})")
    for name, value, low in (("n_theta", n_theta, 1), ("n_train", n_train, 1), ("n_test", n_test, 1),
                             ("n_features", n_features, 1), ("n_classes", n_classes, 2)):
        check_integer(name, value, low)
    draw_chances(np.random.default_rng(0), n_features=1, n_classes=n_classes, min_gap=min_gap)  # checks
    tasks = [ArtificialTask(t, d, n_train, n_test, n_features, n_classes, float(min_gap), grid, seed)
             for d in sample_sizes for t in range(n_theta)]
    parts = run_tasks(run_artificial_task, tasks, n_jobs=n_jobs, scheduler=scheduler, progress=progress)
    return _frame(parts)


@dataclass(frozen=True)
class CodedData:
    """A categorical data set as integer codes, with what is needed to decode it."""

    X: np.ndarray
    y: np.ndarray
    n_values: np.ndarray
    classes: np.ndarray
    feature_names: tuple


def encode_dataset(X, y, categories: str = "seen") -> CodedData:
    """Integer codes of a categorical data set through the estimators' own encoding
    (:meth:`~credal_core.data.counts.CountTables.count_and_encode`), values and labels as text.

    Classes: :func:`~credal_core.data.counts.labels_as_text` — the labels and the classes a
    Categorical class column declares (JNCC2's convention, as the Compare page and every ``fit``),
    sorted as text.  Features: each value as text, sorted, a missing cell ``MISSING`` (-2, left out
    of the naive product: missing at random).  ``categories`` numbers the values of the whole file
    (``"seen"``: the values the file holds; each training fold then keeps the ones it has seen,
    :func:`seen_values_only`, as ``fit`` does) or, with ``"declared"``, a Categorical column's
    declared categories (an ARFF header's), other columns' values in the file.  No label
    information crosses folds.
    """
    frame = as_frame(X)
    labels, classes = labels_as_text(y)
    if labels.size != frame.shape[0]:
        raise ValueError(f"X has {frame.shape[0]} rows but y has {labels.size} labels")
    if np.unique(labels).size < 2:
        raise ValueError("the class column has fewer than two classes")
    text = pd.DataFrame({name: _as_text(frame[name]) for name in frame.columns}, index=frame.index)
    tables, codes, y_codes = CountTables.count_and_encode(text, labels, classes=classes,
                                                          categories=categories)
    n_values = np.array([len(c) for c in tables.categories], dtype=np.int64)
    return CodedData(np.ascontiguousarray(codes), y_codes.astype(np.int64), n_values, tables.classes,
                     tuple(map(str, frame.columns)))


def _as_text(column: pd.Series) -> pd.Series:
    """A feature column's present values as ``str`` (a Categorical keeps its declared categories,
    as text); missing cells stay missing."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        names = [str(v) for v in column.cat.categories]
        if len(set(names)) == len(names):
            return column.cat.rename_categories(names)
    values = column.to_numpy(dtype=object, copy=True)
    present = ~pd.isna(values)
    values[present] = [str(v) for v in values[present]]
    values[~present] = None
    return pd.Series(values, index=column.index, dtype=object)


@dataclass(frozen=True)
class DatasetSettings:
    """Settings of a data-set sweep shared by its fold tasks."""

    sample_sizes: tuple
    grid: ClassifierGrid
    seed: int
    nominal_size: int
    categories: str


def seen_values_only(tables: CountTables, X_test: np.ndarray) -> tuple[CountTables, np.ndarray]:
    """The ``"seen"`` |F_j| policy on integer codes: keep the values seen in the training rows.

    ``tables`` counted codes over the whole file's values (:meth:`CountTables.from_codes`); the
    result equals the tables ``fit`` builds from the training rows alone, and the test codes are
    re-numbered to match (a value absent from the training rows becomes -1, "unseen"; negative
    codes are kept).
    """
    codes = X_test.copy()
    for j, table in enumerate(tables.feature_counts):
        seen = table.sum(axis=0) > 0
        renumber = np.where(seen, np.cumsum(seen) - 1, -1)
        column = X_test[:, j]
        codes[:, j] = np.where(column >= 0, renumber[np.clip(column, 0, None)], column)
    return tables.restrict_to_seen(), codes


def run_dataset_fold(task: FoldTask) -> list[dict]:
    """The engine's fold function of a data-set sweep: counts of the training rows (cut to each
    sample size), the grid's indicators on the deduplicated test rows."""
    data, split, settings = task.data, task.split, task.settings
    X_test, y_test, weight = distinct_rows(data.X[split.test], data.y[split.test])
    rng = np.random.default_rng([settings.seed, split.index])
    rows = []
    # whole folds are labelled with the protocol's nominal training size (folds differ by one row,
    # which must not split a setting into two curves); n_train is the actual size
    for d in settings.sample_sizes or (settings.nominal_size,):
        cut = bool(settings.sample_sizes) and d < split.train.size
        train = rng.choice(split.train, size=d, replace=False) if cut else split.train
        tables = CountTables.from_codes(data.X[train], data.y[train], data.n_values, len(data.classes))
        X_fold = X_test
        if settings.categories == "seen":
            tables, X_fold = seen_values_only(tables, X_test)
        for row in evaluate(tables, X_fold, y_test, weight, settings.grid):
            row.update(d=int(d), n_train=int(train.size))
            rows.append(row)
    return rows


def dataset_experiment(X, y, *, protocol: str = "cv", n_splits: int = 5, n_repeats: int = 10,
                       test_size: float = 0.3, sample_sizes: Sequence[int] | None = None,
                       grid: ClassifierGrid | None = None, categories: str = "seen", seed: int = 0,
                       n_jobs: int | None = 1, scheduler=None,
                       progress: Callable[[int, int], None] | None = None) -> pd.DataFrame:
    """Sweep on a data set under repeated stratified k-fold (``protocol="cv"``, 001: 10 × 5-fold)
    or repeated hold-out (``"holdout"``, 004: 100 × 70/30), through the evaluation engine.

    ``sample_sizes`` (optional) cuts each training fold to random subsets of those sizes (learning
    curves); by default each fold is used whole, ``d`` is the median training-fold size and
    ``n_train`` each fold's own size.  ``categories`` is the |F_j| policy: ``"seen"`` (default, as
    every estimator's ``fit`` and the Compare page: the values seen in the training rows) or
    ``"declared"`` (a Categorical column's declared categories, as ``fit(categories="declared")``;
    other columns: every value of the file, WEKA's header convention).  The classes are the file's
    labels and those a Categorical class column declares (:func:`encode_dataset`).
    """
    grid = grid or ClassifierGrid()
    if categories not in ("seen", "declared"):
        raise ValueError(f"categories must be 'seen' or 'declared'; got {categories!r}")
    data = X if isinstance(X, CodedData) else encode_dataset(X, y, categories)
    splits = make_splits(data.y, protocol=protocol, n_splits=n_splits, n_repeats=n_repeats,
                         test_size=test_size, seed=seed)
    sizes = ()
    if sample_sizes is not None:
        sizes = tuple(check_integer("a sample size d", d, 1) for d in sample_sizes)
        if not sizes:
            raise ValueError("give at least one sample size d, or None for whole training folds")
        smallest_fold = min(split.train.size for split in splits)
        too_big = [d for d in sizes if d > smallest_fold]
        if too_big:
            raise ValueError(f"sample size d={too_big[0]} exceeds the smallest training fold "
                             f"({smallest_fold} instances)")
        too_small = [d for d in sizes if d < len(data.classes)]
        if too_small:
            raise ValueError(f"sample size d={too_small[0]} is smaller than the number of classes "
                             f"({len(data.classes)})")
    nominal = int(np.median([split.train.size for split in splits]))
    settings = DatasetSettings(sizes, grid, seed, nominal, categories)
    results = run_folds(run_dataset_fold, data, splits, settings, n_jobs=n_jobs, scheduler=scheduler,
                        progress=progress)
    results = results.drop(columns=["repeat", "fold", "n_test"])
    rest = [c for c in results.columns if c != "split"]
    return _frame([results[rest + ["split"]].to_dict("records")])


def setting_label(classifier: str, s: float, epsilon: float, alpha: float, with_s: bool = False) -> str:
    """``NCC_ε=0.25``, ``LNCC_α=0.75``, ``NBC`` (with ``s`` when a sweep varies it)."""
    tail = f", s={s:g}" if with_s else ""
    if classifier == "NCC":
        return f"NCC_ε={epsilon:g}{tail}"
    if classifier == "LNCC":
        return f"LNCC_α={alpha:g}"
    return f"NBC{tail}"


def _frame(parts: list[list[dict]]) -> pd.DataFrame:
    frame = pd.DataFrame([row for part in parts for row in part])
    with_s = frame.loc[frame["classifier"] == "NCC", "s"].nunique() > 1
    frame.insert(0, "setting", [setting_label(c, s, e, a, with_s) for c, s, e, a in
                                frame[["classifier", "s", "epsilon", "alpha"]].itertuples(index=False)])
    return frame


def summarise(results: pd.DataFrame, by: Sequence[str] = ("setting", *KEYS)) -> pd.DataFrame:
    """Mean, standard deviation and number of runs of every indicator per setting (the engine's one
    aggregation rule, :func:`.engine.summarise`).

    An indicator undefined in a run (single accuracy with no determinate instance, NBC-I with no
    indeterminate one) is left out of that setting's mean, and ``*_runs`` says how many runs
    defined it — as averages "over 600 experiments" (000 Table 1) must be read.
    """
    return engine_summarise(results, by, INDICATORS)
