"""Slow references for the credal decision tree: the upper entropy by a generic optimiser over the
IDM credal set, the Weka plugin's unit-step levelling (``reps``), and a plain recursive ID3."""
from __future__ import annotations

import math

import numpy as np
from scipy.optimize import minimize


def entropy_bits(p):
    return -sum(q * math.log2(q) for q in p if q > 0)


def upper_entropy_by_optimiser(counts, s, starts=5, seed=0):
    """max over t in the simplex of H((n + s t)/(N + s)), by SLSQP from several starts."""
    n = np.asarray(counts, dtype=float)
    k, total = len(n), n.sum() + s
    rng = np.random.default_rng(seed)

    def neg(t):
        p = np.clip((n + s * t) / total, 1e-300, None)
        return float(np.sum(p * np.log2(p)))

    best = -np.inf
    cons = [{"type": "eq", "fun": lambda t: t.sum() - 1.0}]
    for i in range(starts):
        t0 = np.full(k, 1.0 / k) if i == 0 else rng.dirichlet(np.ones(k))
        res = minimize(neg, t0, method="SLSQP", bounds=[(0.0, 1.0)] * k, constraints=cons,
                       options={"ftol": 1e-14, "maxiter": 500})
        t = np.clip(res.x, 0, None)
        t /= t.sum()
        best = max(best, entropy_bits((n + s * t) / total))
    return best


def weka_reps(counts, s):
    """The plugin's E_ContingencyTables.reps: pour s onto the current minima, at most 1 per cell per round."""
    levels = [float(c) for c in counts]
    mass = float(s)
    while True:
        low = min(levels)
        ties = sum(1 for v in levels if v == low)
        poured = mass if mass <= ties else ties
        levels = [v + poured / ties if v == low else v for v in levels]
        mass -= ties
        if mass <= 0.0001:
            return levels


def weka_upper_entropy(counts, s):
    levels = weka_reps(counts, s)
    total = sum(levels)
    return entropy_bits([v / total for v in levels]) if total > 0 else 0.0


def shannon_bits(counts):
    total = sum(counts)
    return entropy_bits([c / total for c in counts]) if total > 0 else 0.0


def grow(X, y, rows, n_values, n_classes, entropy, depth=0):
    """Recursive ID3: dict node with counts, and 'feature' / 'children' when it splits.

    Raises ``ValueError("tie")`` when two features' gains are within 1e-12 of the best (the choice
    then depends on rounding)."""
    counts = [sum(1 for i in rows if y[i] == c) for c in range(n_classes)]
    node = {"counts": counts, "depth": depth, "feature": -1, "children": {}}
    if len(rows) < 2 or sum(1 for c in counts if c > 0) < 2:
        return node
    gains = []
    for j, v in enumerate(n_values):
        present = [i for i in rows if X[i, j] >= 0]
        if not present:
            gains.append(-math.inf)
            continue
        pc = [sum(1 for i in present if y[i] == c) for c in range(n_classes)]
        g = entropy(pc)
        for value in range(v):
            sub = [i for i in present if X[i, j] == value]
            if sub:
                sub_counts = [sum(1 for i in sub if y[i] == c) for c in range(n_classes)]
                g -= len(sub) / len(present) * entropy(sub_counts)
        gains.append(g)
    best = max(gains)
    if best < 1e-6 - 1e-12:
        return node
    close = [j for j, g in enumerate(gains) if abs(g - best) <= 1e-12]
    if len(close) > 1 or abs(best - 1e-6) <= 1e-12:
        raise ValueError("tie")
    j = close[0]
    node["feature"] = j
    for value in range(n_values[j]):
        sub = [i for i in rows if X[i, j] == value]
        if sub:
            node["children"][value] = grow(X, y, sub, n_values, n_classes, entropy, depth + 1)
    return node


def preorder(node):
    """(feature, depth, counts) of every node, parent first, children in value order."""
    out = [(node["feature"], node["depth"], tuple(node["counts"]))]
    for value in sorted(node["children"]):
        out.extend(preorder(node["children"][value]))
    return out


def reach(node, x):
    """(counts, empty) of the node an instance stops at (see the package's Tree.route)."""
    while node["feature"] >= 0:
        v = x[node["feature"]]
        if v < 0:
            return node["counts"], False
        if v not in node["children"]:
            return [0] * len(node["counts"]), True
        node = node["children"][v]
    return node["counts"], False


def weka_non_dominated(frequency, s):
    """The plugin's computeNonDominatedSet, literally (class k kept iff upper(k) > max lower(others))."""
    total = sum(frequency)
    keep = []
    for k in range(len(frequency)):
        max_inf = -math.inf
        for i in range(len(frequency)):
            if i != k:
                p_inf = frequency[i] / total if total > 0 else math.nan
                if p_inf > max_inf:
                    max_inf = p_inf
        p_sup = (frequency[k] + s) / total if total > 0 else math.inf
        keep.append(p_sup > max_inf)
    return keep
