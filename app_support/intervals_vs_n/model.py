"""Cached computations of the page "Intervals vs N" (000 Example 1, Fig. 1; 003 Example 2), shared by all
sessions: results and figures are read only, so the views are cached as resources, not copied."""
from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from app_support.intervals_vs_n.figures import intervals_figure, vacuous_figure
from credal_core.likelihood import (
    bernoulli_likelihood_interval,
    idm_interval,
    vacuous_probability,
    wilks_level,
)

# N for the top plot: whole numbers on a log grid from 1 to 10,000, about 50 per decade (n = ratio * N
# may be fractional); bernoulli_likelihood_interval solves the whole grid in one vectorised call.
N_GRID = tuple(int(N) for N in np.unique(np.round(np.geomspace(1, 10_000, 201))))
N_TABLE = (10, 100, 1_000, 10_000)
# n for the lower plot: even training-set sizes on a log grid from 2 to 100,000 (see the caption).
N_TRAIN_GRID = tuple(int(n) for n in np.unique(2 * np.round(np.geomspace(1, 50_000, 260)).astype(int)))
PAPER_N = (100, 1_000)  # the two sizes of 003 Example 2


@st.cache_data(show_spinner=False)
def likelihood_bounds(ratio: float, alpha: float, sizes: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    grid = np.asarray(sizes, dtype=float)
    return bernoulli_likelihood_interval(ratio * grid, grid, alpha)


@st.cache_data(show_spinner=False)
def idm_bounds(ratio: float, s: float, sizes: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    bounds = np.array([idm_interval(ratio * N, N, s) for N in sizes], dtype=float)
    return bounds[:, 0], bounds[:, 1]


def vacuous(p: float, sizes: tuple[int, ...], *, beta: float | None = None,
            s: float | None = None) -> np.ndarray:
    """P(vacuous prediction) at these sizes (a millisecond: computed inside the cached view, not
    hashed and cached on its own)."""
    return np.asarray(vacuous_probability(np.asarray(sizes), beta=beta, s=s, p=p), dtype=float)


@st.cache_resource(show_spinner=False, max_entries=512)
def intervals_view(ratio: float, alpha: float, s: float) -> dict:
    """Section 1 for these parameters: the figure, the table and the widths (built once, read only)."""
    lik_lo, lik_hi = likelihood_bounds(ratio, alpha, N_GRID)
    idm_lo, idm_hi = idm_bounds(ratio, s, N_GRID)
    t_lo, t_hi = likelihood_bounds(ratio, alpha, N_TABLE)
    i_lo, i_hi = idm_bounds(ratio, s, N_TABLE)
    table = pd.DataFrame({
        "N": [f"{N:,}" for N in N_TABLE],
        f"likelihood interval (α = {alpha:g})": [interval_text(a, b) for a, b in zip(t_lo, t_hi)],
        "likelihood width": [f"{w:.4f}" for w in t_hi - t_lo],
        f"IDM interval (s = {s:g})": [interval_text(a, b) for a, b in zip(i_lo, i_hi)],
        "IDM width": [f"{w:.4f}" for w in i_hi - i_lo],
    }).set_index("N")
    figure = intervals_figure(np.asarray(N_GRID), lik_lo, lik_hi, idm_lo, idm_hi, ratio=ratio, alpha=alpha,
                              s=s)
    return {"figure": figure, "table": table, "lik_width": t_hi - t_lo, "idm_width": i_hi - i_lo,
            "narrower": np.flatnonzero((idm_hi - idm_lo) < (lik_hi - lik_lo))}


@st.cache_resource(show_spinner=False, max_entries=512)
def vacuous_view(beta: float, s: float, p: float) -> dict:
    """Section 2 for these parameters: the figure and the probabilities at n = 100 and 1,000 (read only)."""
    nhc_marks, ncc_marks = vacuous(p, PAPER_N, beta=beta), vacuous(p, PAPER_N, s=s)
    limit = float(wilks_level(beta)) if p == 0.5 else None
    figure = vacuous_figure(np.asarray(N_TRAIN_GRID), vacuous(p, N_TRAIN_GRID, beta=beta),
                            vacuous(p, N_TRAIN_GRID, s=s), beta=beta, s=s, marks=PAPER_N, marks_nhc=nhc_marks,
                            marks_ncc=ncc_marks, nhc_limit=limit)
    table = pd.DataFrame({"n": [f"{m:,}" for m in PAPER_N],
                          f"NHC (β = {beta:g})": [percent(x) for x in nhc_marks],
                          f"NCC (s = {s:g})": [percent(x) for x in ncc_marks]}).set_index("n")
    return {"figure": figure, "table": table, "nhc": nhc_marks, "ncc": ncc_marks, "limit": limit}


def interval_text(lo: float, hi: float) -> str:
    return f"[{lo:.3f}, {hi:.3f}]"


def percent(x: float) -> str:
    return f"{100 * x:.1f}%"


def shrink(widths: np.ndarray) -> str:
    return f"{widths[-2] / widths[-1]:.1f}×" if widths[-1] > 0 else "—"
