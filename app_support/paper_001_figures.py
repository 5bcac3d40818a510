"""Figure builders for paper 001's comparisons, moved to :mod:`credal_core.plots.paper_001` so that the
command line (``python -m credal_core compare --figures``) draws the same figures; kept here for the
app's imports."""
from credal_core.plots.paper_001 import (  # noqa: F401
    reject_cost_figure,
    relative_utility_figure,
    safe_vs_prior_dependent_figure,
)

__all__ = ["reject_cost_figure", "safe_vs_prior_dependent_figure", "relative_utility_figure"]
