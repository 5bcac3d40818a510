"""000 §5.1's tables (:mod:`credal_core.experiments.paper_000`) on a hand-made results frame.

Every expected number is computed by hand from the frame below: the mean over the runs that define
the indicator (a NaN run is left out), in percent.
"""
import numpy as np
import pandas as pd
import pytest

from credal_core.experiments.paper_000 import PAPER_TABLE1, closest_pairs, determinacy_by_d, table1

NAN = np.nan


def _runs(setting, classifier, epsilon, alpha, d, det, sgl, dacc, nbc_i):
    s = NAN if classifier == "LNCC" else 1.0
    return [{"setting": setting, "classifier": classifier, "s": s, "epsilon": epsilon, "alpha": alpha, "d": d,
             "determinacy": a, "single_accuracy": b, "discounted_accuracy": c, "nbc_i": e}
            for a, b, c, e in zip(det, sgl, dacc, nbc_i)]


@pytest.fixture
def results():
    rows = []
    rows += _runs("NCC_ε=0.25", "NCC", 0.25, NAN, 25, [0.8, 0.9, 1.0], [0.9, 0.8, 0.7], [0.85, 0.8, 0.75],
                  [0.5, NAN, 0.6])
    rows += _runs("NCC_ε=0.05", "NCC", 0.05, NAN, 25, [0.7, 0.7], [0.6, 0.8], [0.5, 0.6], [0.4, 0.4])
    rows += _runs("LNCC_α=0.75", "LNCC", NAN, 0.75, 25, [0.9, 0.91], [0.8, 0.8], [0.7, 0.8], [0.3, 0.5])
    rows += _runs("NBC", "NBC", NAN, NAN, 25, [1.0, 1.0], [0.6, 0.7], [0.6, 0.7], [NAN, NAN])
    rows += _runs("NCC_ε=0.05", "NCC", 0.05, NAN, 50, [0.95], [0.9], [0.9], [0.2])
    rows += _runs("LNCC_α=0.75", "LNCC", NAN, 0.75, 50, [0.5, 0.7], [1.0, 0.9], [0.8, 0.7], [0.6, 0.7])
    rows += _runs("NCC_ε=0.25", "NCC", 0.25, NAN, 100, [0.99, 0.97], [0.9, 0.9], [0.9, 0.88], [0.5, 0.5])
    return pd.DataFrame(rows)


def test_table1_puts_our_means_in_percent_beside_the_papers_rows(results):
    table = table1(results)
    # the paper's order; (LNCC_α=0.95, 100) is not in the results and is left out
    assert list(zip(table["setting"], table["d"])) == [("NCC_ε=0.25", 25), ("LNCC_α=0.75", 25),
                                                       ("NCC_ε=0.05", 50), ("LNCC_α=0.75", 50),
                                                       ("NCC_ε=0.25", 100)]
    assert list(table.columns) == ["setting", "d", "Det", "paper Det", "Sgl-acc", "paper Sgl-acc", "D-acc",
                                   "paper D-acc", "NBC-I", "paper NBC-I"]
    want = {"Det": [90, 90.5, 95, 60, 98], "Sgl-acc": [80, 80, 90, 95, 90], "D-acc": [80, 75, 90, 75, 89],
            "NBC-I": [55, 40, 20, 65, 50]}            # NBC-I of NCC_ε=0.25, d=25: (50 + 60) / 2
    for name, values in want.items():
        np.testing.assert_allclose(table[name], values, rtol=0, atol=1e-12)
    paper = PAPER_TABLE1.set_index(["setting", "d"])
    for name in ("Det", "Sgl-acc", "D-acc", "NBC-I"):
        assert table[f"paper {name}"].tolist() == [paper.loc[key, name] for key in zip(table["setting"],
                                                                                         table["d"])]


def test_closest_pairs_per_sample_size(results):
    pairs = closest_pairs(results)
    # d=25: NCC_ε=0.25 (90) and LNCC_α=0.75 (90.5) are within 1 point; NCC_ε=0.05 (70) is not, and is
    # not shown once a close pair is.  d=50: the only pair, 95 vs 60, is shown but flagged.  d=100: no
    # LNCC, no pair.
    assert pairs[["d", "epsilon", "alpha", "within_tolerance"]].values.tolist() == [
        [25, 0.25, 0.75, True], [50, 0.05, 0.75, False]]
    np.testing.assert_allclose(pairs["NCC Det"], [90, 95], atol=1e-12)
    np.testing.assert_allclose(pairs["LNCC Det"], [90.5, 60], atol=1e-12)
    np.testing.assert_allclose(pairs["gap"], [0.5, 35], atol=1e-12)
    wide = closest_pairs(results, tolerance=50)
    assert wide.loc[wide["d"] == 25, "epsilon"].tolist() == [0.25, 0.05]     # closest first
    np.testing.assert_allclose(wide.loc[wide["d"] == 25, "gap"], [0.5, 20.5], atol=1e-12)
    assert len(closest_pairs(results, tolerance=50, max_pairs=1).query("d == 25")) == 1


def test_determinacy_by_d_is_a_reshape_of_the_means(results):
    fig5 = determinacy_by_d(results)
    assert fig5.index.tolist() == ["NCC_ε=0.25", "NCC_ε=0.05", "LNCC_α=0.75"]       # no NBC; first seen
    assert fig5.columns.tolist() == [25, 50, 100]
    want = np.array([[90, NAN, 98], [70, 95, NAN], [90.5, 60, NAN]])
    np.testing.assert_allclose(fig5.to_numpy(float), want, atol=1e-12)


def test_determinacy_by_d_never_averages_two_summary_rows(results):
    # two different classifiers under one label: a cell would be a mean of means, so it is refused
    results.loc[results["setting"] == "NCC_ε=0.05", "setting"] = "NCC_ε=0.25"
    with pytest.raises(ValueError, match="more than one summary row"):
        determinacy_by_d(results)
