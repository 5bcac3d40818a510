"""Public pair counts n(c, x_j = u, x_l = v): a literal table, a brute force, both code paths."""
import numpy as np
import pytest

from credal_core._compiled import numba_enabled
from credal_core.data import pairs
from credal_core.data.pairs import pair_counts, slot_offsets
from tests._depth import cases


def test_a_literal_table():
    # rows (x0, x1 | class): (0, 1 | 0) twice, (1, 1 | 0), (1, missing | 1), (0, 0 | 1)
    codes = np.array([[0, 1], [0, 1], [1, 1], [1, -2], [0, 0]])
    y = np.array([0, 0, 0, 1, 1])
    counts = pair_counts(codes, y, 2, [2, 2])
    # slots: x0 = 0, 1 (2: unseen); x1 = 3, 4 (5: unseen)
    assert counts.shape == (2, 6, 6)
    want0 = np.zeros((6, 6))
    want0[0, 4] = want0[4, 0] = 2          # x0 = 0, x1 = 1 in class 0, twice
    want0[1, 4] = want0[4, 1] = 1          # x0 = 1, x1 = 1
    want0[0, 0], want0[1, 1], want0[4, 4] = 2, 1, 3
    want1 = np.zeros((6, 6))
    want1[0, 3] = want1[3, 0] = 1          # the row with x1 missing adds to no pair
    want1[0, 0], want1[1, 1], want1[3, 3] = 1, 1, 1
    np.testing.assert_array_equal(counts[0], want0)
    np.testing.assert_array_equal(counts[1], want1)
    np.testing.assert_array_equal(slot_offsets([2, 2]), [0, 3])


def _brute(codes, y, n_classes, n_values):
    offsets = slot_offsets(n_values)
    width = int(np.sum(np.asarray(n_values) + 1))
    out = np.zeros((n_classes, width, width))
    for row, c in zip(codes, y):
        for j, u in enumerate(row):
            for m, v in enumerate(row):
                if u >= 0 and v >= 0:           # j == m: the diagonal n(c, x_j = u)
                    out[c, offsets[j] + u, offsets[m] + v] += 1
    return out


@pytest.mark.parametrize("compiled", ["0", "1"])
@pytest.mark.parametrize("seed", range(cases(20)))
def test_pair_counts_match_a_brute_force(monkeypatch, compiled, seed):
    monkeypatch.setenv("CREDAL_NUMBA", compiled)
    if compiled == "1" and not numba_enabled():
        pytest.skip("numba is not installed")
    rng = np.random.default_rng(seed)
    n, k, n_classes = int(rng.integers(1, 60)), int(rng.integers(1, 6)), int(rng.integers(2, 5))
    n_values = rng.integers(1, 5, size=k)
    codes = rng.integers(0, n_values, size=(n, k))
    codes[rng.random((n, k)) < 0.25] = -2
    y = rng.integers(0, n_classes, n)
    if seed % 3 == 0:
        monkeypatch.setattr(pairs, "_CHUNK_CELLS", 5)          # many chunks
        monkeypatch.setattr(pairs, "_SMALL_TABLE_BYTES", 0)    # mirrored block by block
    np.testing.assert_array_equal(pair_counts(codes, y, n_classes, n_values),
                                  _brute(codes, y, n_classes, n_values))
