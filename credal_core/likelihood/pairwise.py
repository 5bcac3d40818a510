r"""Exact pairwise profile likelihoods of the naive classifier (000 Theorems 1-2; 003 Corollary 1).

For classes ``a`` (counts ``n1 = n(a)``, ``c1[j] = n(a, f~_j)``) and ``b`` (``n2``, ``c2``) the profile
likelihood of the ratio :math:`P_\theta(a, \tilde f)/P_\theta(b, \tilde f)` is a curve parametrised by
one real number.  We use :math:`u = t + 1/2` of paper 000, so that the instance adds ``u``
pseudo-observations to ``a`` and ``1 - u`` to ``b``:

.. math::
    p_a(u) = (n_1 + u)\prod_j \frac{c_{1j} + u}{n_1 + u}, \qquad
    \Lambda_a(u) = (n_1 + u)^{n_1}\prod_j \frac{(c_{1j} + u)^{c_{1j}}}{(n_1 + u)^{n_1}},

and :math:`p_b, \Lambda_b` the same at :math:`1 - u`.  The ratio is :math:`r = p_a(u)/p_b(1-u)`,
increasing on :math:`[u_{\min}, u_{\max}] = [-\min_j c_{1j}, 1 + \min_j c_{2j}]`, and the profile
likelihood with the instance is :math:`L \propto \Lambda_a \Lambda_b (p_a + p_b)` (000 eq. 11).

**Where the maxima are.**  By the envelope theorem applied to
:math:`F(u) = \max_\theta \log(l_d\, \pi_a^{u} \pi_b^{1-u})`,

.. math:: \frac{d \log L}{du} = (\log r)'(u)\,\Big(\frac{r}{1+r} - u\Big),

so :math:`L` increases for :math:`u < 0`, decreases for :math:`u > 1`, and inside ``[0, 1]`` has the
sign of :math:`\psi(u) = \log r(u) - \log\frac{u}{1-u}` — an EM fixed-point equation that can have
several roots (``L`` can be bimodal with many features).  We isolate *all* of them with certified
bounds: every term of :math:`\psi` and :math:`\psi'` is monotone in ``u``, and so is every group of
:math:`\log L` but the class terms :math:`n_1\log(n_1+u) + n_2\log(n_2+1-u)`, which are concave with a
known maximiser; so on a cell each sum is bracketed by its terms' values at the two ends.  A cell is
dropped when it provably holds no root of ψ or cannot beat the best likelihood found, refined by
bracketed Newton when ψ is provably monotone there, and bisected otherwise.  When only the
dominance verdicts at one α are wanted (:func:`dominance_pairs`), an item's search stops as soon as
its brackets decide them.

Without the instance (003 Corollary 1, the naive hierarchical classifier) the exponents lose the 1/2
shifts (:math:`u \to \alpha`, bases :math:`n + \alpha` and :math:`n - \alpha`) and the likelihood is
:math:`\Lambda_a \Lambda_b` alone, which the envelope argument shows is unimodal with its maximum 1 at
:math:`\alpha = 0`.  (003 as extracted prints :math:`(n_a+\alpha)^{n_{a,i}}` in a denominator; the
multinomial of feature i given a has total count :math:`n_a`, hence :math:`(n_a+\alpha)^{n_a}`.)

Conventions of the papers: :math:`0^0 = 1` and :math:`0/0 = 1` — a feature with :math:`c_{1j} = n_1`
contributes the factor 1 for every ``u``.

**Missing values (MAR).**  The likelihood is over the observed values: the class block counts
every training row, the conditional of feature j given a counts the :math:`n_{1j} = n_j(a)` rows
where j is present, and the instance's term multiplies only the features it observes (set O).
The data likelihood is still a product of multinomials, each with its own sample size, so the
maximiser of :math:`l_d\,\pi_a^{u}\pi_b^{1-u}` (000 §4, Theorem 1's argument) is
:math:`\theta_a \propto n_1 + u` and :math:`\theta_{\tilde f_j|a} = (c_{1j}+u)/(n_{1j}+u)` for
j in O (the other conditionals stay at their frequencies), whence

.. math::
    p_a(u) = (n_1 + u)\prod_{j \in O} \frac{c_{1j} + u}{n_{1j} + u}, \qquad
    \Lambda_a(u) = (n_1 + u)^{n_1}\prod_{j \in O} \frac{(c_{1j} + u)^{c_{1j}}}{(n_{1j} + u)^{n_{1j}}},

and the same for b at 1 - u; L and everything above follow unchanged (with complete data
:math:`n_{1j} = n_1` gives back Theorem 2).  Each feature's factor increases in u and its
:math:`c\log(c+u) - n_{1j}\log(n_{1j}+u)` decreases for u >= 0, so the cell bounds hold as
before.  One thing is new: a feature of O with :math:`c_{1j} = n_{1j} < n_1` (every present row of
a shows the instance's value) has the factor 1 for u > -c but a free conditional at u = -c; when
that c is the least bound of u the curve stops at :math:`u^* = -c` with r > 0 and the profile
continues along that conditional θ in (0, 1] (ratio :math:`\theta r(u^*)`, likelihood
:math:`\Lambda(u^*)\,\theta^{c}(\theta p_a + p_b)`), see :func:`_segment_sups`.
"""
from __future__ import annotations

import numpy as np
from scipy.special import expit, logit, xlogy

from .._compiled import HELPER_OPTIONS, compiled_kernel, numba_enabled
from .._roots import increasing_root
from ..naive._lncc_constants import ROUNDING

__all__ = ["PairCounts", "critical_alpha_pairs", "dominance_pairs", "dominance_verdicts", "profile_maxima",
           "log_lik", "log_ratio", "side_logs"]

_DELTA = 2.0 ** -52  # cells live in [δ, 1 - δ]; the exact end values L(0), L(1) are candidates too


class PairCounts:
    r"""Counts of a pair of classes for many instances: ``n1, n2`` (k,), ``c1, c2`` (k, m).

    Missing values (MAR, see the module docstring): ``d1, d2`` (k, m) are the per-feature sample
    sizes :math:`n_j(a), n_j(b)` (the class rows where feature j is present; default ``n1, n2``)
    and ``missing`` (k, m) marks the instance's missing values, which leave the instance's term.
    """

    def __init__(self, n1, c1, n2, c2, d1=None, d2=None, missing=None):
        self.n1 = np.asarray(n1, float)
        self.n2 = np.asarray(n2, float)
        self.c1 = np.ascontiguousarray(np.atleast_2d(np.asarray(c1, float)))
        self.c2 = np.ascontiguousarray(np.atleast_2d(np.asarray(c2, float)))
        full = d1 is None and d2 is None and missing is None
        self.d1 = self.n1[:, None] + 0 * self.c1 if d1 is None else np.ascontiguousarray(
            np.atleast_2d(np.asarray(d1, float)))
        self.d2 = self.n2[:, None] + 0 * self.c2 if d2 is None else np.ascontiguousarray(
            np.atleast_2d(np.asarray(d2, float)))
        seen = np.ones(self.c1.shape, bool) if missing is None else ~np.atleast_2d(np.asarray(missing, bool))
        # features whose count equals their sample size contribute the factor 1 (0/0 = 1), and so
        # does a missing test value
        self.j1 = seen & (self.c1 < self.d1)
        self.j2 = seen & (self.c2 < self.d2)
        # own denominators n_j(c) + u where feature j is missing in some training rows of the class
        self.den1 = self.j1 & (self.d1 < self.n1[:, None])
        self.den2 = self.j2 & (self.d2 < self.n2[:, None])
        self.has_den = not full and bool(self.den1.any() or self.den2.any())
        self.m1 = (self.j1 & ~self.den1).sum(axis=1)
        self.m2 = (self.j2 & ~self.den2).sum(axis=1)
        self.k1 = (self.j1 & (self.c1 == 0)).sum(axis=1)
        self.k2 = (self.j2 & (self.c2 == 0)).sum(axis=1)
        self.pos1 = self.j1 & (self.c1 > 0)
        self.pos2 = self.j2 & (self.c2 > 0)
        # a feature seen in the instance whose every present class row shows its value, but with
        # n_j < n: its conditional is free at u = -c (the segment of the module docstring)
        free1 = seen & (self.c1 == self.d1) & (self.d1 < self.n1[:, None])
        free2 = seen & (self.c2 == self.d2) & (self.d2 < self.n2[:, None])
        free1 = np.min(np.where(free1, self.c1, np.inf), axis=1)
        free2 = np.min(np.where(free2, self.c2, np.inf), axis=1)
        low1 = np.minimum(np.min(np.where(self.j1, self.c1, self.n1[:, None]), axis=1), self.n1)
        low2 = np.minimum(np.min(np.where(self.j2, self.c2, self.n2[:, None]), axis=1), self.n2)
        self.seg1, self.seg2 = free1 < low1, free2 < low2
        self.u_min = -np.minimum(low1, free1)
        self.u_max = 1 + np.minimum(low2, free2)

    def take(self, idx):
        out = object.__new__(PairCounts)
        for key, val in self.__dict__.items():
            out.__dict__[key] = val if key == "has_den" else val[idx]
        return out


def _wlog(w, x):
    """``w * log(x)`` with ``0 * log(0) = 0`` (and 0 for ``w = 0`` whatever ``x``)."""
    out = xlogy(w, x)                  # one ufunc pass: this sits in every inner loop
    if np.isnan(out).any():            # xlogy(0, nan) is nan; the convention wants 0
        out = np.where(np.asarray(w) == 0, 0.0, out)
    return out


def side_logs(pc: PairCounts, idx, u, shift: float):
    """log p_a, log p_b, log Λ_a, log Λ_b at ``u`` (any point of [u_min, u_max]).

    ``shift`` is 1 with the instance (b's argument is 1 - u) and 0 without it (b's is -u).
    """
    terms = _side_terms(pc, idx, u, shift, lam=True, slope=False)
    return terms[0], terms[1], terms[2], terms[3]


def log_ratio(pc, idx, u, shift):
    """log r(u) = log p_a - log p_b (:func:`side_logs`), its derivative, and the size of the summed
    terms (interior points)."""
    lpa, lpb, _, _, slope, scale = _side_terms(pc, idx, u, shift, lam=False, slope=True)
    return lpa - lpb, slope, scale


def _side_terms(pc, idx, u, shift, lam, slope):
    """The sums behind :func:`side_logs` and :func:`log_ratio` at ``u`` for the items ``idx``:
    log p_a, log p_b, then (with ``lam``) log Λ_a, log Λ_b, then (with ``slope``) the derivative of
    log r and the size of the terms of log p_a and log p_b (for a rounding margin); None where not
    asked.  0 log 0 = 0; log 0 = -inf and 1/0 = inf at the domain's ends, as numpy.

    With missing training values and numba, one compiled pass per row (:func:`_side_terms_rows`:
    the same terms, summed in feature order) instead of ~20 array passes.
    """
    if pc.has_den and numba_enabled():
        out = np.empty((6, len(idx)))
        _side_terms_rows(pc.n1, pc.m1, pc.c1, pc.j1, pc.den1, pc.d1, pc.n2, pc.m2, pc.c2, pc.j2,
                         pc.den2, pc.d2, np.asarray(idx, dtype=np.int64), np.asarray(u, dtype=float),
                         float(shift), out)
        return (out[0], out[1], out[2] if lam else None, out[3] if lam else None,
                out[4] if slope else None, out[5] if slope else None)
    v = shift - u
    n1, n2, m1, m2 = pc.n1[idx], pc.n2[idx], pc.m1[idx], pc.m2[idx]
    j1, j2 = pc.j1[idx], pc.j2[idx]
    c1, c2 = pc.c1[idx], pc.c2[idx]
    ca, cb = c1 + u[:, None], c2 + v[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        la = np.where(j1, np.log(ca), 0.0)
        lb = np.where(j2, np.log(cb), 0.0)
    a1, b1 = _wlog(1 - m1, n1 + u), _wlog(1 - m2, n2 + v)
    lpa, lpb = a1 + la.sum(axis=1), b1 + lb.sum(axis=1)
    lam_a = lam_b = d = scale = None
    if lam:
        with np.errstate(invalid="ignore"):
            wa = np.where(j1 & (c1 > 0), c1 * la, 0.0).sum(axis=1)
            wb = np.where(j2 & (c2 > 0), c2 * lb, 0.0).sum(axis=1)
        lam_a = _wlog(n1 * (1 - m1), n1 + u) + wa
        lam_b = _wlog(n2 * (1 - m2), n2 + v) + wb
    if slope:
        with np.errstate(divide="ignore", invalid="ignore"):   # end points of a plotted curve: 1/0 = inf
            d = ((1 - m1) / (n1 + u) + (1 - m2) / (n2 + v) + np.where(j1, 1 / ca, 0).sum(axis=1)
                 + np.where(j2, 1 / cb, 0).sum(axis=1))
        scale = np.abs(a1) + np.abs(b1) + np.abs(la).sum(axis=1) + np.abs(lb).sum(axis=1)
    if pc.has_den:
        da, wda, db, wdb = _den_terms(pc, idx, u, v)
        lpa, lpb = lpa - da, lpb - db
        if lam:
            lam_a, lam_b = lam_a - wda, lam_b - wdb
        if slope:
            with np.errstate(divide="ignore", invalid="ignore"):
                d = d - _den_inv(pc.den1[idx], pc.d1[idx], u) - _den_inv(pc.den2[idx], pc.d2[idx], v)
            scale = scale + np.abs(da) + np.abs(db)
    return lpa, lpb, lam_a, lam_b, d, scale


def _den_terms(pc, idx, u, v):
    """The own denominators of features missing in some training rows (zero without any):
    sums of log(d + u) and d log(d + u) for a, and the same at ``v`` for b (d > c >= 0, so
    every base is positive on the domain)."""
    out = []
    for den, d, x in ((pc.den1[idx], pc.d1[idx], u), (pc.den2[idx], pc.d2[idx], v)):
        with np.errstate(divide="ignore", invalid="ignore"):
            logs = np.where(den, np.log(np.where(den, d, 1.0) + x[:, None]), 0.0)
        out += [logs.sum(axis=1), (np.where(den, d, 0.0) * logs).sum(axis=1)]
    return out


@compiled_kernel(**HELPER_OPTIONS)
def _class_row(c, j, den, d, r, x):
    """One class's feature sums in row ``r`` at its argument ``x`` (numba helper of
    :func:`_side_terms_rows`): over the features ``j`` with count c, the sums of log(c + x),
    c log(c + x) (0 where c = 0), |log(c + x)| and 1 / (c + x); over the own-denominator features
    ``den`` with sample size d, the sums of log(d + x), d log(d + x) and 1 / (d + x)."""
    lc = wc = size = inv = ld = wd = inv_d = 0.0
    for k in range(c.shape[1]):
        if j[r, k]:
            t = np.log(c[r, k] + x)
            lc += t
            size += abs(t)
            inv += 1.0 / (c[r, k] + x)
            if c[r, k] > 0.0:
                wc += c[r, k] * t
        if den[r, k]:
            t = np.log(d[r, k] + x)
            ld += t
            wd += d[r, k] * t
            inv_d += 1.0 / (d[r, k] + x)
    return lc, wc, size, inv, ld, wd, inv_d


@compiled_kernel(error_model="numpy")
def _side_terms_rows(n1, m1, c1, j1, den1, d1, n2, m2, c2, j2, den2, d2, idx, u, shift, out):
    """:func:`_side_terms` row by row (numba): out[0..5] = log p_a, log p_b, log Λ_a, log Λ_b, the
    derivative of log r and the terms' size, for the rows ``idx`` at ``u`` (0 log 0 = 0; log 0 =
    -inf and 1/0 = inf, as numpy).  Each class's feature sums come from :func:`_class_row`."""
    for i in range(idx.shape[0]):
        r = idx[i]
        x = u[i]
        v = shift - x
        w1 = 1.0 - m1[r]
        w2 = 1.0 - m2[r]
        log_n1, log_n2 = np.log(n1[r] + x), np.log(n2[r] + v)
        a1 = 0.0 if w1 == 0.0 else w1 * log_n1                   # xlogy: 0 log 0 = 0
        b1 = 0.0 if w2 == 0.0 else w2 * log_n2
        lam_a = 0.0 if n1[r] * w1 == 0.0 else n1[r] * w1 * log_n1
        lam_b = 0.0 if n2[r] * w2 == 0.0 else n2[r] * w2 * log_n2
        la, wa, size_a, inv_a, da, wda, inv_da = _class_row(c1, j1, den1, d1, r, x)
        lb, wb, size_b, inv_b, db, wdb, inv_db = _class_row(c2, j2, den2, d2, r, v)
        out[0, i] = a1 + la - da
        out[1, i] = b1 + lb - db
        out[2, i] = lam_a + wa - wda
        out[3, i] = lam_b + wb - wdb
        out[4, i] = w1 / (n1[r] + x) + w2 / (n2[r] + v) + inv_a + inv_b - inv_da - inv_db
        out[5, i] = abs(a1) + abs(b1) + size_a + size_b + abs(da) + abs(db)


def _den_inv(den, d, x):
    """Sum over the own-denominator features of 1 / (d + x)."""
    return np.where(den, 1 / (np.where(den, d, 1.0) + x[:, None]), 0.0).sum(axis=1)


def log_lik(pc, idx, u, include_instance=True):
    """Unnormalised log profile likelihood at ``u`` (``-inf`` where it is 0)."""
    lpa, lpb, lam_a, lam_b = side_logs(pc, idx, u, 1.0 if include_instance else 0.0)
    out = lam_a + lam_b
    if include_instance:
        out = out + np.logaddexp(lpa, lpb)
    return out


def ratio_root(pc, shift, target=None):
    """u0 with r(u0) = 1 for every item (r increases from 0 to +inf on the open bracket);
    with ``target`` (k,), the u where log r(u) = target instead.

    Solved in w = logit((u - u_min)/(u_max - u_min)): log r has log singularities at both ends
    of the bracket, which become linear asymptotes in w, so Newton converges in a few steps.
    """
    k = pc.n1.size
    lo = pc.u_min
    width = (pc.u_max if shift == 1.0 else pc.u_max - 1.0) - lo
    if k == 0:
        return lo.copy()

    goal = np.zeros(k) if target is None else np.asarray(target, float)

    def fun(w, idx):
        p = expit(w)
        value, slope, scale = log_ratio(pc, idx, lo[idx] + width[idx] * p, shift)
        with np.errstate(invalid="ignore", over="ignore"):   # w at ±40: infinite slope × 0 width
            dw = slope * width[idx] * p * expit(-w)
        return value - goal[idx], dw, scale + np.abs(goal[idx])

    start = logit(np.clip((0.5 * shift - lo) / width, 1e-12, 1 - 1e-12))
    w = increasing_root(fun, np.full(k, -40.0), np.full(k, 40.0), x0=start)
    return lo + width * expit(w)


def _psi_groups(pc, idx, u, v=None):
    """Monotone groups of ψ (columns) and of ψ' at ``u`` in (0, 1), with the folded log u terms.

    ``v = 1 - u`` may be given separately to keep full precision near u = 1.
    """
    n1, n2 = pc.n1[idx], pc.n2[idx]
    m1, m2, k1, k2 = pc.m1[idx], pc.m2[idx], pc.k1[idx], pc.k2[idx]
    e1 = np.where(n1 > 0, k1 - 1, 0)       # zero counts of a minus the logit's log u
    e2 = np.where(n2 > 0, 1 - k2, 0)
    g1w = np.where(n1 > 0, 1 - m1, 0)
    g3w = np.where(n2 > 0, m2 - 1, 0)
    v = 1 - u if v is None else v
    ca = pc.c1[idx] + u[:, None]
    cb = pc.c2[idx] + v[:, None]
    pos1, pos2 = pc.pos1[idx], pc.pos2[idx]
    with np.errstate(divide="ignore", invalid="ignore"):
        psi = np.stack([
            np.where(pos1, np.log(ca), 0).sum(axis=1) - np.where(pos2, np.log(cb), 0).sum(axis=1),
            _wlog(g1w, n1 + u), _wlog(e1, u), _wlog(g3w, n2 + v), _wlog(e2, v)], axis=1)
        dpsi = np.stack([
            np.where(pos1, 1 / ca, 0).sum(axis=1), np.where(pos2, 1 / cb, 0).sum(axis=1),
            g1w / (n1 + u), e1 / u, -g3w / np.where(n2 + v > 0, n2 + v, 1), -e2 / v], axis=1)
    if pc.has_den:
        psi, dpsi = _den_groups(pc, idx, u, v, psi, dpsi)
    return psi, dpsi


def _den_groups(pc, idx, u, v, psi, dpsi):
    """ψ's and ψ''s groups with the own denominators appended: -sum log(d + u) and
    +sum log(d + v) both decrease in u, their slopes -sum 1/(d + u) and -sum 1/(d + v) are
    monotone too (the callers bound any group after the first by its values at a cell's ends)."""
    da, _, db, _ = _den_terms(pc, idx, u, v)
    ia, ib = _den_inv(pc.den1[idx], pc.d1[idx], u), _den_inv(pc.den2[idx], pc.d2[idx], v)
    return (np.column_stack([psi, -da, db]), np.column_stack([dpsi, -ia, -ib]))


def _cell_ends(pc, idx, u):
    r"""At ``u`` strictly inside (0, 1): the groups of ψ and ψ' (as ``_psi_groups``), the monotone
    groups of log L [h_a (inc), G_a (dec), h_b (dec), G_b (inc)], log p_a and log p_b.

    :math:`\log\Lambda_a = h_a + G_a` with :math:`h_a = n_1\log(n_1+u)` and
    :math:`G_a = \sum_j [c_{1j}\log(c_{1j}+u) - n_1\log(n_1+u)]`, whose terms have derivative
    :math:`u(c_{1j}-n_1)/((c_{1j}+u)(n_1+u)) \le 0` for u >= 0; the same for ``b`` at ``1 - u``.
    Pairing each feature's term with its share of the class term keeps the groups nearly flat
    (their slopes are O(1/c), not O(1)), so cell bounds are tight and few cells are needed.
    The per-feature logs are taken once for both ψ and log L.
    """
    n1, n2, m1, m2, k1, k2 = pc.n1[idx], pc.n2[idx], pc.m1[idx], pc.m2[idx], pc.k1[idx], pc.k2[idx]
    c1, c2, j1, j2 = pc.c1[idx], pc.c2[idx], pc.j1[idx], pc.j2[idx]
    pos1, pos2 = pc.pos1[idx], pc.pos2[idx]
    v = 1 - u
    ca = c1 + u[:, None]
    cb = c2 + v[:, None]
    la, lb = np.log(ca), np.log(cb)            # finite: every base is positive inside (0, 1)
    e1 = np.where(n1 > 0, k1 - 1, 0)
    e2 = np.where(n2 > 0, 1 - k2, 0)
    g1w = np.where(n1 > 0, 1 - m1, 0)
    g3w = np.where(n2 > 0, m2 - 1, 0)
    psi = np.stack([(la * pos1).sum(axis=1) - (lb * pos2).sum(axis=1),
                    _wlog(g1w, n1 + u), _wlog(e1, u), _wlog(g3w, n2 + v), _wlog(e2, v)], axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        dpsi = np.stack([(pos1 / ca).sum(axis=1), (pos2 / cb).sum(axis=1), g1w / (n1 + u), e1 / u,
                         -g3w / np.where(n2 + v > 0, n2 + v, 1), -e2 / v], axis=1)
    lpa = _wlog(1 - m1, n1 + u) + (la * j1).sum(axis=1)
    lpb = _wlog(1 - m2, n2 + v) + (lb * j2).sum(axis=1)
    lam_a = _wlog(n1 * (1 - m1), n1 + u) + (c1 * j1 * la).sum(axis=1)
    lam_b = _wlog(n2 * (1 - m2), n2 + v) + (c2 * j2 * lb).sum(axis=1)
    if pc.has_den:
        # each feature's c log(c + u) - d log(d + u) still decreases for u >= 0 (c < d)
        da, wda, db, wdb = _den_terms(pc, idx, u, v)
        lpa, lpb, lam_a, lam_b = lpa - da, lpb - db, lam_a - wda, lam_b - wdb
        psi, dpsi = _den_groups(pc, idx, u, v, psi, dpsi)
    ha, hb = _wlog(n1, n1 + u), _wlog(n2, n2 + v)
    return psi, dpsi, np.stack([ha, lam_a - ha, hb, lam_b - hb], axis=1), lpa, lpb


def class_terms_max(n1, n2, lo, hi):
    """Largest value on [lo, hi] of h_a + h_b = n1 log(n1 + u) + n2 log(n2 + 1 - u).

    Both terms are concave, and the derivative n1/(n1 + u) - n2/(n2 + 1 - u) vanishes at
    u = n1 / (n1 + n2), so the maximum on the cell is at that point clipped to the cell.
    """
    n1, n2 = np.asarray(n1, dtype=float), np.asarray(n2, dtype=float)   # scalars would raise on 0/0
    with np.errstate(invalid="ignore", divide="ignore"):
        top = np.where(n1 + n2 > 0, n1 / (n1 + n2), 0.5)
    u = np.clip(top, lo, hi)
    return _wlog(n1, n1 + u) + _wlog(n2, n2 + 1 - u)


def _raise(best, where, item, side, vals, us):
    """best[item, side] = max(best, vals), and where[item, side] = the u of that maximum."""
    np.maximum.at(best, (item, side), vals)
    hit = vals >= best[item, side]
    where[item[hit], side[hit]] = us[hit]


class _Verdicts:
    """Early exit of the search: stop an item once both dominance verdicts at level α are proven.

    ``known[i]`` and ``ab[i]``, ``ba[i]`` (a over b, b over a) are filled as items settle;
    ``dropped`` (k, 2) keeps the upper bounds of cells given up unresolved.
    """

    def __init__(self, log_alpha, margin):
        self.log_alpha, self.margin = log_alpha, margin
        k = margin.size
        self.known = np.zeros(k, dtype=bool)
        self.ab = np.zeros(k, dtype=bool)
        self.ba = np.zeros(k, dtype=bool)
        self.dropped = np.full((k, 2), -np.inf)

    def update(self, best, open_item, open_side, open_upper):
        """Settle the items whose verdicts the bracket [best, upper] of each side decides: a over
        b holds iff sup_{r<=1} L < α max L, with sup_{r<=1} in [best0, ub0] and max L in
        [max best, max ub]."""
        ub = np.maximum(best, self.dropped)
        np.maximum.at(ub, (open_item, open_side), open_upper)
        m_lo, m_up = best.max(axis=1), ub.max(axis=1)
        yes = ub < (self.log_alpha + m_lo - self.margin)[:, None]
        no = best >= (self.log_alpha + m_up + self.margin)[:, None]
        newly = (yes | no).all(axis=1) & ~self.known
        self.ab[newly], self.ba[newly] = yes[newly, 0], yes[newly, 1]
        self.known |= newly


def _max_with_instance(pc, sides_lo, sides_hi, best, where, rounds=80, verdicts=None):
    """Raise ``best`` (k, 2) to the maximum of log L over the cells [lo, hi] per (item, side);
    ``where`` (k, 2) follows the location of each maximum.  With ``verdicts`` (:class:`_Verdicts`)
    an item's cells are dropped once its dominance verdicts are proven."""
    item = np.concatenate([np.flatnonzero(np.isfinite(sides_lo[:, s])) for s in (0, 1)])
    side = np.concatenate([np.full(np.isfinite(sides_lo[:, s]).sum(), s) for s in (0, 1)])
    lo = np.concatenate([sides_lo[np.isfinite(sides_lo[:, s]), s] for s in (0, 1)])
    hi = np.concatenate([sides_hi[np.isfinite(sides_lo[:, s]), s] for s in (0, 1)])
    # the values at each cell's ends; a split cell's halves share its ends and its midpoint, so
    # each round evaluates only the new midpoints
    at_lo, at_hi = _cell_ends(pc, item, lo), _cell_ends(pc, item, hi)
    for _ in range(rounds):
        if item.size == 0:
            return
        psi_lo_g, dpsi_lo_g, lg_lo, lpa_lo, lpb_lo = at_lo
        psi_hi_g, dpsi_hi_g, lg_hi, lpa_hi, lpb_hi = at_hi
        psi_lo, psi_hi = psi_lo_g.sum(axis=1), psi_hi_g.sum(axis=1)
        # ψ: group 0 increases; groups 1-4 are monotone either way.
        rng_hi = psi_hi_g[:, 0] + np.maximum(psi_lo_g[:, 1:], psi_hi_g[:, 1:]).sum(axis=1)
        rng_lo = psi_lo_g[:, 0] + np.minimum(psi_lo_g[:, 1:], psi_hi_g[:, 1:]).sum(axis=1)
        # ψ': group 0 decreases, group 1 increases, groups 2-5 monotone.
        d_hi = dpsi_lo_g[:, 0] + dpsi_hi_g[:, 1] + np.maximum(dpsi_lo_g[:, 2:], dpsi_hi_g[:, 2:]).sum(axis=1)
        d_lo = dpsi_hi_g[:, 0] + dpsi_lo_g[:, 1] + np.minimum(dpsi_lo_g[:, 2:], dpsi_hi_g[:, 2:]).sum(axis=1)
        # log L: G_a decreases, G_b increases, p_a increases, p_b(1-u) decreases, and h_a + h_b is
        # concave with its maximum at n1 / (n1 + n2): its largest value on the cell is exact.
        upper = (class_terms_max(pc.n1[item], pc.n2[item], lo, hi) + lg_lo[:, 1] + lg_hi[:, 3]
                 + np.logaddexp(lpa_hi, lpb_lo))
        for vals, lp_a, lp_b, us in ((lg_lo, lpa_lo, lpb_lo, lo), (lg_hi, lpa_hi, lpb_hi, hi)):
            _raise(best, where, item, side, vals.sum(axis=1) + np.logaddexp(lp_a, lp_b), us)
        # ψ ≡ 0 on the cell (both bounds exactly 0) means L is constant there: its end values count.
        flat = (rng_lo == 0) & (rng_hi == 0)
        useless = ((upper <= best[item, side] + 1e-13 * (1 + np.abs(best[item, side])))
                   | (rng_lo > 0) | (rng_hi < 0) | flat)
        monotone = ~useless & ((d_lo > 0) | (d_hi < 0))
        crossing = monotone & (np.sign(psi_lo) != np.sign(psi_hi))
        if verdicts is not None:    # items the bounds settle already need no roots
            pending = crossing | (~useless & ~monotone)
            verdicts.update(best, item[pending], side[pending], upper[pending])
            crossing &= ~verdicts.known[item]
        if crossing.any():
            ci = np.flatnonzero(crossing)
            sign = np.where(psi_lo[ci] < 0, 1.0, -1.0)          # make the function increasing
            sub = item[ci]

            # Solve in z = logit(u): roots near u = 1 (confident predictions) sit next to the
            # log(1 - u) singularity, where ψ is nearly linear in z but not in u.
            def fun(z, k, sub=sub, sign=sign):
                u = expit(z)
                g, dg = _psi_groups(pc, sub[k], u, expit(-z))
                return (sign[k] * g.sum(axis=1), sign[k] * dg.sum(axis=1) * u * (1 - u),
                        np.abs(g).sum(axis=1) + np.abs(z))

            root = expit(increasing_root(fun, logit(lo[ci]), logit(hi[ci])))
            _raise(best, where, sub, side[ci], log_lik(pc, sub, root), root)
        split = ~useless & ~monotone & (hi - lo > 1e-13)
        # Guard against pathological near-flat profiles: past 2**12 live cells for one item, the
        # likelihood varies by less than its bound's slack there; keep the midpoints' values.
        crowded = np.bincount(item[split], minlength=best.shape[0])[item] > 4096
        if crowded.any():
            over = split & crowded
            mids = 0.5 * (lo + hi)[over]
            _raise(best, where, item[over], side[over], log_lik(pc, item[over], mids), mids)
            split &= ~crowded
        if verdicts is not None:
            pending = ~useless & ~monotone                # cells whose maximum is still unknown
            given_up = np.flatnonzero(pending & ~split)   # crowded or too small: bound them forever
            np.maximum.at(verdicts.dropped, (item[given_up], side[given_up]), upper[given_up])
            verdicts.update(best, item[split], side[split], upper[split])
            split &= ~verdicts.known[item]
        mid = 0.5 * (lo + hi)
        keep = np.flatnonzero(split)
        at_mid = _cell_ends(pc, item[keep], mid[keep])
        at_lo = tuple(np.concatenate([x[keep], y]) for x, y in zip(at_lo, at_mid))
        at_hi = tuple(np.concatenate([y, x[keep]]) for x, y in zip(at_hi, at_mid))
        item = np.concatenate([item[keep], item[keep]])
        side = np.concatenate([side[keep], side[keep]])
        lo, hi = np.concatenate([lo[keep], mid[keep]]), np.concatenate([mid[keep], hi[keep]])
    if item.size:  # not expected: record what remains at its midpoints
        _raise(best, where, item, side, log_lik(pc, item, 0.5 * (lo + hi)), 0.5 * (lo + hi))


def critical_alpha_pairs(pc: PairCounts, include_instance: bool = True):
    """Critical α of ``a`` over ``b`` and of ``b`` over ``a`` for every item: two arrays (k,).

    ``a`` dominates ``b`` at level α iff α > crit_ab: every θ with normalised likelihood ≥ α has
    ratio > 1, i.e. the profile likelihood on ``{r ≤ 1}`` stays below α times its maximum.
    """
    if not include_instance:
        return critical_alpha_data_only(pc)
    best, _, _ = profile_maxima(pc)
    top = best.max(axis=1)
    return np.exp(best[:, 0] - top), np.exp(best[:, 1] - top)


def dominance_pairs(pc: PairCounts, alpha: float, margin: np.ndarray, u0: np.ndarray | None = None,
                    at_u0: np.ndarray | None = None):
    """With the instance: ``alpha > critical_alpha_pairs(pc)`` for (a over b, b over a), two bool (k,).

    The search of an item stops as soon as both verdicts are proven by its brackets with the
    rounding ``margin`` (k,); the items that never settle run to the end and use the exact levels,
    so the verdicts are those of :func:`critical_alpha_pairs` (``alpha`` > 0).  ``u0`` (k,) may
    pass the roots of r = 1 where they are known already (NaN where not), and ``at_u0`` (k,)
    ``log_lik`` there (NaN where not known).
    """
    if (pc.seg1 | pc.seg2).any():              # missing training values: no early exit there
        crit_ab, crit_ba = critical_alpha_pairs(pc)
        return alpha > crit_ab, alpha > crit_ba
    verdicts = _Verdicts(np.log(alpha), np.asarray(margin, float))
    best, _, _ = profile_maxima(pc, verdicts=verdicts, u0=u0, at_u0=at_u0)
    top = best.max(axis=1)
    ab = np.where(verdicts.known, verdicts.ab, alpha > np.exp(best[:, 0] - top))
    ba = np.where(verdicts.known, verdicts.ba, alpha > np.exp(best[:, 1] - top))
    return ab, ba


def profile_maxima(pc: PairCounts, verdicts=None, u0=None, at_u0=None):
    """With the instance: log max of L on ``{r <= 1}`` and on ``{r >= 1}`` (k, 2), where they are
    attained (k, 2, in u), and u0 (k,) where r = 1.  ``verdicts``, ``u0``, ``at_u0``: see
    :func:`dominance_pairs`."""
    k = pc.n1.size
    if u0 is None:
        u0 = ratio_root(pc, 1.0)
    else:
        u0 = np.array(u0, dtype=float)
        missing = np.flatnonzero(np.isnan(u0))
        if missing.size:
            u0[missing] = ratio_root(pc.take(missing), 1.0)
    all_idx = np.arange(k)
    if at_u0 is None:
        at_u0 = log_lik(pc, all_idx, u0)
    else:
        at_u0 = np.array(at_u0, dtype=float)
        redo = np.flatnonzero(np.isnan(at_u0))
        if redo.size:
            at_u0[redo] = log_lik(pc, redo, u0[redo])
    best = np.stack([at_u0, at_u0], axis=1)
    where = np.stack([u0, u0], axis=1)
    zeros, ones = np.zeros(k), np.ones(k)
    at_0 = log_lik(pc, all_idx, zeros)
    at_1 = log_lik(pc, all_idx, ones)
    for side, cond, vals, us in ((0, u0 > 0, at_0, zeros), (0, u0 > 1, at_1, ones),
                                 (1, u0 < 1, at_1, ones), (1, u0 < 0, at_0, zeros)):
        pick = np.flatnonzero(cond)
        _raise(best, where, pick, np.full(pick.size, side), vals[pick], us[pick])
    # side 0 searches [0, min(u0, 1)], side 1 searches [max(u0, 0), 1]; NaN marks "no cell"
    lo = np.stack([np.where(u0 > 0, _DELTA, np.nan), np.where(u0 < 1, np.maximum(u0, _DELTA), np.nan)], 1)
    hi = np.stack([np.minimum(u0, 1 - _DELTA), np.full(k, 1 - _DELTA)], axis=1)
    lo[~(lo < hi)] = np.nan
    _max_with_instance(pc, lo, hi, best, where, verdicts=verdicts)
    _segment_sups(pc, 1.0, best, where)
    return best, where, u0


def _segment_sups(pc: PairCounts, shift: float, best, where):
    r"""Replace the supremum over {r <= 1} (column 0 of ``best``) or {r >= 1} (column 1) where the
    ratio 1 lies on a segment of the profile (missing training values only).

    A feature seen in the instance whose n_j(a) present rows all show its value (c = n_j < n(a))
    has a conditional that is free at u* = -c: when c is the least bound of u, the curve stops
    at u* with r(u*) = r* > 0 and the profile goes on along θ in (0, 1] (that conditional),
    with ratio θ r* and likelihood :math:`\Lambda(u^*)\,\theta^{c}\,(\theta p_a + p_b)`
    (without the instance the last factor is dropped), increasing in θ.  If r* >= 1 the
    supremum over {r <= 1} is at θ = 1/r*:

    .. math:: \log L = \log\Lambda_a + \log\Lambda_b - c\log r^* + \log 2 + \log p_b .

    The same holds for ``b`` at the other end (θ = r*, when r* <= 1).  Nothing changes with
    complete data (no such feature).
    """
    for seg, col, end in ((pc.seg1, 0, pc.u_min), (pc.seg2, 1, pc.u_max - 1 + shift)):
        rows = np.flatnonzero(seg)
        if rows.size == 0:
            continue
        u = end[rows]
        lpa, lpb, lam_a, lam_b = side_logs(pc, rows, u, shift)
        lr = lpa - lpb
        c = -u if col == 0 else u - shift       # the free count c* (b's argument is shift - u)
        on = (lr >= 0) if col == 0 else (lr <= 0)
        value = lam_a + lam_b - c * np.abs(lr)
        if shift:
            value = value + np.log(2.0) + (lpb if col == 0 else lpa)
        best[rows[on], col] = value[on]
        where[rows[on], col] = u[on]


def critical_alpha_data_only(pc: PairCounts):
    k = pc.n1.size
    crit_ab, crit_ba = np.ones(k), np.ones(k)
    live = np.flatnonzero(~((pc.u_min == 0) & (pc.u_max - 1 == 0)))   # both zero: lik_g ≡ 1
    if live.size == 0:
        return crit_ab, crit_ba
    sub = pc.take(live)
    a0 = ratio_root(sub, 0.0)
    idx = np.arange(live.size)
    # y is unimodal with its maximum at α = 0 (the maximum-likelihood estimate)
    y0 = np.exp(log_lik(sub, idx, a0, include_instance=False)
                - log_lik(sub, idx, np.zeros(live.size), include_instance=False))
    crit_ab[live] = np.where(a0 < 0, y0, 1.0)
    crit_ba[live] = np.where(a0 > 0, y0, 1.0)
    if (sub.seg1 | sub.seg2).any():
        best = np.full((live.size, 2), np.nan)
        _segment_sups(sub, 0.0, best, np.zeros((live.size, 2)))
        top = log_lik(sub, idx, np.zeros(live.size), include_instance=False)
        for col, crit, other in ((0, crit_ab, crit_ba), (1, crit_ba, crit_ab)):
            on = np.flatnonzero(np.isfinite(best[:, col]))   # the ratio 1 lies on the segment
            crit[live[on]] = np.exp(best[on, col] - top[on])
            other[live[on]] = 1.0
    return crit_ab, crit_ba




def dominance_verdicts(pc: PairCounts, alpha: float, include_instance: bool = True):
    """``alpha > critical_alpha_pairs(pc, include_instance)`` for (a over b, b over a): two bool (k,).

    The exact route of the LNCC's verdicts, for items of any pairs of classes and any missing
    values.  An item is settled from the exact root u0 of r = 1 and L(u0) where they decide it
    (:func:`_settle_at_root`, with the end values of :func:`_pair_ends`); with the instance the
    others get the search that stops once its brackets prove both verdicts
    (:func:`dominance_pairs`); an item whose profile continues along a free conditional (the
    segment of the module docstring), or without the instance, the exact levels.  Every shortcut
    keeps a rounding margin, so a verdict within rounding of the level is the exact comparison's.
    """
    shift = 1.0 if include_instance else 0.0
    k = pc.n1.size
    ab, ba = np.zeros(k, bool), np.zeros(k, bool)
    if k == 0 or not alpha > 0:                     # critical levels are >= 0: nothing dominates
        return ab, ba
    seg = pc.seg1 | pc.seg2
    rest, curve = np.flatnonzero(seg), np.flatnonzero(~seg)
    if curve.size:
        sub = pc.take(curve)
        ends = _pair_ends(sub, shift)
        c_ab, c_ba, known, u0, at_u0 = _settle_at_root(sub, ends, np.log(alpha), shift)
        ab[curve], ba[curve] = c_ab, c_ba
        left = np.flatnonzero(~known)
        if left.size and shift:
            ab[curve[left]], ba[curve[left]] = dominance_pairs(sub.take(left), alpha, ends["margin"][left],
                                                               u0[left], at_u0[left])
        elif left.size:
            rest = np.concatenate([rest, curve[left]])
    if rest.size:
        crit_ab, crit_ba = critical_alpha_pairs(pc.take(rest), include_instance)
        ab[rest], ba[rest] = alpha > crit_ab, alpha > crit_ba
    return ab, ba


def _pair_ends(pc: PairCounts, shift: float):
    """log r at the ends, bounds on log max L and the rounding margin (k,) of the items of ``pc``.

    ``lr_ab`` is log r at u = 0 for (a, b), ``lr_ba`` the same for (b, a) (log r(1) negated with
    the instance).  Without the instance (003 Cor. 1) the maximum of log L is exactly at 0:
    ``m_lo = m_up = log L(0)``.  With it the maximum lies in [0, 1] and is at least ``m_lo =
    max(log L(0), log L(1))`` and at most ``m_up``, the one-cell bound of :func:`_cell_ends` on
    [0, 1]: each feature's log Λ term c log(c + u) - n_j log(n_j + u) decreases and each factor of
    p increases in u (missing values too), and the class terms' sum is at most its value at
    n_a / (n_a + n_b) (:func:`class_terms_max`).  The margin is ``ROUNDING`` times the sizes of
    every term added at both ends (:func:`_term_sizes`).
    """
    k = pc.n1.size
    rows = np.arange(k)
    margin = ROUNDING * (_term_sizes(pc.c1, pc.d1, pc.j1, pc.den1, pc.n1, pc.m1)
                         + _term_sizes(pc.c2, pc.d2, pc.j2, pc.den2, pc.n2, pc.m2))
    lpa0, lpb_s, lam_a0, lam_b_s = side_logs(pc, rows, np.zeros(k), shift)   # b's argument: shift
    with np.errstate(invalid="ignore"):
        if not shift:
            lr, ll0 = lpa0 - lpb_s, lam_a0 + lam_b_s
            return {"lr_ab": lr, "lr_ba": -lr, "m_lo": ll0, "m_up": ll0, "margin": margin}
        lpa1, lpb0, lam_a1, lam_b0 = side_logs(pc, rows, np.ones(k), shift)
        ll0 = lam_a0 + lam_b_s + np.logaddexp(lpa0, lpb_s)
        ll1 = lam_a1 + lam_b0 + np.logaddexp(lpa1, lpb0)
    na, nb = pc.n1, pc.n2
    upper = (lam_a0 - xlogy(na, na) + lam_b0 - xlogy(nb, nb)
             + class_terms_max(na, nb, 0.0, 1.0) + np.logaddexp(lpa1, lpb_s))
    m_lo = np.maximum(ll0, ll1)
    return {"lr_ab": lpa0 - lpb_s, "lr_ba": lpb0 - lpa1, "m_lo": m_lo, "m_up": np.maximum(upper, m_lo),
            "margin": margin}


def _term_sizes(c, d, j, den, n, m):
    """Sum of the sizes of the terms of one class's log p and log Λ at the arguments 0 and 1 (each
    weighted by its count plus one), plus (n + 2)(m + 1): the scale of the rounding margin."""
    total = (n + 2.0) * (m + 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        for u in (0.0, 1.0):
            log_c, log_d, log_n = np.abs(np.log(c + u)), np.abs(np.log(d + u)), np.abs(np.log(n + u))
            # a class without rows (declared only) has log n = -inf at 0 and a term 0 log 0 = 0
            total = (total + np.where(j & np.isfinite(log_c), (c + 1.0) * log_c, 0.0).sum(axis=1)
                     + np.where(den, (d + 1.0) * log_d, 0.0).sum(axis=1)
                     + np.where(np.isfinite(log_n), (n + 1.0) * (np.abs(1.0 - m) + 1.0) * log_n, 0.0))
    return total


def _settle_at_root(pc, ends, log_alpha, shift):
    """Verdicts from u0 (r(u0) = 1) and L(u0) computed exactly, where they decide them.

    The set {r <= 1} is {u <= u0}.  If u0 <= 0, L increases up to u0, so ``a`` dominates ``b`` iff
    L(u0) < α max L, and ``b`` never dominates ``a``; u0 >= 1 is the mirror case.  If u0 lies in
    (0, 1), both sets contain u0, so neither class dominates when L(u0) >= α max L.  The maximum
    is bracketed by ``m_lo`` and ``m_up`` of :func:`_pair_ends` (exact without the instance); items
    the bracket or the rounding margin leave open are not ``known`` and need the exact search.
    Returns (a over b, b over a, known, u0, log L(u0)) over the items of ``pc`` (u0 and L(u0) are
    NaN where the sign of log r(0) or log r(1) is within the margin of 0: not computed).
    """
    margin = ends["margin"]
    left = ends["lr_ab"] >= margin                               # u0 < 0: only a over b
    right = ends["lr_ba"] >= margin                              # u0 > 1 (u0 > 0 without it)
    middle = (ends["lr_ab"] < -margin) & (ends["lr_ba"] < -margin) if shift else np.zeros_like(left)
    rows = np.flatnonzero(left | right | middle)
    log_l = np.full(left.size, np.nan)
    u0 = np.full(left.size, np.nan)
    if rows.size:
        sub = pc.take(rows)
        u0[rows] = ratio_root(sub, shift)
        log_l[rows] = log_lik(sub, np.arange(rows.size), u0[rows], include_instance=bool(shift))
    with np.errstate(invalid="ignore"):
        low = log_l < log_alpha + ends["m_lo"] - margin          # L(u0) < α max L for sure
        high = log_l >= log_alpha + ends["m_up"] + margin        # L(u0) >= α max L for sure
    known = ((left | right) & (low | high)) | (middle & high)
    return left & low, right & low, known, u0, log_l
