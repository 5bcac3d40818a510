"""Everything the lessons take from outside ``app_support.lessons``: the pages' figure builders and the
shipped samples, imported in one place (the page modules may move; this is the one list to update)."""
from __future__ import annotations

import functools

from app_support.figures_aode import weights_figure
from app_support.figures_intervals import intervals_figure, vacuous_figure
from app_support.figures_missing import set_grid
from app_support.figures_profile import lncc_figure

from app_support.figures import set_size_bar

try:                                      # the shipped samples (their module may move with the data)
    from app_support.data import load_sample
except ImportError:                       # pragma: no cover - depends on the tree
    from credal_core.datasets import load_sample  # type: ignore[no-redef]

__all__ = ["set_size_bar", "weights_figure", "intervals_figure", "vacuous_figure", "set_grid", "lncc_figure",
           "sample"]


@functools.cache
def sample(name: str):
    """A shipped sample (X, y), read once per process (read only)."""
    return load_sample(name)
