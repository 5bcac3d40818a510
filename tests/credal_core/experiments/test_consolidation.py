"""One classifier, one data set, one protocol → one table, whichever path computes it.

The Compare page and the command line (``compare_classifiers`` on the public API of each estimator)
and the Determinacy page (``dataset_experiment``: counts of integer codes and the NCC_ε / LNCC_α grid)
must give identical indicators fold by fold, and the command line's summary must be the page's.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from credal_core.data.csv_loader import read_csv_bytes
from credal_core.data.dataset import choose_columns
from credal_core.experiments import ClassifierGrid, dataset_experiment
from credal_core.experiments.__main__ import main as cli
from credal_core.experiments.compare import ClassifierSpec, compare_classifiers, summarise_comparison

ROOT = Path(__file__).resolve().parents[3]
SHARED = ["determinacy", "single_accuracy", "set_accuracy", "indeterminate_size", "discounted_accuracy",
          "u65", "u80", "nbc_i"]
SPECS = (ClassifierSpec("NBC", "NaiveBayes", {"s": 1.0}),
         ClassifierSpec("NCC_ε=0.05", "NCC", {"s": 1.0, "epsilon": 0.05}),
         ClassifierSpec("NCC", "NCC", {"s": 1.0}),
         ClassifierSpec("LNCC_α=0.75", "LNCC", {"alpha": 0.75}))
GRID_SETTING = {"NBC": "NBC", "NCC_ε=0.05": "NCC_ε=0.05", "NCC": "NCC_ε=0", "LNCC_α=0.75": "LNCC_α=0.75"}


def _rare_values():
    """Random categorical data in which some values occur once: in the fold that tests them, the
    training rows have not seen them, so the |F_j| policy matters (values seen vs declared)."""
    rng = np.random.default_rng(7)
    X = pd.DataFrame({f"f{j}": rng.choice(list("abc"), size=45).astype(object) for j in range(4)})
    X.loc[[3, 17, 30], "f1"] = ["rare1", "rare2", "rare3"]
    X.loc[[8], "f2"] = "once"
    y = pd.Series(rng.choice(["x", "y", "z"], size=45, p=[0.5, 0.3, 0.2]))
    return type("Choice", (), {"X": X, "y": y, "numeric": []})


def _data(name: str):
    if name == "rare":
        return _rare_values()
    table = read_csv_bytes((ROOT / "sample_data" / f"{name}.csv").read_bytes())
    choice = choose_columns(table, table.frame.columns[-1] if name != "balloons" else "inflated")
    return choice


@pytest.mark.parametrize("name", ["balloons", "weather", "monks2", "rare"])
def test_compare_page_path_equals_determinacy_page_path(name):
    choice = _data(name)
    compared = compare_classifiers(choice.X, choice.y, specs=SPECS, n_splits=5, n_repeats=2, seed=3)
    grid = ClassifierGrid(epsilons=(0.0, 0.05), alphas=(0.75,), s_values=(1.0,))
    swept = dataset_experiment(choice.X, choice.y, protocol="cv", n_splits=5, n_repeats=2, seed=3, grid=grid)
    assert (compared["error"] == "").all()
    for label, setting in GRID_SETTING.items():
        ours = compared[compared["classifier"] == label].reset_index(drop=True)
        theirs = swept[swept["setting"] == setting].sort_values("split").reset_index(drop=True)
        assert len(ours) == len(theirs) == 10
        assert np.array_equal(ours["n_train"], theirs["n_train"])
        for key in SHARED if label != "NBC" else SHARED[:-1]:
            np.testing.assert_allclose(ours[key].to_numpy(float), theirs[key].to_numpy(float), rtol=0,
                                       atol=1e-12, err_msg=f"{name} {label} {key}")
        # the precise label's accuracy: the Compare table's "accuracy" of the NBC row
        if label == "NBC":
            np.testing.assert_allclose(ours["accuracy"], theirs["nbc_accuracy"], atol=1e-12)


def test_command_line_summary_is_the_compare_page_summary(tmp_path):
    out = tmp_path / "summary.csv"
    assert cli(["compare", str(ROOT / "sample_data" / "weather.csv"), "--classifiers", "NBC,NCC,AODE",
                "--folds", "3", "--repeats", "2", "--seed", "1", "--jobs", "1", "--csv", str(out)]) == 0
    choice = _data("weather")
    specs = [s for s in __import__("credal_core.experiments.compare", fromlist=["x"]).available_classifiers()
             if s.label in ("NBC", "NCC", "AODE")]
    page = summarise_comparison(compare_classifiers(choice.X, choice.y, numeric=choice.numeric, specs=specs,
                                                    n_splits=3, n_repeats=2, seed=1))
    written = pd.read_csv(out)
    pd.testing.assert_frame_equal(written, page.reset_index(drop=True), check_dtype=False, atol=1e-12)


def test_seen_values_policy_equals_fit_on_the_training_rows():
    """The engine's integer-code path under the "seen" policy is the estimator's own fit, to the
    probability; the "declared" policy (every value of the file) is not — the test can tell them apart."""
    from credal_core import NaiveBayes
    from credal_core.data.counts import CountTables
    from credal_core.experiments.sweeps import encode_dataset, seen_values_only

    choice = _rare_values()
    data = encode_dataset(choice.X, choice.y)
    test = np.array([3, 17, 30, 8, 0, 1])
    train = np.setdiff1d(np.arange(len(choice.y)), test)
    declared = CountTables.from_codes(data.X[train], data.y[train], data.n_values, len(data.classes))
    seen, codes = seen_values_only(declared, data.X[test])
    fitted = NaiveBayes(s=1.0).fit(choice.X.iloc[train], choice.y.iloc[train])
    expected = fitted.predict_log_proba(choice.X.iloc[test])
    via_codes = NaiveBayes(s=1.0).fit_counts(seen)
    jll = via_codes._joint_log_likelihood(codes).T
    np.testing.assert_allclose(jll - np.logaddexp.reduce(jll, axis=1, keepdims=True), expected, atol=1e-12)
    assert (codes[:4, [1, 1, 1, 2]].diagonal() == -1).all()          # values unseen in training
    jll_declared = NaiveBayes(s=1.0).fit_counts(declared)._joint_log_likelihood(data.X[test]).T
    assert not np.allclose(jll_declared - np.logaddexp.reduce(jll_declared, axis=1, keepdims=True), expected)
