"""What ``compare`` prints and writes: the summary, the tests across data sets, paper-ready tables.

Every figure is the engine's: the mean over folds of an indicator and its standard deviation
(:func:`credal_core.experiments.engine.summarise`), shown in percent.
"""
from __future__ import annotations

import math
import sys

import numpy as np
import pandas as pd

from ..experiments.engine import summarise
from ..stats import DECIMALS

__all__ = ["INDICATORS", "score_table", "format_table", "print_summary", "print_tests", "write_table"]

# indicators that rank classifiers (higher is better), as the Compare page's "across data sets"
INDICATORS = {"u65": "u65", "u80": "u80", "discounted_accuracy": "discounted accuracy",
              "accuracy": "accuracy of the precise label"}


def score_table(tidy: pd.DataFrame, indicator: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Mean and standard deviation over folds of ``indicator``: data sets × classifiers, in the order
    the data sets and classifiers first appear."""
    summary = summarise(tidy, ["dataset", "classifier"], [indicator])
    order = dict(index=list(dict.fromkeys(tidy["dataset"])), columns=list(dict.fromkeys(tidy["classifier"])))
    mean = summary.pivot(index="dataset", columns="classifier", values=f"{indicator}_mean").reindex(**order)
    std = summary.pivot(index="dataset", columns="classifier", values=f"{indicator}_std").reindex(**order)
    return mean, std


def _cell(mean: float, std: float) -> str:
    if not math.isfinite(mean):
        return "–"
    return f"{100 * mean:.1f}" + (f" ± {100 * std:.1f}" if math.isfinite(std) else "")


def _best(row: pd.Series) -> set:
    values = np.round(row.to_numpy(dtype=float), DECIMALS)
    if not np.isfinite(values).any():
        return set()
    top = np.nanmax(values)
    return {name for name, v in zip(row.index, values) if v == top}


_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                  "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
                  "ε": r"$\varepsilon$", "α": r"$\alpha$", "±": r"$\pm$", "×": r"$\times$"}


def _latex(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in str(text))


def _markdown(text: str) -> str:
    return "".join("\\" + ch if ch in "|*_`\\[]<>" else ch for ch in str(text))


def format_table(tidy: pd.DataFrame, indicator: str, kind: str) -> str:
    """A data sets × classifiers table of ``indicator`` (mean ± sd over folds, in %), the best mean of
    each data set in bold (every classifier reaching it, to ``DECIMALS`` places); ``kind`` is
    ``"markdown"`` or ``"latex"``."""
    mean, std = score_table(tidy, indicator)
    repeats = tidy.groupby("dataset")["repeat"].nunique().max()
    folds = tidy.groupby("dataset")["fold"].nunique().max()
    caption = (f"{INDICATORS.get(indicator, indicator)} (%), mean ± standard deviation over "
               f"{repeats} × {folds}-fold cross-validation; the best of each data set in bold")
    rows = []
    for dataset in mean.index:
        best = _best(mean.loc[dataset])
        cells = []
        for name in mean.columns:
            text = _cell(mean.at[dataset, name], std.at[dataset, name])
            if kind == "latex":
                text = text.replace("±", r"\pm").replace("–", "--")
                text = (rf"$\mathbf{{{text}}}$" if name in best else f"${text}$") if text != "--" else text
            elif name in best and text != "–":
                text = f"**{text}**"
            cells.append(text)
        rows.append((dataset, cells))
    if kind == "markdown":
        lines = [f"| data set | {' | '.join(_markdown(c) for c in mean.columns)} |",
                 "|---|" + "---:|" * len(mean.columns)]
        lines += [f"| {_markdown(d)} | {' | '.join(cells)} |" for d, cells in rows]
        return "\n".join(lines) + f"\n\n{caption}.\n"
    if kind == "latex":
        lines = [r"\begin{table}[t]", r"\centering", rf"\caption{{{_latex(caption)}.}}",
                 rf"\begin{{tabular}}{{l{'c' * len(mean.columns)}}}", r"\toprule",
                 "data set & " + " & ".join(_latex(c) for c in mean.columns) + r" \\", r"\midrule"]
        lines += [f"{_latex(d)} & " + " & ".join(cells) + r" \\" for d, cells in rows]
        lines += [r"\bottomrule", r"\end{tabular}", r"\end{table}"]
        return "\n".join(lines) + "\n"
    raise ValueError(f"kind must be 'markdown' or 'latex'; got {kind!r}")


def write_table(tidy: pd.DataFrame, indicator: str, kind: str, path: str) -> None:
    text = format_table(tidy, indicator, kind)
    if path == "-":
        sys.stdout.write(text)
        return
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    print(f"wrote the {kind} table of {indicator} to {path}")


def _print_matrix(mean: pd.DataFrame, std: pd.DataFrame, title: str) -> None:
    cells = pd.DataFrame({d: [_cell(mean.at[d, c], std.at[d, c]) for c in mean.columns] for d in mean.index},
                         index=list(mean.columns))
    print(f"\n{title}")
    print(cells.to_string())


def print_summary(tidy: pd.DataFrame, indicator: str, *, coverage: bool = False) -> None:
    """The chosen indicator and the determinacy (with ``coverage``, also the coverage and the empty-set
    rate), classifiers × data sets (mean ± sd over folds, %); the classifiers that failed on some folds."""
    _print_matrix(*score_table(tidy, indicator), f"{INDICATORS[indicator]} (%, mean ± sd over folds)")
    _print_matrix(*score_table(tidy, "determinacy"), "determinacy (%, mean ± sd over folds)")
    if coverage:
        _print_matrix(*score_table(tidy, "coverage"), "coverage: sets holding the true class (%, mean ± sd)")
        _print_matrix(*score_table(tidy, "empty_set_rate"), "empty sets (%, mean ± sd over folds)")
    errors = tidy.loc[tidy["error"].fillna("") != "", ["dataset", "classifier", "error"]].drop_duplicates()
    for dataset, classifier, error in errors.itertuples(index=False):
        print(f"{dataset}: {classifier} failed on some folds: {error}")


def print_tests(tidy: pd.DataFrame, indicator: str, *, rope: float, folds: int) -> None:
    """Friedman + Nemenyi and Wilcoxon across the data sets (:func:`credal_core.stats.across_datasets`),
    the Bayesian signed-rank test across data sets and the Bayesian correlated t-test per data set
    (:mod:`credal_core.stats_bayesian`)."""
    from ..stats import across_datasets, nemenyi_groups
    from ..stats_bayesian import correlated_t_tests, signed_rank_tests

    summaries = {name: summarise(part, ["classifier"], [indicator]) for name, part in tidy.groupby(
        "dataset", sort=False)}
    print(f"\nTests on {indicator} (higher is better)")
    if len(summaries) >= 2:
        result = across_datasets(summaries, indicator)
        if result.left_out:
            print(f"left out (no score on some data set): {', '.join(map(str, result.left_out))}")
        if result.friedman is None:
            print("fewer than two classifiers with a score on every data set: no test across data sets")
        else:
            f = result.friedman
            id_text = ("unbounded" if f.iman_davenport_statistic is None
                       else f"{f.iman_davenport_statistic:.3f}")
            print(f"Friedman: chi2 = {f.statistic:.3f}, p = {f.p_value:.4g}; Iman-Davenport F = {id_text}, "
                  f"p = {f.iman_davenport_p_value:.4g} ({f.n_datasets} data sets, "
                  f"{f.n_classifiers} classifiers)")
            ranks = f.average_ranks.sort_values(kind="stable")
            print("average ranks (1 = best): " + ", ".join(f"{n} {r:.2f}" for n, r in ranks.items()))
            cd = result.critical_difference
            groups = nemenyi_groups(f.average_ranks, cd)
            print(f"Nemenyi critical difference (alpha 0.05): {cd:.3f}; groups not significantly different: "
                  + ("; ".join("{" + ", ".join(g) + "}" for g in groups) or "none"))
            pairs = result.pairs[["classifier_a", "classifier_b", "wins", "ties", "losses", "p_value",
                                  "better"]]
            print("Wilcoxon signed-rank (two-sided, exact):")
            print(pairs.to_string(index=False, float_format="{:.4g}".format))
            notes = set(result.pairs["note"]) - {""}
            for note in notes:
                print(f"  note: {note}")
            bayes = signed_rank_tests(result.scores, rope=rope)
            print(f"Bayesian signed-rank test across data sets (rope ±{rope:g}; p_left: a better, p_right: "
                  "b better):")
            print(bayes.to_string(index=False, float_format="{:.3f}".format))
    else:
        print("one data set: no test across data sets (give two or more files)")
    per_dataset = correlated_t_tests(tidy, indicator, rope=rope, n_folds=folds)
    if not per_dataset.empty:
        print(f"Bayesian correlated t-test per data set (rho = 1/{folds}, rope ±{rope:g}; p_left: a better, "
              "p_right: b better):")
        print(per_dataset.to_string(index=False, float_format="{:.3f}".format))
