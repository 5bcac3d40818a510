"""Classifier selection by critical thresholds (paper 004): ``ThresholdSelector``.

Modules: ``threshold`` (the estimator), ``encoded`` (the data encoded once, counts cached per set of
training rows), ``plane`` (neighbourhoods on the threshold plane, the protocol's inner loops), ``sfs``
(sequential forward selection from per-(fold, feature) log terms, no refits).  Paper 004's evaluation
protocol (Fig. 3, Table 2) lives in :mod:`credal_core.experiments.paper_004`.
"""
from .threshold import ThresholdSelector

__all__ = ["ThresholdSelector"]
