"""Model averaging over the naive Bayes classifiers on every subset of features (Dash & Cooper's
product form): :class:`BMANaive` (one prior over the subsets) and :class:`CMA` (a credal set of
priors; Corani & Zaffalon, ECML PKDD 2008)."""
from .bma_naive import BMANaive
from .cma import CMA

__all__ = ["BMANaive", "CMA"]
