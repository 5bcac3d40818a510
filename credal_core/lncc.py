"""Likelihood-based naive credal classifier (paper 000 §4; paper 003 §4)."""
from __future__ import annotations

import numpy as np
from scipy.special import xlogy

from ._base import CredalClassifierMixin, NaiveCountsClassifier, check_number, perks_log_joint
from ._profile import PairCounts, _wlog, critical_alpha_pairs
from .data import Gather, lookup

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

    A class declared with ``partial_fit(classes=...)`` but absent from the data has entirely free
    feature probabilities, so with the instance in the likelihood the best fit may assign an
    unlikely instance to it — with many features such a class can even dominate.  That is the
    model of 000 §4 taken literally; fit on data where every class occurs to avoid it.

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
        check_number("alpha", self.alpha, 0.0, 1.0)
        if not isinstance(self.include_instance, (bool, np.bool_)):
            raise ValueError(f"include_instance must be True or False; got {self.include_instance!r}")

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
        shift = 1.0 if self.include_instance else 0.0
        tables = self.tables_
        n_classes = len(tables.classes)
        n = codes.shape[0]
        dom = np.zeros((n, n_classes, n_classes), dtype=bool)
        if self.alpha == 0:                     # critical levels are >= 0: nothing dominates
            return dom
        nc = tables.class_counts
        gather = Gather(codes, [len(c) for c in tables.categories])
        ends = _end_point_sums(tables, gather)
        counts = gather.take(tables.extended_counts())                  # (C, m, n)
        log_alpha = np.log(self.alpha)
        for a in range(n_classes):
            for b in range(a + 1, n_classes):
                decided = np.zeros(n, dtype=bool)
                # r(0) >= 1 for (a, b) means u0 <= 0: b never dominates a (the likelihood's
                # maximum lies in [0, 1], where r >= 1) and only a over b needs a verdict.
                # r(0) >= 1 for (b, a) is the mirror case r(1) <= 1.
                ends_ab = _pair_end_points(ends, nc, a, b, shift)
                ends_ba = _pair_end_points(ends, nc, b, a, shift)
                for hi, lo, ends_hl in ((a, b, ends_ab), (b, a, ends_ba)):
                    left = np.flatnonzero(ends_hl[0] >= 0)
                    verdict, known = _probe(nc[hi], counts[hi][:, left], nc[lo], counts[lo][:, left],
                                            *(e[left] for e in ends_hl[:4]), log_alpha, shift)
                    dom[left[known], hi, lo] = verdict[known]
                    decided[left[known]] = True
                if shift:
                    # u0 inside (0, 1): the set {r <= 1} contains u = 0 and {r >= 1} contains
                    # u = 1, so neither class dominates if L(0) and L(1) reach α times max L.
                    inside = (ends_ab[0] < 0) & (ends_ba[0] < 0)
                    m_up = ends_ab[3]
                    decided |= (inside & (ends_ab[4] >= log_alpha + m_up)
                                & (ends_ba[4] >= log_alpha + m_up))
                todo = np.flatnonzero(~decided)
                if todo.size:
                    pc = PairCounts(np.full(todo.size, nc[a]), counts[a][:, todo].T,
                                    np.full(todo.size, nc[b]), counts[b][:, todo].T)
                    crit_ab, crit_ba = critical_alpha_pairs(pc, bool(self.include_instance))
                    dom[todo, a, b] = self.alpha > crit_ab
                    dom[todo, b, a] = self.alpha > crit_ba
        return dom


def _end_point_sums(tables, gather):
    """Per class (C, n): m_c, and over the features with n(c, f_j) < n(c) the sums of
    log n(c,f_j), log(n(c,f_j)+1), n(c,f_j) log n(c,f_j), n(c,f_j) log(n(c,f_j)+1), 1/n(c,f_j)."""
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
            "d0": [np.where(j, 1 / t, 0.0) for t, j in zip(ext, inside)],
            "d1": [np.where(j, 1 / (t + 1), 0.0) for t, j in zip(ext, inside)],
        }
    return gather.sum_many(parts)


def _pair_end_points(ends, nc, a, b, shift=1.0):
    """At the parameter value 0 for the pair (a, b): log r, its slope, and bounds on log max L.

    With the instance (``shift = 1``) ``b``'s argument is ``v = 1 - u``; the maximum of the
    (unnormalised) log profile likelihood lies in [0, 1] and is at least
    ``m_lo = max(log L(0), log L(1))`` and at most ``m_up``, the bound from its monotone terms (see
    ``_profile``).  Without it (``shift = 0``, 003 Corollary 1) the maximum is exactly at 0.
    Returns ``lr0, slope0, m_lo, m_up, log L(0)``.
    """
    def side(c, at):
        m = ends["m"][c]
        lp = _wlog(1 - m, nc[c] + at) + ends["s1" if at else "s0"][c]
        scalar = _wlog(nc[c] * (1 - m), nc[c] + at)
        return lp, scalar, ends["w1" if at else "w0"][c]

    (lpa0, ta0, wa0), (lpb_s, tb_s, wb_s) = side(a, 0.0), side(b, shift)
    with np.errstate(invalid="ignore", divide="ignore"):
        lr0 = lpa0 - lpb_s
        slope0 = ((1 - ends["m"][a]) / nc[a] + ends["d0"][a]
                  + (1 - ends["m"][b]) / (nc[b] + shift) + ends["d1" if shift else "d0"][b])
    if not shift:
        ll0 = ta0 + wa0 + tb_s + wb_s
        return lr0, slope0, ll0, ll0, ll0
    (lpa1, ta1, wa1), (lpb0, tb0, wb0) = side(a, 1.0), side(b, 0.0)
    ll0 = ta0 + wa0 + tb_s + wb_s + np.logaddexp(lpa0, lpb_s)
    ll1 = ta1 + wa1 + tb0 + wb0 + np.logaddexp(lpa1, lpb0)
    upper = (np.maximum(ta0, ta1) + wa1 + np.maximum(tb0, tb_s) + wb_s + np.logaddexp(lpa1, lpb_s))
    m_lo = np.maximum(ll0, ll1)
    return lr0, slope0, m_lo, np.maximum(upper, m_lo), ll0


def _probe(n1, c1, n2, c2, lr0, slope0, m_lo, m_up, log_alpha, shift=1.0, tries=4):
    """Certified verdicts on "a dominates b" where r(0) >= 1 (u0 <= 0), from a few probe points.

    ``a`` dominates ``b`` iff L(u0) < α max L, and L increases on u <= 0.  A probe u' in
    [u0, 0] (r(u') >= 1) bounds L(u0) <= L(u'); a probe u' < u0 bounds L(u0) >= L(u').  Counts
    are feature-major (m, k); the formulas need no masks because every base is positive there.
    Returns (verdict, known) boolean arrays.
    """
    k = lr0.size
    verdict = np.zeros(k, dtype=bool)
    known = np.zeros(k, dtype=bool)
    m = c1.shape[0]
    u_floor = 0.5 * -c1.min(axis=0, initial=np.inf) if m else np.full(k, -np.inf)
    with np.errstate(divide="ignore", invalid="ignore"):
        u = np.maximum(-0.5 * lr0 / slope0, u_floor)     # half a Newton step from 0 towards u0
    # r(0) = +inf (a zero count on b's side) or no usable slope: start halfway to the end point
    u = np.where(np.isfinite(u) & (u < 0), u, u_floor)
    live = np.flatnonzero(np.isfinite(u) & (u < 0))
    for _ in range(tries):
        if live.size == 0:
            break
        up = u[live]
        ca, cb = c1[:, live], c2[:, live]
        la = np.log(ca + up)
        lb = np.log(cb + (shift - up))
        lpa = (1 - m) * np.log(n1 + up) + la.sum(axis=0)
        lpb = (1 - m) * np.log(n2 + shift - up) + lb.sum(axis=0)
        log_l = (n1 * (1 - m) * np.log(n1 + up) + np.einsum("ij,ij->j", ca, la)
                 + n2 * (1 - m) * np.log(n2 + shift - up) + np.einsum("ij,ij->j", cb, lb))
        if shift:
            log_l = log_l + np.logaddexp(lpa, lpb)
        right = lpa >= lpb                                # r(u') >= 1: u' lies in [u0, 0]
        yes = right & (log_l < log_alpha + m_lo[live])
        no = ~right & (log_l >= log_alpha + m_up[live])
        verdict[live[yes]] = True
        known[live[yes | no]] = True
        # undecided: go further left if still right of u0, halfway back if past it
        step = np.where(right, 2 * up, 0.5 * up)
        u[live] = np.maximum(step, u_floor[live])
        live = live[~(yes | no)]
    return verdict, known
