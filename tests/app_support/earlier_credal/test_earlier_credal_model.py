"""The page "Credal model averaging, trees and the reject option" shows the core's numbers: each view is
checked against the estimators called directly (no number recomputed here), and the tree walk of the
page against the CDT's own intervals."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from app_support.data import load_sample, sample_names
from app_support.earlier_credal.model import (
    D_GRID,
    EPS_GRID,
    REJECT_MODELS,
    S_GRID,
    fold_data,
    inclusion_view,
    instance_view,
    integer_coded,
    model_folds,
    path_to,
    reject_section,
    reject_view,
    tree_view,
    url_state,
)
from credal_core.aode import CredalBMAAODE, CredalCompAODE
from credal_core.aode.summary import spode_table
from credal_core.model_averaging import CMA
from credal_core.reject import reject_costs_of
from credal_core.tree import CredalDecisionTree


def test_url_state_defaults_and_bounds():
    state = url_state(14)
    values = state.read({"row": "13", "d": "0.7", "depth": "x"})
    assert values["row"] == 13 and values["data"] == "weather"
    assert values["d"] == 0.2 and values["depth"] == 3                 # out of range / malformed: default
    assert state.read({"row": "14"})["row"] == 0


def test_inclusion_view_is_cmas_interval_and_the_spode_weights():
    X, y = load_sample("weather")
    inclusion, spodes = inclusion_view("weather", 1.0, 0.01)
    cma = CMA(s=1.0).fit(X, y)
    assert inclusion["feature"].tolist() == list(X.columns)
    np.testing.assert_allclose(inclusion[["lower", "upper"]].to_numpy(), cma.inclusion_interval_)
    np.testing.assert_allclose(inclusion["bma"], cma.inclusion_probability_)
    assert (inclusion["lower"] <= inclusion["bma"] + 1e-12).all() and (inclusion["bma"] <= inclusion["upper"]
                                                                        + 1e-12).all()
    table = spode_table(CredalBMAAODE(epsilon=0.01).fit(X, y), CredalCompAODE(epsilon=0.01).fit(X, y))
    assert spodes["super_parent"].tolist() == list(X.columns)
    np.testing.assert_allclose(spodes[["bma_weight", "comp_weight"]], table[["bma_weight", "comp_weight"]])
    assert spodes["bma_weight"].sum() == pytest.approx(1.0)


@pytest.mark.parametrize("name", ["weather", "balloons", "tic_tac_toe"])
def test_the_tree_walk_ends_where_the_cdt_answers(name):
    X, y = load_sample(name)
    cdt = CredalDecisionTree(s=1.0).fit(X, y)
    frame = tree_view(name, 1.0)
    pd.testing.assert_frame_equal(frame, cdt.tree_frame())
    classes = [str(c) for c in cdt.classes_]
    for row in range(0, len(X), max(1, len(X) // 25)):
        view = instance_view(name, 1.0, row)
        path = view["path"]
        assert path[0] == int(frame.loc[frame["parent"] < 0, "node"].iloc[0])
        nodes = frame.set_index("node")
        assert all(nodes.loc[child, "parent"] == parent for parent, child in zip(path, path[1:]))
        last = frame.set_index("node").loc[path[-1]]
        counts = np.array([last[f"n({c})"] for c in classes])
        lower, upper = cdt.intervals(X.iloc[[row]])
        np.testing.assert_allclose(lower[0], counts / (counts.sum() + 1.0))        # the node reached
        np.testing.assert_allclose(view["intervals"]["upper"], upper[0])
        members = np.asarray(cdt.predict_set(X.iloc[[row]]))[0]
        assert view["set"] == [c for c, m in zip(classes, members) if m]
        assert view["truth"] == str(y.iloc[row])


def test_the_walk_stops_at_an_unseen_value():
    frame = tree_view("weather", 1.0)
    root = int(frame.loc[frame["parent"] < 0, "node"].iloc[0])
    unseen = {c: "never seen" for c in ("outlook", "temperature", "humidity", "windy")}
    assert path_to(frame, unseen) == [root]


def test_reject_view_is_the_mean_of_reject_costs_of_over_the_folds():
    frame = reject_view("weather", 1.0, 0.01, n_splits=2)
    assert set(frame["model"]) == set(REJECT_MODELS)               # the NCC included
    assert sorted(frame["d"].unique()) == list(D_GRID)
    assert frame["cost"].between(0, 1).all()
    # the CDT's line, recomputed from the core call on the same folds
    from credal_core.data.counts import labels_as_text
    from credal_core.experiments.engine import make_splits
    X, y = load_sample("weather")
    labels, classes = labels_as_text(y)
    parts = [reject_costs_of(CredalDecisionTree(s=1.0).fit(X.iloc[s.train], labels[s.train], classes=classes),
                             X.iloc[s.test], labels[s.test], list(D_GRID))
             for s in make_splits(labels, protocol="cv", n_splits=2, n_repeats=1, seed=0)]
    expected = pd.concat(parts).groupby(["d", "classifier"])["cost"].mean()
    got = frame[frame["model"] == "CDT"].set_index(["d", "classifier"])["cost"]
    pd.testing.assert_series_equal(got.sort_index(), expected.sort_index(), check_names=False)


def test_reject_view_includes_the_ncc_with_three_classes():
    """The NCC's exact lower posteriors with more than two classes (credal_core.reject) put it in the
    reject option beside the others, its costs in [0, 1] at every d."""
    assert "synthetic_nb" in sample_names()
    frame = reject_view("synthetic_nb", 1.0, 0.01, n_splits=2)
    assert set(frame["model"]) == set(REJECT_MODELS)
    ncc = frame[frame["model"] == "NCC"]
    assert sorted(ncc["d"].unique()) == list(D_GRID) and ncc["cost"].between(0, 1).all()


def _one_loop_reject_view(name: str, s: float, eps: float, n_splits: int) -> pd.DataFrame:
    """The reject option as one loop over the folds and, in each, the models (the definition), from the
    core calls directly."""
    from credal_core import NCC
    from credal_core.data.counts import labels_as_text
    from credal_core.experiments.engine import make_splits
    X, y = load_sample(name)
    labels, classes = labels_as_text(y)
    makers = {"NCC": lambda: NCC(s=s), "CMA": lambda: CMA(s=s),
              "BMA-AODE*": lambda: CredalBMAAODE(epsilon=eps),
              "COMP-AODE*": lambda: CredalCompAODE(epsilon=eps), "CDT": lambda: CredalDecisionTree(s=s)}
    folds = int(max(2, min(n_splits, pd.Series(labels).value_counts().min())))
    parts = []
    for split in make_splits(labels, protocol="cv", n_splits=folds, n_repeats=1, seed=0):
        for model_name, make in makers.items():
            try:
                model = make().fit(X.iloc[split.train], labels[split.train], classes=classes)
                parts.append(reject_costs_of(model, X.iloc[split.test], labels[split.test], list(D_GRID))
                             .assign(model=model_name))
            except (ValueError, NotImplementedError):
                continue
    return pd.concat(parts, ignore_index=True).groupby(["model", "d", "classifier"], sort=False,
                                                        as_index=False)[["cost", "rejected", "error"]].mean()


@pytest.mark.parametrize("name, s, eps", [("weather", 0.3, 0.05), ("synthetic_nb", 2.0, 0.002),
                                         *[(n, 1.7, 0.03) for n in sample_names()
                                           if n not in ("weather", "synthetic_nb")]])
def test_reject_view_cached_per_model_is_the_one_loop_over_folds_and_models(name, s, eps):
    """Each model cross-validated on its own parameter (a move of s never refits the AODE*, nor ε the
    IDM models), on folds cut once as integer codes (``integer_coded``), gives the very numbers, rows and
    order of one loop over folds and models fitted on the text, on every sample."""
    got = reject_view(name, s, eps, n_splits=3)
    # the same rows in the same order; the means equal to rounding (pandas' groupby sums the folds with a
    # compensated sum, the page in plain floating point: at most an ulp apart)
    pd.testing.assert_frame_equal(got.drop(columns="label"), _one_loop_reject_view(name, s, eps, 3),
                                  check_exact=False, rtol=1e-12, atol=1e-15)


def test_a_model_that_refuses_early_folds_comes_where_the_loop_first_meets_it(monkeypatch):
    """reject_view's order and means when models refuse folds, against pandas' concat and groupby of the
    same parts in one loop over folds and models (the definition)."""
    from app_support.earlier_credal import model
    rng = np.random.default_rng(3)
    names = ["NCC", "CMA", "BMA-AODE*", "COMP-AODE*", "CDT"]
    refused = {"NCC": {0, 1}, "CMA": {2}, "BMA-AODE*": set(), "COMP-AODE*": {0}, "CDT": {0, 1, 2, 3}}

    def part():
        d = np.repeat(np.array(D_GRID), 2)
        return pd.DataFrame({"d": d, "classifier": ["precise", "credal"] * len(D_GRID),
                             **{k: rng.random(d.size) for k in ("cost", "rejected", "error")}})
    parts = {m: tuple(None if k in refused[m] else part() for k in range(5)) for m in names}
    monkeypatch.setattr(model, "model_folds", lambda name, m, *args: parts[m])
    got = model.reject_view.__wrapped__("any", 1.0, 0.01)            # uncached: the parts above
    loop = [parts[m][k].assign(model=m) for k in range(5) for m in names if parts[m][k] is not None]
    want = pd.concat(loop, ignore_index=True).groupby(["model", "d", "classifier"], sort=False,
                                                      as_index=False)[["cost", "rejected", "error"]].mean()
    assert list(dict.fromkeys(got["model"])) == ["CMA", "BMA-AODE*", "COMP-AODE*", "NCC", "CDT"]
    pd.testing.assert_frame_equal(got.drop(columns="label"), want, check_exact=False, rtol=1e-12, atol=1e-15)


def test_the_table_at_d_is_reject_views_rows_at_d():
    costs = reject_view("balloons", 0.8, 0.04)
    for d in (0.01, 0.27, 0.49):
        table = reject_section("balloons", 0.8, 0.04, d)["table"]
        at_d = costs[np.isclose(costs["d"], d)]
        assert table["classifier"].tolist() == list(dict.fromkeys(at_d["model"]))
        for _, row in table.iterrows():
            for kind in ("precise", "credal"):
                line = at_d[(at_d["model"] == row["classifier"]) & (at_d["classifier"] == kind)]
                assert row[f"cost, {kind}"] == round(line["cost"].item(), 4)
                assert row[f"rejected, {kind}"] == round(line["rejected"].item(), 3)
            assert row["precise counterpart"] == REJECT_MODELS[row["classifier"]]


def test_integer_codes_keep_each_columns_sorted_order_and_fall_back_on_missing_or_unsortable_values():
    X = pd.DataFrame({"a": ["z", "b", "z", "m"], "b": ["1", "10", "2", "1"]})
    assert integer_coded(X).tolist() == [[2, 0], [0, 1], [2, 2], [1, 0]]
    with_missing = X.assign(a=["z", None, "z", "m"])
    assert integer_coded(with_missing) is with_missing
    mixed = X.assign(b=pd.Series([1, "x", 2, 1], dtype=object))
    assert integer_coded(mixed) is mixed


def test_the_folds_are_cut_once_for_every_parameter_value(monkeypatch):
    from app_support.earlier_credal import model
    cuts, make_folds = [], model._folds
    monkeypatch.setattr(model, "_folds", lambda *args: cuts.append(args) or make_folds(*args))
    fold_data.clear()
    for model_name, value in (("NCC", 0.7), ("CDT", 2.9), ("CMA", 4.1)):
        assert len(model_folds("weather", model_name, value, 4)) == len(make_folds(*cuts[0]))
    assert len(cuts) == 1


def test_the_steps_are_the_sliders_steps_as_the_page_rounds_them():
    state = url_state(14)
    for grid, field, digits in ((S_GRID, state["s"], 2), (EPS_GRID, state["eps"], 3)):
        count = round((field.hi - field.lo) / field.step) + 1
        assert len(grid) == count and grid[0] == field.lo and grid[-1] == field.hi
        # a slider sends lo + k * step in floating point; the page rounds it (round(float(s), 2))
        assert [round(float(field.lo + k * field.step), digits) for k in range(count)] == list(grid)


def test_warm_steps_computes_the_pages_views_nearest_first(monkeypatch):
    import streamlit as st

    from app_support.earlier_credal import model

    st.cache_resource.clear()
    steps = model.warm_steps("weather", 1.0, 0.01, 0.2, 3, 0)
    assert [where for where, _ in steps[:3]] == [(1.0, 0.01), (0.9, 0.01), (1.1, 0.01)]
    assert len(steps) == len(S_GRID) + len(EPS_GRID) - 1            # every step once
    assert sorted(s for (s, e), _ in steps if e == 0.01) == list(S_GRID)
    assert sorted(e for (s, e), _ in steps if s == 1.0) == list(EPS_GRID)
    for _, compute in steps[:3]:
        compute()

    def no_more(*args, **kwargs):
        raise AssertionError("computed again")
    monkeypatch.setattr(model, "reject_view", no_more)
    monkeypatch.setattr(model, "inclusion_view", no_more)
    monkeypatch.setattr(model, "tree_view", no_more)
    for (s, eps), _ in steps[:3]:                            # the page's calls find them computed
        assert model.reject_section("weather", s, eps, 0.2)["table"]["classifier"].iloc[0] == "NCC"
        model.inclusion_charts("weather", s, eps)
        model.tree_chart("weather", s, 3, 0)
    with pytest.raises(AssertionError, match="computed again"):
        model.reject_section("weather", 1.2, 0.01, 0.2)


def test_the_first_view_of_a_data_set_starts_the_warm_from_its_values_at_the_pages_defaults(monkeypatch):
    from app_support.earlier_credal import model

    started = []
    monkeypatch.setattr(model, "warm_in_background", lambda key, steps: started.append((key, steps())))
    model._start_warming("weather", 1.5, 0.02)
    [(key, steps)] = started
    assert key == "earlier_credal weather" and len(steps) == len(S_GRID) + len(EPS_GRID) - 1
    expected = model.warm_steps("weather", 1.5, 0.02, 0.2, 3, 0)        # d, depth, row: the defaults
    assert len(expected) == len(steps)


def test_each_section_1_chart_is_built_once_per_its_own_parameter():
    """CMA's inclusion intervals depend on s only and the SPODE weights on ε only: the charts shown at
    (s, ε) are those of inclusion_view(name, s, ε) whatever the other parameter was when first built."""
    from app_support.earlier_credal.figures import inclusion_figure, spode_weights_figure
    from app_support.earlier_credal.model import inclusion_charts
    charts = inclusion_charts("balloons", 2.3, 0.047)
    inclusion, spodes = inclusion_view("balloons", 2.3, 0.047)
    import plotly.io

    def sent(figure) -> str:                                     # what st.plotly_chart sends
        return plotly.io.to_json(figure.to_dict(), validate=False)
    assert sent(charts["inclusion"]) == sent(inclusion_figure(inclusion))
    assert sent(charts["spodes"]) == sent(spode_weights_figure(spodes))
    assert inclusion_charts("balloons", 2.3, 0.002)["inclusion"] is charts["inclusion"]
    assert inclusion_charts("balloons", 0.7, 0.047)["spodes"] is charts["spodes"]



def test_the_warm_at_start_takes_the_s_steps_first_under_the_pages_key():
    from app_support.earlier_credal import model
    key, s_steps = model.default_warm_s()
    none, eps_steps = model.default_warm_eps()
    assert key == model.default_warm()[0] == "earlier_credal weather" and none is None
    assert len(s_steps) == len(S_GRID) and len(eps_steps) == len(EPS_GRID) - 1
