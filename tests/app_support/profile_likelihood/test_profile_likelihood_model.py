"""The Profile likelihood page's α-cuts, computed for the whole α slider at once, are alpha_cut's."""
from __future__ import annotations

import numpy as np

from app_support.profile_likelihood.model import ALPHA_GRID, alpha_cut_grid, pair_view
from credal_core.likelihood.pair_input import PairInput, paper_pairs


def test_the_grid_is_the_sliders():
    assert len(ALPHA_GRID) == 101 and ALPHA_GRID[0] == 0.0 and ALPHA_GRID[-1] == 1.0
    assert all(alpha == float(f"{alpha:.2f}") for alpha in ALPHA_GRID)
    assert 0.29 in ALPHA_GRID and 0.57 in ALPHA_GRID           # what the slider sends, parsed


def test_every_cut_of_the_grid_is_alpha_cut_alone():
    pairs = [*paper_pairs().values(), PairInput.from_text("3-1,0-2,4-4", "6-5")]
    for pair in pairs:
        for include in (True, False):
            grid = alpha_cut_grid(pair, include)
            profile = pair.profile(include)
            assert list(grid) == list(ALPHA_GRID)
            for alpha in ALPHA_GRID[::5] + (0.23, 0.99):
                np.testing.assert_array_equal(grid[alpha], profile.alpha_cut(alpha))


def test_the_view_uses_the_cut_of_its_alpha():
    pair = next(iter(paper_pairs().values()))
    for alpha in (0.2, 0.24, 0.5, 0.505):         # 0.505 is off the grid: computed directly
        view = pair_view(pair, True, 500, alpha)
        cut = [t for t in view["figure"].to_dict()["data"] if t["name"].endswith("(exact)")][0]
        assert cut["x"] == list(pair.profile(True).alpha_cut(alpha))
        assert cut["y"] == [alpha, alpha]


def test_checked_counts_are_from_counts_and_refusals_are_never_cached():
    import pytest

    from app_support.profile_likelihood.model import checked_pair
    for args in ((6, 2, (5.0,), (1.0,)), (6, 5, (3.0, 0.0, 4.0), (1.0, 2.0, 4.0))):
        assert checked_pair(*args) == PairInput.from_counts(args[0], args[1], list(args[2]), list(args[3]))
        assert checked_pair(*args) is checked_pair(*args)
    for bad in ((6, 2, (7.0,), (1.0,)), (6, 2, (float("nan"),), (1.0,)), (6, 2, (2.5,), (1.0,))):
        for _ in range(2):                     # the same refusal every time: an error is not remembered
            with pytest.raises(ValueError) as got:
                checked_pair(*bad)
            with pytest.raises(ValueError) as expected:
                PairInput.from_counts(bad[0], bad[1], list(bad[2]), list(bad[3]))
            assert str(got.value) == str(expected.value)


def test_the_counts_frame_is_the_pairs():
    import pandas as pd

    from app_support.profile_likelihood.model import COL_C, COL_NOT, counts_frame
    pair = PairInput.from_text("3-1,0-2,4-4", "6-5")
    frame = counts_frame(pair)
    pd.testing.assert_frame_equal(frame, pd.DataFrame({COL_C: [3, 0, 4], COL_NOT: [1, 2, 4]}, dtype="Int64"))
    assert counts_frame(pair) is frame
