"""The experiment engine: data generators, resampling protocols, parallel runners, sweeps.

Everything returns tidy pandas DataFrames and is seeded.  ``python -m credal_core.experiments
table1`` (or ``fig5``) reproduces paper 000 §5.1.
"""
from .splits import repeated_holdout, repeated_stratified_kfold

__all__ = ["repeated_holdout", "repeated_stratified_kfold"]
