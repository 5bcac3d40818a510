"""Cached computations of the page "Profile likelihood", shared by all sessions (streamlit caching
around credal_core; results and figures are read only, so they are cached as resources, not copied)."""
from __future__ import annotations

import functools
import math

import numpy as np
import pandas as pd
import streamlit as st

from app_support.profile_likelihood.figures import lncc_figure, multinomial_figure
from credal_core.likelihood import likelihood_interval, multinomial_cloud, multinomial_profile, wilks_level
from credal_core.likelihood.pair_input import PairInput, lncc_answer

SEED = 0
ALPHA_GRID = tuple(round(i / 100, 2) for i in range(101))     # the values of the page's α slider
MULT_COUNTS, MULT_SUBSET = (2, 4, 3), (0, 1)   # 003 Example 1: a, b, c seen 2, 4, 3 times; g = θ_a + θ_b


COL_C, COL_NOT = "n(c, f̃_j)", "n(¬c, f̃_j)"      # the counts table's columns


@functools.lru_cache(maxsize=1024)
def checked_pair(n_c, n_not, counts_c: tuple, counts_not: tuple) -> PairInput:
    """``PairInput.from_counts`` of these counts (its ``ValueError`` raised unchanged, never cached): the
    table's counts are checked once per value, not on every run of every session that shows them."""
    return PairInput.from_counts(n_c, n_not, list(counts_c), list(counts_not))


@functools.lru_cache(maxsize=256)
def counts_frame(pair: PairInput) -> pd.DataFrame:
    """The counts table of ``pair`` as the editor starts from it (read only: shared by every session; the
    editor works on a copy)."""
    return pd.DataFrame({COL_C: pair.counts_c, COL_NOT: pair.counts_not}, dtype="Int64")


@st.cache_resource(show_spinner=False, max_entries=64)
def pair_profile(pair: PairInput, include_instance: bool) -> tuple:
    """The problem's PairProfile and its curve (read only: shared by all sessions)."""
    profile = pair.profile(include_instance)
    return profile, profile.curve(num=600)


@st.cache_resource(show_spinner=False, max_entries=64)
def alpha_cut_grid(pair: PairInput, include_instance: bool) -> dict:
    """The α-cut at every value of the α slider, in one pass (``PairProfile.alpha_cuts``: each the
    same as ``alpha_cut`` of that α alone): a new α is then a lookup."""
    profile, _ = pair_profile(pair, include_instance)
    cuts = profile.alpha_cuts(ALPHA_GRID)
    return {alpha: (float(lo), float(hi)) for alpha, (lo, hi) in zip(ALPHA_GRID, cuts)}


@st.cache_resource(show_spinner=False, max_entries=32)
def pair_cloud(pair: PairInput, include_instance: bool, size: int) -> pd.DataFrame:
    return pair.profile(include_instance).sample_cloud(size=size, seed=SEED)


@functools.lru_cache(maxsize=256)
def pair_view(pair: PairInput, include_instance: bool, samples: int, alpha: float) -> dict:
    """What the two-class view shows for these parameters, its figure included (built once, read only).
    A lookup here costs microseconds (Streamlit's cache hashes its arguments on every call, ~0.5 ms for
    a dataclass); a miss goes to Streamlit's cache, which computes each view once for all sessions."""
    return _pair_view(pair, include_instance, samples, alpha)


@st.cache_resource(show_spinner=False, max_entries=256)
def _pair_view(pair: PairInput, include_instance: bool, samples: int, alpha: float) -> dict:
    (profile, curve), (_, other) = (pair_profile(pair, include_instance),
                                    pair_profile(pair, not include_instance))
    grid = alpha_cut_grid(pair, include_instance)
    cut = grid[alpha] if alpha in grid else profile.alpha_cut(alpha)
    if not all(map(math.isfinite, (profile.critical_alpha, profile.critical_alpha_reverse, *cut,
                                   *profile.t_range, profile.t_hat))):
        raise ArithmeticError("a result is not a finite number")
    cloud = pair_cloud(pair, include_instance, samples)
    answer = lncc_answer(profile, alpha, cut)
    figure = lncc_figure(curve, other, cloud, alpha=alpha, alpha_cut=cut, verdict=answer.returned,
                         include_instance=include_instance)
    return {"profile": profile, "answer": answer, "figure": figure,
            "flat": float(cloud["likelihood"].max()) < 0.05}


@functools.lru_cache(maxsize=256)
def mult_view(beta: float, samples: int) -> dict:
    """003 Example 1 at cutoff β: the exact interval, its Wilks level and the figure (read only; looked
    up as :func:`pair_view`)."""
    return _mult_view(beta, samples)


@st.cache_resource(show_spinner=False, max_entries=256)
def _mult_view(beta: float, samples: int) -> dict:
    counts, subset = list(MULT_COUNTS), list(MULT_SUBSET)
    gamma = np.linspace(0.0, 1.0, 601)
    lo, hi = (float(v) for v in likelihood_interval(counts, subset, beta))
    cloud = multinomial_cloud(counts, subset, size=samples, seed=SEED)
    mle = sum(counts[i] for i in subset) / sum(counts)
    figure = multinomial_figure(gamma, multinomial_profile(counts, subset, gamma), cloud["g"],
                                cloud["likelihood"], beta=beta, interval=(lo, hi), mle=mle,
                                title=f"{len(cloud):,} random θ and the exact profile likelihood lik_g")
    return {"interval": (lo, hi), "wilks": float(wilks_level(beta)), "mle": mle, "figure": figure}
