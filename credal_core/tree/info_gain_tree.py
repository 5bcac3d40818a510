"""The precise decision tree: unpruned ID3 with a chosen entropy, leaves predicting their top class."""
from __future__ import annotations

from numbers import Real

import numpy as np
from sklearn.utils._param_validation import Interval, StrOptions

from .._base import CATEGORIES_CONSTRAINT, CategoricalClassifier
from ._grow import grow_tree

__all__ = ["InfoGainTree"]


class InfoGainTree(CategoricalClassifier):
    r"""Unpruned ID3 tree on categorical features, split by information gain of a chosen entropy.

    ``criterion="upper"`` (default) splits by the *imprecise* information gain — the upper entropy
    of the IDM credal set with strength ``s`` (Abellán & Moral 2003, 2005): the same tree as
    :class:`~credal_core.tree.CredalDecisionTree`, whose precise counterpart it is (leaves predict
    their most frequent class instead of a set: Abellán & Masegosa's precise "credal decision
    tree").  ``criterion="shannon"`` is Quinlan's ID3.  Growth, stopping (gain below 1e-6 bits, as
    the Weka plugin) and missing values: :mod:`credal_core.tree._grow`.

    ``predict_proba`` is the smoothed frequency :math:`(n_c + s/|C|)/(N + s)` of the node reached;
    ``predict`` its most frequent class (the first on ties).  An instance stops at a split node when
    its value of the split feature is missing or has no child there (unseen in training, or no
    training row of that node took it), and that node's counts speak.

    Parameters
    ----------
    s : float, default=1.0
        IDM strength of the upper entropy, and of the smoothing of ``predict_proba`` (> 0).
    criterion : {"upper", "shannon"}, default="upper"
    categories : {"seen", "declared"} or list of lists, default="seen"
        :math:`F_j` policy (declared values without training rows get no child).

    Attributes
    ----------
    tree_ : Tree — flat arrays ``feature``, ``children``, ``counts``, ``depth``.

    Examples
    --------
    >>> import pandas as pd
    >>> from credal_core.tree import InfoGainTree
    >>> X = pd.DataFrame({"a": list("xxxxyyyy"), "b": list("pqpqpqpq")})
    >>> InfoGainTree().fit(X, [0, 0, 0, 0, 1, 1, 1, 1]).predict(pd.DataFrame({"a": ["y"], "b": ["p"]}))
    array([1])
    """

    _parameter_constraints = {"s": [Interval(Real, 0, None, closed="neither")],
                              "criterion": [StrOptions({"upper", "shannon"})],
                              "categories": CATEGORIES_CONSTRAINT}
    _needs_training_codes = True

    def __init__(self, *, s: float = 1.0, criterion: str = "upper", categories="seen"):
        self.s = s
        self.criterion = criterion
        self.categories = categories

    def _criterion(self) -> str:
        return self.criterion

    def _fit_tables(self, tables, codes=None, y_codes=None):
        n_values = [len(c) for c in tables.categories]
        self.tree_ = grow_tree(codes, y_codes, n_values, len(tables.classes), criterion=self._criterion(),
                               s=float(self.s))

    def _node_counts(self, codes):
        node, _ = self.tree_.route(np.asarray(codes))
        return self.tree_.counts[node]

    def _joint_log_likelihood(self, codes):
        counts = self._node_counts(codes)
        s, k = float(self.s), counts.shape[1]
        return np.log((counts + s / k) / (counts.sum(axis=1, keepdims=True) + s)).T
