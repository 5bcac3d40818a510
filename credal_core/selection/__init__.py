"""Classifier selection by critical thresholds (paper 004): ``ThresholdSelector`` and its
sequential forward selection of feature subsets (``threshold``).

Paper 004's evaluation protocol (Fig. 3, Table 2) lives in :mod:`credal_core.experiments.paper_004`.
"""
from .threshold import ThresholdSelector

__all__ = ["ThresholdSelector"]
