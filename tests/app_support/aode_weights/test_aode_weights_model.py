"""The AODE page's cached computations: the comparison is the evaluation engine's, nothing else."""
from __future__ import annotations

import contextlib
import functools

import numpy as np
import pandas as pd
import plotly.io as pio
import plotly.tools as tools
import pytest

import app_support.aode_weights.model as cache
from app_support.aode_weights.figures import compression_figure, fmt, text_table, weights_figure
from app_support.data import load_sample
from app_support.figures import shared_figure
from credal_core.aode.summary import instance_explanation, spode_table
from credal_core.experiments.compare import compare_classifiers, summarise_comparison


def test_the_five_classifiers_carry_the_pages_epsilon_where_they_have_one():
    specs = cache.aode_specs(0.03)
    assert tuple(s.label for s in specs) == cache.AODE_FAMILY
    with_eps = {s.label for s in specs if s.params.get("epsilon") == 0.03}
    assert with_eps == {"COMP-AODE", "BMA-AODE*", "COMP-AODE*"}
    assert all("epsilon" not in s.params for s in specs if s.label in ("AODE", "BMA-AODE"))
    assert specs[4].make().epsilon == 0.03


def test_the_comparison_is_the_engines_mean_over_folds(monkeypatch):
    @contextlib.contextmanager
    def here(what):            # no worker processes in a unit test: the engine runs in this process
        yield None

    monkeypatch.setattr(cache, "queued_job", here)
    got = cache.comparison("weather", 0.02, 3, 2)
    X, y = load_sample("weather")
    runs = compare_classifiers(X, y, specs=cache.aode_specs(0.02), n_splits=3, n_repeats=2, seed=0)
    pd.testing.assert_frame_equal(got, summarise_comparison(runs))
    assert got["classifier"].tolist() == list(cache.AODE_FAMILY) and (got["folds"] == 6).all()
    per_fold = runs[runs["classifier"] == "BMA-AODE*"]["u65"]
    # the mean of the folds' u65, not u65 of all predictions pooled
    assert got.set_index("classifier").loc["BMA-AODE*", "u65_mean"] == pytest.approx(per_fold.mean())
    view = cache.comparison_view(got)
    assert view.columns.tolist() == ["classifier", "accuracy", "brier", "determinacy", "single acc.",
                                     "set acc.", "indet. size", "disc. acc.", "u65", "u80", "folds"]
    assert "±" in view.loc[0, "accuracy"] and "nan" not in view.to_string().lower()


def test_cells_say_mean_and_sd_or_a_dash():
    summary = pd.DataFrame({"classifier": ["a"], "folds": [3],
                            **{f"{k}_{w}": [v] for k in cache.SHOWN_INDICATORS
                               for w, v in (("mean", 0.5), ("std", 0.1))}})
    summary["set_accuracy_mean"], summary["u65_std"] = np.nan, np.nan
    row = cache.comparison_view(summary).iloc[0]
    assert row["accuracy"] == "0.500 ± 0.100" and row["set acc."] == "—" and row["u65"] == "0.500"


def test_a_shared_figure_sends_the_same_chart():
    X, y = load_sample("weather")
    table = pd.DataFrame({"super_parent": list(X.columns), "bma_weight": [0.1, 0.2, 0.3, 0.4],
                          "comp_weight": [0.25] * 4})
    plain, shared = weights_figure(table), shared_figure(weights_figure(table))

    def sent(fig):           # what st.plotly_chart puts in the page
        return pio.to_json(tools.return_figure_from_figure_or_data(fig, validate_figure=True), validate=False)

    assert sent(shared) == sent(plain)
    assert shared.to_dict() is shared.to_dict()          # built once


# ---------------------------------------------------------------- one fit per (data, n), a copy per ε
@functools.lru_cache(maxsize=None)
def _training_part(name, n_train):
    """The page's training rows of ``name`` as text values (read once per process: the ε sweeps below
    fit on them a hundred times; the models do not modify their input)."""
    X, y = load_sample(name)
    rows = cache.training_rows(name, n_train)
    return X.iloc[rows], y.iloc[rows]


def _direct(name, n_train, epsilon):
    """The models as the page fitted them before: on the text values, at this ε."""
    from credal_core.aode import CredalBMAAODE, CredalCompAODE

    X, y = _training_part(name, n_train)
    return CredalBMAAODE(epsilon=epsilon).fit(X, y), CredalCompAODE(epsilon=epsilon).fit(X, y)


def _same_tables(got, want):
    """The same count tables, on the same (text) categories: the models encoded the values themselves."""
    np.testing.assert_array_equal(got.classes, want.classes)
    np.testing.assert_array_equal(got.feature_names, want.feature_names)
    np.testing.assert_array_equal(got.class_counts, want.class_counts)
    for a, b in zip(got.categories, want.categories, strict=True):
        np.testing.assert_array_equal(a, b)
        assert all(isinstance(v, str) for v in a)
    for a, b in zip(got.feature_counts, want.feature_counts, strict=True):
        np.testing.assert_array_equal(a, b)


def _same_attributes(got, want):
    assert set(vars(got)) == set(vars(want))
    _same_tables(got.tables_, want.tables_)
    for key, value in vars(want).items():
        if key in ("tables_", "spodes_"):
            continue
        other = getattr(got, key)
        if isinstance(value, np.ndarray):
            np.testing.assert_array_equal(other, value, err_msg=key)
        elif isinstance(value, (list, tuple)):            # per-feature arrays (feature_count_)
            assert len(other) == len(value), key
            for a, b in zip(other, value):
                np.testing.assert_array_equal(a, b, err_msg=key)
        else:
            assert other == value, key


@pytest.mark.parametrize("name,n_train", [("synthetic_nb", 300), ("synthetic_nb", 10), ("weather", 14),
                                          ("weather", 5)])
def test_every_epsilon_of_the_slider_gives_the_models_of_a_direct_fit(name, n_train):
    grid = np.round(np.arange(cache.EPS_MIN, cache.EPS_MAX + cache.EPS_STEP / 2, cache.EPS_STEP), 3)
    k = len(load_sample(name)[0].columns)
    for epsilon in grid:
        epsilon = float(epsilon)
        try:
            want = _direct(name, n_train, epsilon)
        except ValueError as problem:          # too large for the credal sets: the same error
            with pytest.raises(ValueError, match=str(problem).split(":")[0]):
                cache.fitted(name, n_train, epsilon)
            assert (k + 1) * epsilon > 1 or int(_direct(name, n_train, 0.001)[0].kept_.sum()) * epsilon > 1
            continue
        got = cache.fitted(name, n_train, epsilon)
        for g, w in zip(got, want):
            _same_attributes(g, w)
        view, direct = cache.weights_view(name, n_train, epsilon), spode_table(*want)
        pd.testing.assert_frame_equal(view["table"], direct)
        assert list(view["text"].columns) == [cache.SPODE_COLUMNS[c] for c in direct.columns]
        cells = direct.astype(object).to_numpy()
        assert view["text"].to_numpy().tolist() == [[fmt(v) for v in row] for row in cells]


@pytest.mark.parametrize("name,n_train,epsilon", [("synthetic_nb", 300, 0.01), ("synthetic_nb", 12, 0.057),
                                                  ("weather", 14, 0.1), ("weather", 6, 0.003)])
def test_the_instance_view_is_that_of_a_direct_fit_on_the_text_values(name, n_train, epsilon):
    X, y = load_sample(name)
    bma, comp = _direct(name, n_train, epsilon)
    for row in range(0, len(X), max(1, len(X) // 12)):
        x = X.iloc[[row]]
        info = instance_explanation(bma, comp, x)
        view = cache.instance_view(name, n_train, epsilon, row)
        pairs = info["pairs"].copy()
        pairs["comp_prior"] = [("—" if p is None else ", ".join(f"{v:.3f}" for v in p))
                               for p in pairs["comp_prior"]]
        assert view["pairs"].to_numpy().tolist() == text_table(pairs).to_numpy().tolist()
        assert list(view["pairs"].columns) == [cache.PAIR_COLUMNS[c] for c in pairs.columns]
        assert view["bma_set"] == info["bma_set"] and view["comp_set"] == info["comp_set"]
        for key, model in (("bma", bma), ("comp", comp)):
            proba = model.predict_proba(x)[0]
            assert view[key] == (str(model.classes_[proba.argmax()]), float(proba.max()))
        bars = view["posteriors"].to_dict()["data"]
        assert [b["name"] for b in bars] == [f"P({c} | x, s_j)" for c in info["posteriors"].columns]
        for bar, cls in zip(bars, info["posteriors"].columns):
            assert bar["x"] == info["posteriors"].index.tolist()
            assert bar["y"] == info["posteriors"][cls].tolist()
        assert view["truth"] == str(y.iloc[row])


def _sent(fig):
    """The chart st.plotly_chart sends, typed arrays decoded (plotly encodes numpy arrays as base64)."""
    import json

    from tests.pages._apptest import plotly_array

    def plain(value):
        if isinstance(value, dict):
            if set(value) == {"dtype", "bdata"}:
                return plotly_array(value).tolist()
            if set(value) == {"dtype", "bdata", "shape"}:
                shape = [int(v) for v in str(value["shape"]).split(",")]
                return plotly_array(value).reshape(shape).tolist()
            return {k: plain(v) for k, v in value.items()}
        if isinstance(value, list):
            return [plain(v) for v in value]
        return value

    return plain(json.loads(pio.to_json(tools.return_figure_from_figure_or_data(fig, validate_figure=True),
                                        validate=False)))


def test_declared_figures_send_what_plotly_validates():
    table = cache.weights_view("synthetic_nb", 40, 0.02)["table"]
    view = cache.instance_view("synthetic_nb", 40, 0.02, 3)
    for fig in (weights_figure(table), compression_figure(table), view["posteriors"]):
        assert _sent(fig) == _sent(fig.validated())


def test_text_table_formats_every_cell_as_fmt_does():
    view = cache.instance_view("weather", 14, 0.05, 2)
    tables = [cache.weights_view("synthetic_nb", 50, 0.03)["table"],
              pd.DataFrame({"a": [0.12345, np.nan, None], "b": [True, False, True], "c": [1, 2, 3],
                            "d": ["x", None, "z"]}, index=[5, 6, 7])]
    for frame in tables:
        got = text_table(frame)
        assert got.index.equals(frame.index) and list(got.columns) == list(frame.columns)
        for col in frame.columns:
            assert got[col].tolist() == [fmt(v) for v in frame[col].astype(object)]
    assert text_table(tables[1]).loc[6].tolist() == ["—", "no", "2", "—"]
    assert "nan" not in view["pairs"].to_string().lower()


@pytest.mark.parametrize("name,n_train", [("synthetic_nb", 300), ("weather", 5)])
def test_the_spode_tables_are_counted_once_and_equal_a_fresh_count(name, n_train):
    bma, comp = cache._fitted_base(name, n_train)
    assert bma.spodes_ is comp.spodes_                     # BMA-AODE* adopted COMP-AODE*'s tables
    fresh_bma, fresh_comp = _direct(name, n_train, cache.EPS_MIN)
    for got, want in ((bma, fresh_bma), (comp, fresh_comp)):
        _same_attributes(got, want)
        np.testing.assert_array_equal(got.spodes_.log_likelihoods, want.spodes_.log_likelihoods)
        np.testing.assert_array_equal(got.predict_proba(_training_part(name, n_train)[0]),
                                      want.predict_proba(_training_part(name, n_train)[0]))


def test_the_eps_steps_are_the_sliders_nearest_first_and_fill_the_pages_caches(monkeypatch):
    grid = np.round(np.arange(cache.EPS_MIN, cache.EPS_MAX + cache.EPS_STEP / 2, cache.EPS_STEP), 3)
    assert list(cache.EPS_GRID) == [float(e) for e in grid]
    seen = []
    monkeypatch.setattr(cache, "weights_view", lambda name, n, eps: seen.append(eps))
    monkeypatch.setattr(cache, "instance_view", lambda name, n, eps, row: seen.append((eps, row)))
    steps = cache.eps_steps("weather", 14, 0.01, 0)
    assert len(steps) == len(cache.EPS_GRID) - 1                      # every other step of the slider
    for step in steps[:3]:
        step()
    assert seen == [0.009, (0.009, 0), 0.011, (0.011, 0), 0.008, (0.008, 0)]

    def too_large(name, n, eps):
        raise ValueError("(k+1)·ε > 1")
    monkeypatch.setattr(cache, "weights_view", too_large)
    steps[0]()                                                         # skipped, as the page says so
