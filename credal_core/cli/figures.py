"""``compare --figures DIR``: paper 001's Figs. 5-7 from the comparison's folds, as static files.

Each figure is written as a standalone HTML file (plotly's ``write_html`` with ``plotly.min.js`` copied
once into DIR: it opens offline, no network) beside its points as CSV.  The figures are the app's
(:mod:`credal_core.plots.paper_001`), so they need plotly (the ``app`` extra).  Fig. 5: per data set and
credal classifier, its precise label's accuracy on the safe (determinate) instances against the
prior-dependent ones; Fig. 6: u65 and u80 over that accuracy; Fig. 7: Friedman average ranks of NCC,
CDT, CMA and COMP-AODE* with the Nemenyi critical difference (α = 0.05), under u65 and u80.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pandas as pd

__all__ = ["PAPER", "plotly_problem", "write_figures"]

PAPER = "Paper 001 (Corani & Antonucci 2012)"


def plotly_problem() -> str | None:
    """Why the figures cannot be drawn here (plotly missing), else None."""
    if importlib.util.find_spec("plotly") is None:
        return "--figures needs plotly, which credal_core does not require: pip install 'credal-core[app]'"
    return None


def _html(fig, path: Path) -> Path:
    fig.write_html(path, include_plotlyjs="directory", full_html=True)
    return path


def write_figures(tidy: pd.DataFrame, folder) -> tuple[list[Path], list[str]]:
    """Write Figs. 5-7 of the folds ``tidy`` (``compare``'s tidy frame: a ``dataset`` column and
    ``compare_classifiers``' columns) into ``folder`` (created if needed).

    Returns the paths written and notes on the figures left out (and why)."""
    from ..experiments.compare import summarise_comparison
    from ..plots.paper_001 import (
        fig5_frame,
        fig6_frame,
        fig7_figures,
        relative_utility_figure,
        safe_vs_prior_dependent_figure,
    )

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    summaries = {name: summarise_comparison(part.drop(columns="dataset").reset_index(drop=True))
                 for name, part in tidy.groupby("dataset", sort=False)}
    written, notes = [], []
    fig5, fig6 = fig5_frame(summaries), fig6_frame(summaries)
    if fig5.empty:
        notes.append("Figs. 5 and 6 left out: no credal classifier returned several classes")
    else:
        fig5.to_csv(folder / "fig5_points.csv", index=False)
        ratios = {"u65_ratio": fig6["u65"] / fig6["accuracy"], "u80_ratio": fig6["u80"] / fig6["accuracy"]}
        fig6.assign(**ratios).to_csv(folder / "fig6_points.csv", index=False)
        written += [folder / "fig5_points.csv", folder / "fig6_points.csv"]
        written.append(_html(safe_vs_prior_dependent_figure(
            fig5, title=f"{PAPER} Fig. 5 · precise accuracy<br><sup>safe vs prior-dependent instances</sup>"),
            folder / "fig5.html"))
        if not fig6.empty:
            written.append(_html(relative_utility_figure(
                fig6, title=f"{PAPER} Fig. 6 · credal utility / precise accuracy"), folder / "fig6.html"))
    views = fig7_figures(summaries, title=lambda indicator, cd: f"{PAPER} Fig. 7 · {indicator}: average "
                                                               f"ranks; CD = {cd:.2f}")
    for indicator, view in views.items():
        if view is None:
            notes.append(f"Fig. 7 ({indicator}) left out: it ranks NCC, CDT, CMA and COMP-AODE* across data "
                         "sets; at least two of them on at least two data sets are needed")
            continue
        figure, result = view
        ranks = result.friedman.average_ranks.rename("average_rank").rename_axis("classifier").reset_index()
        ranks.assign(critical_difference=result.critical_difference).to_csv(
            folder / f"fig7_{indicator}_ranks.csv", index=False)
        written += [folder / f"fig7_{indicator}_ranks.csv", _html(figure, folder / f"fig7_{indicator}.html")]
    return written, notes
