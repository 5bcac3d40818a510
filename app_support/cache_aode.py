"""Cached computations of the page "AODE compression weights" (streamlit caching around credal_core)."""
from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np
import pandas as pd
import streamlit as st

from app_support.cached_samples import cached_sample
from credal_core.aode import AODE, BMAAODE, CompAODE, CredalBMAAODE, CredalCompAODE
from credal_core.aode.summary import instance_explanation, spode_table
from credal_core.metrics import brier_loss, credal_scores
from credal_core.resampling import repeated_stratified_kfold


@st.cache_data(show_spinner=False)
def training_rows(name: str, n_train: int) -> np.ndarray:
    """A seeded subset of ``n_train`` rows (all rows when n_train is the data size)."""
    X, _ = cached_sample(name)
    order = np.random.default_rng(0).permutation(len(X))
    return np.sort(order[:n_train])


@st.cache_resource(show_spinner=False, max_entries=16)
def fitted(name: str, n_train: int, epsilon: float):
    """CredalBMAAODE and CredalCompAODE fitted on the chosen rows."""
    X, y = cached_sample(name)
    rows = training_rows(name, n_train)
    return (CredalBMAAODE(epsilon=epsilon).fit(X.iloc[rows], y.iloc[rows]),
            CredalCompAODE(epsilon=epsilon).fit(X.iloc[rows], y.iloc[rows]))


@st.cache_data(show_spinner=False)
def weights_table(name: str, n_train: int, epsilon: float) -> pd.DataFrame:
    return spode_table(*fitted(name, n_train, epsilon))


@st.cache_data(show_spinner=False)
def explanation(name: str, n_train: int, epsilon: float, row: int) -> dict:
    X, _ = cached_sample(name)
    return instance_explanation(*fitted(name, n_train, epsilon), X.iloc[[row]])


_MAX_STORED = 32


@st.cache_resource(show_spinner=False)
def _comparisons() -> tuple[threading.Lock, dict]:
    """Results of earlier comparisons shared by all sessions, with the lock that guards them
    (st.cache_data cannot hold a progress bar; sessions run in threads of one process)."""
    return threading.Lock(), {}


def compare(name: str, epsilon: float, folds: int, repeats: int,
            progress: Callable[[float], None] | None = None) -> pd.DataFrame:
    """Repeated stratified CV of the five classifiers on the whole data set; one row per classifier.

    Indicators are pooled over all test predictions of all folds and repeats (so a fold without
    indeterminate instances does not leave a hole); an indicator with no instance to average over
    (e.g. set accuracy of an always determinate classifier) is NaN here and shown as "—".
    ``progress(fraction)`` is called after each fold when the result is not cached yet.  The long
    computation runs outside the lock (two sessions asking for the same new key both compute it).
    """
    lock, store = _comparisons()
    key = (name, float(epsilon), int(folds), int(repeats))
    with lock:
        cached = store.get(key)
    if cached is None:
        cached = _cross_validate(name, epsilon, folds, repeats, progress)
        with lock:
            while len(store) >= _MAX_STORED:
                store.pop(next(iter(store)))           # oldest first (dicts keep insertion order)
            store[key] = cached
    return cached.copy()


def _cross_validate(name, epsilon, folds, repeats, progress):
    X, y = cached_sample(name)
    y = y.to_numpy()
    splits = list(repeated_stratified_kfold(y, n_splits=folds, n_repeats=repeats, seed=0))
    precise = {"AODE": AODE, "BMA-AODE": BMAAODE, "COMP-AODE": CompAODE}
    credal = {"BMA-AODE*": CredalBMAAODE, "COMP-AODE*": CredalCompAODE}
    truth, outputs = [], {k: [] for k in [*precise, *credal]}
    classes = np.unique(y)
    for i, (train, test) in enumerate(splits):
        Xtr, ytr, Xte = X.iloc[train], y[train], X.iloc[test]
        truth.append(y[test])
        for label, cls in {**precise, **credal}.items():
            m = cls(epsilon=epsilon) if cls is not AODE and cls is not BMAAODE else cls()
            m.fit(Xtr, ytr)
            out = _align(m.predict_proba(Xte), m.classes_, classes)
            if label in credal:
                out = (out, _align(m.predict_set(Xte), m.classes_, classes))
            outputs[label].append(out)
        if progress is not None:
            progress((i + 1) / len(splits))
    y_all = np.concatenate(truth)
    rows = {}
    for label, outs in outputs.items():
        if label in precise:
            proba = np.vstack(outs)
            rows[label] = {"accuracy": float(np.mean(classes[proba.argmax(axis=1)] == y_all)),
                           "brier": brier_loss(y_all, proba, classes)}
        else:
            proba = np.vstack([o[0] for o in outs])
            sets = np.vstack([o[1] for o in outs])
            rows[label] = {"accuracy": float(np.mean(classes[proba.argmax(axis=1)] == y_all)),
                           **credal_scores(y_all, sets, classes)}
    columns = ["accuracy", "brier", "determinacy", "single_accuracy", "set_accuracy",
               "indeterminate_size", "discounted_accuracy", "u65", "u80"]
    return pd.DataFrame(rows).T.reindex(columns=columns).astype(float)


def _align(values: np.ndarray, have, want) -> np.ndarray:
    """Columns of ``values`` (in ``have`` order) re-indexed to ``want`` (a class absent from a
    training fold gets probability 0 / is not in the set)."""
    out = np.zeros((values.shape[0], len(want)), dtype=values.dtype)
    out[:, np.searchsorted(want, have)] = values
    return out
