r"""Compiled certificates of the LTANC's verdicts with the instance (numba), one (row, pair) at a time.

:func:`certify` settles most verdicts of :func:`credal_core.likelihood.tan.pair_dominance` in one
compiled pass, reading only integer counts and a table of logarithms of integers; the items it cannot
settle are flagged and go to that (numpy) route.  Every verdict issued here is a proof: it holds for
the exact profile likelihood by a rounding margin, so the routes with and without numba give the same
verdicts (tested on random inputs in ``tests/credal_core/likelihood/test_tan_fast.py``).

**Values at integer α.**  An item's cells (the class cell and one cell per feature under a, with
exponent +1; the same under b with the instance's count added, exponent -1; see
:mod:`credal_core.likelihood.tan`) hold integer counts, so at an integer α every
:math:`d + \alpha q` and :math:`D + \alpha q` is an integer and

.. math:: B(\alpha) = \sum_e \big[d_e \log(d_e + \alpha q_e) - d_e\log d_e\big]
          - \sum_{w_e = 1}\big[D_e\log(D_e + \alpha q_e) - D_e \log D_e\big],

and :math:`A(\alpha)` the same with the coefficients :math:`d_e + q_e` and :math:`D_e + q_e` (the
data with the instance labelled a) are sums of table look-ups (``0 log 0 = 0``; cells holding their
whole row contribute nothing).  The margin of each such sum is ``ROUNDING`` (the LNCC's constant,
:data:`credal_core.naive._lncc_constants.ROUNDING`) times the sum of the absolute values of its terms
plus one; log g = A - B takes twice that.

**Rules** (those of :func:`credal_core.likelihood.tan.pair_critical_alphas`).  On the path
:math:`\log L = \mathrm{logaddexp}(A, B)` increases for α <= 0 and decreases for α >= 1; A increases on
α <= 1 and B decreases on α >= 0 (increases on α <= 0).  Let α0 be the root of g = 1.  With M the
maximum of L on [0, 1], bracketed by :math:`\max(F(0), F(1))` and :math:`\mathrm{logaddexp}(A(1), B(0))`:

* log g(0) > 0 (α0 < 0): the side {g <= 1} has sup :math:`\log 2 + B(\alpha_0)`, bracketed by B at
  integer brackets of α0 found by bisection over the integers of :math:`[\underline\alpha, 0]`; the
  other side's sup is M, so b never dominates a.
* log g(1) < 0 (α0 > 1): the mirror, on :math:`[1, \bar\alpha]`; a never dominates b.
* α0 in (0, 1): each side's sup is at least :math:`\max(F(\text{its end}), \log 2 + B(1),
  \log 2 + A(0))` (both contain α0, where A = B) and at most :math:`\log 2 + B(0)` (left) or
  :math:`\log 2 + A(1)` (right).

a dominates b iff d = min(sup_left - sup_right, 0) <= -TIE and d < log α (the rule of
:func:`credal_core.likelihood.tan._levels`); a verdict is issued when the bounds prove it either way.

**Refinement with float logs** (:func:`_refine`, the few items the look-ups leave open): the bracket of
α0 is bisected (at real α, where each log costs a call) and the maxima over [0, 1] are bounded by
branch and bound on cells :math:`[x_1, x_2]`: :math:`\log L \le \mathrm{logaddexp}(A(x_2), B(x_1))`
(A increases, B decreases there) and L at every evaluated point is a lower bound, with at most
``2 * _CELLS`` steps per item.  Items whose path ends are not both reached by a moving cell (g neither
0 nor ∞ at an end), whose sign of log g at a point is within its margin, or that the steps do not
settle, are left open.
"""
from __future__ import annotations

import numpy as np

from .._base import TIE
from .._compiled import HELPER_OPTIONS, compiled_kernel
from ..naive._lncc_constants import ROUNDING

__all__ = ["certify", "kernel_tables"]

_LOG2 = float(np.log(2.0))
_CELLS = 24          # points of [0, 1] per item in the float refinement (:func:`_refine`)


def kernel_tables(tan_counts, class_counts):
    """Flat integer tables for :func:`certify`: for each feature j (``tan_counts[j]`` of shape
    (C, kp + 1, kj + 1), the last slots for unseen values), offsets into the flat counts and row
    totals, the sizes kp + 1 and kj + 1; the class counts; log k for k = 0 .. 2 max count + 3."""
    cnt, tot, off, toff = [], [], [], []
    start = tstart = 0
    for t in tan_counts:
        off.append(start)
        toff.append(tstart)
        cnt.append(t.ravel())
        tot.append(t.sum(axis=2).ravel())
        start += t.size
        tstart += t.shape[0] * t.shape[1]
    cnt = np.rint(np.concatenate(cnt)).astype(np.int64)
    tot = np.rint(np.concatenate(tot)).astype(np.int64)
    nc = np.rint(np.asarray(class_counts, float)).astype(np.int64)
    # a cell's d + αq at an integer α of the path: at most the largest count plus 1 (the instance)
    # plus |α| <= that count plus 1 again
    top = 2 * int(max(cnt.max(initial=0), tot.max(initial=0), nc.max(initial=0))) + 4
    with np.errstate(divide="ignore"):
        logs = np.log(np.arange(top, dtype=float))
    return {"off": np.array(off, np.int64), "toff": np.array(toff, np.int64),
            "kp1": np.array([t.shape[1] for t in tan_counts], np.int64),
            "kj1": np.array([t.shape[2] for t in tan_counts], np.int64),
            "cnt": cnt, "tot": tot, "nc": nc, "logs": logs}


def certify(codes, parents, tables, rows, a, b, log_alpha: float):
    """Verdicts (a over b, b over a) with the instance of the items (row ``rows[i]`` of ``codes``,
    classes ``a[i]``, ``b[i]``), and which of them are ``known`` (proven); three bool arrays (k,).

    ``codes``: the instances' codes (unseen values already mapped to the tables' zero slots)."""
    k = len(rows)
    ab, ba, known = np.zeros(k, bool), np.zeros(k, bool), np.zeros(k, bool)
    if k:
        t = tables
        _certify_items(np.ascontiguousarray(codes, dtype=np.int64), np.asarray(parents, np.int64),
                       t["off"], t["toff"], t["kp1"], t["kj1"], t["cnt"], t["tot"], t["nc"], t["logs"],
                       np.asarray(rows, np.int64), np.asarray(a, np.int64), np.asarray(b, np.int64),
                       float(log_alpha), float(TIE), float(ROUNDING), ab, ba, known)
    return ab, ba, known


@compiled_kernel(**HELPER_OPTIONS)
def _side_at(x, k, table, d, D, w, sign, logs, out):
    """Add one side's terms at α to out = [A, B, size]: α = the integer ``k`` with ``table`` (logs of
    d + αq looked up), else the float ``x`` (np.log).  ``sign``: the exponent, +1 for a's cells, -1
    for b's; w: 0 no row term, 1 own row term, -1 a cell holding its whole row."""
    for e in range(d.shape[0]):
        if w[e] < 0:
            continue
        de = d[e]
        ca = de + sign                      # A's coefficient (>= 0): the data with the instance labelled a
        lx = logs[de + sign * k] if table else np.log(de + sign * x)    # -inf where the cell reaches 0
        ld = logs[de]
        size = abs(lx) if lx > -np.inf else 0.0
        if de > 0:
            out[1] += de * (lx - ld)
            out[0] -= de * ld
            size += abs(ld)
        if ca > 0:
            out[0] += ca * lx
        if w[e] > 0:                        # D > d >= 0: both logs finite on the path
            De = D[e]
            lX = logs[De + sign * k] if table else np.log(De + sign * x)
            lD = logs[De]
            out[1] -= De * (lX - lD)
            out[0] -= (De + sign) * lX - De * lD
            size += abs(lX) + abs(lD)
            out[2] += (De + 1) * size
        else:
            out[2] += (de + 1) * size


@compiled_kernel(**HELPER_OPTIONS)
def _eval(x, k, table, da, Da, wa, db, Db, wb, logs, rounding, out):
    """out = [A, B, size] at α (see :func:`_side_at`); returns the margin of A and of B."""
    out[0] = 0.0
    out[1] = 0.0
    out[2] = 0.0
    _side_at(x, k, table, da, Da, wa, 1, logs, out)
    _side_at(x, k, table, db, Db, wb, -1, logs, out)
    return rounding * (out[2] + 1.0)


@compiled_kernel(**HELPER_OPTIONS)
def _insert(x, A, B, e, px, pA, pB, pe, n):
    """Insert the point (x, A, B, margin e) into the first n sorted points; returns n + 1."""
    i = n
    while i > 0 and px[i - 1] > x:
        px[i], pA[i], pB[i], pe[i] = px[i - 1], pA[i - 1], pB[i - 1], pe[i - 1]
        i -= 1
    px[i], pA[i], pB[i], pe[i] = x, A, B, e
    return n + 1


@compiled_kernel(**HELPER_OPTIONS)
def _refine(case, xl, xh, Al, Bl, el, Ah, Bh, eh, A0, B0, e0, A1, B1, e1,  # noqa: C901
            da, Da, wa, db, Db, wb, logs, rounding, log_alpha, tie, px, pA, pB, pe, out):
    """Verdict codes (see :func:`_settle`) of an item the integer look-ups left open, by bisection of
    the bracket [xl, xh] of α0 (A, B and margins at its ends) and branch and bound on [0, 1] with
    float logs: on a cell [x1, x2] of [0, 1], log L <= logaddexp(A(x2), B(x1)).  ``case`` 0: α0 < 0,
    1: α0 > 1, 2: α0 in (0, 1) (the bracket's ends are then points of the cells)."""
    n = _insert(0.0, A0, B0, e0, px, pA, pB, pe, 0)
    n = _insert(1.0, A1, B1, e1, px, pA, pB, pe, n)
    if case == 2 and xl > 0.0:
        n = _insert(xl, Al, Bl, el, px, pA, pB, pe, n)
    if case == 2 and xh < 1.0:
        n = _insert(xh, Ah, Bh, eh, px, pA, pB, pe, n)
    vab, vba = -1, -1
    for it in range(2 * _CELLS):
        # bounds of the two sides' sups
        at_root = max(_LOG2 + Bh - eh, _LOG2 + Al - el) if case == 2 else 0.0
        lb_l, ub_l, lb_r, ub_r = at_root, -np.inf, at_root, -np.inf
        best_l, best_r, cell_l, cell_r = -np.inf, -np.inf, -1, -1
        for i in range(n):
            f = np.logaddexp(pA[i], pB[i]) - pe[i]
            if case != 2 or px[i] <= xl:
                lb_l = max(lb_l, f)
            if case != 2 or px[i] >= xh:
                lb_r = max(lb_r, f)
            if i + 1 < n:
                ub = np.logaddexp(pA[i + 1], pB[i]) + pe[i] + pe[i + 1]
                wide = px[i + 1] - px[i] > 1e-12
                if case != 2 or px[i + 1] <= xh:
                    ub_l = max(ub_l, ub)
                    if wide and ub > best_l:
                        best_l, cell_l = ub, i
                if case != 2 or px[i] >= xl:
                    ub_r = max(ub_r, ub)
                    if wide and ub > best_r:
                        best_r, cell_r = ub, i
        if case == 0:                       # left: log 2 + B(α0), B increasing on α <= 0
            vab, _ = _settle(_LOG2 + Bl - el, _LOG2 + Bh + eh, lb_r, ub_r, log_alpha, tie)
            vba = 0
        elif case == 1:                     # right: log 2 + B(α0), B decreasing on α >= 0
            _, vba = _settle(lb_l, ub_l, _LOG2 + Bh - eh, _LOG2 + Bl + el, log_alpha, tie)
            vab = 0
        else:
            vab, vba = _settle(lb_l, ub_l, lb_r, ub_r, log_alpha, tie)
        if (vab >= 0 and vba >= 0) or n + 2 > px.shape[0]:
            break
        if it % 2 == 0:                     # narrow the bracket of α0
            if xh - xl <= 1e-12 * max(1.0, abs(xl), abs(xh)):
                continue
            m = 0.5 * (xl + xh)
            em = _eval(m, 0, False, da, Da, wa, db, Db, wb, logs, rounding, out)
            lgm = out[0] - out[1]
            if lgm > 2 * em:
                xh, Ah, Bh, eh = m, out[0], out[1], em
            elif lgm < -2 * em:
                xl, Al, Bl, el = m, out[0], out[1], em
            else:
                break
            if case == 2:
                n = _insert(m, out[0], out[1], em, px, pA, pB, pe, n)
        else:                               # split the cell of largest bound (of an open side)
            i = cell_r if (case == 0 or (case == 2 and it % 4 == 3)) else cell_l
            if i < 0:
                continue
            m = 0.5 * (px[i] + px[i + 1])
            em = _eval(m, 0, False, da, Da, wa, db, Db, wb, logs, rounding, out)
            n = _insert(m, out[0], out[1], em, px, pA, pB, pe, n)
    return vab, vba


@compiled_kernel(**HELPER_OPTIONS)
def _settle(ll, lu, rl, ru, log_alpha, tie):
    """Verdict codes from bounds on the two sides' sups: (ab, ba) each 1 (yes), 0 (no) or -1 (open)."""
    hi_ab = min(lu - rl, 0.0)
    lo_ab = min(ll - ru, 0.0)
    hi_ba = min(ru - ll, 0.0)
    lo_ba = min(rl - lu, 0.0)
    vab = 1 if (hi_ab <= -tie and hi_ab < log_alpha) else (0 if (lo_ab > -tie or lo_ab >= log_alpha) else -1)
    vba = 1 if (hi_ba <= -tie and hi_ba < log_alpha) else (0 if (lo_ba > -tie or lo_ba >= log_alpha) else -1)
    return vab, vba


@compiled_kernel(error_model="numpy")
def _certify_items(codes, par, off, toff, kp1, kj1, cnt, tot, nc, logs, rows, a, b,  # noqa: C901
                   log_alpha, tie, rounding, ab, ba, known):
    """The rules of the module docstring for every item; see :func:`certify`."""
    m = codes.shape[1]
    E = m + 1
    da = np.empty(E, np.int64)
    Da = np.zeros(E, np.int64)
    wa = np.zeros(E, np.int64)
    db = np.empty(E, np.int64)
    Db = np.zeros(E, np.int64)
    wb = np.zeros(E, np.int64)
    out = np.zeros(3)
    px = np.empty(2 * _CELLS + 8)
    pA = np.empty(2 * _CELLS + 8)
    pB = np.empty(2 * _CELLS + 8)
    pe = np.empty(2 * _CELLS + 8)
    for i in range(rows.shape[0]):
        r, ca, cb = rows[i], a[i], b[i]
        da[0] = nc[ca]
        db[0] = nc[cb] + 1
        for j in range(m):
            p = par[j]
            vp = codes[r, p] if p >= 0 else 0
            v = codes[r, j]
            rowa = ca * kp1[j] + vp
            rowb = cb * kp1[j] + vp
            da[j + 1] = cnt[off[j] + rowa * kj1[j] + v]
            Da[j + 1] = tot[toff[j] + rowa]
            db[j + 1] = cnt[off[j] + rowb * kj1[j] + v] + 1
            Db[j + 1] = tot[toff[j] + rowb] + 1
            wa[j + 1] = -1 if da[j + 1] == Da[j + 1] else 1
            wb[j + 1] = -1 if db[j + 1] == Db[j + 1] else 1
        lo = da.min()                       # α_lo = -lo
        hi = db.min()                       # α_hi = hi
        zero_lo = False
        inf_hi = False
        for e in range(E):
            if wa[e] >= 0 and da[e] == lo:
                zero_lo = True
            if wb[e] >= 0 and db[e] == hi:
                inf_hi = True
        if not (zero_lo and inf_hi):
            continue
        e0 = _eval(0.0, 0, True, da, Da, wa, db, Db, wb, logs, rounding, out)
        A0, B0 = out[0], out[1]
        e1 = _eval(1.0, 1, True, da, Da, wa, db, Db, wb, logs, rounding, out)
        A1, B1 = out[0], out[1]
        F0, F1 = np.logaddexp(A0, B0), np.logaddexp(A1, B1)
        lbM = max(F0 - e0, F1 - e1)
        ubM = np.logaddexp(A1, B0) + e0 + e1
        lg0, lg1 = A0 - B0, A1 - B1
        if lg0 > 2 * e0 or lg1 < -2 * e1:
            # α0 < 0 (left: log 2 + B(α0), B increasing) or α0 > 1 (right, B decreasing)
            left_side = lg0 > 2 * e0
            # at the path's ends a cell with a positive count reaches 0: B = -inf exactly (at α_lo
            # that count is lo > 0, since log g(α_lo) = -inf < 0 < log g(0))
            if left_side:
                kl, kh, b_kl, e_kl, b_kh, e_kh = -lo, 0, -np.inf, 0.0, B0, e0
            else:
                kl, kh, b_kl, e_kl, b_kh, e_kh = 1, hi, B1, e1, -np.inf, 0.0
            step = 1
            while True:
                if left_side:
                    pl, pu = _LOG2 + b_kl - e_kl, _LOG2 + b_kh + e_kh
                    v, _ = _settle(pl, pu, lbM, ubM, log_alpha, tie)
                else:
                    pl, pu = _LOG2 + b_kh - e_kh, _LOG2 + b_kl + e_kl
                    _, v = _settle(lbM, ubM, pl, pu, log_alpha, tie)
                if v >= 0 or kh - kl <= 1:
                    break
                # galloping away from α = 0 (or 1) while g stays on the known side, then bisection
                if step > 0:
                    mid = max(kh - step, kl + 1) if left_side else min(kl + step, kh - 1)
                    step *= 2
                else:
                    mid = kl + (kh - kl) // 2
                em = _eval(0.0, mid, True, da, Da, wa, db, Db, wb, logs, rounding, out)
                lgm = out[0] - out[1]
                if lgm > 2 * em:
                    kh, b_kh, e_kh = mid, out[1], em
                    if not left_side:
                        step = 0                    # α0 lies between 1 and mid: bisect
                elif lgm < -2 * em:
                    kl, b_kl, e_kl = mid, out[1], em
                    if left_side:
                        step = 0
                else:
                    break
            if v < 0:
                vab, vba = _refine(0 if left_side else 1, float(kl), float(kh), 0.0, b_kl, e_kl, 0.0, b_kh,
                                   e_kh, A0, B0, e0, A1, B1, e1, da, Da, wa, db, Db, wb, logs, rounding,
                                   log_alpha, tie, px, pA, pB, pe, out)
                v = vab if left_side else vba
            if v >= 0:
                known[i] = True
                if left_side:
                    ab[i] = v == 1
                else:
                    ba[i] = v == 1
        elif lg0 < -2 * e0 and lg1 > 2 * e1:
            common = max(_LOG2 + B1 - e1, _LOG2 + A0 - e0)
            vab, vba = _settle(max(F0 - e0, common), _LOG2 + B0 + e0, max(F1 - e1, common),
                               _LOG2 + A1 + e1, log_alpha, tie)
            if vab < 0 or vba < 0:
                vab, vba = _refine(2, 0.0, 1.0, A0, B0, e0, A1, B1, e1, A0, B0, e0, A1, B1, e1, da, Da, wa,
                                   db, Db, wb, logs, rounding, log_alpha, tie, px, pA, pB, pe, out)
            if vab >= 0 and vba >= 0:
                known[i] = True
                ab[i] = vab == 1
                ba[i] = vba == 1
