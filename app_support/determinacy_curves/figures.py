"""Figures and tables for the page "Determinacy curves" (000 Fig. 5 and Table 1).

Plain functions of the tidy summaries made by ``credal_core.experiments.summarise``: no streamlit, no
credal mathematics.  Error bars follow the product's one rule (the engine's ``summarise``, the
Compare page's figures): mean ± standard deviation over the runs (ddof 1; on a sample data set each
run is one test fold), no bar where one run defines the indicator — and every figure says so.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from app_support.text import cite_chart

NCC_COLOURS = ("#9ecae1", "#6baed6", "#3182bd", "#08519c", "#08306b", "#041c42")
LNCC_COLOURS = ("#fdd0a2", "#fdae6b", "#fd8d3c", "#e6550d", "#a63603", "#6b2303")
D_COLOURS = ("#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666666")

INDICATOR_LABELS = {
    "determinacy": "Determinacy",
    "single_accuracy": "Single accuracy",
    "discounted_accuracy": "Discounted accuracy",
    "nbc_i": "NBC-I (NBC accuracy where indeterminate)",
    "set_accuracy": "Set accuracy",
    "indeterminate_size": "Indeterminate output size",
    "u65": "Utility u65",
    "u80": "Utility u80",
}
PERCENT = {"determinacy", "single_accuracy", "discounted_accuracy", "nbc_i", "set_accuracy", "u65", "u80"}


def _palette(colours, n):
    """``n`` colours spread over a light-to-dark ramp (darker = larger parameter)."""
    idx = np.linspace(1, len(colours) - 1, n).round().astype(int) if n > 1 else [len(colours) - 2]
    return [colours[i] for i in idx]


def _scaled(values, indicator):
    return 100 * np.asarray(values, float) if indicator in PERCENT else np.asarray(values, float)


SPREAD = "mean ± sd over runs"     # the error bars' rule, named in every figure


def _sd(summary: pd.DataFrame, indicator: str) -> np.ndarray:
    """The standard deviation over the runs (NaN with one run: no bar)."""
    return summary[f"{indicator}_std"].to_numpy(float)


def determinacy_vs_d_figure(summary: pd.DataFrame, indicator: str = "determinacy") -> go.Figure:
    """000 Fig. 5: one line per NCC_ε / LNCC_α setting against the sample size d (mean ± sd over runs).

    NCC_ε in blues (dashed), LNCC_α in oranges (solid), darker for larger ε or α.
    """
    fig = go.Figure()
    for family, colours, dash, key in (("NCC", NCC_COLOURS, "dash", "epsilon"),
                                       ("LNCC", LNCC_COLOURS, "solid", "alpha")):
        part = summary[summary["classifier"] == family]
        settings = part.drop_duplicates("setting").sort_values(key)["setting"].tolist()
        for setting, colour in zip(settings, _palette(colours, len(settings))):
            line = part[part["setting"] == setting].sort_values("d")
            y = _scaled(line[f"{indicator}_mean"], indicator)
            err = _scaled(_sd(line, indicator), indicator)
            fig.add_scatter(x=line["d"], y=y, mode="lines+markers", name=setting, meta=family,
                            line=dict(color=colour, width=2.5, dash=dash), marker=dict(size=8),
                            error_y=dict(type="data", array=err, visible=True, thickness=1),
                            hovertemplate="d = %{x}<br>%{y:.1f}<extra>" + setting + "</extra>")
    label = INDICATOR_LABELS.get(indicator, indicator)
    fig.update_layout(
        # two lines on a phone (a third was cut at the top): the bars' rule goes to the x axis' title
        title=cite_chart(f"{label.split(' (')[0]} against d, 000 Fig. 5"),
        xaxis=dict(title=f"training-set size d (bars: {SPREAD})", type="log",
                   tickvals=sorted(summary["d"].unique())),
        yaxis=dict(title=label + (" (%)" if indicator in PERCENT else "")),
        legend=dict(title="classifier"), template="plotly_white", height=460,
        margin=dict(l=60, r=20, t=60, b=50),
    )
    return fig


def indicator_vs_parameter_figure(summary: pd.DataFrame, indicator: str) -> go.Figure:
    """The indicator against ε (NCC_ε, left) and α (LNCC_α, right), one line per sample size d (mean ± sd
    over runs)."""
    fig = make_subplots(rows=1, cols=2, shared_yaxes=True, horizontal_spacing=0.06,
                        subplot_titles=("NCC_ε: against ε", "LNCC_α: against α"))
    sizes = sorted(summary["d"].unique())
    for d, colour in zip(sizes, D_COLOURS * (len(sizes) // len(D_COLOURS) + 1)):
        for col, family, key in ((1, "NCC", "epsilon"), (2, "LNCC", "alpha")):
            line = summary[(summary["classifier"] == family) & (summary["d"] == d)].sort_values(key)
            if line.empty:
                continue
            fig.add_scatter(x=line[key], y=_scaled(line[f"{indicator}_mean"], indicator),
                            mode="lines+markers", name=f"d = {d}", legendgroup=f"d{d}",
                            showlegend=col == 1 or not (summary["classifier"] == "NCC").any(),
                            meta=family, line=dict(color=colour, width=2.5), marker=dict(size=8),
                            error_y=dict(type="data", visible=True, thickness=1,
                                         array=_scaled(_sd(line, indicator), indicator)),
                            hovertemplate=f"{key} = %{{x:g}}<br>%{{y:.1f}}<extra>d = {d}</extra>",
                            row=1, col=col)
    label = INDICATOR_LABELS.get(indicator, indicator)
    fig.update_xaxes(title_text="ε (contamination with Perks' prior)", row=1, col=1)
    fig.update_xaxes(title_text="α (likelihood threshold)", row=1, col=2)
    fig.update_yaxes(title_text=label + (" (%)" if indicator in PERCENT else ""), row=1, col=1)
    fig.update_layout(title=f"{label} against ε and α ({SPREAD})", template="plotly_white", height=420,
                      legend=dict(title="sample size"), margin=dict(l=60, r=20, t=70, b=50))
    return fig


def table1_view(summary: pd.DataFrame, close: pd.DataFrame) -> pd.DataFrame:
    """000 Table 1's form for every setting and d, in %, with a column naming each row's close partner.

    ``close`` is ``credal_core.experiments.paper_000.closest_pairs``: rows within its tolerance mark
    both the NCC_ε and the LNCC_α row of that ``d``.
    """
    credal = summary[summary["classifier"] != "NBC"]
    view = pd.DataFrame({
        "classifier": credal["setting"].to_numpy(),
        "d": credal["d"].to_numpy(),
        "Det": 100 * credal["determinacy_mean"].to_numpy(),
        "Sgl-acc": 100 * credal["single_accuracy_mean"].to_numpy(),
        "D-acc": 100 * credal["discounted_accuracy_mean"].to_numpy(),
        "NBC-I": 100 * credal["nbc_i_mean"].to_numpy(),
        "u65": 100 * credal["u65_mean"].to_numpy(),
        "u80": 100 * credal["u80_mean"].to_numpy(),
        "runs": credal["determinacy_runs"].to_numpy(),
    })
    partner = {}
    for row in close[close["within_tolerance"]].itertuples(index=False):
        ncc, lncc = f"NCC_ε={row.epsilon:g}", f"LNCC_α={row.alpha:g}"
        note = f"{row.gap:.1f} pts"
        partner.setdefault((ncc, row.d), []).append(f"{lncc} ({note})")
        partner.setdefault((lncc, row.d), []).append(f"{ncc} ({note})")
    view["close determinacy"] = ["; ".join(partner.get((c, d), []))
                                 for c, d in zip(view["classifier"], view["d"])]
    # by d, keeping the engine's order within it (NCC_ε by ε, then LNCC_α by α)
    return view.sort_values("d", kind="stable").reset_index(drop=True)
