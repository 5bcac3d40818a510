r"""Growing an unpruned ID3-style tree on integer codes, with the information gain of a chosen entropy.

At a node with rows R, the gain of feature ``j`` is

.. math:: IG_j = H(R_j) - \sum_v \frac{|R_{j=v}|}{|R_j|} H(R_{j=v}),

where :math:`R_j` are the rows of R where ``j`` is present (all of R with complete data) and H the
entropy of the class counts (the IDM upper entropy for the credal tree, Shannon's for ID3).  The
node splits on the feature of largest gain (the first on ties), into one child per value, unless that
gain is below ``min_gain`` (the Weka plugin: ``Utils.grOrEq(0, gain)``, i.e. gain < 1e-6 bits) or
the node's rows hold a single class or fewer than two rows; a child receives the rows with its
value, rows missing the split feature stay at the node (they count in its class counts only).  A
value with no row at the node gets no child (prediction handles it: see the estimators).

The tree is stored flat: ``feature[node]`` (-1 for a leaf), ``first_child[node]`` (children of a node
are ``first_child + v`` for the values ``v`` of its feature; -1 if no rows), ``counts[node]`` (C,).
"""
from __future__ import annotations

import numpy as np

from ..data.counts import MISSING
from ._entropy import shannon_entropy, upper_entropy

__all__ = ["Tree", "grow_tree", "MIN_GAIN"]

MIN_GAIN = 1e-6
"""The plugin's stopping threshold: Weka's ``Utils.SMALL`` (bits)."""


class Tree:
    """A grown tree: flat arrays (see the module doc) and the entropy used."""

    def __init__(self, feature, children, counts, depth):
        self.feature = np.asarray(feature, dtype=np.int64)
        self.children = np.asarray(children, dtype=np.int64)          # (nodes, max |F|) child ids, -1 none
        self.counts = np.asarray(counts, dtype=float)
        self.depth = np.asarray(depth, dtype=np.int64)

    @property
    def n_nodes(self) -> int:
        return len(self.feature)

    @property
    def n_leaves(self) -> int:
        return int((self.feature < 0).sum())

    def route(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per instance: the deepest node reached and whether it stopped on an empty branch.

        Descends while the node splits and the instance's value of the split feature has a child.
        It stops at a split node when that value is missing (``stuck`` false: the node's counts
        speak) or has no child — unseen in training, or no training row of the node took it
        (``stuck`` true).
        """
        n = codes.shape[0]
        node = np.zeros(n, dtype=np.int64)
        empty = np.zeros(n, dtype=bool)
        active = np.flatnonzero(self.feature[node] >= 0)
        width = self.children.shape[1]
        while active.size:
            f = self.feature[node[active]]
            v = codes[active, f]
            ok = (v >= 0) & (v < width)
            nxt = np.full(active.size, -1, dtype=np.int64)
            nxt[ok] = self.children[node[active[ok]], v[ok]]
            empty[active[(v != MISSING) & (nxt < 0)]] = True
            move = nxt >= 0
            node[active[move]] = nxt[move]
            active = active[move]
            active = active[self.feature[node[active]] >= 0]
        return node, empty


def _entropy(counts, criterion: str, s: float):
    return upper_entropy(counts, s) if criterion == "upper" else shannon_entropy(counts)


def grow_tree(codes: np.ndarray, y: np.ndarray, n_values, n_classes: int, *, criterion: str = "upper",
              s: float = 1.0, min_gain: float = MIN_GAIN) -> Tree:
    """Grow the tree on ``codes`` (n, m) (``MISSING`` for a missing cell) and classes ``y`` (n,)."""
    codes = np.ascontiguousarray(codes, dtype=np.int64)
    y = np.asarray(y, dtype=np.int64)
    n_values = np.asarray(n_values, dtype=np.int64)
    n, m = codes.shape
    width = int(max(n_values.max(initial=0), 1))
    offsets = np.concatenate([[0], np.cumsum(n_values)])
    total = int(offsets[-1])
    feat_of = np.repeat(np.arange(m), n_values)                # cell -> feature
    feature, children, counts, depth = [], [], [], []
    order = np.arange(n)
    stack = [(0, n, 0, -1, -1)]                                # (start, end, depth, parent, value)
    while stack:
        start, end, level, parent, value = stack.pop()
        node = len(feature)
        rows = order[start:end]
        yy = y[rows]
        cc = np.bincount(yy, minlength=n_classes).astype(float)
        feature.append(-1)
        children.append(np.full(width, -1, dtype=np.int64))
        counts.append(cc)
        depth.append(level)
        if parent >= 0:
            children[parent][value] = node
        if end - start < 2 or (cc > 0).sum() < 2 or m == 0 or total == 0:
            continue
        block = codes[rows]
        cells = np.where(block >= 0, block + offsets[:-1], total)
        flat = np.bincount((cells * n_classes + yy[:, None]).ravel(), minlength=(total + 1) * n_classes)
        table = flat[:total * n_classes].reshape(total, n_classes).astype(float)
        node_tab = np.zeros((m, n_classes))
        np.add.at(node_tab, feat_of, table)                    # class counts over present rows, per feature
        size = table.sum(axis=1)
        present = node_tab.sum(axis=1)
        child_h = _entropy(table, criterion, s) * size
        weighted = np.bincount(feat_of, weights=child_h, minlength=m)
        with np.errstate(invalid="ignore", divide="ignore"):
            gain = _entropy(node_tab, criterion, s) - np.where(present > 0, weighted / present, 0.0)
        gain[present == 0] = -np.inf
        j = int(np.argmax(gain))
        if not gain[j] >= min_gain:
            continue
        feature[node] = j
        col = block[:, j]
        sort = np.argsort(col, kind="stable")                  # MISSING (-2) rows first: they stay
        order[start:end] = rows[sort]
        bounds = np.searchsorted(col[sort], np.arange(n_values[j] + 1))
        for v in range(int(n_values[j]) - 1, -1, -1):          # pushed in reverse: children in value order
            a, b = start + bounds[v], start + bounds[v + 1]
            if b > a:
                stack.append((a, b, level + 1, node, v))
    return Tree(feature, np.array(children).reshape(-1, width), np.array(counts).reshape(-1, n_classes),
                depth)
