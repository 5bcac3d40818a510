"""The URL state (declared in ``state``) and cached computations of the page "Classifier selection" (004),
shared by all sessions.

Arguments are plain hashable values.  The two long runs (Fig. 3's accuracy curve, Table 2) go
through the evaluation engine in the server's worker processes (:mod:`app_support.jobs`).
"""
from __future__ import annotations

import copy
import functools
import threading
from collections import OrderedDict

import numpy as np
import pandas as pd
import pyarrow as pa
import streamlit as st

from app_support.classifier_selection.counts import frame, is_table, table_of
from app_support.classifier_selection.figures import (
    accuracy_vs_k_figure,
    curve_text,
    decision_text,
    neighbour_table,
    threshold_plane_figure,
    with_k_line,
)
from app_support.classifier_selection.state import (  # noqa: F401  (the page's names, declared once)
    DATA,
    DATASETS,
    DISTANCES,
    K_MAX,
    K_MIN,
    MODES,
    PAPER_NAMES,
    PAPER_SUBSETS,
    SOURCES,
    TABLE,
    Features,
    url_state,
)
from app_support.data import load_sample
from app_support.jobs import bar_progress, queued_job
from credal_core.experiments.paper_004 import PAPER_FIG3_BALLOONS, accuracy_vs_k, comparison_table
from credal_core.resampling import repeated_holdout
from credal_core.selection.threshold import ThresholdSelector, best_two_subsets, sequential_forward_selection


def _memo(maxsize: int):
    """A per-process memo of hashable arguments in front of a ``st.cache_resource`` function (which still
    computes each value once and shares it): a hit is a dict lookup, not Streamlit's hashing of every
    argument and inspection of the signature (about a millisecond a call, several calls per run and
    student).  For functions that draw nothing (no element to replay on a hit)."""
    def wrap(cached):
        return functools.wraps(cached)(functools.lru_cache(maxsize=maxsize)(cached))
    return wrap


# ---------------------------------------------------------------- data, defaults, one split
def load_dataset(name: str) -> tuple[pd.DataFrame, np.ndarray]:
    """(X, y) of one of :data:`DATASETS` or of a count table (``counts.table_name``), read once per
    process and shared (read only: not copied per run, as a class of 100 reruns the page every second)."""
    if name not in DATASETS and not is_table(name):
        raise ValueError(f"unknown data set {name!r}; choose one of {list(DATASETS)}")
    return _dataset(name)


@_memo(64)
@st.cache_resource(show_spinner=False, max_entries=64)
def _dataset(name: str) -> tuple[pd.DataFrame, np.ndarray]:
    X, y = frame(table_of(name)) if is_table(name) else load_sample(name)
    return X, np.asarray(y)


@_memo(64)
@st.cache_resource(show_spinner=False, max_entries=64)
def column_values(name: str) -> dict[str, list]:
    """Each column's values (the typed instance's choices; shared: never mutate): sorted, or a count
    table's declared ``x``, ``o`` (the table's instance first)."""
    X, _ = load_dataset(name)
    return {col: list(X[col].cat.categories) if isinstance(X[col].dtype, pd.CategoricalDtype)
            else sorted(X[col].unique()) for col in X.columns}


@st.cache_data(show_spinner="Sequential forward selection…")
def sfs_subsets(name: str) -> tuple[tuple, tuple, pd.DataFrame]:
    """The best and second-best subsets found by SFS on the whole data set (as 004 did)."""
    X, y = load_dataset(name)
    table = sequential_forward_selection(X, y)
    best, second = best_two_subsets(table)
    return best, second, table


@_memo(64)
def class_names(name: str) -> tuple[str, ...]:
    """The data set's classes as text, sorted."""
    return tuple(sorted(map(str, pd.unique(pd.Series(load_dataset(name)[1])))))


@_memo(64)
def default_subsets(name: str) -> tuple[tuple, tuple]:
    """004 Table 1's subsets, a count table's (C1 = f1, C2 = every feature: lesson 6's) or SFS's (its
    spinner shows on the process's first call only: a ``st.cache_data`` hit would unpickle its table)."""
    if is_table(name):
        columns = tuple(load_dataset(name)[0].columns)
        return columns[:1], columns
    return PAPER_SUBSETS[name] if name in PAPER_SUBSETS else sfs_subsets(name)[:2]


@_memo(256)
@st.cache_resource(show_spinner=False, max_entries=256)
def split(name: str, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """One random 70/30 split (004 Example 1), seeded (shared: never mutate)."""
    _, y = load_dataset(name)
    return next(repeated_holdout(y, n_repeats=1, test_size=0.3, stratify=False, seed=seed))


# ---------------------------------------------------------------- section 1: the selector of one split
@st.cache_resource(show_spinner=False, max_entries=64)
def fitted_selector(name: str, f1: tuple, f2: tuple, seed: int, k: int, distance: str,
                    training_thresholds: str) -> ThresholdSelector:
    """The selector learned on the training part of split ``seed`` (shared: never mutate it).

    The fit does not depend on ``k`` (the thresholds of the training rows and C1 / C2's hits are
    the same for every k; ``k`` only sizes the neighbourhood of a decision), so one fit serves the
    whole k slider: another k is a copy with that ``k`` (a test compares it with a fresh fit)."""
    base = _fitted_once(name, f1, f2, seed, distance, training_thresholds)
    if base.k_ == k:
        return base
    other = copy.copy(base)
    other.k = other.k_ = int(k)
    return other


@st.cache_resource(show_spinner=False, max_entries=64)
def _fitted_once(name, f1, f2, seed, distance, training_thresholds) -> ThresholdSelector:
    X, y = load_dataset(name)
    train, _ = split(name, seed)
    return ThresholdSelector(features_1=list(f1), features_2=list(f2), k=K_MIN, distance=distance,
                             training_thresholds=training_thresholds,
                             categories="declared" if is_table(name) else "seen").fit(X.iloc[train], y[train])


@_memo(256)
@st.cache_resource(show_spinner=False, max_entries=256)
def explained_each_k(name: str, f1: tuple, f2: tuple, seed: int, mode: str, instance: tuple,
                     distance: str) -> tuple[pd.Series, ...]:
    """One selector's explanation of one instance for every k of the slider (k = K_MIN … K_MAX), in
    one pass (``ThresholdSelector.explain_each_k``: the instance's point on the plane once); entry
    ``k - K_MIN`` is what a selector fitted with that k explains (a test compares them)."""
    X, _ = load_dataset(name)
    x = pd.DataFrame([list(instance)], columns=X.columns)
    selector = _fitted_once(name, f1, f2, seed, distance, mode)
    return tuple(frame.iloc[0] for frame in selector.explain_each_k(x, range(K_MIN, K_MAX + 1)))


@_memo(64)
@st.cache_resource(show_spinner=False, max_entries=64)
def _training(name: str, f1: tuple, f2: tuple, seed: int, mode: str) -> tuple[pd.DataFrame, dict]:
    """The training table of the plane and its outcome counts (the same for every k and distance)."""
    training = _fitted_once(name, f1, f2, seed, "euclidean", mode).training_table()
    return training, training["outcome"].value_counts().to_dict()


@_memo(2048)
@st.cache_resource(show_spinner=False, max_entries=2048)
def decision(name: str, f1: tuple, f2: tuple, seed: int, k: int, mode: str, instance: tuple) -> dict:
    """Both selectors' explanation of one instance (``instance``: the values of a row, in column
    order), the training table and its outcome counts, the neighbourhoods side by side (a
    ``pyarrow.Table`` of :func:`neighbour_table`, its index kept: show it with ``hide_index=False``), and
    the threshold plane with both neighbourhoods (a shared figure)."""
    if not K_MIN <= k <= K_MAX:
        raise ValueError(f"k must be in {K_MIN} … {K_MAX}; got {k}")
    info = {d: explained_each_k(name, f1, f2, seed, mode, instance, d)[k - K_MIN] for d in DISTANCES}
    training, counts = _training(name, f1, f2, seed, mode)
    kk = min(k, len(training))
    figure = threshold_plane_figure(training, test_point=(info["euclidean"]["threshold_1"],
                                                          info["euclidean"]["threshold_2"]),
                                    neighbours={d: info[d]["neighbours"] for d in DISTANCES}, k=kk)
    # the neighbourhoods as the Arrow table st.table would make of the frame (``pa.Table.from_pandas``, shown
    # with its index): converted once here, not on every run of every student
    table = pa.Table.from_pandas(neighbour_table(info))
    return {"info": info, "counts": counts, "table": table, "plane": figure}


@_memo(4096)
def decision_words(name: str, f1: tuple, f2: tuple, seed: int, k: int, mode: str, instance: tuple,
                   distance: str, truth: str | None) -> str:
    """:func:`decision`'s choice under ``distance`` in words (:func:`figures.decision_text`), written once
    per view and process."""
    info = decision(name, f1, f2, seed, k, mode, instance)["info"][distance]
    described = ", ".join(f"{c} = {v}" for c, v in zip(load_dataset(name)[0].columns, instance))
    return decision_text(info, distance=distance, k=k, n_train=len(split(name, seed)[0]), described=described,
                         truth=truth)


# ---------------------------------------------------------------- sections 2 and 3: long runs
def _in_workers(what: str, run):
    """``run(scheduler, progress)`` after a place in the shared queue, with a progress bar; both are
    created and emptied inside the cached caller (a cache hit replays them as nothing)."""
    with queued_job(what) as pool:
        bar = st.progress(0.0, text=f"{what.capitalize()}…")
        try:
            return run(pool, bar_progress(bar, what.capitalize(), "splits"))
        finally:
            bar.empty()


@st.cache_data(show_spinner=False, max_entries=32)
def accuracy_curve(name: str, f1: tuple, f2: tuple, n_repeats: int, training_thresholds: str) -> pd.DataFrame:
    """004 Fig. 3 for these features: accuracy of C1, C2 and both selectors for k = 2 … 20."""
    X, y = load_dataset(name)
    return _in_workers("running the 70/30 splits", lambda pool, progress: accuracy_vs_k(
        X, y, features_1=list(f1), features_2=list(f2), n_repeats=n_repeats,
        training_thresholds=training_thresholds, scheduler=pool, progress=progress))


_CURVES: OrderedDict[tuple, pd.DataFrame] = OrderedDict()      # curve_frame's frames (read only), newest last
_CURVES_MAX = 32
_CURVES_LOCK = threading.Lock()


def curve_frame(name: str, f1: tuple, f2: tuple, n_repeats: int, training_thresholds: str) -> pd.DataFrame:
    """:func:`accuracy_curve`'s frame, kept once per process and shared (read only: never mutate).

    A ``st.cache_data`` hit unpickles its copy of the frame and replays the run's recorded progress
    bar on every call: in a class, every student's first view paid that (about 40 % of the page's
    first render).  Here only the process's first call of these arguments goes to the cache."""
    key = (name, tuple(f1), tuple(f2), int(n_repeats), training_thresholds)
    with _CURVES_LOCK:
        frame = _CURVES.get(key)
        if frame is not None:
            _CURVES.move_to_end(key)
            return frame
    frame = accuracy_curve(*key)                        # outside the lock: a long run, on a miss
    with _CURVES_LOCK:
        _CURVES[key] = frame
        while len(_CURVES) > _CURVES_MAX:
            _CURVES.popitem(last=False)
    return frame


@st.cache_resource(show_spinner=False, max_entries=32)
def _curve_base(name: str, f1: tuple, f2: tuple, n_repeats: int, training_thresholds: str) -> dict:
    """Fig. 3 without the k line and its peaks in words (the same for every k)."""
    curve = curve_frame(name, f1, f2, n_repeats, training_thresholds)
    is_paper = name == "balloons" and (f1, f2) == PAPER_SUBSETS["balloons"]
    return {"figure": accuracy_vs_k_figure(curve, paper=PAPER_FIG3_BALLOONS if is_paper else None),
            "text": curve_text(curve, n_repeats, is_paper)}


@_memo(256)
@st.cache_resource(show_spinner=False, max_entries=256)
def curve_view(name: str, f1: tuple, f2: tuple, n_repeats: int, training_thresholds: str, k: int) -> dict:
    """Fig. 3 with the current k marked (a shared figure) and its peaks in words.  Call
    :func:`curve_frame` of the same arguments first (the page does, and says so when it fails): here it
    is then a lookup, so that no run's progress messages are recorded in this cache and replayed on
    every k.  Another k only adds its line to the figure built once for the curve."""
    base = _curve_base(name, f1, f2, n_repeats, training_thresholds)
    return {"figure": with_k_line(base["figure"], k) if k <= 20 else base["figure"], "text": base["text"]}


@st.cache_data(show_spinner=False, max_entries=16)
def table2(name: str, f1: tuple, f2: tuple, n_repeats: int, training_thresholds: str) -> pd.DataFrame:
    """004 Table 2 (k chosen by 5-fold CV on each training part) for these features, beside the paper's
    row when they are 004's."""
    X, y = load_dataset(name)
    label = PAPER_NAMES[name] if name in PAPER_SUBSETS and (f1, f2) == PAPER_SUBSETS[name] else name
    return _in_workers("running the splits with k chosen by cross-validation",
                       lambda pool, progress: comparison_table(
                           {label: (X, y, list(f1), list(f2))}, n_repeats=n_repeats, seed=0,
                           training_thresholds=training_thresholds, scheduler=pool, progress=progress))


# ---------------------------------------------------------------- the warm at start (serve.sh)
def default_warm() -> tuple[str, list]:
    """(key, steps) for :mod:`serving.warm`: the page's first view (its URL state's defaults: Balloons,
    004's features, split 0, test row 4, k = 3, both distances), then Fig. 3's 100 splits (the long run a
    class would otherwise wait for, all its students at once, on each worker's first view), then every
    other k of the slider, nearest first."""
    name = DATA.default
    X, y = load_dataset(name)
    state = url_state(tuple(X.columns), default_subsets(name), tuple(column_values(name).values()))
    values = state.defaults()
    f1, f2 = (tuple(values[f]) for f in ("f1", "f2"))
    seed, k, mode, runs = int(values["seed"]), int(values["k"]), values["mode"], int(values["runs"])
    test_row = split(name, seed)[1][int(values["row"])]
    instance, truth = tuple(X.iloc[test_row]), str(y[test_row])

    def view(at_k: int):
        def step():
            decision(name, f1, f2, seed, at_k, mode, instance)
            for distance in DISTANCES:
                decision_words(name, f1, f2, seed, at_k, mode, instance, distance, truth)
        return step

    def curve():
        curve_frame(name, f1, f2, runs, mode)
        curve_view(name, f1, f2, runs, mode, k)

    others = sorted((j for j in range(K_MIN, K_MAX + 1) if j != k), key=lambda j: (abs(j - k), j))
    return f"classifier_selection {name}", [view(k), curve, *(view(j) for j in others)]
