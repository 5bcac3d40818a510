"""Repeated stratified k-fold (001) and repeated hold-out (004)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credal_core.resampling import repeated_holdout, repeated_stratified_kfold

labels = st.lists(st.sampled_from(["a", "b", "c"]), min_size=6, max_size=80)


@settings(max_examples=120, deadline=None)
@given(y=labels, k=st.integers(2, 6), repeats=st.integers(1, 3), seed=st.integers(0, 10**6))
def test_kfold_is_a_stratified_partition(y, k, repeats, seed):
    y = np.array(y)
    if k > y.size:
        return
    folds = list(repeated_stratified_kfold(y, n_splits=k, n_repeats=repeats, seed=seed))
    assert len(folds) == k * repeats
    for r in range(repeats):
        tests = [test for _, test in folds[r * k:(r + 1) * k]]
        together = np.concatenate(tests)
        assert np.array_equal(np.sort(together), np.arange(y.size))       # disjoint and covering
        for train, test in folds[r * k:(r + 1) * k]:
            assert np.intersect1d(train, test).size == 0
            assert train.size + test.size == y.size
        for c in np.unique(y):
            per_fold = [np.sum(y[t] == c) for t in tests]
            assert max(per_fold) - min(per_fold) <= 1                     # stratified
        sizes = [t.size for t in tests]
        assert max(sizes) - min(sizes) <= 1


def test_kfold_same_seed_same_folds_and_new_seed_new_folds():
    y = np.repeat([0, 1], 20)
    one = [t.tolist() for _, t in repeated_stratified_kfold(y, seed=4)]
    two = [t.tolist() for _, t in repeated_stratified_kfold(y, seed=4)]
    other = [t.tolist() for _, t in repeated_stratified_kfold(y, seed=5)]
    assert one == two and one != other
    assert len(one) == 50                                                  # 001: 10 × 5-fold


@settings(max_examples=120, deadline=None)
@given(y=labels, share=st.sampled_from([0.1, 0.3, 0.5]), stratify=st.booleans(), seed=st.integers(0, 10**6))
def test_holdout_splits_are_disjoint_and_sized(y, share, stratify, seed):
    y = np.array(y)
    for train, test in repeated_holdout(y, n_repeats=3, test_size=share, stratify=stratify, seed=seed):
        assert np.intersect1d(train, test).size == 0
        assert train.size + test.size == y.size and train.size >= 1 and test.size >= 1
        if stratify:
            for c in np.unique(y):
                n_c = np.sum(y == c)
                expected = min(int(round(share * n_c)), n_c - 1)
                assert np.sum(y[test] == c) == expected or test.size == 1


def test_holdout_is_70_30_and_seeded():
    y = np.repeat([0, 1], 50)
    splits = list(repeated_holdout(y, seed=1))
    assert len(splits) == 100                                              # 004: 100 splits
    assert all(test.size == 30 for _, test in splits)
    again = list(repeated_holdout(y, seed=1))
    assert all(np.array_equal(a[1], b[1]) for a, b in zip(splits, again))


@pytest.mark.parametrize("call", [
    lambda: list(repeated_stratified_kfold([0, 1, 0], n_splits=5)),
    lambda: list(repeated_stratified_kfold([0, 1, 0, 1], n_splits=1)),
    lambda: list(repeated_stratified_kfold([], n_splits=2)),
    lambda: list(repeated_holdout([0, 1, 1], test_size=0)),
    lambda: list(repeated_holdout([0, 1, 1], test_size=1.0)),
    lambda: list(repeated_holdout([0], test_size=0.3)),
    lambda: list(repeated_holdout([0, 1], n_repeats=0)),
])
def test_bad_protocol_settings_are_refused(call):
    with pytest.raises(ValueError):
        call()
