"""Shared by the benchmarks: the command line, the timing loop and the synthetic naive-Bayes data.

Every benchmark reports ratios against a baseline measured in the same run (no absolute target is
asserted anywhere); this module only keeps the pieces they all repeat in one place.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

N_VALUES = 4                  # values per feature of the synthetic data


def parser(doc: str, **defaults) -> argparse.ArgumentParser:
    """The command line of a benchmark, its description the first line of ``doc``: each keyword adds the
    option of that name (``comp_instances``: ``--comp-instances``) with that default, of its type (a
    list: one or more values of its items' type)."""
    out = argparse.ArgumentParser(description=doc.splitlines()[0])
    helps = {"missing": "probability that a value is missing (training and test rows)"}
    for name, default in defaults.items():
        many = isinstance(default, list)
        out.add_argument(f"--{name.replace('_', '-')}", type=type(default[0] if many else default),
                         nargs="+" if many else None, default=default, help=helps.get(name))
    return out


def best_time(fn, repeat: int, *, clock=time.process_time, with_output: bool = False):
    """Best time of ``repeat`` calls of ``fn`` after one warm-up call (caches, compiled kernels).

    ``clock`` is CPU time of this process by default: on a shared machine wall time also counts the
    other processes, and every computation timed here is single-threaded.  ``with_output``: also return
    the last call's result."""
    out = fn()
    times = []
    for _ in range(repeat):
        start = clock()
        out = fn()
        times.append(clock() - start)
    return (min(times), out) if with_output else min(times)


def load_average() -> str:
    return " ".join(f"{v:.2f}" for v in os.getloadavg())


def kernels_line() -> str:
    """Which path the estimators run: the compiled kernels or numpy (``CREDAL_NUMBA=0`` or no numba)."""
    from credal_core._compiled import numba_enabled

    return "ours: compiled kernels (numba)" if numba_enabled() else "ours: numpy path (numba off or missing)"


def naive_bayes_data(n, m, n_classes, informative=True, seed=0):
    """(X, y): ``n`` rows of a naive-Bayes distribution (integer codes 0..3).

    ``informative``: Dirichlet(1) conditionals per class; otherwise one Dirichlet(1) distribution per
    feature shared by every class (features independent of the class: most class pairs are close calls)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    if informative:
        cond = rng.dirichlet(np.ones(N_VALUES), size=(n_classes, m))
    else:
        cond = np.broadcast_to(rng.dirichlet(np.ones(N_VALUES), size=m), (n_classes, m, N_VALUES))
    X = np.empty((n, m), dtype=np.int64)
    for c in range(n_classes):
        rows = np.flatnonzero(y == c)
        for j in range(m):
            X[rows, j] = rng.choice(N_VALUES, rows.size, p=cond[c, j])
    return X, y


def as_text(X):
    """The same data as a DataFrame of string categories ("v0".."v3"; None where X is NaN)."""
    names = np.array([f"v{v}" for v in range(N_VALUES)] + [None], dtype=object)
    codes = np.where(np.isnan(X), N_VALUES, X).astype(np.int64) if X.dtype.kind == "f" else X
    return pd.DataFrame({f"f{j}": names[codes[:, j]] for j in range(X.shape[1])})


def with_missing(X, p, seed=1):
    """``X`` as floats with each value NaN with probability ``p`` (missing at random)."""
    if p <= 0:
        return X
    rng = np.random.default_rng(seed)
    return np.where(rng.random(X.shape) < p, np.nan, X.astype(float))


def split_data(kind: str, n_train: int, n_test: int, m: int, n_classes: int, missing: float = 0.0):
    """(X_fit, y_fit, X_test): :func:`naive_bayes_data` of ``kind`` ("informative" or
    "uninformative"), values blanked with probability ``missing``, the first ``n_train`` rows to fit."""
    X, y = naive_bayes_data(n_train + n_test, m, n_classes, kind == "informative")
    X = with_missing(X, missing)
    return X[:n_train], y[:n_train], X[n_train:]


# --- the page benchmarks (AppTest; see _apptest_timing.py) ----------------------------------------
def clear_caches() -> None:
    """A cold start for the next render: ``st.cache_data`` and ``st.cache_resource`` (the views and
    figures shared by all sessions) emptied."""
    import streamlit as st

    st.cache_data.clear()
    st.cache_resource.clear()


def slider_times(at, key: str, values) -> list[float]:
    """Seconds of each re-run after setting the slider ``key`` of the AppTest ``at`` to each value."""
    from _apptest_timing import checked, timed

    return [timed(lambda v=v: checked(at.slider(key=key).set_value(v).run())) for v in values]


def print_page_table(page: str, rows, base_first: float, base_rerun: float, width: int = 44) -> None:
    """The table of a page benchmark: each row (label, seconds, baseline seconds, target or None) with its
    ratio to the baseline and its verdict against the target."""
    print(f"AppTest baseline (trivial script): first render {base_first:.3f} s, re-run {base_rerun:.3f} s")
    print(f"{'page: ' + page:<{width}}{'seconds':>9}{'ratio':>8}{'target':>9}")
    for label, seconds, base, target in rows:
        limit = "" if target is None else f"≤ {target:g}"
        verdict = "" if target is None else ("ok" if seconds <= target else "OVER")
        print(f"{label:<{width}}{seconds:>9.3f}{seconds / base:>8.1f}{limit:>7} {verdict}")
