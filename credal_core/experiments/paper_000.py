"""Paper 000 §5.1: its printed Table 1 and Fig. 5 settings, and our results in the same form.

Every figure of ours is the engine's one aggregation rule (:func:`.engine.summarise`, through
:func:`.sweeps.summarise`): per setting and sample size ``d``, the mean over the runs (training sets)
that define the indicator, as 000's "averages over 600 experiments".  The tables here only reshape
those means into percentages; they never average a second time.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .sweeps import summarise

__all__ = ["PAPER_TABLE1", "TABLE1_COLUMNS", "table1", "closest_pairs", "determinacy_by_d"]

TABLE1_COLUMNS = {"determinacy": "Det", "single_accuracy": "Sgl-acc", "discounted_accuracy": "D-acc",
                  "nbc_i": "NBC-I"}

# 000 Table 1 as printed (percentages, averages over 600 experiments each).
PAPER_TABLE1 = pd.DataFrame(
    [("NCC_ε=0.25", 25, 90.1, 90.4, 86.5, 54.5), ("LNCC_α=0.75", 25, 90.1, 90.4, 86.6, 52.8),
     ("NCC_ε=0.05", 50, 91.7, 91.5, 88.2, 57.4), ("LNCC_α=0.75", 50, 91.2, 91.8, 88.2, 55.3),
     ("NCC_ε=0.25", 100, 97.9, 90.5, 89.7, 51.2), ("LNCC_α=0.95", 100, 97.7, 90.6, 89.7, 51.4)],
    columns=["setting", "d", "Det", "Sgl-acc", "D-acc", "NBC-I"])


def _percent_summary(results: pd.DataFrame) -> pd.DataFrame:
    summary = summarise(results, by=("setting", "classifier", "epsilon", "alpha", "d"))
    out = summary[["setting", "classifier", "epsilon", "alpha", "d"]].copy()
    for key, name in TABLE1_COLUMNS.items():
        out[name] = 100 * summary[f"{key}_mean"]
    return out


def table1(results: pd.DataFrame) -> pd.DataFrame:
    """The rows of 000 Table 1: ours (``Det`` … ``NBC-I`` in %) beside the paper's (``paper …``).

    Rows whose setting or sample size is absent from ``results`` are left out.
    """
    ours = _percent_summary(results)
    paper = PAPER_TABLE1.rename(columns={c: f"paper {c}" for c in TABLE1_COLUMNS.values()})
    merged = paper.merge(ours.drop(columns=["classifier", "epsilon", "alpha"]), on=["setting", "d"],
                         how="inner")
    order = ["setting", "d"] + [c for name in TABLE1_COLUMNS.values() for c in (name, f"paper {name}")]
    return merged[order]


def closest_pairs(results: pd.DataFrame, tolerance: float = 1.0, max_pairs: int = 3) -> pd.DataFrame:
    """Per sample size, every (NCC_ε, LNCC_α) pair whose mean determinacies differ by at most
    ``tolerance`` percentage points, closest first (at most ``max_pairs`` per ``d``) — the pairs
    000 compares in Table 1.

    The closest pair of each ``d`` is always included (flag ``within_tolerance`` says if it is close).
    """
    ours = _percent_summary(results)
    rows = []
    for d, group in ours.groupby("d", sort=True):
        ncc = group[group["classifier"] == "NCC"]
        lncc = group[group["classifier"] == "LNCC"]
        if ncc.empty or lncc.empty:
            continue
        gap = np.abs(ncc["Det"].to_numpy()[:, None] - lncc["Det"].to_numpy()[None, :])
        for i, j in zip(*np.unravel_index(np.argsort(gap, axis=None), gap.shape)):
            close = gap[i, j] <= tolerance
            shown = sum(r["d"] == d for r in rows)
            if shown >= max_pairs or (not close and shown):
                break
            rows.append({"d": int(d), "epsilon": ncc["epsilon"].iloc[i], "alpha": lncc["alpha"].iloc[j],
                         "NCC Det": ncc["Det"].iloc[i], "LNCC Det": lncc["Det"].iloc[j],
                         "gap": gap[i, j], "within_tolerance": bool(close)})
            if not close:
                break
    return pd.DataFrame(rows, columns=["d", "epsilon", "alpha", "NCC Det", "LNCC Det", "gap",
                                       "within_tolerance"])


def determinacy_by_d(results: pd.DataFrame) -> pd.DataFrame:
    """000 Fig. 5 as a table: mean determinacy (%) per setting (rows) and sample size (columns).

    Rows and columns keep their order of first appearance in ``results``; a cell is the one summary
    row of its setting and ``d`` (a reshape: nothing is averaged again).
    """
    ours = _percent_summary(results)
    ours = ours[ours["classifier"] != "NBC"]
    if ours.duplicated(["setting", "d"]).any():
        raise ValueError("results give more than one summary row for a setting and sample size")
    return ours.pivot_table(index="setting", columns="d", values="Det", aggfunc="first", sort=False)
