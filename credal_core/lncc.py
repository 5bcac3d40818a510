"""Likelihood-based naive credal classifier (paper 000 §4; paper 003 §4)."""
from __future__ import annotations

import numpy as np

from ._base import CredalClassifierMixin, NaiveCountsClassifier, perks_log_joint
from ._profile import PairCounts, critical_alpha_pairs
from .data import lookup

__all__ = ["LNCC"]


class LNCC(CredalClassifierMixin, NaiveCountsClassifier):
    r"""Likelihood-based naive credal classifier: the NBCs whose normalised likelihood is at least α.

    Class ``a`` dominates ``b`` on :math:`\tilde f` iff (000 eq. 8)

    .. math:: \inf_{\theta:\ \mathrm{lik}(\theta) \ge \alpha}
              \frac{P_\theta(a, \tilde f)}{P_\theta(b, \tilde f)} > 1 .

    With ``include_instance=True`` the likelihood is that of the data times the probability of the
    instance with its class missing, restricted to ``a`` or ``b`` (000 eq. 9 and the pairwise
    simplification of §4); with ``include_instance=False`` it is the likelihood of the data alone —
    the naive hierarchical classifier of 003 (Corollary 1) with cutoff β = α.

    Dominance holds iff ``alpha > critical_alpha``: the largest normalised profile likelihood
    among the θ with ratio ≤ 1.  It is computed exactly from the profile likelihood of Theorems 1-2
    (see :mod:`credal_core._profile`): no grid (the paper used 250 points).

    Parameters
    ----------
    alpha : float, default=0.75
        Likelihood threshold in [0, 1].
    include_instance : bool, default=True
        Put the instance to classify in the likelihood.

    Notes
    -----
    ``predict`` returns the label of the Perks NBC with ``s = 1``, the precise classifier the paper
    compares against (000 §5).  Unlike the NCC, the LNCC's set is not guaranteed to contain it.

    Examples
    --------
    >>> import pandas as pd
    >>> from credal_core import LNCC
    >>> X = pd.DataFrame({"f": ["x"] * 6 + ["y"] * 2})
    >>> y = ["c", "c", "c", "c", "c", "d", "c", "d"]   # 000 Example 2's counts
    >>> crit = LNCC().fit(X, y).critical_alpha(pd.DataFrame({"f": ["x"]}))
    >>> round(float(crit[0, 0, 1]), 4)  # c dominates d for alpha above this
    0.2334
    """

    def __init__(self, *, alpha: float = 0.75, include_instance: bool = True):
        self.alpha = alpha
        self.include_instance = include_instance

    def _validate_params(self):
        if not 0 <= self.alpha <= 1:
            raise ValueError(f"alpha must be in [0, 1]; got {self.alpha!r}")

    def _joint_log_likelihood(self, codes):
        return perks_log_joint(self.tables_, codes, 1.0)

    def critical_alpha(self, X) -> np.ndarray:
        """Critical levels (n, C, C): ``a`` dominates ``b`` iff ``alpha > critical_alpha[i, a, b]``.

        1.0 on the diagonal and wherever ``a`` can never dominate ``b``.
        """
        return self._critical_alpha(self._encode(X))

    def _critical_alpha(self, codes):
        tables = self.tables_
        n_classes = len(tables.classes)
        counts = lookup(codes, tables.extended_counts())               # (C, n, m)
        n = codes.shape[0]
        crit = np.ones((n, n_classes, n_classes))
        nc = tables.class_counts
        for a in range(n_classes):
            for b in range(a + 1, n_classes):
                pc = PairCounts(np.full(n, nc[a]), counts[a], np.full(n, nc[b]), counts[b])
                crit[:, a, b], crit[:, b, a] = critical_alpha_pairs(pc, bool(self.include_instance))
        return crit

    def _dominance(self, codes):
        return self.alpha > self._critical_alpha(codes)
