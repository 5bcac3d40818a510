"""Likelihood-based naive credal classifier (paper 000 §4; paper 003 §4)."""
from __future__ import annotations

import numpy as np
from scipy.special import xlogy

from ._base import CredalClassifierMixin, NaiveCountsClassifier, perks_log_joint
from ._profile import PairCounts, _wlog, critical_alpha_pairs
from .data import lookup, lookup_sum

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
        counts = lookup(codes, tables.extended_counts())               # (C, m, n)
        n = codes.shape[0]
        crit = np.ones((n, n_classes, n_classes))
        nc = tables.class_counts
        for a in range(n_classes):
            for b in range(a + 1, n_classes):
                pc = PairCounts(np.full(n, nc[a]), counts[a].T, np.full(n, nc[b]), counts[b].T)
                crit[:, a, b], crit[:, b, a] = critical_alpha_pairs(pc, bool(self.include_instance))
        return crit

    def _dominance(self, codes):
        if not self.include_instance:
            return self.alpha > self._critical_alpha(codes)
        tables = self.tables_
        n_classes = len(tables.classes)
        nc = tables.class_counts
        ends = _end_point_sums(tables, codes)
        n = codes.shape[0]
        dom = np.zeros((n, n_classes, n_classes), dtype=bool)
        log_alpha = np.log(self.alpha) if self.alpha > 0 else -np.inf
        counts = None
        for a in range(n_classes):
            for b in range(a + 1, n_classes):
                lr0, lr1, ll0, ll1 = _pair_end_points(ends, nc, a, b)
                # Exact certificates from the end points u = 0 and u = 1 (see _profile):
                # r(0) >= 1 puts u0 <= 0, where L increases, so max{L : r <= 1} = L(u0) <= L(0);
                # and max{L : r >= 1} >= L(1).  Symmetrically for r(1) <= 1.
                left = lr0 >= 0
                right = lr1 <= 0
                ab_yes = left & (ll0 < log_alpha + ll1)
                ba_no = left & (ll1 > ll0)
                ba_yes = right & (ll1 < log_alpha + ll0)
                ab_no = right & (ll0 > ll1)
                todo = np.flatnonzero(~((ab_yes | ab_no) & (ba_yes | ba_no)))
                dom[:, a, b] = ab_yes
                dom[:, b, a] = ba_yes
                if todo.size:
                    if counts is None:
                        counts = lookup(codes, tables.extended_counts())
                    pc = PairCounts(np.full(todo.size, nc[a]), counts[a][:, todo].T,
                                    np.full(todo.size, nc[b]), counts[b][:, todo].T)
                    crit_ab, crit_ba = critical_alpha_pairs(pc, True)
                    dom[todo, a, b] = self.alpha > crit_ab
                    dom[todo, b, a] = self.alpha > crit_ba
        return dom


def _end_point_sums(tables, codes):
    """Per class (C, n): m_c, and over the features with n(c, f_j) < n(c) the sums of
    log n(c,f_j), log(n(c,f_j)+1), n(c,f_j) log n(c,f_j), n(c,f_j) log(n(c,f_j)+1)."""
    nc = tables.class_counts[:, None]
    ext = tables.extended_counts()
    inside = [t < nc for t in ext]
    with np.errstate(divide="ignore"):
        parts = {
            "m": [j.astype(float) for j in inside],
            "s0": [np.where(j, np.log(t), 0.0) for t, j in zip(ext, inside)],
            "s1": [np.where(j, np.log(t + 1), 0.0) for t, j in zip(ext, inside)],
            "w0": [np.where(j, xlogy(t, t), 0.0) for t, j in zip(ext, inside)],
            "w1": [np.where(j, xlogy(t, t + 1), 0.0) for t, j in zip(ext, inside)],
        }
    return {key: lookup_sum(codes, val) for key, val in parts.items()}


def _pair_end_points(ends, nc, a, b):
    """log r and log L (unnormalised) at u = 0 and u = 1 for the pair (a, b)."""
    def side(c, shift):
        m = ends["m"][c]
        s = ends["s1" if shift else "s0"][c]
        w = ends["w1" if shift else "w0"][c]
        lp = _wlog(1 - m, nc[c] + shift) + s
        lam = _wlog(nc[c] * (1 - m), nc[c] + shift) + w
        return lp, lam

    lpa0, lama0 = side(a, 0.0)
    lpa1, lama1 = side(a, 1.0)
    lpb0, lamb0 = side(b, 0.0)
    lpb1, lamb1 = side(b, 1.0)
    with np.errstate(invalid="ignore"):
        lr0, lr1 = lpa0 - lpb1, lpa1 - lpb0
    ll0 = lama0 + lamb1 + np.logaddexp(lpa0, lpb1)
    ll1 = lama1 + lamb0 + np.logaddexp(lpa1, lpb0)
    return lr0, lr1, ll0, ll1
