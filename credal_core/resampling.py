"""Seeded, reproducible resampling protocols: repeated stratified k-fold and repeated hold-out.

Paper 001 §3 evaluates by 10 runs of stratified 5-fold cross-validation; paper 004 §5 by 100
random 70/30 training/test splits.  Both are generators of ``(train_index, test_index)`` integer
arrays; the same ``seed`` always gives the same splits.
"""
from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ._checks import check_integer

__all__ = ["repeated_stratified_kfold", "repeated_holdout"]


def _codes(y) -> np.ndarray:
    y = np.asarray(y)
    if y.ndim != 1 or y.size == 0:
        raise ValueError("y must be a non-empty 1-D array of labels")
    return np.unique(y.astype(str) if y.dtype == object else y, return_inverse=True)[1]


def repeated_stratified_kfold(y, *, n_splits: int = 5, n_repeats: int = 10,
                              seed: int = 0) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """``n_repeats`` independent stratified ``n_splits``-fold partitions of ``range(len(y))``.

    Within one repeat the test folds are disjoint and cover every instance once; each class is
    dealt round-robin over the folds after a seeded shuffle, so fold class counts differ by at
    most one.  A class with fewer instances than folds is allowed (some folds lack it), because
    real data sets have such classes; the protocol then says so through the fold contents.

    Examples
    --------
    >>> folds = list(repeated_stratified_kfold([0, 0, 0, 1, 1, 1], n_splits=3, n_repeats=2, seed=1))
    >>> len(folds), [len(test) for _, test in folds]
    (6, [2, 2, 2, 2, 2, 2])
    """
    codes = _codes(y)
    check_integer("n_splits", n_splits, 2)
    if n_splits > codes.size:
        raise ValueError(f"n_splits={n_splits} is more than the {codes.size} instances")
    check_integer("n_repeats", n_repeats, 1)
    rng = np.random.default_rng(seed)
    everything = np.arange(codes.size)
    for _ in range(n_repeats):
        fold_of = np.empty(codes.size, dtype=np.int64)
        start = 0
        for c in np.unique(codes):
            members = rng.permutation(np.flatnonzero(codes == c))
            # continue the round-robin where the previous class stopped, so fold sizes balance
            fold_of[members] = (start + np.arange(members.size)) % n_splits
            start = (start + members.size) % n_splits
        for k in range(n_splits):
            test = everything[fold_of == k]
            yield everything[fold_of != k], test


def repeated_holdout(y, *, n_repeats: int = 100, test_size: float = 0.3, stratify: bool = True,
                     seed: int = 0) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """``n_repeats`` random training/test splits with a share ``test_size`` held out (004: 70/30).

    With ``stratify`` each class contributes ``round(test_size * n_c)`` instances to the test set
    (at least one instance of every class stays in training).  Every split leaves at least one
    instance on each side.
    """
    codes = _codes(y)
    if not (isinstance(test_size, (int, float, np.floating)) and 0 < test_size < 1):
        raise ValueError(f"test_size must be a share strictly between 0 and 1; got {test_size!r}")
    if codes.size < 2:
        raise ValueError("a hold-out split needs at least two instances")
    check_integer("n_repeats", n_repeats, 1)
    rng = np.random.default_rng(seed)
    everything = np.arange(codes.size)
    for _ in range(n_repeats):
        if stratify:
            test_parts = []
            for c in np.unique(codes):
                members = np.flatnonzero(codes == c)
                k = min(int(round(test_size * members.size)), members.size - 1)
                test_parts.append(rng.choice(members, size=k, replace=False))
            test = np.sort(np.concatenate(test_parts))
            if test.size == 0:                       # tiny data: hold out one instance at least
                test = rng.choice(everything, size=1)
        else:
            k = min(max(int(round(test_size * codes.size)), 1), codes.size - 1)
            test = np.sort(rng.choice(everything, size=k, replace=False))
        train = np.setdiff1d(everything, test, assume_unique=True)
        yield train, test
