"""Per-SPODE and per-instance views of the AODE family, for display (paper 001 §2.2-2.5)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from .._base import maximal_set
from ._dominance import bma_min_ratio, comp_inner_min, comp_min_ratio
from .credal import CredalBMAAODE, CredalCompAODE

__all__ = ["spode_table", "instance_explanation"]


def spode_table(bma: CredalBMAAODE, comp: CredalCompAODE) -> pd.DataFrame:
    r"""One row per SPODE (super-parent feature) of two models fitted on the same data.

    Columns: ``super_parent``, ``LL`` (:math:`LL_j`, eq. 2), ``bma_posterior`` (before pruning),
    ``bma_weight`` (after pruning, eq. 3), ``pi_raw`` (eq. 6), ``pi_low``, ``pi_high`` (eq. 10),
    ``comp_weight`` (eq. 7), ``feasible`` (π_j > 0), ``credal_feasible`` (upper π_j > 0).
    """
    table = pd.DataFrame({
        "super_parent": [str(f) for f in bma.tables_.feature_names],
        "LL": comp.log_likelihoods_,
        "bma_posterior": bma.posterior_weights_,
        "bma_weight": bma.weights_,
        "pi_raw": comp.compression_raw_,
        "pi_low": comp.compression_interval_[:, 0],
        "pi_high": comp.compression_interval_[:, 1],
        "comp_weight": comp.weights_,
        "feasible": comp.feasible_,
        "credal_feasible": comp.credal_feasible_,
    })
    return table


def instance_explanation(bma: CredalBMAAODE, comp: CredalCompAODE, x) -> dict:
    """For one instance ``x`` (a 1-row table): SPODE posteriors and each pair's optimisation result.

    SPODEs whose super-parent is missing in ``x`` are out of both pools (their posterior rows are
    shown as 0).  Returns a dict with ``posteriors`` (DataFrame k × C), ``pairs`` (DataFrame, one
    row per ordered class pair a ≠ b: the minimum of the BMA-AODE* ratio and of COMP-AODE*'s
    eq. 15 — ``None`` where eq. 15's denominator can reach 0 — with each dominance verdict and
    COMP-AODE*'s minimising prior), and the two credal sets.
    """
    post = comp.spode_posteriors(x)[0]                                  # (k, C); NaN: parent missing
    usable = ~np.isnan(post[:, 0])
    post = np.where(usable[:, None], post, 0.0)     # out of COMP-AODE*'s pool, as in its dominance
    classes = [str(c) for c in comp.classes_]
    names = [str(f) for f in comp.tables_.feature_names]
    posteriors = pd.DataFrame(post, index=names, columns=classes)
    kept = bma.kept_ & usable                       # BMA-AODE*'s credal set: the usable kept SPODEs
    bma_ratio = (bma_min_ratio(post[None, kept], bma.weights_[kept], float(bma.epsilon))[0] if kept.any()
                 else np.ones((len(comp.classes_),) * 2))
    bma_all, comp_all = bma.dominance(x), comp.dominance(x)       # predict_set = maximal_set of these
    bma_dom, comp_dom = bma_all[0], comp_all[0]
    keep, base, total, equality = comp.comp_problem()
    eps = float(comp.epsilon)
    ratio_defined = bool(keep.any()) and bool(np.all(base + np.log(eps) > 0))
    rows = []
    for a, ca in enumerate(classes):
        for b, cb in enumerate(classes):
            if a == b:
                continue
            row = {"a": ca, "b": cb, "bma_min_ratio": float(bma_ratio[a, b]),
                   "bma_dominates": bool(bma_dom[a, b]), "comp_min_ratio": None,
                   "comp_dominates": bool(comp_dom[a, b]), "comp_prior": None}
            if keep.any():
                alpha, beta = post[keep, a], post[keep, b]
                if ratio_defined:
                    ratio, y = comp_min_ratio(alpha, beta, base, eps, total, equality)
                    row["comp_min_ratio"] = float(ratio)
                else:
                    _, y = comp_inner_min(alpha - beta, base, eps, total, equality)
                prior = np.full(len(names), eps)
                prior[keep] = y
                row["comp_prior"] = prior
            rows.append(row)
    return {"posteriors": posteriors, "pairs": pd.DataFrame(rows),
            "bma_set": [c for c, s in zip(classes, maximal_set(bma_all)[0]) if s],
            "comp_set": [c for c, s in zip(classes, maximal_set(comp_all)[0]) if s]}
