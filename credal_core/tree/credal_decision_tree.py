"""The credal decision tree (Abellán & Moral): upper-entropy splits, IDM intervals at the leaves."""
from __future__ import annotations

from numbers import Real

import numpy as np
import pandas as pd
from sklearn.utils._param_validation import Interval

from .._base import CATEGORIES_CONSTRAINT, CredalClassifierMixin
from .info_gain_tree import InfoGainTree

__all__ = ["CredalDecisionTree"]


class CredalDecisionTree(CredalClassifierMixin, InfoGainTree):
    r"""Credal decision tree: ID3 split by the IDM upper entropy, IDM intervals at the leaves.

    **Splits** (Abellán & Moral 2003, 2005): the imprecise information gain — the information gain of
    the maximum-entropy distribution of the IDM credal set with strength ``s`` at each node
    (:mod:`credal_core.tree._entropy`, exact); unpruned; a node becomes a leaf when the best gain is
    below 1e-6 bits (the Weka plugin's ``CredalDecisionTree.stopCriterion``: ``Utils.grOrEq(0,
    gain)``, no depth limit).  See :mod:`credal_core.tree._grow`.

    **Leaves.**  With counts :math:`n_c` (total N) the IDM gives :math:`P(c) \in [n_c/(N+s),
    (n_c+s)/(N+s)]`.  **Decision rule: interval dominance as the plugin implements it**
    (``computeNonDominatedSet``): class ``c`` is kept iff its upper probability exceeds the largest
    lower probability of the other classes, so ``a`` dominates ``b`` iff
    :math:`n_a/(N+s) \ge (n_b+s)/(N+s)`, i.e. :math:`n_a \ge n_b + s`.  For the IDM interval dominance
    and maximality (:math:`\min_{p} p_a - p_b = (n_a - n_b - s)/(N+s) > 0`) coincide except on the
    boundary :math:`n_a = n_b + s`, which the plugin counts as dominance (``>=``); we follow it, since
    with integer counts and s = 1 the boundary is common (a pure leaf of one row gives one class)
    and paper 001's CDT figures come from that code.  Dominance needs :math:`n_a > n_b`, so it has
    no cycle.  ``predict`` (:class:`InfoGainTree`'s most frequent class) is always in the set.

    **Missing values and empty branches.**  The original refuses missing feature values (training
    and test).  Here they are missing at random: the gain of a feature is computed over the node's
    rows where it is present, rows missing the split feature stay at the node, and an instance
    missing the split feature's value stops at that node (its counts give the set).  An instance
    whose value has no child (a branch no training row took, or a value unseen in training) gets
    every class — the plugin's leaf with zero counts, whose IDM intervals are all [0, 1].

    Parameters
    ----------
    s : float, default=1.0
        IDM strength (> 0), for the splits and the leaves.
    categories : {"seen", "declared"} or list of lists, default="seen"

    References
    ----------
    Abellán, J. and Moral, S. (2005). Upper entropy of credal sets. Applications to credal
    classification. International Journal of Approximate Reasoning 39, 235-255.
    Abellán, J. and Masegosa, A. (2012). Imprecise classification with credal decision trees. IJUFKS 20.

    Examples
    --------
    >>> import pandas as pd
    >>> from credal_core.tree import CredalDecisionTree
    >>> X = pd.DataFrame({"a": list("xxxxyyyy"), "b": list("pqpqpqpq")})
    >>> cdt = CredalDecisionTree().fit(X, [0, 0, 0, 0, 1, 1, 1, 1])
    >>> cdt.predict_set(pd.DataFrame({"a": ["y"], "b": ["p"]}))
    array([[False,  True]])
    """

    _parameter_constraints = {"s": [Interval(Real, 0, None, closed="neither")],
                              "categories": CATEGORIES_CONSTRAINT}

    def __init__(self, *, s: float = 1.0, categories="seen"):
        self.s = s
        self.categories = categories

    def _criterion(self) -> str:
        return "upper"

    def _leaf_counts(self, codes) -> np.ndarray:
        """Counts behind each instance's set (n, C): zeros after an empty branch."""
        node, empty = self.tree_.route(np.asarray(codes))
        counts = self.tree_.counts[node].copy()
        counts[empty] = 0.0
        return counts

    def _dominance(self, codes):
        n = self._leaf_counts(codes)
        return n[:, :, None] >= n[:, None, :] + float(self.s)

    def intervals(self, X) -> tuple[np.ndarray, np.ndarray]:
        """IDM lower and upper class probabilities (n, C) each, at the node behind each set."""
        n = self._leaf_counts(self._encode(X))
        total = n.sum(axis=1, keepdims=True) + float(self.s)
        return n / total, (n + float(self.s)) / total

    def tree_frame(self) -> pd.DataFrame:
        """One row per node: id, parent, depth, split feature (name or None), the value leading to it,
        class counts (one column per class) and, for leaves, the IDM interval of each class."""
        tree = self.tree_
        names = [str(f) for f in self.tables_.feature_names]
        parent = np.full(tree.n_nodes, -1)
        value = [None] * tree.n_nodes
        for node in range(tree.n_nodes):
            f = tree.feature[node]
            if f >= 0:
                for v, child in enumerate(tree.children[node]):
                    if child >= 0:
                        parent[child], value[child] = node, self.tables_.categories[f][v]
        rows = {"node": np.arange(tree.n_nodes), "parent": parent, "depth": tree.depth,
                "split": [names[f] if f >= 0 else None for f in tree.feature],
                "value": [None if p < 0 else f"{names[tree.feature[p]]} = {v}"
                          for p, v in zip(parent, value)]}
        total = tree.counts.sum(axis=1) + float(self.s)
        for c, label in enumerate(self.classes_):
            rows[f"n({label})"] = tree.counts[:, c]
            leaf = tree.feature < 0
            rows[f"lower({label})"] = np.where(leaf, tree.counts[:, c] / total, np.nan)
            rows[f"upper({label})"] = np.where(leaf, (tree.counts[:, c] + float(self.s)) / total, np.nan)
        return pd.DataFrame(rows)
