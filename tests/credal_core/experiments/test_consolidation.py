"""One classifier, one data set, one protocol → one table, whichever page or command computes it.

Every comparison below is between two genuinely different code paths (named in each test), run with
the same classifier settings, data and protocol (seed, folds, repeats):

* the Compare page (``app_support.compare.model``, with the shared loader
  ``app_support.uploads.load_table``, its spec builder
  ``specs`` and its wrapper ``run_comparison``; the estimators' public ``fit`` / ``predict_set``);
* the Determinacy page (its ``run_experiment`` wrapper, taken from ``pages/determinacy_curves.py``
  itself; ``load_sample`` and ``run_study``: counts of integer codes and the NCC_ε / LNCC_α grid);
* the AODE weights page (``app_support.aode_weights.model.comparison`` and its ``aode_specs``);
* the Classifier selection page (``app_support.classifier_selection.model.table2`` / ``accuracy_curve``, i.e.
  ``paper_004``'s split-level kernels) against the public ``ThresholdSelector`` / ``NaiveBayes``;
* the command line ``python -m credal_core.experiments`` (``compare``, ``table1``, ``fig5``).

Per-fold rows are compared where both paths have them, summaries (mean, sd over folds) where a page
shows one.  The long runs' worker processes are replaced by this process (``queued_job`` yields no
scheduler): where the folds run is the runner's business (``test_dask`` / the runner's tests), not
what is computed.
"""
from __future__ import annotations

import ast
import contextlib
import importlib
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import app_support.aode_weights.model as cache_aode
import app_support.classifier_selection.model as cache_selection
import app_support.compare.model as cache_compare
import app_support.uploads as uploads
from app_support.data import load_sample, sample_bytes, sample_class_column
from app_support.determinacy_curves.figures import determinacy_vs_d_figure, table1_view
from credal_core import NaiveBayes
from credal_core.data.dataset import choose_columns
from credal_core.experiments import compare as compare_module
from credal_core.experiments import engine, summarise
from credal_core.experiments.__main__ import main as cli
from credal_core.experiments.compare import summarise_comparison
from credal_core.experiments.determinacy import run_study
from credal_core.experiments.paper_004 import holdout_with_cv_k
from credal_core.resampling import repeated_holdout
from credal_core.selection.threshold import DEFAULT_K_GRID, DISTANCES, ThresholdSelector

ROOT = Path(__file__).resolve().parents[3]
DETERMINACY_PAGE = ROOT / "pages" / "determinacy_curves.py"
# indicators both the Compare table and the Determinacy grid compute (nbc_i: credal rows only)
SHARED = ["determinacy", "single_accuracy", "set_accuracy", "indeterminate_size", "discounted_accuracy",
          "u65", "u80", "nbc_i"]
NAIVE = ["NBC", "NCC", "NCC_ε=0.05", "LNCC_α=0.75"]
# Compare page label → Determinacy grid setting (the page's ε slider is 0.05, α 0.75, s 1)
GRID_SETTING = {"NBC": "NBC", "NCC_ε=0.05": "NCC_ε=0.05", "NCC": "NCC_ε=0", "LNCC_α=0.75": "LNCC_α=0.75"}
EPS, ALPHA, S = 0.05, 0.75, 1.0


# ---------------------------------------------------------------- the pages' own entry points
@contextlib.contextmanager
def _here(what="run"):
    """``queued_job`` without worker processes: the engine then runs the folds in this process."""
    yield None


@pytest.fixture(autouse=True)
def _in_process(monkeypatch):
    for module in (cache_compare, cache_aode, cache_selection):
        monkeypatch.setattr(module, "queued_job", _here)
    # each test computes afresh (no result cached by an earlier test stands in for its own run)
    for function in (cache_compare.run_comparison, cache_aode.comparison, cache_selection.table2,
                     cache_selection.accuracy_curve):
        function.clear()


def _page_functions(path: Path, names: tuple, monkeypatch) -> dict:
    """Functions defined in a page script (which cannot be imported: it draws the page), compiled from
    the page's own source with its imports; decorators (Streamlit's caches) are left out.  If a function
    has moved to a module the page imports it from, that module's function is used instead."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    namespace: dict = {}
    imports = [node for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))]
    exec(compile(ast.Module(imports, type_ignores=[]), str(path), "exec"), namespace)  # noqa: S102
    out = {}
    for name in names:
        defined = [node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == name]
        if defined:
            node = defined[0]
            node.decorator_list = []
            namespace["queued_job"] = _here
            exec(compile(ast.Module([node], type_ignores=[]), str(path), "exec"), namespace)  # noqa: S102
            out[name] = namespace[name]
            continue
        source = next(node.module for node in imports if isinstance(node, ast.ImportFrom)
                      and any(alias.name == name for alias in node.names))
        module = importlib.import_module(source)
        if hasattr(module, "queued_job"):
            monkeypatch.setattr(module, "queued_job", _here)
        function = getattr(module, name)
        if hasattr(function, "clear"):
            function.clear()
        out[name] = function
    return out


@pytest.fixture
def determinacy_page(monkeypatch):
    """The Determinacy page's ``run_experiment(settings_json)`` and ``summaries(settings_json, results)``."""
    return _page_functions(DETERMINACY_PAGE, ("run_experiment", "summaries"), monkeypatch)


def determinacy_settings(**changes) -> dict:
    """The Determinacy page's settings dict (every widget, as the page builds it)."""
    settings = {"source": "sample", "m": 10, "classes": 2, "theta": 4, "train": 5, "test": 2000,
                "sizes": "25, 50, 100", "eps": [0.0, EPS], "alpha": [ALPHA], "s": S, "inst": True,
                "seed": 3, "data": "weather", "protocol": "cv", "folds": 3, "repeats": 2, "dsizes": ""}
    settings.update(changes)
    return settings


def compare_page_data(name: str):
    """A sample data set as the Compare page takes it: its bytes through ``load_table`` and
    ``choose_columns`` with the page's limits (``load_sample``, the other pages' loader, is pandas)."""
    table, problem = uploads.load_table(sample_bytes(name), f"{name}.csv")
    assert not problem
    return choose_columns(table, sample_class_column(name), max_levels=uploads.LIMITS.max_levels)


def compare_page_run(choice, *, clf, folds=3, repeats=2, seed=3, title="data") -> pd.DataFrame:
    """The Compare page's per-fold table (``run_comparison`` with the page's settings JSON)."""
    protocol = json.dumps({"clf": list(clf), "disc": "mdl", "bins": 5, "missing": "impute", "folds": folds,
                           "repeats": repeats, "seed": seed, "s": S, "eps": EPS, "alpha": ALPHA},
                          sort_keys=True)
    return cache_compare.run_comparison(f"{title}|cols", choice.X, choice.y, tuple(choice.numeric), (),
                                        protocol, title)


def cli_summary(tmp_path, argv) -> pd.DataFrame:
    out = tmp_path / "summary.csv"
    assert cli([*argv, "--jobs", "1", "--csv", str(out)]) == 0
    # pandas 3 reads floats round-trip by default (the written repr gives back the same float)
    return pd.read_csv(out)


def assert_per_fold_equal(compared: pd.DataFrame, swept: pd.DataFrame, n_runs: int, what: str):
    """The Compare page's rows (one per fold and classifier) against the Determinacy grid's (one per
    split and setting), aligned by split."""
    assert (compared["error"] == "").all(), compared["error"].unique()
    for label, setting in GRID_SETTING.items():
        ours = compared[compared["classifier"] == label].reset_index(drop=True)
        theirs = swept[swept["setting"] == setting].sort_values("split").reset_index(drop=True)
        assert len(ours) == len(theirs) == n_runs, (what, label)
        np.testing.assert_array_equal(ours["n_train"], theirs["n_train"], err_msg=f"{what} {label}")
        for key in SHARED if label != "NBC" else SHARED[:-1]:
            # the grid weights distinct test rows by their multiplicity, the Compare page averages
            # every test row: the same sums, added in another order (hence rtol=0, atol=1e-12)
            np.testing.assert_allclose(ours[key].to_numpy(float), theirs[key].to_numpy(float), rtol=0,
                                       atol=1e-12, err_msg=f"{what} {label} {key}")
        if label == "NBC":        # the precise label's accuracy: the Compare table's NBC "accuracy"
            np.testing.assert_allclose(ours["accuracy"], theirs["nbc_accuracy"], rtol=0, atol=1e-12,
                                       err_msg=what)


def assert_summaries_equal(compared: pd.DataFrame, swept: pd.DataFrame, what: str):
    """The Compare page's summary (``summarise_comparison``) against the Determinacy page's (``summarise``
    of the sweep): mean and sd over folds of every shared indicator."""
    ours = summarise_comparison(compared).set_index("classifier")
    theirs = summarise(swept).set_index("setting")
    for label, setting in GRID_SETTING.items():
        for key in SHARED if label != "NBC" else SHARED[:-1]:
            for stat in ("mean", "std"):
                column = f"{key}_{stat}"
                np.testing.assert_allclose(ours.loc[label, column], theirs.loc[setting, column], rtol=0,
                                           atol=1e-12, err_msg=f"{what} {label} {column}")


# ---------------------------------------------------------------- Compare page = Determinacy page
@pytest.mark.parametrize("name", ["balloons", "weather", "monks2"])
def test_compare_page_equals_determinacy_page_cv(name, determinacy_page):
    """Compare page (CSV bytes → ``choose_columns`` → ``run_comparison``: each estimator's ``fit`` /
    ``predict_set``) vs the Determinacy page (``load_sample`` → ``run_experiment`` → ``run_study``:
    counts of integer codes, the grid's dominance tests), 2 × 3-fold CV, seed 3."""
    compared = compare_page_run(compare_page_data(name), clf=NAIVE, title=name)
    settings = json.dumps(determinacy_settings(data=name), sort_keys=True)
    swept = determinacy_page["run_experiment"](settings)
    assert_per_fold_equal(compared, swept, 6, name)
    summary, _ = determinacy_page["summaries"](settings, swept)
    pd.testing.assert_frame_equal(summary, summarise(swept))
    assert_summaries_equal(compared, swept, name)


@pytest.mark.parametrize("name", ["balloons", "monks2"])
def test_compare_page_equals_determinacy_page_holdout(name, determinacy_page, monkeypatch):
    """The Determinacy page's hold-out protocol (3 × stratified 70/30, seed 5: ``run_study`` →
    ``dataset_experiment(protocol="holdout")``) vs the Compare page's whole path with only its split
    protocol swapped for those hold-out splits (the page itself offers k-fold only)."""
    def holdout(labels, *, protocol, n_splits, n_repeats, seed):
        assert protocol == "cv"
        return engine.make_splits(labels, protocol="holdout", n_repeats=n_repeats, test_size=0.3, seed=seed)

    monkeypatch.setattr(compare_module, "make_splits", holdout)
    compared = compare_page_run(compare_page_data(name), clf=NAIVE, repeats=3, seed=5, title=name)
    settings = json.dumps(determinacy_settings(data=name, protocol="holdout", repeats=3, seed=5),
                          sort_keys=True)
    swept = determinacy_page["run_experiment"](settings)
    assert set(swept["d"]) == {int(np.median(compared["n_train"]))}
    assert_per_fold_equal(compared, swept, 3, name)
    assert_summaries_equal(compared, swept, name)


def _rare_values() -> bytes:
    """Random categorical data in which some values occur once: in the fold that tests them, the
    training rows have not seen them, so the |F_j| policy matters (values seen vs declared)."""
    rng = np.random.default_rng(7)
    X = pd.DataFrame({f"f{j}": rng.choice(list("abc"), size=45).astype(object) for j in range(4)})
    X.loc[[3, 17, 30], "f1"] = ["rare1", "rare2", "rare3"]
    X.loc[[8], "f2"] = "once"
    X["class"] = rng.choice(["x", "y", "z"], size=45, p=[0.5, 0.3, 0.2])
    return X.to_csv(index=False).encode()


def test_unseen_values_compare_page_equals_determinacy_core():
    """Values unseen by a training fold: an uploaded CSV on the Compare page vs the same table through
    ``run_study`` (the Determinacy page's core call; the page itself offers the samples only)."""
    table, problem = uploads.load_table(_rare_values(), "rare.csv")
    assert not problem
    choice = choose_columns(table, "class")
    compared = compare_page_run(choice, clf=NAIVE, folds=5, title="rare")
    swept = run_study(determinacy_settings(folds=5), choice.X, choice.y)
    assert_per_fold_equal(compared, swept, 10, "rare")
    assert_summaries_equal(compared, swept, "rare")


# ---------------------------------------------------------------- declared categories (ARFF)
def _weather_arff(classes: str, outlook: str) -> bytes:
    frame = pd.read_csv(ROOT / "sample_data" / "weather.csv", dtype=str)
    header = ["@relation weather", f"@attribute outlook {{{outlook}}}",
              "@attribute temperature {hot,mild,cool}", "@attribute humidity {high,normal}",
              "@attribute windy {true,false}", f"@attribute play {{{classes}}}", "@data"]
    return "\n".join(header + [",".join(row) for row in frame.itertuples(index=False)]).encode() + b"\n"


def _arff_paths(data: bytes, tmp_path, determinacy_settings_changes: dict):
    table, problem = uploads.load_table(data, "weather.arff")
    assert not problem and table.format == "arff"
    choice = choose_columns(table, "play")
    compared = compare_page_run(choice, clf=NAIVE, title="weather.arff")
    swept = run_study(determinacy_settings(**determinacy_settings_changes), choice.X, choice.y)
    path = tmp_path / "weather.arff"
    path.write_bytes(data)
    written = cli_summary(tmp_path, ["compare", str(path), "--classifiers", ",".join(NAIVE), "--folds", "3",
                                     "--repeats", "2", "--seed", "3"])
    return choice, compared, swept, written


def test_declared_empty_class_is_a_class_on_every_path(tmp_path):
    """An ARFF class column declaring a class without rows (``maybe``): a Categorical ``y`` whose
    categories are the declared classes on every path — Compare page (``compare_classifiers``) vs
    ``run_study`` (``dataset_experiment``, the Determinacy page's core call), per fold; and the command
    line's summary of the ``.arff`` file vs the Compare page's.

    Before f45a84d ("a Categorical y declares its categories as classes in every fit") the sweep dropped
    ``maybe`` and this test failed: NCC_ε=0.05 determinacy per fold 0, .2, 0, .6, .4, 0 (sweep) against
    0 on every fold (Compare)."""
    choice, compared, swept, written = _arff_paths(_weather_arff("yes,no,maybe", "sunny,overcast,rainy"),
                                                   tmp_path, {})
    assert isinstance(choice.y.dtype, pd.CategoricalDtype) and "maybe" in choice.y.cat.categories
    assert (choice.y != "maybe").all()
    pd.testing.assert_frame_equal(written, summarise_comparison(compared).reset_index(drop=True),
                                  check_dtype=False, check_exact=True)
    assert_per_fold_equal(compared, swept, 6, "declared empty class")
    assert_summaries_equal(compared, swept, "declared empty class")


def test_declared_unseen_feature_value_keeps_the_seen_policy(tmp_path):
    """An ARFF feature declaring a value without rows (``foggy``): every path counts the values seen in
    the training fold (|F_j| of Perks' prior), Compare page vs ``run_study`` per fold, and the command
    line's summary vs the Compare page's."""
    choice, compared, swept, written = _arff_paths(_weather_arff("yes,no", "sunny,overcast,rainy,foggy"),
                                                   tmp_path, {})
    assert "foggy" in choice.X["outlook"].cat.categories
    pd.testing.assert_frame_equal(written, summarise_comparison(compared).reset_index(drop=True),
                                  check_dtype=False, check_exact=True)
    assert_per_fold_equal(compared, swept, 6, "declared unseen value")
    assert_summaries_equal(compared, swept, "declared unseen value")


# ---------------------------------------------------------------- AODE page = Compare page = CLI
def test_aode_page_equals_compare_page_and_command_line(tmp_path):
    """The AODE weights page's comparison (``cached_sample`` → ``aode_specs(ε)`` → summary) vs the Compare
    page (CSV bytes → ``cache_compare.specs`` → ``run_comparison`` → ``summarise_comparison``) vs the
    command line's ``compare`` (its own loader, ``available_classifiers``, the summary CSV): the five
    AODE-family classifiers at the product's ε = 0.01, 2 × 3-fold CV, seed 0 (the AODE page's)."""
    family = list(cache_aode.AODE_FAMILY)
    aode_page = cache_aode.comparison("balloons", 0.01, 3, 2)
    compared = compare_page_run(compare_page_data("balloons"), clf=family, seed=0, title="balloons")
    assert (compared["error"] == "").all()
    compare_page = summarise_comparison(compared)
    pd.testing.assert_frame_equal(aode_page, compare_page, check_exact=True)
    written = cli_summary(tmp_path, ["compare", str(ROOT / "sample_data" / "balloons.csv"), "--classifiers",
                                     ",".join(family), "--folds", "3", "--repeats", "2", "--seed", "0"])
    pd.testing.assert_frame_equal(written, aode_page.reset_index(drop=True), check_dtype=False,
                                  check_exact=True)
    assert aode_page["classifier"].tolist() == family and (aode_page["folds"] == 6).all()
    assert aode_page["determinacy_mean"].between(0, 1).all()


# ---------------------------------------------------------------- Compare page = CLI (every classifier)
@pytest.mark.parametrize("name", ["iris", "weather"])
def test_compare_page_equals_command_line(name, tmp_path):
    """Every classifier of the product (incl. the selector of 004) on a sample the page offers, numeric
    columns discretised inside each fold (iris): the Compare page (``load_table`` with its limits, its
    class column, ``cache_compare.specs`` with the page's s, ε, α) vs ``python -m credal_core.experiments
    compare`` (its own loader and class-column guess, ``available_classifiers``): the summary CSV."""
    labels = [spec.label for spec in compare_module.available_classifiers()]
    compared = compare_page_run(compare_page_data(name), clf=labels, seed=1, title=name)
    written = cli_summary(tmp_path, ["compare", str(ROOT / "sample_data" / f"{name}.csv"), "--folds", "3",
                                     "--repeats", "2", "--seed", "1"])
    pd.testing.assert_frame_equal(written, summarise_comparison(compared).reset_index(drop=True),
                                  check_dtype=False, check_exact=True)
    assert written["classifier"].tolist() == labels


# ---------------------------------------------------------------- Classifier selection page
F1, F2 = cache_selection.PAPER_SUBSETS["balloons"]


def _selection_data():
    X, y = load_sample("balloons")
    return X, np.asarray(y)


def test_selection_page_table2_equals_the_public_estimators():
    """The Classifier selection page's Table 2 (``table2`` → ``comparison_table`` → ``holdout_with_cv_k``:
    004's split-level kernels on the encoded data) vs the public estimators fitted on each of the same
    unstratified 70/30 splits: ``NaiveBayes(prior="laplace")`` on each subset (C1, C2) and
    ``ThresholdSelector(k="cv")`` per distance — accuracy and chosen k per split, and the page's means."""
    n_repeats = 3
    page = cache_selection.table2("balloons", F1, F2, n_repeats, "resubstitution")
    ours = page[page["source"] == "ours"].iloc[0]
    X, y = _selection_data()
    # the per-split rows under the page's table (its means are checked against ours below)
    runs = holdout_with_cv_k(X, y, features_1=list(F1), features_2=list(F2), n_repeats=n_repeats, seed=0,
                             training_thresholds="resubstitution")
    public = []
    splits = repeated_holdout(y, n_repeats=n_repeats, test_size=0.3, stratify=False, seed=0)
    for run, (train, test) in enumerate(splits):
        for label, features in (("C1", F1), ("C2", F2)):
            model = NaiveBayes(prior="laplace").fit(X.iloc[train][list(features)], y[train])
            public.append({"run": run, "classifier": label, "k": 0,
                           "accuracy": np.mean(model.predict(X.iloc[test][list(features)]) == y[test])})
        for distance, label in zip(DISTANCES, ("selector (Euclidean)", "selector (Chebyshev)")):
            selector = ThresholdSelector(features_1=list(F1), features_2=list(F2), k="cv", distance=distance,
                                         training_thresholds="resubstitution", random_state=0)
            selector.fit(X.iloc[train], y[train])
            public.append({"run": run, "classifier": label, "k": selector.k_,
                           "accuracy": np.mean(selector.predict(X.iloc[test]) == y[test])})
    public = pd.DataFrame(public)
    key = ["classifier", "run"]
    runs, public = (frame.sort_values(key).reset_index(drop=True) for frame in (runs, public))
    np.testing.assert_array_equal(runs[key].to_numpy(), public[key].to_numpy())
    np.testing.assert_array_equal(runs["k"], public["k"])
    np.testing.assert_array_equal(runs["accuracy"], public["accuracy"])
    means = public.groupby("classifier")["accuracy"].mean()
    for label in ("C1", "C2", "selector (Euclidean)", "selector (Chebyshev)"):
        # the same three accuracies, averaged by pandas over frames ordered differently (the page's is in
        # run order, ours sorted): the last bit may differ (seen: 0.7536231884057972 vs …797), so rtol=0
        np.testing.assert_allclose(ours[label], means[label], rtol=0, atol=1e-15, err_msg=label)
    k = public.groupby("classifier")["k"].median()
    assert ours["median k"] == f"{k['selector (Euclidean)']:g} / {k['selector (Chebyshev)']:g}"


def test_selection_page_accuracy_curve_equals_the_public_selector():
    """The page's Fig. 3 (``accuracy_curve`` → ``accuracy_vs_k``: every k from one neighbourhood pass)
    vs ``NaiveBayes(prior="laplace")`` (C1, C2) and ``ThresholdSelector(k=k)`` fitted for each k on each
    of the same splits: mean and sd (ddof 1) of the test accuracy over splits, per (classifier, k)."""
    n_repeats, ks = 3, (2, 3, 7, 20)
    page = cache_selection.accuracy_curve("balloons", F1, F2, n_repeats, "cross_validation")
    X, y = _selection_data()
    rows = []
    for train, test in repeated_holdout(y, n_repeats=n_repeats, test_size=0.3, stratify=False, seed=0):
        for label, features in (("C1", list(F1)), ("C2", list(F2))):       # the same for every k
            model = NaiveBayes(prior="laplace").fit(X.iloc[train][features], y[train])
            accuracy = np.mean(model.predict(X.iloc[test][features]) == y[test])
            rows += [{"classifier": label, "k": k, "accuracy": accuracy} for k in ks]
        for distance, label in zip(DISTANCES, ("selector (Euclidean)", "selector (Chebyshev)")):
            for k in ks:
                selector = ThresholdSelector(features_1=list(F1), features_2=list(F2), k=k, distance=distance,
                                             training_thresholds="cross_validation", random_state=0)
                predicted = selector.fit(X.iloc[train], y[train]).predict(X.iloc[test])
                rows.append({"classifier": label, "k": k, "accuracy": np.mean(predicted == y[test])})
    public = pd.DataFrame(rows).groupby(["classifier", "k"])["accuracy"]
    shown = page.set_index(["classifier", "k"])
    assert set(page["k"]) == set(DEFAULT_K_GRID) and (page["n_runs"] == n_repeats).all()
    for (label, k), accuracies in public:
        values = accuracies.to_numpy()
        # the page averages with pandas' groupby, we with numpy: three terms, maybe in another order
        np.testing.assert_allclose(shown.loc[(label, k), "accuracy"], values.mean(), rtol=0, atol=1e-15,
                                   err_msg=f"{label} k={k}")
        np.testing.assert_allclose(shown.loc[(label, k), "std"], values.std(ddof=1), rtol=0, atol=1e-15,
                                   err_msg=f"{label} k={k}")


# ---------------------------------------------------------------- CLI table1 / fig5 = Determinacy page
ARTIFICIAL = {"m": 10, "classes": 2, "theta": 2, "train": 3, "test": 300, "sizes": "25, 50",
              "eps": [0.05, 0.25], "alpha": [0.75, 0.95], "s": 1.0, "inst": True, "seed": 4}
CLI_ARTIFICIAL = ["--n-theta", "2", "--n-train", "3", "--n-test", "300", "--sizes", "25,50",
                  "--epsilons", "0.05,0.25", "--alphas", "0.75,0.95", "--seed", "4", "--jobs", "1"]


def _printed_block(text: str, title: str) -> list[list[str]]:
    """The whitespace-split rows of the table printed after ``title`` (header and blank line excluded)."""
    lines = text.split(title, 1)[1].splitlines()[1:]
    body = []
    for line in lines[1:]:
        if not line.strip():
            break
        body.append(line.split())
    return body


@pytest.mark.parametrize("what", ["table1", "fig5"])
def test_command_line_equals_determinacy_page_artificial(what, determinacy_page, capsys, tmp_path):
    """``python -m credal_core.experiments table1`` / ``fig5`` (argparse's grid, its runs CSV, its printed
    ``table1`` / ``determinacy_by_d``) vs the Determinacy page with the artificial source (``run_experiment``
    → ``run_study``; ``summaries`` → ``table1_view`` / ``determinacy_vs_d_figure``): every run's
    indicators exactly, and the printed one-decimal percentages the page shows."""
    settings = json.dumps(determinacy_settings(source="artificial", **ARTIFICIAL), sort_keys=True)
    page_runs = determinacy_page["run_experiment"](settings)
    summary, close = determinacy_page["summaries"](settings, page_runs)
    runs_csv = tmp_path / "runs.csv"
    assert cli([what, *CLI_ARTIFICIAL, "--csv", str(runs_csv)]) == 0
    printed = capsys.readouterr().out
    written = pd.read_csv(runs_csv)
    pd.testing.assert_frame_equal(written, page_runs, check_dtype=False, check_exact=True)
    one = "{:.1f}".format
    if what == "table1":
        view = table1_view(summary, close).set_index(["classifier", "d"])
        rows = _printed_block(printed, "Table 1 (%): ours | paper")
        assert len(rows) == 4            # NCC_ε=0.25 / LNCC_α=0.75 at d=25; NCC_ε=0.05 / LNCC_α=0.75 at 50
        for setting, d, det, _, sgl, _, dacc, _, nbci, _ in rows:
            shown = view.loc[(setting, int(d))]
            page_cells = [one(shown[c]) for c in ("Det", "Sgl-acc", "D-acc", "NBC-I")]
            assert [det, sgl, dacc, nbci] == page_cells, setting
    else:
        figure = determinacy_vs_d_figure(summary)
        block = _printed_block(printed, "Fig. 5: determinacy (%) against the sample size d")
        rows = {row[0]: row[1:] for row in block if row[0] != "setting"}
        traces = {trace.name: [one(v) for v in trace.y] for trace in figure.data}
        assert list(figure.data[0].x) == [25, 50]
        assert rows == traces


# ---------------------------------------------------------------- the |F_j| policy, unit level
def test_seen_values_policy_equals_fit_on_the_training_rows():
    """The engine's integer-code path under the "seen" policy is the estimator's own fit, to the
    probability; the "declared" policy (every value of the file) is not — the test can tell them apart."""
    from credal_core.data.counts import CountTables
    from credal_core.experiments.sweeps import encode_dataset, seen_values_only

    table, _ = uploads.load_table(_rare_values(), "rare.csv")
    choice = choose_columns(table, "class")
    X, y = choice.X.reset_index(drop=True), choice.y.reset_index(drop=True)
    data = encode_dataset(X, y)
    test = np.array([3, 17, 30, 8, 0, 1])
    train = np.setdiff1d(np.arange(len(y)), test)
    declared = CountTables.from_codes(data.X[train], data.y[train], data.n_values, len(data.classes))
    seen, codes = seen_values_only(declared, data.X[test])
    fitted = NaiveBayes(s=1.0).fit(X.iloc[train], y.iloc[train])
    expected = fitted.predict_log_proba(X.iloc[test])
    via_codes = NaiveBayes(s=1.0).fit_counts(seen)
    jll = via_codes._joint_log_likelihood(codes).T
    np.testing.assert_allclose(jll - np.logaddexp.reduce(jll, axis=1, keepdims=True), expected, atol=1e-12)
    assert (codes[:4, [1, 1, 1, 2]].diagonal() == -1).all()          # values unseen in training
    jll_declared = NaiveBayes(s=1.0).fit_counts(declared)._joint_log_likelihood(data.X[test]).T
    assert not np.allclose(jll_declared - np.logaddexp.reduce(jll_declared, axis=1, keepdims=True), expected)


# ----------------------------------------------------------------------------- Home page
@pytest.mark.parametrize("s", [0.5, 1.0, 2.0, 5.0])
def test_home_page_example_equals_the_engine_on_its_split(s):
    """The Home page's live example (app_support.home.model → holdout_example: one fixed split, the
    per-instance sets it draws) against the engine's Compare fold function (compare.run_fold through
    engine.run_folds) on the same split: the NCC(s) indicators and the NBC's accuracy agree."""
    import app_support.home.model as cache_home
    from credal_core.experiments.compare import ClassifierSpec, ComparisonData, ComparisonSettings, run_fold
    from credal_core.experiments.holdout_example import holdout_example

    X, y = load_sample(cache_home.SAMPLE)
    home = holdout_example(X, y, cache_home.N_TRAIN, (s,))[s]
    n = len(y)
    split = engine.Split(np.arange(cache_home.N_TRAIN), np.arange(cache_home.N_TRAIN, n), 0, 0, 0)
    labels = np.asarray(y, dtype=object).astype(str)
    specs = (ClassifierSpec("NBC", "NaiveBayes", {"s": 1.0}), ClassifierSpec("NCC", "NCC", {"s": s}))
    prep = {"numeric": [], "discretiser": "mdl", "n_bins": 5, "missing": "ignore", "non_mar": []}
    rows = engine.run_folds(run_fold, ComparisonData(X.reset_index(drop=True), labels, np.unique(labels)),
                            [split], ComparisonSettings(prep, specs))
    ncc = rows[rows["classifier"] == "NCC"].iloc[0]
    nbc = rows[rows["classifier"] == "NBC"].iloc[0]
    for key in ("determinacy", "single_accuracy", "set_accuracy", "discounted_accuracy", "u65", "u80"):
        assert ncc[key] == pytest.approx(home["scores"][key], rel=0, abs=1e-12), key
    assert nbc["accuracy"] == pytest.approx(home["split"]["accuracy"], rel=0, abs=1e-12)
    if s == 1.0:        # the NCC's own label is the NBC's at its s: NBC-I agrees where the two priors match
        assert ncc["nbc_i"] == pytest.approx(home["split"]["accuracy_indeterminate"], rel=0, abs=1e-12,
                                             nan_ok=True)
