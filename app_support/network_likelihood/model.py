"""What the "Profile likelihood in a network" page computes (no streamlit here).

A data set's columns are the nodes (the class column included); the graph is the naive one (the class
the parent of every feature), the Chow-Liu TAN learned from the data (credal_core's LTANC), or edges typed
as text.  The profile is :meth:`NetworkLikelihood.profile_ratio` of two classes given one row's features.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from credal_core.likelihood.network import NetworkLikelihood, NetworkProfile
from credal_core.likelihood.tan import LTANC

GRAPHS = ("naive", "tan", "edges")
MAX_EDGES_TEXT = 2_000


def parse_edges(text: str, nodes: list[str]) -> dict:
    """``"A -> B, B -> C"`` (commas, semicolons or new lines between edges) → ``{node: parents}`` over
    ``nodes``; ValueError naming an unknown node or a malformed edge."""
    parents: dict[str, list[str]] = {n: [] for n in nodes}
    for part in re.split(r"[,;\n]+", text or ""):
        part = part.strip()
        if not part:
            continue
        ends = [p.strip() for p in part.split("->")]
        if len(ends) != 2 or not all(ends):
            raise ValueError(f"cannot read the edge {part!r}: write it as parent -> child")
        for end in ends:
            if end not in parents:
                raise ValueError(f"unknown node {end!r} in {part!r}; the nodes are {nodes}")
        if ends[0] not in parents[ends[1]]:
            parents[ends[1]].append(ends[0])
    return {n: tuple(p) for n, p in parents.items()}


def graph_parents(kind: str, X: pd.DataFrame, y: pd.Series, class_name: str, edges: str = "") -> dict:
    """The parent sets of the chosen graph over the features and the class."""
    features = [str(c) for c in X.columns]
    if kind == "naive":
        return {class_name: (), **{f: (class_name,) for f in features}}
    if kind == "tan":
        tree = LTANC().fit(X, y).parents_
        return {class_name: (), **{f: (class_name,) if p < 0 else (class_name, features[p])
                                   for f, p in zip(features, tree)}}
    if kind == "edges":
        if len(edges or "") > MAX_EDGES_TEXT:
            raise ValueError(f"the edge list is longer than {MAX_EDGES_TEXT} characters")
        return parse_edges(edges, features + [class_name])
    raise ValueError(f"unknown graph {kind!r}; choose one of {GRAPHS}")


@dataclass(frozen=True)
class RatioView:
    profile: NetworkProfile
    curve: pd.DataFrame            # gamma, likelihood on a log grid (with the MLE and 1)
    path: pd.DataFrame             # Theorem 1's (g(θ[α]), lik(θ[α]))
    region: tuple[float, float]
    mle: float
    at_one: float                  # lik_g(1): the LNCC-style critical level of the favoured class


def ratio_view(X: pd.DataFrame, y: pd.Series, class_name: str, parents: dict, row: int, a, b,
               beta: float, num: int = 300) -> RatioView:
    frame = X.assign(**{class_name: y})
    net = NetworkLikelihood(parents=parents).fit(frame)
    evidence = {str(k): v for k, v in X.iloc[row].items()}
    prof = net.profile_ratio(class_name, a, b, evidence)
    path = prof.path(60)
    finite = path["gamma"].to_numpy()
    finite = finite[np.isfinite(finite) & (finite > 0)]
    lo = min(1e-3, finite.min() if finite.size else 1e-3)
    hi = max(1e3, finite.max() if finite.size else 1e3)
    mle = prof.mle
    grid = np.geomspace(lo, hi, num)
    extra = [1.0] + ([mle] if np.isfinite(mle) and mle > 0 else [])
    grid = np.unique(np.concatenate([grid, extra]))
    curve = pd.DataFrame({"gamma": grid, "likelihood": prof(grid)})
    return RatioView(prof, curve, path, prof.region(beta), mle, float(prof(1.0)))
