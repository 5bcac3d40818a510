"""The experiment engine: data generators, resampling protocols, parallel runners, sweeps.

Everything returns tidy pandas DataFrames and is seeded.  ``python -m credal_core.experiments
table1`` (or ``fig5``) reproduces paper 000 §5.1.

>>> from credal_core.experiments import ClassifierGrid, artificial_experiment, summarise
>>> runs = artificial_experiment(sample_sizes=(25,), n_theta=1, n_train=2, n_test=200,
...                              grid=ClassifierGrid(epsilons=(0.25,), alphas=(0.75,)))
>>> sorted(summarise(runs)["setting"])
['LNCC_α=0.75', 'NBC', 'NCC_ε=0.25']
"""
from ..resampling import repeated_holdout, repeated_stratified_kfold
from .evaluate import INDICATORS, ClassifierGrid
from .generator import draw_chances, sample_naive
from .paper_000 import PAPER_TABLE1, closest_pairs, determinacy_by_d, table1
from .runner import run_tasks
from .sweeps import artificial_experiment, dataset_experiment, encode_dataset, summarise

__all__ = ["INDICATORS", "ClassifierGrid", "PAPER_TABLE1", "artificial_experiment", "closest_pairs",
           "dataset_experiment", "determinacy_by_d", "draw_chances", "encode_dataset", "repeated_holdout",
           "repeated_stratified_kfold", "run_tasks", "sample_naive", "summarise", "table1"]
