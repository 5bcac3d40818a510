"""Figure builders for paper 001's comparisons: the reject option (§3.5), Fig. 5 (precise accuracy on
the instances the credal version calls safe vs prior-dependent) and Fig. 6 (relative utility).

Plain functions from tidy frames to plotly figures: no streamlit, no credal mathematics (the frames
come from ``credal_core.reject.reject_costs`` and ``credal_core.metrics``)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

__all__ = ["reject_cost_figure", "safe_vs_prior_dependent_figure", "relative_utility_figure", "fig5_frame",
           "fig6_frame", "fig7_figures", "FIG7_CLASSIFIERS"]

# 001 Fig. 7's four classifiers (the labels of the Compare page and of the command line)
FIG7_CLASSIFIERS = ("NCC", "CDT", "CMA", "COMP-AODE*")

_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf", "#7f7f7f")
_DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")


def _require(frame: pd.DataFrame, columns, what: str) -> pd.DataFrame:
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"{what} needs a pandas DataFrame; got {type(frame).__name__}")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"{what} needs the column(s) {missing}; the frame has {list(frame.columns)}")
    if frame.empty:
        raise ValueError(f"{what} needs at least one row")
    return frame


def reject_cost_figure(frame: pd.DataFrame, *, title: str = "Expected cost per instance against the "
                       "rejection cost d") -> go.Figure:
    """Mean cost (0 right, 1 wrong, d rejected) against d, one line per classifier (and data set).

    ``frame``: columns ``d``, ``classifier``, ``cost`` (``reject_costs``'s output), optionally
    ``dataset`` (one dash style per data set) and ``rejected`` (shown on hover).
    """
    _require(frame, ["d", "classifier", "cost"], "reject_cost_figure")
    fig = go.Figure()
    sets = list(dict.fromkeys(frame["dataset"])) if "dataset" in frame.columns else [None]
    names = list(dict.fromkeys(frame["classifier"]))
    for k, dataset in enumerate(sets):
        part = frame if dataset is None else frame[frame["dataset"] == dataset]
        for i, name in enumerate(names):
            rows = part[part["classifier"] == name].sort_values("d")
            if rows.empty:
                continue
            rejected = rows["rejected"] if "rejected" in rows.columns else np.full(len(rows), np.nan)
            label = str(name) if dataset is None else f"{dataset} · {name}"
            fig.add_trace(go.Scatter(
                x=rows["d"], y=rows["cost"], mode="lines+markers", name=label,
                line={"color": _COLOURS[i % len(_COLOURS)], "dash": _DASHES[k % len(_DASHES)]},
                customdata=np.asarray(rejected, dtype=float),
                hovertemplate="d = %{x:.3f}<br>cost = %{y:.4f}<br>rejected = %{customdata:.1%}"
                              f"<extra>{label}</extra>"))
    fig.update_layout(title=title, xaxis_title="rejection cost d", yaxis_title="mean cost per instance",
                      hovermode="closest", legend_title_text="classifier", margin={"t": 60})
    fig.update_xaxes(range=[0, 0.5])
    return fig


def safe_vs_prior_dependent_figure(frame: pd.DataFrame, *, title: str = "Accuracy of the precise "
                                   "classifier on safe vs prior-dependent instances") -> go.Figure:
    """001 Fig. 5: one point per data set, x = the precise classifier's accuracy on the instances its
    credal version calls safe (determinate), y = on the prior-dependent ones; the bisector y = x.

    ``frame``: columns ``dataset``, ``accuracy_safe``, ``accuracy_prior_dependent`` (e.g.
    ``precise_accuracy_split``'s ``accuracy_determinate`` / ``accuracy_indeterminate``), optionally
    ``classifier`` (one trace per precise / credal pair).  Rows with a NaN accuracy (no prior-dependent
    instance) are left out.
    """
    _require(frame, ["dataset", "accuracy_safe", "accuracy_prior_dependent"],
             "safe_vs_prior_dependent_figure")
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=[0, 1], y=[0, 1], mode="lines", name="bisector",
                             line={"color": "black", "width": 1}, hoverinfo="skip"))
    groups = frame.groupby("classifier", sort=False) if "classifier" in frame.columns else [(None, frame)]
    for i, (name, part) in enumerate(groups):
        part = part.dropna(subset=["accuracy_safe", "accuracy_prior_dependent"])
        fig.add_trace(go.Scatter(
            x=part["accuracy_safe"], y=part["accuracy_prior_dependent"], mode="markers",
            name="data sets" if name is None else str(name), text=part["dataset"].astype(str),
            marker={"size": 9, "color": _COLOURS[i % len(_COLOURS)]},
            hovertemplate="%{text}<br>safe: %{x:.3f}<br>prior-dependent: %{y:.3f}<extra></extra>"))
    fig.update_layout(title=title, xaxis_title="accuracy on safe instances",
                      yaxis_title="accuracy on prior-dependent instances", margin={"t": 60})
    fig.update_xaxes(range=[0, 1.02], constrain="domain")
    fig.update_yaxes(range=[0, 1.02], scaleanchor="x", scaleratio=1)
    return fig


def relative_utility_figure(frame: pd.DataFrame, *, title: str = "Relative utility, credal over "
                            "precise") -> go.Figure:
    """001 Fig. 6: per data set, the utility of the credal classifier over the precise one's accuracy,
    under u65 (left) and u80 (right), with the line 1 (no change).

    ``frame``: columns ``dataset`` and either ``u65_ratio`` / ``u80_ratio`` or ``u65``, ``u80`` and
    ``accuracy`` (the precise counterpart's; the ratios are then computed); optionally ``classifier``
    (one trace per pair).  Data sets in the order of the frame.
    """
    _require(frame, ["dataset"], "relative_utility_figure")
    frame = frame.copy()
    if not {"u65_ratio", "u80_ratio"} <= set(frame.columns):
        _require(frame, ["u65", "u80", "accuracy"], "relative_utility_figure")
        if (frame["accuracy"] <= 0).any():
            raise ValueError("relative_utility_figure: a precise accuracy of 0 has no ratio")
        frame["u65_ratio"] = frame["u65"] / frame["accuracy"]
        frame["u80_ratio"] = frame["u80"] / frame["accuracy"]
    fig = make_subplots(rows=1, cols=2, subplot_titles=("u65", "u80"), shared_yaxes=True)
    groups = (list(frame.groupby("classifier", sort=False)) if "classifier" in frame.columns
              else [(None, frame)])
    order = list(dict.fromkeys(frame["dataset"].astype(str)))
    for col, key in ((1, "u65_ratio"), (2, "u80_ratio")):
        for i, (name, part) in enumerate(groups):
            fig.add_trace(go.Scatter(
                x=part["dataset"].astype(str), y=part[key], mode="markers",
                name="data sets" if name is None else str(name), legendgroup=str(i), showlegend=col == 1,
                marker={"size": 9, "color": _COLOURS[i % len(_COLOURS)]},
                hovertemplate="%{x}<br>ratio %{y:.4f}<extra></extra>"), row=1, col=col)
        fig.add_hline(y=1.0, line={"color": "black", "width": 1}, row=1, col=col)
        fig.update_xaxes(categoryorder="array", categoryarray=order, tickangle=-45, row=1, col=col)
    fig.update_yaxes(title_text="credal utility / precise accuracy", row=1, col=1)
    fig.update_layout(title=title, margin={"t": 80}, hovermode="closest")
    return fig


# ---------------------------------------------------------------- the points, from Compare's results
def fig5_frame(summaries: dict) -> pd.DataFrame:
    """001 Fig. 5's points: per data set and credal classifier, its precise counterpart's accuracy on
    the instances the credal one calls safe (its single accuracy: the set is then the precise label)
    and on the prior-dependent ones (NBC-I, the ``nbc_i`` indicator).

    ``summaries``: data set name -> ``credal_core.experiments.compare.summarise_comparison`` table."""
    rows = [{"dataset": name, "classifier": row.classifier, "accuracy_safe": row.single_accuracy_mean,
             "accuracy_prior_dependent": row.nbc_i_mean}
            for name, table in summaries.items() for row in table.itertuples(index=False)
            if pd.notna(row.nbc_i_mean) or row.determinacy_mean < 1]
    return pd.DataFrame(rows, columns=["dataset", "classifier", "accuracy_safe", "accuracy_prior_dependent"])


def fig6_frame(summaries: dict) -> pd.DataFrame:
    """001 Fig. 6's points: per data set and set-valued classifier (determinacy below 1 somewhere), its
    u65 and u80 and the accuracy of its own precise label (its precise counterpart)."""
    rows = [{"dataset": name, "classifier": row.classifier, "u65": row.u65_mean, "u80": row.u80_mean,
             "accuracy": row.accuracy_mean}
            for name, table in summaries.items() for row in table.itertuples(index=False)
            if pd.notna(row.nbc_i_mean) and row.accuracy_mean > 0]
    return pd.DataFrame(rows, columns=["dataset", "classifier", "u65", "u80", "accuracy"])


def fig7_figures(summaries: dict, title=lambda indicator, cd: f"001 Fig. 7 · {indicator}: average ranks; "
                 f"CD = {cd:.2f}") -> dict:
    """001 Fig. 7: per indicator (u65, u80) ``(figure, result)``, the critical-difference diagram of the
    Friedman average ranks of NCC, CDT, CMA and COMP-AODE* (those of the four compared) and the
    ``credal_core.stats.across_datasets`` result behind it; None when fewer than two of them were
    compared or on fewer than two data sets.  ``title(indicator, cd)`` names each figure."""
    from ..stats import across_datasets
    from .critical_difference import critical_difference_figure

    kept = {name: table[table["classifier"].isin(FIG7_CLASSIFIERS)] for name, table in summaries.items()}
    views = {}
    for indicator in ("u65", "u80"):
        result = across_datasets(kept, indicator) if len(kept) >= 2 else None
        views[indicator] = None if result is None or result.friedman is None else (
            critical_difference_figure(result.friedman.average_ranks, result.critical_difference,
                                       title=title(indicator, result.critical_difference)), result)
    return views
