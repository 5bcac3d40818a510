"""Everything the lessons take from outside ``app_support.lessons``: the pages' figure builders and the
shipped samples, imported in one place (the per-page modules ``app_support/<page>/figures.py``): if a page's
modules move, this is the one list to update."""

from __future__ import annotations

import functools

from app_support.aode_weights.figures import weights_figure
from app_support.data import load_sample
from app_support.home.figures import set_size_bar
from app_support.intervals_vs_n.figures import intervals_figure, vacuous_figure
from app_support.missing_values.figures import set_grid
from app_support.profile_likelihood.figures import lncc_figure

__all__ = [
    "set_size_bar",
    "weights_figure",
    "intervals_figure",
    "vacuous_figure",
    "set_grid",
    "lncc_figure",
    "sample",
]


@functools.cache
def sample(name: str):
    """A shipped sample (X, y), read once per process (read only)."""
    return load_sample(name)
