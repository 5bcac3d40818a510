"""The compiled integer coding (credal_core/data/_kernels.py) against the numpy path: the same codes
and values for every integer dtype, negative and extreme values, and the same refusal of ranges
too wide for one flag table."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from credal_core._compiled import numba_enabled
from credal_core.data.counts import CountTables, _factorize_integer_matrix

DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32]


def _both(monkeypatch, X):
    out = {}
    for flag in ("0", "1"):
        monkeypatch.setenv("CREDAL_NUMBA", flag)
        out[flag] = _factorize_integer_matrix(X)
    return out["0"], out["1"]


@pytest.fixture
def need_numba(monkeypatch):
    monkeypatch.setenv("CREDAL_NUMBA", "1")
    if not numba_enabled():
        pytest.skip("numba is not installed")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("seed", range(4))
def test_codes_and_values_equal_the_numpy_path(monkeypatch, need_numba, dtype, seed):
    rng = np.random.default_rng(seed)
    info = np.iinfo(dtype)
    n, m = int(rng.integers(1, 300)), int(rng.integers(1, 9))
    low = max(int(info.min), -40) if seed % 2 else int(info.min)
    high = min(int(info.max), 60)
    X = rng.integers(low, high, size=(n, m), endpoint=True).astype(dtype)
    if seed == 3:
        X = np.asfortranarray(X)                         # any memory order
    numpy_path, compiled = _both(monkeypatch, X)
    assert (numpy_path is None) == (compiled is None)
    if numpy_path is None:                                # int8 / int16 minima: still coded
        return
    np.testing.assert_array_equal(compiled[0], numpy_path[0])
    assert compiled[0].dtype == numpy_path[0].dtype == np.int64
    for got, want in zip(compiled[1], numpy_path[1]):
        np.testing.assert_array_equal(got, want)
        assert got.dtype == want.dtype == X.dtype


def test_extreme_values_and_wide_ranges(monkeypatch, need_numba):
    big = np.iinfo(np.int64)
    wide = np.array([[big.min, 0], [big.max, 1]], dtype=np.int64)
    assert _both(monkeypatch, wide) == (None, None)       # 2**64 slots: np.unique instead
    edge = np.array([[big.max, -5], [big.max - 3, 7], [big.max, 7]], dtype=np.int64)
    numpy_path, compiled = _both(monkeypatch, edge)
    np.testing.assert_array_equal(compiled[0], numpy_path[0])
    np.testing.assert_array_equal(compiled[0], [[1, 0, 1], [0, 1, 1]])
    assert [v.tolist() for v in compiled[1]] == [[big.max - 3, big.max], [-5, 7]]


def test_count_tables_of_an_integer_matrix_equal_on_both_paths(monkeypatch, need_numba):
    rng = np.random.default_rng(5)
    X = rng.integers(-3, 9, size=(500, 6))
    y = rng.choice(["a", "b", "c"], 500)
    got = {}
    for flag in ("0", "1"):
        monkeypatch.setenv("CREDAL_NUMBA", flag)
        got[flag] = CountTables.count_and_encode(X, y)
    (t0, c0, y0), (t1, c1, y1) = got["0"], got["1"]
    np.testing.assert_array_equal(c0, c1)
    np.testing.assert_array_equal(y0, y1)
    for a, b in zip(t0.feature_counts, t1.feature_counts):
        np.testing.assert_array_equal(a, b)
    for a, b in zip(t0.categories, t1.categories):
        assert a.tolist() == b.tolist()


@pytest.mark.parametrize("categories", ["seen", "declared"])
def test_count_tables_of_a_text_table_with_gaps_equal_on_both_paths(monkeypatch, need_numba, categories):
    rng = np.random.default_rng(6)
    X = pd.DataFrame({f"f{j}": rng.choice(["u", "v", "w"], 400) for j in range(4)})
    X = X.mask(rng.random(X.shape) < 0.2)                               # missing cells count nothing
    X["f0"] = pd.Categorical(X["f0"], categories=["u", "v", "w", "never"])
    y = rng.choice(["a", "b"], 400)
    got = {}
    for flag in ("0", "1"):
        monkeypatch.setenv("CREDAL_NUMBA", flag)
        got[flag] = CountTables.count_and_encode(X, y, categories=categories)
    (t0, c0, _), (t1, c1, _) = got["0"], got["1"]
    np.testing.assert_array_equal(c0, c1)
    np.testing.assert_array_equal(t0.class_counts, t1.class_counts)
    for a, b in zip(t0.feature_counts, t1.feature_counts):
        np.testing.assert_array_equal(a, b)
    # and against a literal count
    column = X["f1"].to_numpy()
    for c, label in enumerate(t1.classes):
        for v, value in enumerate(t1.categories[1]):
            assert t1.feature_counts[1][c, v] == np.sum((column == value) & (y == label))
