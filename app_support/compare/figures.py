"""Figures for the page "Compare on your data": determinacy vs single accuracy, utilities, HTML export.

Plain functions of ``credal_core.experiments.compare.summarise_comparison`` tables; no streamlit.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
           "#bcbd22", "#17becf")
UTILITIES = {"accuracy": "accuracy (precise label)", "discounted_accuracy": "discounted accuracy",
             "u65": "u65", "u80": "u80"}


def _pct(values) -> np.ndarray:
    return 100 * np.asarray(values, float)


def determinacy_accuracy_figure(summary: pd.DataFrame, title: str = "") -> go.Figure:
    """One point per classifier: determinacy (x) against single accuracy (y), ± one standard deviation.

    Precise classifiers sit at 100 % determinacy; a credal classifier trades determinacy for a single
    accuracy above its precise counterpart's.
    """
    fig = go.Figure()
    for i, row in enumerate(summary.itertuples(index=False)):
        colour = PALETTE[i % len(PALETTE)]
        fig.add_scatter(
            x=_pct([row.determinacy_mean]), y=_pct([row.single_accuracy_mean]), mode="markers+text",
            name=row.classifier, text=[row.classifier], textposition="top center",
            marker=dict(size=13, color=colour, symbol="diamond" if row.determinacy_mean >= 1 else "circle"),
            error_x=dict(type="data", array=_pct([np.nan_to_num(row.determinacy_std)]), thickness=1),
            error_y=dict(type="data", array=_pct([np.nan_to_num(row.single_accuracy_std)]), thickness=1),
            hovertemplate=("determinacy %{x:.1f}%<br>single accuracy %{y:.1f}%<extra>"
                           + row.classifier + "</extra>"),
        )
    left = max(0.0, _pct(summary["determinacy_mean"]).min() - 8)
    fig.update_layout(
        title=title or "Determinacy vs single accuracy<br><sup>mean ± sd over folds</sup>",
        xaxis=dict(title="determinacy (%)", range=[left, 108]),      # room for the labels at 100 %
        yaxis=dict(title="single accuracy (%)"), template="plotly_white", height=440, showlegend=False,
        margin=dict(l=60, r=20, t=70, b=50),
    )
    return fig


def utilities_figure(summary: pd.DataFrame, title: str = "") -> go.Figure:
    """Grouped bars per classifier: precise accuracy, discounted accuracy, u65 and u80 (%)."""
    fig = go.Figure()
    for key, label in UTILITIES.items():
        fig.add_bar(x=summary["classifier"], y=_pct(summary[f"{key}_mean"]), name=label,
                    error_y=dict(type="data", array=_pct(np.nan_to_num(summary[f"{key}_std"])), thickness=1),
                    hovertemplate="%{x}: %{y:.1f}%<extra>" + label + "</extra>")
    low = np.nanmin(_pct(summary[[f"{k}_mean" for k in UTILITIES]].to_numpy()))
    fig.update_layout(
        title=title or "Accuracy and utilities<br><sup>mean ± sd over folds</sup>",
        barmode="group", yaxis=dict(title="%", range=[max(0.0, low - 10), 100]), template="plotly_white",
        height=440, legend=dict(orientation="h", y=-0.2), margin=dict(l=60, r=20, t=70, b=80),
    )
    return fig


def figure_html(fig: go.Figure) -> bytes:
    """The figure as a standalone HTML file (plotly.js embedded: opens offline)."""
    return fig.to_html(include_plotlyjs=True, full_html=True).encode("utf-8")


INDICATOR_NAMES = {
    "accuracy": "Accuracy", "brier": "Brier loss", "determinacy": "Determinacy",
    "single_accuracy": "Single acc.", "set_accuracy": "Set acc.", "indeterminate_size": "Indet. size",
    "discounted_accuracy": "Discounted acc.", "u65": "u65", "u80": "u80", "nbc_i": "Precise acc. (indet.)",
    "coverage": "Coverage", "mean_set_size": "Mean set size", "empty_set_rate": "Empty sets",
}
NUMBER_INDICATORS = ("brier", "indeterminate_size", "mean_set_size")      # shown as numbers, not %


def summary_view(summary: pd.DataFrame) -> pd.DataFrame:
    """Mean ± sd over folds per indicator, as text (percentages; Brier loss and set sizes as numbers);
    coverage (share of sets holding the true class), mean set size and the share of empty sets are
    defined for every classifier, precise ones (a set of one) included."""
    view = pd.DataFrame({"classifier": summary["classifier"]})
    for key, name in INDICATOR_NAMES.items():
        if f"{key}_mean" not in summary.columns:
            continue
        scale, digits = (1, 3) if key in NUMBER_INDICATORS else (100, 1)
        mean, std = summary[f"{key}_mean"] * scale, summary[f"{key}_std"] * scale
        view[name] = ["—" if pd.isna(m) else f"{m:.{digits}f}" + ("" if pd.isna(d) else f" ± {d:.{digits}f}")
                      for m, d in zip(mean, std)]
    view["folds"] = summary["folds"]
    return view
