r"""Growing an unpruned ID3-style tree on integer codes, with the information gain of a chosen entropy.

At a node with rows R, the gain of feature ``j`` is

.. math:: IG_j = H(R_j) - \sum_v \frac{|R_{j=v}|}{|R_j|} H(R_{j=v}),

where :math:`R_j` are the rows of R where ``j`` is present (all of R with complete data) and H the
entropy of the class counts (the IDM upper entropy for the credal tree, Shannon's for ID3).  The
node splits on the feature of largest gain (the first on exact ties; the plugin takes the first below the
root and, through a stable ascending sort, the last at the root), into one child per value, unless that
gain is below ``min_gain`` (the Weka plugin: ``Utils.grOrEq(0, gain)``, i.e. gain < 1e-6 bits) or
the node's rows hold a single class or fewer than two rows (no split of those has a positive gain);
a child receives the rows with its
value, rows missing the split feature stay at the node (they count in its class counts only).  A
value with no row at the node gets no child (prediction handles it: see the estimators).

The tree is stored flat: ``feature[node]`` (-1 for a leaf), ``children[node, v]`` (the child for value
``v`` of the node's feature; -1 if no training row of the node took it), ``counts[node]`` (C,) and
``depth[node]``; node 0 is the root, ids in breadth-first order.
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
    """Grow the tree on ``codes`` (n, m) (``MISSING`` for a missing cell) and classes ``y`` (n,).

    Level by level: the class counts of every (open node, feature, value) of a level come from one
    ``bincount`` over the rows still descending, and every node's gains from one vectorised call, so
    the number of numpy calls grows with the depth, not with the number of nodes.  Node ids are in
    breadth-first order (children in value order)."""
    codes = np.asarray(codes, dtype=np.int64)
    y = np.asarray(y, dtype=np.int64)
    n_values = np.asarray(n_values, dtype=np.int64)
    n, m = codes.shape
    C = int(n_classes)
    width = int(max(n_values.max(initial=0), 1))
    offsets = np.concatenate([[0], np.cumsum(n_values)])
    total = int(offsets[-1])
    member = (np.repeat(np.arange(m), n_values)[None, :] == np.arange(m)[:, None]).astype(float)  # (m, total)
    cells = np.where(codes >= 0, codes + offsets[:-1], total)                  # (n, m); total: missing
    feature, children, depth = [np.full(1, -1)], [np.full((1, width), -1)], [np.zeros(1, int)]
    rows = np.arange(n)                                                         # rows still descending
    node_of = np.zeros(n, dtype=np.int64)                                       # their nodes (ids)
    level_nodes = np.zeros(1, dtype=np.int64)
    next_id, level = 1, 0
    node_counts = {}
    while level_nodes.size:
        local = np.searchsorted(level_nodes, node_of[rows])                     # level_nodes is sorted
        L = level_nodes.size
        cc = np.bincount(local * C + y[rows], minlength=L * C).reshape(L, C).astype(float)
        for k, node in enumerate(level_nodes.tolist()):
            node_counts[node] = cc[k]
        open_ = (cc.sum(axis=1) >= 2) & ((cc > 0).sum(axis=1) >= 2) & (m > 0) & (total > 0)
        if not open_.any():
            break
        keep = open_[local]
        rows, local = rows[keep], local[keep]
        remap = np.cumsum(open_) - 1
        local = remap[local]
        nodes = level_nodes[open_]
        L = nodes.size
        key = ((local[:, None] * (total + 1) + cells[rows]) * C + y[rows][:, None]).ravel()
        flat = np.bincount(key, minlength=L * (total + 1) * C).reshape(L, total + 1, C)
        table = flat[:, :total, :].astype(float)                                # (L, total, C)
        node_tab = np.einsum("mt,ltc->lmc", member, table)                      # present rows per feature
        h_cells = _entropy(table.reshape(-1, C), criterion, s).reshape(L, total)
        h_nodes = _entropy(node_tab.reshape(-1, C), criterion, s).reshape(L, m)
        size = table.sum(axis=2)                                                # (L, total)
        present = node_tab.sum(axis=2)                                          # (L, m)
        weighted = (h_cells * size) @ member.T                                  # (L, m)
        safe = np.where(present > 0, present, 1.0)
        gain = np.where(present > 0, h_nodes - weighted / safe, -np.inf)
        best = np.argmax(gain, axis=1)
        split = gain[np.arange(L), best] >= min_gain
        # children: one per value with rows, ids in (node, value) order
        first = offsets[best]
        has = np.zeros((L, width), dtype=bool)
        for k in np.flatnonzero(split):
            j = best[k]
            has[k, :n_values[j]] = size[k, first[k]:first[k] + n_values[j]] > 0
        child = np.full((L, width), -1, dtype=np.int64)
        count = int(has.sum())
        child[has] = np.arange(next_id, next_id + count)
        feature.append(np.full(count, -1))
        children.append(np.full((count, width), -1))
        depth.append(np.full(count, level + 1))
        split_nodes = nodes[split]
        _set_split(feature, children, split_nodes, best[split], child[split])
        next_id += count
        # rows move to their child; rows of unsplit nodes, or missing the split feature, stop
        moving = split[local]
        rows, local = rows[moving], local[moving]
        v = codes[rows, best[local]]
        go = v >= 0
        rows, local, v = rows[go], local[go], v[go]
        node_of[rows] = child[local, v]
        level_nodes = np.arange(next_id - count, next_id)
        level += 1
    feat = np.concatenate(feature)
    kids = np.vstack(children)
    out_counts = np.array([node_counts.get(i, np.zeros(C)) for i in range(len(feat))]).reshape(-1, C)
    return Tree(feat, kids, out_counts, np.concatenate(depth))


def _set_split(feature, children, nodes, best, child):
    """Record the splits of ``nodes`` (global ids) in the per-level blocks of ``feature`` / ``children``."""
    starts = np.cumsum([0] + [len(f) for f in feature])
    for node, j, kids in zip(nodes.tolist(), best.tolist(), child):
        block = int(np.searchsorted(starts, node, side="right") - 1)
        feature[block][node - starts[block]] = j
        children[block][node - starts[block]] = kids
