"""A determinacy study from plain settings: checks, limits and the run (the Determinacy page's core call).

Settings are a flat dict (as the page's widgets and URL hold them):

* ``source``: ``"artificial"`` (000 §5.1's generator: ``m`` features, ``classes``, ``theta`` draws,
  ``train`` training sets per θ and d, ``test`` instances, ``sizes`` "25, 50, 100") or ``"sample"``
  (a data set given as ``X, y``: ``protocol`` "cv" / "holdout", ``folds``, ``repeats``, optional
  ``dsizes`` learning-curve sizes);
* the grid: ``eps`` (NCC_ε), ``alpha`` (LNCC_α), ``s``, ``inst`` (instance in the LNCC's likelihood);
* ``seed``.

:func:`check_settings` refuses a bad or too large run with a message in words before any work;
:func:`run_study` runs it through the evaluation engine.
"""
from __future__ import annotations

from collections.abc import Callable

import pandas as pd

from .evaluate import ClassifierGrid
from .sweeps import artificial_experiment, dataset_experiment

__all__ = ["MAX_TRAINING_SETS", "MAX_SIZE", "parse_sizes", "check_settings", "run_study"]

# An interactive run stays below a couple of minutes on one core: 000's full protocol at most.
MAX_TRAINING_SETS, MAX_SIZE = 1800, 2000


def parse_sizes(text: str, what: str) -> tuple[int, ...]:
    """``"25, 50; 100"`` → ``(25, 50, 100)``; at most 8 sizes, none above 5,000."""
    parts = [p.strip() for p in str(text).replace(";", ",").split(",") if p.strip()]
    try:
        sizes = tuple(sorted({int(p) for p in parts}))
    except ValueError:
        raise ValueError(f"{what} must be whole numbers separated by commas, e.g. 25, 50, 100") from None
    if len(sizes) > 8:
        raise ValueError(f"{what}: at most 8 sizes at a time")
    if any(d < 1 for d in sizes):
        raise ValueError(f"{what} must be positive")
    if any(d > 5000 for d in sizes):
        raise ValueError(f"{what}: sizes above 5,000 would take too long here; use the CLI for those")
    return sizes


def _grid(settings: dict) -> ClassifierGrid:
    return ClassifierGrid(epsilons=settings["eps"], alphas=settings["alpha"], s_values=(settings["s"],),
                          include_instance=settings["inst"])


def check_settings(settings: dict) -> None:
    """Raise ``ValueError`` (the engine's own words where it has them) for settings that cannot run or
    would run longer than an interactive page allows."""
    _grid(settings)
    if settings["source"] == "artificial":
        sizes = parse_sizes(settings["sizes"], "Sample sizes")
        if not sizes:
            raise ValueError("give at least one sample size d")
        if min(sizes) < settings["classes"]:
            raise ValueError(f"sample size d={min(sizes)} is smaller than the number of classes "
                             f"({settings['classes']}): a training set could not show every class")
        if settings["test"] < 1:
            raise ValueError("the test set needs at least one instance (test size 0 measures nothing)")
        training_sets = len(sizes) * settings["theta"] * settings["train"]
        if training_sets > MAX_TRAINING_SETS or max(sizes) > MAX_SIZE:
            raise ValueError(f"this run needs {training_sets:,} training sets of up to {max(sizes):,} rows; "
                             f"the page runs at most {MAX_TRAINING_SETS:,} (000's full protocol) of up to "
                             f"{MAX_SIZE:,} rows — use `python -m credal_core.experiments` for larger runs")
    else:
        parse_sizes(settings["dsizes"], "Training sizes")


def run_study(settings: dict, X=None, y=None, *, n_jobs: int | None = 1, scheduler=None,
              progress: Callable[[int, int], None] | None = None) -> pd.DataFrame:
    """Every run's indicators (tidy rows) for checked ``settings``; ``X, y`` for ``source="sample"``."""
    check_settings(settings)
    grid = _grid(settings)
    if settings["source"] == "artificial":
        return artificial_experiment(sample_sizes=parse_sizes(settings["sizes"], "Sample sizes"),
                                     n_theta=settings["theta"], n_train=settings["train"],
                                     n_test=settings["test"], n_features=settings["m"],
                                     n_classes=settings["classes"], grid=grid, seed=settings["seed"],
                                     n_jobs=n_jobs, scheduler=scheduler, progress=progress)
    sizes = parse_sizes(settings["dsizes"], "Training sizes") or None
    return dataset_experiment(X, y, protocol=settings["protocol"], n_splits=settings["folds"],
                              n_repeats=settings["repeats"], sample_sizes=sizes, grid=grid,
                              seed=settings["seed"], n_jobs=n_jobs, scheduler=scheduler, progress=progress)
