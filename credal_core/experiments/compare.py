"""Compare every classifier of the product on one data set by repeated stratified cross-validation.

Each fold prepares its own features (discretisation cut points, imputation values) from its training
rows only (:class:`~credal_core.data.preparation.Preparation`), fits every classifier on them and scores
the test rows: accuracy and Brier loss for the precise label / probabilities (001 §3), and for the
credal ones determinacy, single and set accuracy, indeterminate size, discounted accuracy, u65, u80
and NBC-I (the precise counterpart's accuracy where the credal set has several classes, 000 §5).
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..data.counts import labels_as_text
from ..data.preparation import Preparation
from ..metrics import brier_loss, credal_scores, precise_accuracy_split
from .engine import FoldTask, make_splits, run_folds, summarise

__all__ = ["ClassifierSpec", "DEFAULT_CLASSIFIERS", "CONFORMAL_CLASSIFIERS", "available_classifiers",
           "compare_classifiers", "summarise_comparison", "COMPARISON_INDICATORS"]

COMPARISON_INDICATORS = ("accuracy", "brier", "determinacy", "single_accuracy", "set_accuracy",
                         "indeterminate_size", "discounted_accuracy", "u65", "u80", "nbc_i",
                         "coverage", "mean_set_size", "empty_set_rate")


@dataclass(frozen=True)
class ClassifierSpec:
    """A classifier of the comparison: its label, the estimator (a name exported by ``credal_core``, or
    ``"credal_core.module:Class"``) and its parameters."""

    label: str
    estimator: str
    params: dict = field(default_factory=dict)

    def make(self):
        return _estimator_class(self.estimator)(**self.params)


def _estimator_class(estimator: str):
    import importlib

    import credal_core

    module, _, name = estimator.rpartition(":")
    if not module:
        return getattr(credal_core, name)
    if not module.startswith("credal_core."):
        raise ValueError(f"estimator {estimator!r}: only credal_core's classes can be named")
    return getattr(importlib.import_module(module), name)


DEFAULT_CLASSIFIERS = (
    ClassifierSpec("NBC", "NaiveBayes", {"s": 1.0}),
    ClassifierSpec("NCC", "NCC", {"s": 1.0}),
    ClassifierSpec("NCC_ε=0.05", "NCC", {"s": 1.0, "epsilon": 0.05}),
    ClassifierSpec("LNCC_α=0.75", "LNCC", {"alpha": 0.75}),
    ClassifierSpec("AODE", "AODE"),
    ClassifierSpec("BMA-AODE", "BMAAODE"),
    ClassifierSpec("COMP-AODE", "CompAODE"),
    ClassifierSpec("BMA-AODE*", "CredalBMAAODE", {"epsilon": 0.01}),
    ClassifierSpec("COMP-AODE*", "CredalCompAODE", {"epsilon": 0.01}),
    ClassifierSpec("CMA", "CMA", {"s": 1.0}),
    ClassifierSpec("CDT", "CredalDecisionTree", {"s": 1.0}),
    ClassifierSpec("Selector (Li et al. 2019)", "ThresholdSelector"),
)

# The conformal baselines (credal_core.conformal; not in the default comparison): split and Mondrian
# (class-conditional) sets at significance 0.1 over the NBC's and the AODE's probabilities.
CONFORMAL_CLASSIFIERS = tuple(
    ClassifierSpec(label, "credal_core.conformal:ConformalClassifier",
                   {"base": base, "mondrian": mondrian, "significance": 0.1})
    for label, base, mondrian in (("conformal-NBC", "nbc", False), ("Mondrian-NBC", "nbc", True),
                                  ("conformal-AODE", "aode", False), ("Mondrian-AODE", "aode", True)))


def available_classifiers(specs: Sequence[ClassifierSpec] = DEFAULT_CLASSIFIERS) -> list[ClassifierSpec]:
    """The specs whose estimator exists in this build of ``credal_core``."""
    out = []
    for spec in specs:
        try:
            _estimator_class(spec.estimator)
        except (AttributeError, ImportError):
            continue
        out.append(spec)
    return out


@dataclass(frozen=True)
class ComparisonData:
    """The raw table of a comparison (text features, None for missing) and its labels."""

    frame: pd.DataFrame
    labels: np.ndarray
    classes: np.ndarray


@dataclass(frozen=True)
class ComparisonSettings:
    preparation: dict
    specs: tuple


def _positions(values: np.ndarray, within: np.ndarray) -> np.ndarray:
    where = {v: i for i, v in enumerate(within.tolist())}
    return np.array([where[v] for v in values.tolist()], dtype=int)


def _expand(sets: np.ndarray, have: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """Sets over the model's classes ``have`` re-indexed to all ``classes`` (absent classes: False)."""
    out = np.zeros((sets.shape[0], classes.size), dtype=bool)
    out[:, _positions(have, classes)] = sets
    return out


def _fit(model, X_train, y_train, classes, shared: dict):
    """``model.fit``; the AODE family's estimators with equal settings share one set of SPODE tables
    per fold (``shared``, keyed by :meth:`SpodeEnsemble.spode_settings`): counted once, adopted by
    each with ``fit_spodes`` — the same fitted state as ``fit``."""
    if not hasattr(model, "fit_spodes"):
        return model.fit(X_train, y_train, classes=classes)
    from ..aode import SpodeTables

    model.check_parameters()                   # the model's own refusals first, as in fit
    key = model.spode_settings()
    tables = shared.get(key)
    if tables is None:
        estimator, m, _ = key
        tables = SpodeTables.from_data(X_train, y_train, classes=classes, categories=model.categories,
                                       estimator=estimator, m=m, max_table_bytes=model.max_table_bytes)
        shared[key] = tables
    return model.fit_spodes(tables)


def _score(spec: ClassifierSpec, X_train, y_train, X_test, y_test, classes, ncc_params=None,
           shared: dict | None = None) -> dict:
    model = spec.make()
    if ncc_params and spec.estimator == "NCC":
        model.set_params(**ncc_params)         # the conservative (NCC2) treatment of non-MAR columns
    start = time.perf_counter()
    # every class of the data set is declared, including one absent from this training fold: |C| is
    # the data set's, whichever fold (JNCC2's convention for declared classes)
    _fit(model, X_train, y_train, classes, {} if shared is None else shared)
    have = np.asarray(model.classes_).astype(str)
    labels = np.asarray(model.predict(X_test)).astype(str)
    row = {"accuracy": float(np.mean(labels == y_test)), "brier": np.nan}
    if hasattr(model, "predict_proba"):
        proba = np.zeros((len(y_test), classes.size))
        proba[:, _positions(have, classes)] = model.predict_proba(X_test)
        row["brier"] = brier_loss(y_test, proba, classes)
    if hasattr(model, "predict_set"):
        sets = _expand(np.asarray(model.predict_set(X_test)), have, classes)
        empty = getattr(model, "_may_return_empty_sets", False)         # conformal sets may be empty
        row.update(credal_scores(y_test, sets, classes, allow_empty=empty))
        row["nbc_i"] = precise_accuracy_split(y_test, labels, sets, classes,
                                              allow_empty=empty)["accuracy_indeterminate"]
    else:
        singles = _expand(np.eye(have.size, dtype=bool)[_positions(labels, have)], have, classes)
        row.update(credal_scores(y_test, singles, classes))
        row["nbc_i"] = np.nan
    row["seconds"] = time.perf_counter() - start
    return row


def run_fold(task: FoldTask) -> list[dict]:
    """The engine's fold function of a comparison: prepare on the training rows, fit and score
    every classifier (a classifier refusing the fold's data gets NaN indicators and its message)."""
    data, split, settings = task.data, task.split, task.settings
    y = data.labels
    prep = Preparation(**settings.preparation)
    X_train = prep.fit_transform(data.frame.iloc[split.train], y[split.train])
    X_test = prep.transform(data.frame.iloc[split.test])
    rows = []
    shared: dict = {}                          # the fold's SPODE tables, shared by the AODE family
    for spec in settings.specs:
        try:
            scores = _score(spec, X_train, y[split.train], X_test, y[split.test], data.classes,
                            prep.ncc_params(), shared)
            error = ""
        except ValueError as problem:          # e.g. a classifier refusing this fold's data
            scores = {k: np.nan for k in COMPARISON_INDICATORS}
            error = str(problem)
        rows.append({"classifier": spec.label, **scores, "error": error})
    return rows


def compare_classifiers(X: pd.DataFrame, y, *, numeric: Sequence[str] = (),
                        specs: Sequence[ClassifierSpec] | None = None, n_splits: int = 5, n_repeats: int = 2,
                        discretiser: str = "mdl", n_bins: int = 5, missing: str = "impute", non_mar=(),
                        seed: int = 0,
                        n_jobs: int | None = 1, scheduler=None,
                        progress: Callable[[int, int], None] | None = None) -> pd.DataFrame:
    """Per-fold indicators of every classifier under ``n_repeats`` × stratified ``n_splits``-fold CV.

    ``X`` holds the raw features as text (None for missing), ``numeric`` names the columns to
    discretise inside each training fold; ``missing`` is the treatment of missing values
    (:data:`~credal_core.data.preparation.MISSING_CHOICES`), and with ``"conservative"`` the columns
    ``non_mar`` are not missing at random: the NCC treats them as NCC2 does (every completion), the
    other classifiers as missing at random.  Returns one row per (repeat, fold, classifier); a
    classifier that refuses a fold's data gets NaN indicators and its message in ``error``.
    """
    if pd.Series(y, dtype=object).isna().any():
        raise ValueError("y has missing class labels; drop those rows first (they cannot be scored)")
    # labels as text; classes declared by the data (a Categorical column, e.g. an ARFF header) stay
    # classes even without a row (|C| is the declared one, as in JNCC2): the experiments' one rule
    labels, classes = labels_as_text(y)
    if len(labels) != len(X):
        raise ValueError(f"X has {len(X)} rows but y has {len(labels)}")
    if np.unique(labels).size < 2:
        raise ValueError("the class column has fewer than two classes")
    specs = tuple(available_classifiers() if specs is None else specs)
    if not specs:
        raise ValueError("choose at least one classifier")
    preparation = {"numeric": list(numeric), "discretiser": discretiser, "n_bins": n_bins, "missing": missing,
                   "non_mar": list(non_mar)}
    Preparation(**preparation).fit(X.iloc[:0], labels[:0])    # checks the settings before any work
    data = ComparisonData(X.reset_index(drop=True), labels, classes)
    splits = make_splits(labels, protocol="cv", n_splits=n_splits, n_repeats=n_repeats, seed=seed)
    results = run_folds(run_fold, data, splits, ComparisonSettings(preparation, specs), n_jobs=n_jobs,
                        scheduler=scheduler, progress=progress)
    first = ["classifier", "repeat", "fold", "n_train", "n_test"]
    return results[first + [c for c in results.columns if c not in first and c != "split"]]


def summarise_comparison(results: pd.DataFrame) -> pd.DataFrame:
    """Per classifier: mean and standard deviation over folds of every indicator (the engine's one
    aggregation rule, :func:`.engine.summarise`) and ``folds``, the number of folds scored."""
    out = summarise(results, ["classifier"], COMPARISON_INDICATORS)
    out["folds"] = out["accuracy_runs"].astype(int)
    order = ["classifier"] + [f"{k}_{w}" for k in COMPARISON_INDICATORS for w in ("mean", "std")] + ["folds"]
    return out[order]
