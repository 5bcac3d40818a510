r"""Compiled certificates of the LNCC's verdicts (numba), one row and one pair of classes at a time.

:func:`certify` settles most verdicts of :meth:`LNCC._dominance <credal_core.naive.lncc.LNCC._dominance>`
in one compiled pass over the rows; the rows it cannot settle are flagged and go to the exact route
(:func:`credal_core.likelihood.pairwise.dominance_verdicts`).  Every verdict issued here is a proof:
it holds for the exact profile likelihood whatever the rounding, by a margin, so the paths with and
without numba return the same verdicts (tested on random inputs in
``tests/credal_core/naive/test_lncc_kernels.py`` and ``test_lncc_paths.py``).

**Per-row sums.**  For a class with count n and the instance's counts :math:`c_j` (the features with
:math:`c_j < n`; m of them, k of them zero), around the centre z (1/2 with the instance, 0 without)

.. math:: \log p(z + e) = A + k\log(z + e) + \sum_{q \le Q} \frac{(-1)^{q+1} e^q}{q} S_q + R,
          \qquad |R| \le \frac{|e|^{Q+1}\, T}{(Q+1)(1 - \rho)},

with :math:`S_q = \sum_{c_j > 0} (c_j + z)^{-q} + (1 - m)(n + z)^{-q}` (the class term is one more
"feature" of weight 1 - m), :math:`T` the same sum of order Q + 1 with absolute weights and
:math:`\rho = |e| \max (c + z)^{-1} < 1`.  The count-weighted sums
:math:`\sum_j c_j\log(c_j + z + e) + n(1-m)\log(n + z + e)` (log Λ up to a constant) have the same
expansion with :math:`W_q = \sum c\,(c + z)^{-q}` and a remainder bounded with the sums of order Q.
So log r, log L and the slopes of log r are bracketed at any point of the expansions' reach
(:math:`\rho \le 3/4`) in O(Q) operations, whatever the number of features.

**Verdicts** (the rules of :mod:`credal_core.likelihood.pairwise`; u is a's argument, b's is
``shift - u``).  Without the instance L is unimodal with its maximum at u = 0: ``a`` dominates ``b``
iff u0 < 0 and L(u0) < α L(0) (003 Cor. 1).  With it, L increases for u < 0 and decreases for u > 1;
if u0 <= 0, ``a`` dominates iff L(u0) < α max L and ``b`` never does (u0 >= 1: the mirror); if u0 lies
in (0, 1), ``a`` dominates iff max_[0,u0] L < α max_[u0,1] L and the mirror.  The maxima over
intervals of [0, 1] come from a branch and bound on the sign of ψ = log r - logit u, which has the
sign of (log L)': a cell where ψ keeps its sign has its maximum at an end; a cell where ψ decreases
(ψ' < 0, from bounds on the slopes) has one, at the bracketed root of ψ; where ψ increases the
maximum is at an end; other cells are split.  The root u0 of log r is bracketed by certified signs.
Every bound adds a rounding margin of 1e-11 times the size of the terms it sums (the rule of the
exact route, :data:`._lncc_constants.ROUNDING`) to the remainders, every comparison keeps one more,
and a row whose comparison falls inside them (or outside the expansions' reach, or needs too many
cells) is left to the exact route.  The constants (Taylor order, reach, margin, cells) are those of
:mod:`._lncc_constants`.
"""
from __future__ import annotations

import math

import numpy as np

from .._compiled import HELPER_OPTIONS, compiled_kernel
from ._lncc_constants import MAX_CELLS, REACH, ROUNDING, TAYLOR_ORDER

__all__ = ["certify", "kernel_tables"]

# the shared constants (see :mod:`._lncc_constants`), under the short names the kernels use
_Q = TAYLOR_ORDER
_RHO = REACH
_ROUNDING = ROUNDING
_MAX_CELLS = MAX_CELLS
# columns of ``sd`` (one row per side of the pair, see :func:`_work_arrays`): after the per-side
# sums 0..10, the coefficients G, W, D, F (Q each) and the terms of :func:`_point`
_G, _W, _D, _F = 11, 11 + _Q, 11 + 2 * _Q, 11 + 3 * _Q
_LP, _LK, _LAM, _EG, _EW = 11 + 4 * _Q, 12 + 4 * _Q, 13 + 4 * _Q, 14 + 4 * _Q, 15 + 4 * _Q
# the helpers of :func:`_certify_rows` take HELPER_OPTIONS (see :mod:`credal_core._compiled`)


def kernel_tables(tables, shift: bool):
    """Per (class, feature value) tables for :func:`certify`: offsets of each feature's block (its
    unseen-value column first, so code ``v`` reads column ``offset + v + 1``), flags (0: the count
    equals n(c), 1: zero count, 2: positive count below n(c)), log(c + z) and 1/(c + z) where the
    count is positive, and the class counts."""
    z = 0.5 if shift else 0.0
    rolled = [np.roll(t, 1, axis=1) for t in tables.extended_counts()]
    widths = [t.shape[1] for t in rolled]
    off = np.concatenate([[0], np.cumsum(widths)[:-1]]).astype(np.int64)
    cnt = np.ascontiguousarray(np.hstack(rolled))
    nc = np.asarray(tables.class_counts, dtype=float)
    inside = cnt < nc[:, None]
    pos = inside & (cnt > 0)
    flag = np.where(pos, 2, np.where(inside, 1, 0)).astype(np.int8)
    safe = np.where(pos, cnt + z, 1.0)
    lg = np.where(pos, np.log(safe), 0.0)
    iv = np.where(pos, 1.0 / safe, 0.0)
    return off, flag, lg, iv, nc


def certify(codes, tables, shift: bool, log_alpha: float, sets_only: bool = False):
    """Verdicts (n, C, C) and the pairs left open (n, C, C): ``dom[i, a, b]`` and ``dom[i, b, a]``
    are certified wherever ``unknown[i, a, b]`` (a < b) is False.  ``codes``: complete rows (no
    missing value), training data without missing values.

    ``sets_only``: verdicts for the maximal set alone.  Each row then settles first the pairs of
    the class with the best centre score; where that class dominates every other one (so none
    dominates it), the set is that class whatever the other pairs' verdicts (no chain of
    dominance reaches it), and those pairs are skipped: false in ``dom``, false in ``unknown``."""
    off, flag, lg, iv, nc = kernel_tables(tables, shift)
    n, n_classes = codes.shape[0], nc.size
    dom = np.zeros((n, n_classes, n_classes), dtype=np.bool_)
    unknown = np.zeros((n, n_classes, n_classes), dtype=np.bool_)
    # one signature for the kernel: C-contiguous arrays of fixed dtypes, float scalars
    codes = np.ascontiguousarray(codes, dtype=np.int64)
    flag = np.ascontiguousarray(flag, dtype=np.int8)
    off, lg, iv, nc = (np.ascontiguousarray(off, dtype=np.int64), np.ascontiguousarray(lg, dtype=np.float64),
                       np.ascontiguousarray(iv, dtype=np.float64), np.ascontiguousarray(nc, dtype=np.float64))
    _certify_rows(codes, off, flag, lg, iv, nc, 1.0 if shift else 0.0, float(log_alpha), bool(sets_only),
                  dom, unknown, *_work_arrays(n_classes), _constants())
    return dom, unknown


def _constants():
    """The shared constants as they are now, for the kernel to check against those compiled in."""
    return np.array([TAYLOR_ORDER, REACH, ROUNDING, MAX_CELLS], dtype=np.float64)


def _work_arrays(n_classes):
    """The zeroed work arrays of :func:`_certify_rows` (allocated here: inside the kernel numba would
    compile ``np.zeros`` for each shape signature, a second of the first call).

    per_class (6, C): per class of the current row m, k, A, max 1/(c + z), then log(n + z) and
    1/(n + z); cS (C, Q + 2): its S_0..S_(Q+1).  sd (2, 16 + 4Q): per side of the current pair (0: a,
    1: b) A, k, T, TW, max 1/(c+z) with the class, T of the features, their max 1/(c+z), w = 1 - m,
    n, number of positive counts, size of the terms summed (for the rounding margin); then from
    column ``_G``, ``_W``, ``_D``, ``_F`` the coefficients, lowest order first, G: (-1)^(q+1) S_q / q
    (log p), W: (-1)^(q+1) W_q / q (log Λ), D: (-1)^(q+1) S_q (slope of log p), F: the same for the
    features only (sum_j 1/(c_j + x)); then the terms of :func:`_point` (``_LP``: log p without the
    zero counts' terms, ``_LK``: those terms, ``_LAM``: log Λ, ``_EG``, ``_EW``: the remainders of
    log p and log Λ).  The stack of :func:`_max_on`; ends (4, 8): values of :func:`_point` at the
    ends of the spans and of u0's bracket; found (2, 6): those of :func:`_put` at the ends of the
    bracket of ψ's root; the spans (2, 2), their ends' rows in ``ends`` (int) and their maxima (2
    and 2); 1/q for q <= Q; the order of the pairs (C (C - 1) / 2, 2).
    """
    return (np.zeros((6, n_classes)), np.zeros((n_classes, _Q + 2)), np.zeros((2, _EW + 1)),
            np.zeros((_MAX_CELLS + 2, 14)), np.zeros((4, 8)),
            np.zeros((2, 6)), np.zeros((2, 2)), np.zeros((2, 2), dtype=np.int64), np.zeros(2),
            np.zeros(2), np.zeros(_Q + 1), np.zeros((n_classes * (n_classes - 1) // 2, 2), dtype=np.int64))


@compiled_kernel(**HELPER_OPTIONS)
def _horner(sd, s, base, e):
    # sum over q < Q of sd[s, base + q] e^q, by Horner's rule from the top coefficient
    v = sd[s, base + _Q - 1]
    for q in range(_Q - 2, -1, -1):
        v = v * e + sd[s, base + q]
    return v


@compiled_kernel(**HELPER_OPTIONS)
def _point(u, shift, z, sd):
    # at u (a's argument u, b's shift - u): lr_lo, lr_hi, L_lo, L_hi, lr (centre), its slope,
    # lr without the zero counts' log terms and the error bound of lr; NaN where out of reach
    inf = np.inf
    nan = np.nan
    slope = 0.0
    for s in range(2):
        x = u if s == 0 else shift - u
        e = x - z
        ae = abs(e)
        rho = ae * sd[s, 4]
        if rho > _RHO:
            return nan, nan, nan, nan, nan, nan, nan, nan
        g = _horner(sd, s, _G, e)
        w = _horner(sd, s, _W, e)
        d = _horner(sd, s, _D, e)
        a2 = ae * ae
        tail = a2 * a2 * a2 * ae / ((_Q + 1) * (1.0 - rho))
        sd[s, _LP] = sd[s, 0] + g * e
        sd[s, _LAM] = w * e
        sd[s, _EG] = tail * sd[s, 2]
        sd[s, _EW] = tail * sd[s, 3]
        k = sd[s, 1]
        slope += d
        sd[s, _LK] = 0.0
        if k > 0:
            if x > 0:
                sd[s, _LK] = k * math.log(x)
                slope += k / x
            else:
                sd[s, _LK] = -inf
                slope = inf
    mg = _ROUNDING * (sd[0, 10] + sd[1, 10] + 8.0 * (4.0 - sd[0, 7] - sd[1, 7]) * (1.0 + abs(u - z)))
    er = sd[0, _EG] + sd[1, _EG] + mg
    lpa = sd[0, _LP] + sd[0, _LK]
    lpb = sd[1, _LP] + sd[1, _LK]
    lr = lpa - lpb
    if shift > 0:
        top = max(lpa, lpb)
        if top == -inf:
            return nan, nan, nan, nan, nan, nan, nan, nan
        ll = sd[0, _LAM] + sd[1, _LAM] + top + math.log1p(math.exp(min(lpa, lpb) - top))
        el = sd[0, _EW] + sd[1, _EW] + max(sd[0, _EG], sd[1, _EG]) + mg
    else:
        ll = sd[0, _LAM] + sd[1, _LAM]
        el = sd[0, _EW] + sd[1, _EW] + mg
    return lr - er, lr + er, ll - el, ll + el, lr, slope, sd[0, _LP] - sd[1, _LP], er


@compiled_kernel(**HELPER_OPTIONS)
def _lr_point(u, shift, z, sd):
    # the centre of log r at u, its slope and error bound (Newton steps; NaN: out of reach)
    lr = 0.0
    slope = 0.0
    er = _ROUNDING * (sd[0, 10] + sd[1, 10] + 8.0 * (4.0 - sd[0, 7] - sd[1, 7]) * (1.0 + abs(u - z)))
    for s in range(2):
        x = u if s == 0 else shift - u
        e = x - z
        ae = abs(e)
        rho = ae * sd[s, 4]
        if rho > _RHO:
            return np.nan, np.nan, np.nan
        a2 = ae * ae
        er += a2 * a2 * a2 * ae / ((_Q + 1) * (1.0 - rho)) * sd[s, 2]
        g = _horner(sd, s, _G, e)
        d = _horner(sd, s, _D, e)
        v = sd[s, 0] + g * e
        k = sd[s, 1]
        if k > 0:
            if x > 0:
                v += k * math.log(x)
                d += k / x
            else:
                v = -np.inf
                d = np.inf
        lr = lr + v if s == 0 else lr - v
        slope += d
    return lr, slope, er


@compiled_kernel(**HELPER_OPTIONS)
def _psi_of(u, lr_lo, lr_hi, l_lo, l_hi, smooth, er, sd):
    # with the instance, u in [0, 1]: lr_lo, lr_hi, L_lo, L_hi and the bounds of
    # ψ = log r - logit u (with its limits at the ends) from the values of ``point`` at u
    inf = np.inf
    if u <= 0.0 or u >= 1.0:
        k = sd[0, 1] if u <= 0.0 else sd[1, 1]
        sign = 1.0 if u <= 0.0 else -1.0
        if k == 0.0:
            p_lo = sign * inf
            p_hi = sign * inf
        elif k >= 2.0:
            p_lo = -sign * inf
            p_hi = -sign * inf
        else:                        # one zero count: its log cancels the logit's
            p_lo = smooth - er
            p_hi = smooth + er
    else:
        lg_u = math.log(u) - math.log1p(-u)
        slack = 1e-13 * (1.0 + abs(lg_u))
        p_lo = lr_lo - lg_u - slack
        p_hi = lr_hi - lg_u + slack
    return lr_lo, lr_hi, l_lo, l_hi, p_lo, p_hi


@compiled_kernel(**HELPER_OPTIONS)
def _put(u, shift, z, sd):
    r = _point(u, shift, z, sd)
    return _psi_of(u, r[0], r[1], r[2], r[3], r[6], r[7], sd)


@compiled_kernel(**HELPER_OPTIONS)
def _dpsi(u1, u2, z, sd):
    # bounds of ψ' = D_a(u) + D_b(1 - u) + (k_a - 1)/u + (k_b - 1)/(1 - u) on [u1, u2] (with
    # the instance): each class's sum_j 1/(c_j + x) decreases in x; its class term
    # (1 - m)/(n + x) and the terms e/x are monotone
    inf = np.inf
    lo = 0.0
    hi = 0.0
    for s in range(2):
        x1 = u1 if s == 0 else 1.0 - u2
        x2 = u2 if s == 0 else 1.0 - u1
        if sd[s, 9] > 0:
            for t in range(2):
                x = x1 if t == 0 else x2
                e = x - z
                ae = abs(e)
                rho = ae * sd[s, 6]
                if rho > _RHO:
                    return -inf, inf
                v = _horner(sd, s, _F, e)
                a2 = ae * ae
                err = a2 * a2 * a2 * sd[s, 5] / (1.0 - rho) + 1e-12 * abs(v)
                if t == 0:
                    hi += v + err
                else:
                    lo += v - err
        w = sd[s, 7]
        v1 = w / (sd[s, 8] + x1)
        v2 = w / (sd[s, 8] + x2)
        lo += min(v1, v2)
        hi += max(v1, v2)
        ee = sd[s, 1] - 1.0
        if ee != 0.0:
            v1 = ee / x1 if x1 > 0 else (inf if ee > 0 else -inf)
            v2 = ee / x2
            lo += min(v1, v2)
            hi += max(v1, v2)
    return lo, hi


@compiled_kernel(**HELPER_OPTIONS)
def _rslope(u1, u2, z, sd):
    # upper bound of (log r)' = D_a(u) + D_b(1 - u) + k_a/u + k_b/(1 - u) on [u1, u2] in [0, 1]
    inf = np.inf
    hi = 0.0
    for s in range(2):
        x1 = u1 if s == 0 else 1.0 - u2
        x2 = u2 if s == 0 else 1.0 - u1
        if sd[s, 9] > 0:
            e = x1 - z
            ae = abs(e)
            rho = ae * sd[s, 6]
            if rho > _RHO:
                return inf
            v = _horner(sd, s, _F, e)
            a2 = ae * ae
            hi += v + a2 * a2 * a2 * sd[s, 5] / (1.0 - rho) + 1e-12 * abs(v)
        hi += max(sd[s, 7] / (sd[s, 8] + x1), sd[s, 7] / (sd[s, 8] + x2))
        if sd[s, 1] > 0:
            hi += sd[s, 1] / x1 if x1 > 0 else inf
    return hi


@compiled_kernel(**HELPER_OPTIONS)
def _lr_solve(a, b, x, shift, z, sd, ends):  # noqa: C901
    # [ul, uh] with certified log r(ul) < 0 < log r(uh) inside [a, b], whose ends are certified
    # already: safeguarded Newton on the centre values from x, then a bracket around the result;
    # the values at ul and uh go to rows 2 and 3 of ``ends``
    nan = np.nan
    lo = a
    hi = b
    width = 0.0
    for _ in range(100):
        lr, sl, er = _lr_point(x, shift, z, sd)
        if lr != lr:
            return 0.0, 0.0, False
        width = 1e-12 * (1.0 + abs(x)) + 2.0 * er / abs(sl)
        if lr > 0:
            hi = x
        elif lr < 0:
            lo = x
        else:
            break
        nx = nan
        if sl > 0:
            nx = x - lr / sl
        if not (nx > lo and nx < hi):
            nx = 0.5 * (lo + hi)
        step = abs(nx - x)
        x = nx
        if step <= 1e-3 * width or hi - lo <= 1e-15 * (1.0 + abs(x)):
            break
    if width != width:
        width = 1e-12 * (1.0 + abs(x))
    for _ in range(4):
        ul = max(x - width, a)
        uh = min(x + width, b)
        good = True
        for t in range(2):
            r = _point(ul if t == 0 else uh, shift, z, sd)
            for j in range(8):
                ends[2 + t, j] = r[j]
            if (t == 0 and not (r[1] < 0 or ul == a)) or (t == 1 and not (r[0] > 0 or uh == b)):
                good = False
        if good:
            return ul, uh, True
        width *= 30.0
    return 0.0, 0.0, False


@compiled_kernel(**HELPER_OPTIONS)
def _psi_solve(u1, u2, shift, z, sd, found):  # noqa: C901
    # bracket [ul, uh] of the root of a decreasing ψ on [u1, u2] (ψ(u1) > 0 > ψ(u2) certified)
    # with certified ψ(ul) > 0 > ψ(uh): (ul, uh, ok).  Newton in w = logit u, where ψ is
    # nearly linear (slope about -1); the values at ul and uh go to rows 0 and 1 of ``found``
    nan = np.nan
    lo = u1
    hi = u2
    x = 0.5 * (lo + hi)
    w = math.log(x) - math.log1p(-x)
    width = 0.0
    for _ in range(100):
        lr, sl, er = _lr_point(x, shift, z, sd)
        if lr != lr:
            return 0.0, 0.0, False
        val = lr - w
        xx = x * (1.0 - x)
        dw = sl * xx - 1.0                       # dψ/dw
        width = 1e-12 + 2.0 * er * xx / abs(dw)
        if val > 0:
            lo = x
        elif val < 0:
            hi = x
        else:
            break
        nx = nan
        w_new = w
        if dw < 0:
            w_new = min(max(w - val / dw, -700.0), 700.0)
            nx = 1.0 / (1.0 + math.exp(-w_new))
        if nx > lo and nx < hi:
            w = w_new
        else:
            nx = 0.5 * (lo + hi)
            w = math.log(nx) - math.log1p(-nx)
        step = abs(nx - x)
        x = nx
        if step <= 1e-3 * width or hi - lo <= 1e-15:
            break
    if width != width:
        width = 1e-12
    for _ in range(4):
        ul = max(x - width, u1)
        uh = min(x + width, u2)
        good = True
        for t in range(2):
            v = ul if t == 0 else uh
            r = _put(v, shift, z, sd)
            for j in range(6):
                found[t, j] = r[j]
            if v == (u1 if t == 0 else u2):
                continue
            if (t == 0 and not r[4] > 0) or (t == 1 and not r[5] < 0):
                good = False
        if good:
            return ul, uh, True
        width *= 30.0
    return 0.0, 0.0, False


@compiled_kernel(**HELPER_OPTIONS)
def _max_on(lo, hi, i_lo, i_hi, shift, z, sd, ends, found, stack):  # noqa: C901
    # bounds (M_lo, M_hi, ok) of max log L on [lo, hi] in [0, 1], by branch and bound on ψ;
    # rows i_lo and i_hi of ``ends`` hold the values of ``point`` at lo and hi
    inf = np.inf
    nan = np.nan
    MAXC = _MAX_CELLS
    m_lo = -inf
    m_hi = -inf
    stack[0, 0] = lo
    stack[0, 1] = hi
    for t in range(2):
        e = i_lo if t == 0 else i_hi
        r = _psi_of(lo if t == 0 else hi, ends[e, 0], ends[e, 1], ends[e, 2], ends[e, 3], ends[e, 6],
                   ends[e, 7], sd)
        if r[2] != r[2]:
            return nan, nan, False
        m_lo = max(m_lo, r[2])
        for j in range(6):
            stack[0, 2 + 6 * t + j] = r[j]
    top = 1
    cells = 0
    while top > 0:
        top -= 1
        u1 = stack[top, 0]
        u2 = stack[top, 1]
        lr1_lo = stack[top, 2]
        l1_hi = stack[top, 5]
        p1_lo = stack[top, 6]
        p1_hi = stack[top, 7]
        lr2_hi = stack[top, 9]
        l2_hi = stack[top, 11]
        p2_lo = stack[top, 12]
        p2_hi = stack[top, 13]
        cells += 1
        if cells > MAXC:
            return nan, nan, False
        d_lo, d_hi = _dpsi(u1, u2, z, sd)
        h = u2 - u1
        # the range of ψ on the cell: log r increases and so does logit u ...
        r_lo = -inf
        r_hi = inf
        if u2 < 1.0:
            t = lr1_lo - (math.log(u2) - math.log1p(-u2)) - 1e-13 * (1.0 + abs(math.log(u2)))
            if t == t:
                r_lo = t
        if u1 > 0.0:
            t = lr2_hi - (math.log(u1) - math.log1p(-u1)) + 1e-13 * (1.0 + abs(math.log(u1)))
            if t == t:
                r_hi = t
        # ... and ψ moves by at most its slope bounds times the width
        if d_lo == d_lo and d_hi == d_hi:
            t = p1_lo + min(d_lo, 0.0) * h
            if t == t:
                r_lo = max(r_lo, t)
            t = p2_lo - max(d_hi, 0.0) * h
            if t == t:
                r_lo = max(r_lo, t)
            t = p1_hi + max(d_hi, 0.0) * h
            if t == t:
                r_hi = min(r_hi, t)
            t = p2_hi - min(d_lo, 0.0) * h
            if t == t:
                r_hi = min(r_hi, t)
        if r_lo > 0:                     # L increases on the cell
            m_hi = max(m_hi, l2_hi)
            continue
        if r_hi < 0:                     # L decreases
            m_hi = max(m_hi, l1_hi)
            continue
        if d_hi < 0:                     # ψ decreases: one maximum, at its root
            if p1_hi < 0:
                m_hi = max(m_hi, l1_hi)
                continue
            if p2_lo > 0:
                m_hi = max(m_hi, l2_hi)
                continue
            if not (p1_lo > 0 and p2_hi < 0):
                # the sign of ψ at an end is within rounding: the root is within |ψ| / |ψ'| of
                # that end, and up to the root L gains at most (log r)' (r/(1+r) - u) <=
                # (log r)' ψ / 4 per unit (expit' <= 1/4); beyond it L decreases
                best = inf
                for t in range(2):
                    pv = p1_hi if t == 0 else -p2_lo
                    if not pv >= 0:
                        continue
                    d = min(pv / -d_hi * (1.0 + 1e-12), h)
                    ua = u1 if t == 0 else u2 - d
                    ub = u1 + d if t == 0 else u2
                    cand = (l1_hi if t == 0 else l2_hi) + max(_rslope(ua, ub, z, sd), 0.0) * d * pv * 0.25
                    if cand == cand:
                        best = min(best, cand)
                if best == inf:
                    return nan, nan, False
                m_hi = max(m_hi, best)
                continue
            ul, uh, ok = _psi_solve(u1, u2, shift, z, sd, found)
            if not ok:
                return nan, nan, False
            # L increases up to ul, decreases after uh; in between its slope
            # (log r)' (r/(1+r) - u) is at most (log r)' = ψ' + 1/u + 1/(1-u) < 1/u + 1/(1-u)
            best = -inf
            for t in range(2):
                if found[t, 2] != found[t, 2]:
                    return nan, nan, False
                m_lo = max(m_lo, found[t, 2])
                best = max(best, found[t, 3])
            m_hi = max(m_hi, best + (1.0 / ul + 1.0 / (1.0 - uh)) * (uh - ul))
            continue
        if d_lo > 0:                     # ψ increases: a minimum at most
            m_hi = max(m_hi, max(l1_hi, l2_hi))
            continue
        if h < 1e-9 or top + 2 > MAXC:
            return nan, nan, False
        mid = 0.5 * (u1 + u2)
        rm = _put(mid, shift, z, sd)
        if rm[2] != rm[2]:
            return nan, nan, False
        m_lo = max(m_lo, rm[2])
        # the right half [mid, u2] (its right end is the cell's), then the left half [u1, mid]
        stack[top + 1, 0] = mid
        stack[top + 1, 1] = u2
        for j in range(6):
            stack[top + 1, 8 + j] = stack[top, 8 + j]
            stack[top + 1, 2 + j] = rm[j]
            stack[top, 8 + j] = rm[j]
        stack[top, 1] = mid
        top += 2
    return m_lo, m_hi, True


@compiled_kernel(**HELPER_OPTIONS)
def _mode_bounds(w, steps, lr, sl, d_hi, shift, z, sd):
    # where ψ decreases on [0, 1] (slope at most d_hi < 0) with its root û inside: bounds of
    # max L = L(û) from a point v near û (``steps`` Newton steps in w = logit u from w; ``lr``,
    # ``sl``: log r and its slope at w where the caller knows them, else NaN).  |û - v| is at
    # most |ψ(v)| / |d_hi|, and between v and û log L gains at most (log r)' |û - v| per unit
    # ((log L)' = (log r)' (r/(1+r) - u) and r/(1+r) - u moves towards 0 at û), with
    # (log r)' = ψ' + 1/(u(1-u)) <= d_hi + max 1/(u(1-u)).  The proof holds whatever v: the
    # steps only make the bounds tight.  (M_lo, M_hi, ok)
    nan = np.nan
    for step in range(steps):
        x = 1.0 / (1.0 + math.exp(-w))
        if step > 0 or lr != lr:
            lr, sl, _ = _lr_point(x, shift, z, sd)
        dw = sl * x * (1.0 - x) - 1.0
        if not (lr == lr and dw < 0):
            return nan, nan, False
        w = min(max(w - (lr - w) / dw, -700.0), 700.0)
    v = 1.0 / (1.0 + math.exp(-w))
    if not (v > 0.0 and v < 1.0):
        return nan, nan, False
    r = _point(v, shift, z, sd)
    lg_v = math.log(v) - math.log1p(-v)
    slack = 1e-13 * (1.0 + abs(lg_v))
    pv = max(abs(r[0] - lg_v), abs(r[1] - lg_v)) + slack
    dist = pv / -d_hi * (1.0 + 1e-12)
    lo = v - dist
    hi = v + dist
    if not (lo > 0.0 and hi < 1.0 and r[2] == r[2]):
        return nan, nan, False
    curv = max(1.0 / (lo * (1.0 - lo)), 1.0 / (hi * (1.0 - hi))) * (1.0 + 1e-12)
    return r[2], r[3] + max(d_hi + curv, 0.0) * dist * dist, True


@compiled_kernel(**HELPER_OPTIONS)
def _pair_verdict(reach, shift, z, log_alpha, sd, ends, found, stack, spans, ispan,  # noqa: C901
                  s_lo, s_hi):
    # (known, a over b, b over a) for the pair in sd
    inf = np.inf
    nan = np.nan
    ROUND = _ROUNDING
    ka = sd[0, 1]
    kb = sd[1, 1]
    mg = ROUND * (sd[0, 10] + sd[1, 10])
    q_lo = nan
    q_hi = nan
    tiny = nan
    if shift == 0.0 and ka > 0 and kb > 0:
        return True, False, False            # the flat case: neither dominates
    # the ends: u = 0 (and u = 1 with the instance)
    for t in range(2 if shift > 0 else 1):
        r = _point(float(t), shift, z, sd)
        for j in range(8):
            ends[t, j] = r[j]
    if shift > 0:
        if ends[0, 2] != ends[0, 2] or ends[1, 2] != ends[1, 2]:
            return False, False, False
        ref_lo = max(ends[0, 2], ends[1, 2])   # bounds of max L
        # log L(u) - log L(0) = int_0^u (log r)' (r/(1+r) - t) dt <= log r(1) - log r(0) on
        # [0, 1], and the same from u = 1: a cheap bound on max L
        ref_hi = min(ends[0, 3], ends[1, 3]) + (ends[1, 1] - ends[0, 0])
        if ref_hi != ref_hi:
            ref_hi = inf
        left = ends[0, 0] > 0                  # u0 < 0: only a over b can hold
        right = ends[1, 1] < 0                 # u0 > 1: only b over a
        middle = ends[0, 1] < 0 and ends[1, 0] > 0
        end = 0.0 if left else 1.0
    else:
        ref_lo = 0.0                           # L relative to its maximum, at u = 0
        ref_hi = 0.0
        if ka == 0 and kb == 0:
            left = ends[0, 0] > 0
            right = ends[0, 1] < 0
        else:
            left = kb > 0
            right = ka > 0
        middle = False
        end = 0.0
    if not (left or right or middle):
        return False, False, False
    if left or right:
        far = z - reach if left else z + reach
        e = 1 if (shift > 0 and not left) else 0        # the row of ``ends`` at ``end``
        a = far if left else end
        b = end if left else far
        # one Newton step from the end estimates u0; far from it, probes between the end and
        # u0 first: L(u') bounds L(u0) from above (L increases up to the end on the left,
        # decreases after it on the right)
        x0 = end - ends[e, 4] / ends[e, 5]
        if not (x0 == x0 and abs(x0 - z) < 0.5 * reach and x0 > a and x0 < b):
            t = 0.25
            far_lo = nan
            far_hi = nan
            while t <= 1.0:
                r = _point(end + (far - end) * t, shift, z, sd)
                if ((left and r[0] > 0) or (right and r[1] < 0)) and r[3] < log_alpha + ref_lo - mg:
                    return True, left, right
                far_lo = r[0]
                far_hi = r[1]
                t *= 2.0
            if not ((left and far_hi < 0) or (right and far_lo > 0)):
                return False, False, False        # u0 out of reach
            x0 = 0.5 * (a + b)
        else:
            # u0 is near x0: L just before it bounds L(u0) from above (probed first: it settles
            # most of these pairs), just beyond it from below
            for t in (1, 0):
                u = end + (x0 - end) * (1.25 if t == 0 else 0.75)
                if not (u > a and u < b):
                    continue
                r = _point(u, shift, z, sd)
                if t == 0 and ((left and r[1] < 0) or (right and r[0] > 0)):
                    if r[2] >= log_alpha + ref_hi + mg:
                        return True, False, False
                if t == 1 and ((left and r[0] > 0) or (right and r[1] < 0)):
                    if r[3] < log_alpha + ref_lo - mg:
                        return True, left, right
            # the root search below accepts ``far`` as a bracket end without checking it: certify
            # the sign of log r there first, or u0 (beyond the reach) would be taken for ``far``
            r = _point(far, shift, z, sd)
            if not ((left and r[1] < 0) or (right and r[0] > 0)):
                return False, False, False        # u0 out of reach
    else:
        a = 0.0
        b = 1.0
        x0 = 0.5
        if ends[0, 4] > -inf and ends[1, 4] < inf:
            x0 = min(max(-ends[0, 4] / (ends[1, 4] - ends[0, 4]), 0.01), 0.99)
        # r(0) < 1 < r(1): L(0) is in max_[0,u0] L and L(1) in max_[u0,1] L, so if both reach α
        # times a bound on max L (where ψ decreases on [0, 1]: :func:`_mode_bounds`) neither
        # class dominates, without the root u0
        d_lo, d_hi = _dpsi(0.0, 1.0, z, sd)
        if d_hi < 0:
            m_lo, m_hi, ok = _mode_bounds(math.log(x0) - math.log1p(-x0), 2, nan, nan, d_hi, shift, z, sd)
            if ok and min(ends[0, 2], ends[1, 2]) >= log_alpha + m_hi + mg:
                return True, False, False
    ul, uh, ok = _lr_solve(a, b, x0, shift, z, sd, ends)
    if not ok:
        return False, False, False
    if ends[2, 2] != ends[2, 2] or ends[3, 2] != ends[3, 2]:
        return False, False, False
    if left or right:
        # L at u0: between its values at the bracket's ends (L is monotone there)
        q_lo = ends[2, 2] if left else ends[3, 2]
        q_hi = ends[3, 3] if left else ends[2, 3]
        if q_hi < log_alpha + ref_lo - mg:
            return True, left, right
        if q_lo >= log_alpha + ref_hi + mg:
            return True, False, False
        if shift == 0.0:
            return False, False, False
        if ka == 0 and kb == 0:
            # ψ(0) = +inf, ψ(1) = -inf: where ψ decreases, max L is at its root
            d_lo, d_hi = _dpsi(0.0, 1.0, z, sd)
            if d_hi < 0:
                m_lo, m_hi, ok = _mode_bounds(0.0, 3, nan, nan, d_hi, shift, z, sd)
                if ok:
                    m_lo = max(m_lo, ref_lo)
                    if q_hi < log_alpha + m_lo - mg:
                        return True, left, right
                    if q_lo >= log_alpha + m_hi + mg:
                        return True, False, False
        spans[0, 0] = 0.0
        spans[0, 1] = 1.0
        ispan[0, 0] = 0
        ispan[0, 1] = 1
        n_spans = 1
    else:
        if not (ul > 0 and uh < 1):
            return False, False, False
        # L on [ul, uh]: at most its larger end value plus the slope bound times the width
        sl = 0.0
        for s in range(2):
            x = ul if s == 0 else 1.0 - uh
            if sd[s, 9] > 0:
                e = x - z
                rho = abs(e) * sd[s, 6]
                v = _horner(sd, s, _F, e)
                a2 = e * e
                sl += v + a2 * a2 * a2 * sd[s, 5] / (1.0 - rho) + 1e-12 * abs(v)
            sl += abs(sd[s, 7]) / sd[s, 8] + sd[s, 1] / x
        tiny = max(ends[2, 3], ends[3, 3]) + sl * (uh - ul)
        if tiny != tiny:
            return False, False, False
        # L(u0) is in both maxima: if it reaches α times the bound on max L, neither dominates
        if max(ends[2, 2], ends[3, 2]) - sl * (uh - ul) >= log_alpha + ref_hi + mg:
            return True, False, False
        # Where ψ decreases on all of [0, 1], L is unimodal and its mode lies right of u0 iff
        # ψ(u0) = -logit(u0) > 0: then max_[0,u0] L = L(u0) and b never dominates (the mirror
        # when u0 > 1/2); max L from :func:`mode_bounds` (d_lo, d_hi: before the root)
        if d_hi < 0 and (uh < 0.5 or ul > 0.5):
            below = uh < 0.5
            q_lo = ends[2, 2] if below else ends[3, 2]           # L(u0)
            q_hi = ends[3, 3] if below else ends[2, 3]
            w0 = math.log(ul) - math.log1p(-ul)
            # one Newton step from u0 first (log r and its slope at ul are in ``ends``: no new
            # value of log r), and three if that does not settle the pair
            for steps in (1, 3):
                if steps == 1:
                    m_lo, m_hi, ok = _mode_bounds(w0, 1, ends[2, 4], ends[2, 5], d_hi, shift, z, sd)
                else:
                    m_lo, m_hi, ok = _mode_bounds(w0, 3, np.nan, np.nan, d_hi, shift, z, sd)
                if ok:
                    top_lo = max(m_lo, max(ends[2, 2], ends[3, 2]))
                    top_hi = max(m_hi, tiny)
                    if q_hi < log_alpha + top_lo - mg:
                        return True, below, not below
                    if q_lo >= log_alpha + top_hi + mg:
                        return True, False, False
        spans[0, 0] = 0.0
        spans[0, 1] = ul
        spans[1, 0] = uh
        spans[1, 1] = 1.0
        ispan[0, 0] = 0
        ispan[0, 1] = 2
        ispan[1, 0] = 3
        ispan[1, 1] = 1
        n_spans = 2
    # maxima of L over the spans (the whole [0, 1], or [0, u0] and [u0, 1])
    for t in range(n_spans):
        m_lo, m_hi, ok = _max_on(spans[t, 0], spans[t, 1], ispan[t, 0], ispan[t, 1], shift, z, sd,
                                 ends, found, stack)
        if not ok:
            return False, False, False
        s_lo[t] = m_lo
        s_hi[t] = m_hi
    if left or right:
        top_lo = s_lo[0]
        top_hi = s_hi[0]
        if q_hi < log_alpha + top_lo - mg:
            return True, left, right
        if q_lo >= log_alpha + top_hi + mg:
            return True, False, False
        return False, False, False
    a_lo = s_lo[0]
    a_hi = max(s_hi[0], tiny)
    b_lo = s_lo[1]
    b_hi = max(s_hi[1], tiny)
    top_lo = max(a_lo, b_lo)
    top_hi = max(a_hi, b_hi)
    yes_a = a_hi < log_alpha + top_lo - mg
    no_a = a_lo >= log_alpha + top_hi + mg
    yes_b = b_hi < log_alpha + top_lo - mg
    no_b = b_lo >= log_alpha + top_hi + mg
    if (yes_a or no_a) and (yes_b or no_b):
        return True, yes_a, yes_b
    return False, False, False


@compiled_kernel(error_model="numpy")
def _certify_rows(codes, off, flag, lg, iv, nc, shift, log_alpha, sets_only, dom, unknown,  # noqa: C901
                  per_class, cS, sd, stack, ends, found, spans, ispan, s_lo, s_hi, inv_q, order, constants):
    # the work arrays (see :func:`_work_arrays`) come zeroed
    if (constants[0] != _Q or constants[1] != _RHO or constants[2] != _ROUNDING
            or constants[3] != _MAX_CELLS):
        # numba's cache holds machine code compiled with other constants (see _lncc_constants)
        raise RuntimeError("stale numba cache: _lncc_constants changed; touch naive/_lncc_kernels.py")
    Q = _Q                       # (the per-row sums below are written out for this order 6)
    RHO = _RHO
    z = 0.5 * shift
    n_rows, n_feat = codes.shape
    C = nc.size
    cm = per_class[0]
    ck = per_class[1]
    cA = per_class[2]
    cx = per_class[3]
    log_n = per_class[4]
    inv_n = per_class[5]
    for q in range(1, Q + 1):
        inv_q[q] = 1.0 / q
    for c in range(C):
        if nc[c] + z > 0:
            inv_n[c] = 1.0 / (nc[c] + z)
            log_n[c] = math.log(nc[c] + z)

    for i in range(n_rows):
        # the per-class sums of this row
        for c in range(C):
            m = 0.0
            k = 0.0
            A = 0.0
            xm = 0.0
            s0 = s1 = s2 = s3 = s4 = s5 = s6 = s7 = 0.0
            for j in range(n_feat):
                col = off[j] + codes[i, j] + 1
                f = flag[c, col]
                if f == 0:
                    continue
                m += 1.0
                if f == 1:
                    k += 1.0
                    continue
                A += lg[c, col]
                x = iv[c, col]
                xm = max(xm, x)
                x2 = x * x
                x4 = x2 * x2
                s0 += 1.0
                s1 += x
                s2 += x2
                s3 += x2 * x
                s4 += x4
                s5 += x4 * x
                s6 += x4 * x2
                s7 += x4 * x2 * x
            cS[c, 0] = s0
            cS[c, 1] = s1
            cS[c, 2] = s2
            cS[c, 3] = s3
            cS[c, 4] = s4
            cS[c, 5] = s5
            cS[c, 6] = s6
            cS[c, 7] = s7
            cm[c] = m
            ck[c] = k
            cA[c] = A
            cx[c] = xm
        # the order of the pairs: with ``sets_only``, first those of the class with the best centre
        # score (see :func:`certify`); the rest once it is not proven to dominate every other class
        top = -1
        if sets_only and C > 2:
            best = -np.inf
            for c in range(C):
                if nc[c] > 0:
                    score = cA[c] + (1.0 - cm[c]) * log_n[c] - ck[c]
                    if score > best:
                        best = score
                        top = c
        n_pairs = 0
        if top >= 0:
            for c in range(C):
                if c != top:
                    order[n_pairs, 0] = min(top, c)
                    order[n_pairs, 1] = max(top, c)
                    n_pairs += 1
        for a in range(C):
            for b in range(a + 1, C):
                if a != top and b != top:
                    order[n_pairs, 0] = a
                    order[n_pairs, 1] = b
                    n_pairs += 1
        wins = top >= 0
        for p in range(n_pairs):
            if wins and p == C - 1:
                break                    # the top class dominates every other one: its set
            a = order[p, 0]
            b = order[p, 1]
            if nc[a] <= 0 or nc[b] <= 0:
                unknown[i, a, b] = True
                wins = False
                continue
            for s in range(2):
                c = a if s == 0 else b
                w = 1.0 - cm[c]
                xn = inv_n[c]
                sd[s, 0] = cA[c] + w * log_n[c]
                sd[s, 1] = ck[c]
                sign = 1.0
                pn = xn
                for q in range(1, Q + 1):
                    sq = cS[c, q] + w * pn
                    sd[s, _G + q - 1] = sign * sq * inv_q[q]
                    sd[s, _D + q - 1] = sign * sq
                    sd[s, _F + q - 1] = sign * cS[c, q]
                    # W_q = S_(q-1) - z S_q for the features, n (1 - m) / (n + z)^q for the class
                    sd[s, _W + q - 1] = sign * (cS[c, q - 1] - z * cS[c, q] + w * nc[c] * pn) * inv_q[q]
                    sign = -sign
                    pn *= xn
                # pn = xn^(Q+1) here; c/(c+z)^(Q+1) <= 1/(c+z)^Q bounds the weighted sums' tail
                sd[s, 2] = cS[c, Q + 1] + abs(w) * pn
                sd[s, 3] = cS[c, Q] + abs(w) * pn / xn
                sd[s, 4] = max(cx[c], xn) * (1.0 + 1e-12)
                sd[s, 5] = cS[c, Q + 1]
                sd[s, 6] = cx[c] * (1.0 + 1e-12)
                sd[s, 7] = w
                sd[s, 8] = nc[c]
                sd[s, 9] = cS[c, 0]
                sd[s, 10] = abs(sd[s, 0]) + (cm[c] + 1.0) * (2.0 + 2.0 * Q + abs(log_n[c]))
            reach = RHO / max(sd[0, 4], sd[1, 4]) * (1.0 - 1e-9)
            known, ab, ba = _pair_verdict(reach, shift, z, log_alpha, sd, ends, found, stack,
                                          spans, ispan, s_lo, s_hi)
            if known:
                dom[i, a, b] = ab
                dom[i, b, a] = ba
                if wins and p < C - 1:
                    wins = ab if a == top else ba
                    wins = wins and not (ba if a == top else ab)
            else:
                unknown[i, a, b] = True
                wins = False
