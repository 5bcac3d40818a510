"""``python -m credal_core compare``: many files, a tidy per-fold CSV equal to the engine's rows, bad files
reported by name with the others kept, ignored options refused, paper tables with the best in bold."""
from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from credal_core.cli import main
from credal_core.cli.classifiers import parse_classifiers
from credal_core.datasets import dataset_path, load_dataset
from credal_core.experiments.compare import compare_classifiers

QUICK = ["--folds", "2", "--repeats", "2", "--jobs", "1", "--classifiers", "nbc,ncc,lncc:alpha=0.3", "--"]


def _run(capsys, *argv):
    code = main(["compare", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_two_files_give_one_tidy_row_per_dataset_classifier_and_fold(capsys, tmp_path):
    out = tmp_path / "folds.csv"
    code, stdout, _ = _run(capsys, "--out", str(out), *QUICK, "weather", str(dataset_path("balloons")))
    assert code == 0
    tidy = pd.read_csv(out)
    assert list(tidy.columns[:5]) == ["dataset", "classifier", "repeat", "fold", "n_train"]
    assert len(tidy) == 2 * 3 * 4 and set(tidy["dataset"]) == {"weather", "balloons"}
    assert tidy.groupby(["dataset", "classifier"]).size().eq(4).all()
    # the same rows as the engine run on the loader's data (an independent path: datasets + engine)
    for name in ("weather", "balloons"):
        X, y = load_dataset(name, return_X_y=True)
        direct = compare_classifiers(X, y, specs=parse_classifiers("nbc,ncc,lncc:alpha=0.3"), n_splits=2,
                                     n_repeats=2, seed=0, n_jobs=1)
        ours = tidy[tidy["dataset"] == name].reset_index(drop=True)
        for column in ("classifier", "repeat", "fold", "accuracy", "determinacy", "u65", "u80"):
            np.testing.assert_array_equal(ours[column].to_numpy(), direct[column].to_numpy(), err_msg=column)
    assert "u65 (%, mean ± sd over folds)" in stdout and "LNCC_α=0.3" in stdout


def test_bad_files_are_named_and_the_others_results_kept(capsys, tmp_path):
    unreadable = tmp_path / "folder.csv"
    unreadable.mkdir()
    binary = tmp_path / "binary.csv"
    binary.write_bytes(b"\x00\x01PK\x03\x04" * 50)
    out = tmp_path / "folds.csv"
    code, _, err = _run(capsys, "--out", str(out), "--class-column", "play", *QUICK, "weather",
                        str(unreadable), str(binary), "monks1", str(tmp_path / "absent.csv"))
    assert code == 1
    assert f"error: {unreadable}: cannot read it" in err
    assert f"error: {binary}: the file looks binary" in err
    assert "error: monks1: there is no column named 'play'" in err
    assert f"error: {tmp_path / 'absent.csv'}: cannot read it" in err
    assert "4 of 5 files left out" in err
    assert set(pd.read_csv(out)["dataset"]) == {"weather"}


def test_a_file_with_other_classes_than_declared_is_left_out(capsys, tmp_path):
    out = tmp_path / "folds.csv"
    code, _, err = _run(capsys, "--out", str(out), "--classes", "0,1", *QUICK, "monks1", "weather", "monks2")
    assert code == 1 and "error: weather: its classes ['no', 'yes'] differ from --classes ['0', '1']" in err
    assert list(dict.fromkeys(pd.read_csv(out)["dataset"])) == ["monks1", "monks2"]


def test_no_usable_file_is_exit_status_one(capsys, tmp_path):
    code, _, err = _run(capsys, *QUICK, str(tmp_path / "absent.csv"))
    assert code == 1 and "no file could be compared" in err


@pytest.mark.parametrize("argv, message", [
    (["--bins", "4", "weather"], "--bins is used by --discretiser equal_frequency only"),
    (["--non-mar", "windy", "weather"], "--non-mar is used by --missing conservative only"),
    (["--jobs", "2", "--scheduler", "tcp://127.0.0.1:9", "weather"], "--jobs is ignored"),
    (["--epsilon", "0.2", "--classifiers", "nbc", "--", "weather"], "--epsilon would be ignored"),
    (["--rope", "0.02", "weather"], "--rope is used by --tests only"),
    (["--missing", "conservative", "--non-mar", "windy", "--classifiers", "nbc,cma", "--", "weather"],
     "--non-mar is used by the NCCs only"),
    (["--alphas", "0.3", "weather"], "unrecognized arguments: --alphas"),
    (["--classifiers", "NCC,LNCC,ncc-eps:x", "--", "weather"], "epsilon must be a number"),
    (["--out", "/nonexistent/dir/x.csv", "weather"], "cannot write into"),
    (["--folds", "1", "weather"], "--folds must be at least 2"),
    ([], "give at least one FILE"),
])
def test_unknown_or_ignored_options_are_errors(capsys, argv, message):
    with pytest.raises(SystemExit) as stop:
        main(["compare", *argv])
    assert stop.value.code == 2 and message in capsys.readouterr().err


def test_a_non_mar_column_must_be_a_feature_of_the_file(capsys):
    code, _, err = _run(capsys, "--missing", "conservative", "--non-mar", "windy", *QUICK, "weather",
                        "monks1")
    assert code == 1 and "error: monks1: --non-mar names columns that are not features" in err


def test_discretiser_options_reach_the_preparation(capsys, tmp_path):
    out = tmp_path / "folds.csv"
    code, _, _ = _run(capsys, "--out", str(out), "--discretiser", "equal_frequency", "--bins", "3",
                      "--numeric", "petal_length_cm,petal_width_cm", *QUICK, "iris")
    assert code == 0
    X, y = load_dataset("iris", return_X_y=True)
    direct = compare_classifiers(X[["sepal_length_cm", "sepal_width_cm", "petal_length_cm", "petal_width_cm"]]
                                 .astype(object), y, numeric=["petal_length_cm", "petal_width_cm"],
                                 specs=parse_classifiers("nbc,ncc,lncc:alpha=0.3"), n_splits=2, n_repeats=2,
                                 discretiser="equal_frequency", n_bins=3, seed=0, n_jobs=1)
    np.testing.assert_array_equal(pd.read_csv(out)["u65"].to_numpy(), direct["u65"].to_numpy())


def test_an_integer_column_with_many_values_not_discretised_gets_a_note(capsys, tmp_path):
    path = tmp_path / "heart.csv"
    rng = np.random.default_rng(0)
    pd.DataFrame({"chol": rng.integers(150, 300, 60), "sex": rng.integers(0, 2, 60),
                  "class": ["a", "b"] * 30}).to_csv(path, index=False)
    code, _, err = _run(capsys, "--numeric", "none", *QUICK, str(path))
    assert code == 0 and "heart: note: column 'chol' holds" in err and "discretise it" in err
    assert "'sex'" not in err
    _, _, err = _run(capsys, *QUICK, str(path))                 # discretised by default: no note
    assert "column 'chol' holds" not in err


def _bold_cells(table: str, kind: str) -> dict:
    out = {}
    for line in table.splitlines():
        header = line.startswith(("| data", "|---", "data set"))
        if kind == "markdown" and line.startswith("| ") and not header:
            cells = [c.strip() for c in line.strip("|").split("|")]
        elif kind == "latex" and line.endswith(r"\\") and not header:
            cells = [c.strip() for c in line[:-2].split("&")]
        else:
            continue
        out[cells[0]] = [i for i, c in enumerate(cells[1:]) if "**" in c or r"\mathbf" in c]
    return out


def test_paper_tables_mark_the_best_mean_of_each_dataset(capsys, tmp_path):
    out, md, tex = tmp_path / "folds.csv", tmp_path / "t.md", tmp_path / "t.tex"
    code, _, _ = _run(capsys, "--out", str(out), "--markdown", str(md), "--latex", str(tex), *QUICK,
                      "weather", "balloons", "monks3")
    assert code == 0
    means = pd.read_csv(out).groupby(["dataset", "classifier"], sort=False)["u65"].mean().unstack()
    order = ["NBC", "NCC", "LNCC_α=0.3"]
    expected = {d: [i for i, c in enumerate(order) if np.isclose(means.at[d, c], means.loc[d].max(), rtol=0,
                                                                   atol=1e-12)] for d in means.index}
    assert _bold_cells(md.read_text(), "markdown") == expected
    assert _bold_cells(tex.read_text(), "latex") == expected
    first = f"{100 * means.at['weather', 'NBC']:.1f} ± "
    assert first in md.read_text() and r"\begin{tabular}{lccc}" in tex.read_text()
    assert r"LNCC\_$\alpha$=0.3" in tex.read_text()


def test_tests_across_datasets_print_every_family(capsys):
    code, stdout, _ = _run(capsys, "--tests", "--rope", "0.02", *QUICK, "weather", "balloons", "monks3")
    assert code == 0
    for text in ("Friedman: chi2 =", "Nemenyi critical difference", "Wilcoxon signed-rank",
                 "Bayesian signed-rank test across data sets (rope ±0.02",
                 "Bayesian correlated t-test per data set (rho = 1/2, rope ±0.02"):
        assert text in stdout


def test_list_classifiers_and_help_with_examples(capsys):
    assert main(["compare", "--list-classifiers"]) == 0
    assert "comp-aode*" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["compare", "--help"])
    assert "examples:" in capsys.readouterr().out


def test_the_module_runs_and_the_experiments_entry_point_takes_aliases(tmp_path):
    done = subprocess.run([sys.executable, "-m", "credal_core", "compare", "weather", "--folds", "2",
                           "--repeats", "1", "--jobs", "1", "--classifiers", "NBC"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert re.search(r"NBC\s+\d", done.stdout)
    summary = tmp_path / "summary.csv"
    done = subprocess.run([sys.executable, "-m", "credal_core.experiments", "compare",
                           str(dataset_path("weather")), "--folds", "2", "--repeats", "1", "--jobs", "1",
                           "--classifiers", "nbc,NCC_ε=0.05", "--csv", str(summary)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert pd.read_csv(summary)["classifier"].tolist() == ["NBC", "NCC_ε=0.05"]


def test_conformal_classifiers_add_coverage_and_empty_sets_to_the_summary(capsys, tmp_path):
    out = tmp_path / "folds.csv"
    code, stdout, _ = _run(capsys, "--out", str(out), "--folds", "2", "--repeats", "1", "--jobs", "1",
                           "--classifiers", "ncc,conformal-nbc:0.3", "--", "balloons")
    assert code == 0 and "coverage: sets holding the true class" in stdout and "empty sets" in stdout
    tidy = pd.read_csv(out)
    assert {"coverage", "mean_set_size", "empty_set_rate"} <= set(tidy.columns)
    _, stdout, _ = _run(capsys, *QUICK, "weather")
    assert "coverage:" not in stdout


def test_the_paper_reproductions_run_under_the_new_entry_point(capsys):
    assert main(["fig5", "--n-theta", "1", "--n-train", "1", "--n-test", "100", "--jobs", "1"]) == 0
    assert "Fig. 5" in capsys.readouterr().out


def test_an_unreachable_scheduler_is_a_message(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["compare", "--scheduler", "tcp://127.0.0.1:9", "--folds", "2", "--repeats", "1", "weather"])
    assert stop.value.code == 2
    assert "could not run on the scheduler 'tcp://127.0.0.1:9'" in capsys.readouterr().err
