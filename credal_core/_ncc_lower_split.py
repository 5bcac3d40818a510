r"""The NCC's lower posterior when the rivals' share may split: a branch and bound over the rivals' masses.

:mod:`credal_core._ncc_lower` reduces the NCC's lower posterior of class c to

.. math:: \log R^* = \max_{u + \sum_r v_r = 1,\ u, v \ge 0}\ \ell(u) + \log \sum_{r} g_r(v_r),

with :math:`\ell = \log q` concave and increasing and every :math:`g_r = e^{h_r}` increasing and
log-concave on [0, 1], each a product of factors :math:`(o_t + \sigma v)^{\pm 1}`.  When a rival with
missing training values is not certified convex, splitting the rivals' share can beat every vertex.
This module solves that case exactly by branch and bound over boxes :math:`\alpha \le v \le \beta` of
the rivals' masses (u is the rest).

**A concave upper bound of each g_r on a piece.**  Write :math:`g = \phi(x) k(x)`, :math:`x = \sigma v`,
:math:`\phi = \prod (o_t + x)` over the numerator factors whose offset is below the piece's width in x
(zero counts, or ε-shifted ones), :math:`S = (\log k)'`.  Then

.. math:: g'' = k\,[\phi'' + 2\phi' S + \phi(S^2 + S')],\qquad
    S^2 + S' = \sum_{t \ne t'} s_t s_{t'} y_t y_{t'} + \sum_{s_t < 0} 2 y_t^2,\quad y_t = \frac1{o_t + x},

finite where a factor of φ vanishes.  φ, φ', φ'' are polynomials with nonnegative coefficients, hence
nondecreasing for x >= 0, and each :math:`y_t` is monotone in x, so term-by-term interval bounds on
:math:`[\sigma\alpha, \sigma\beta]` give :math:`M \ge \max(0, \max_{[\alpha,\beta]} -g'')` (0 for a
linear g).  Then
:math:`b(v) = \text{chord}(v) + \tfrac M2 (v-\alpha)(\beta-v) \ge g(v)` (:math:`g - b` is convex and
vanishes at both ends) and b is concave; its gap is at most
:math:`(M + \max g''^+)(\beta-\alpha)^2/8`, second order.
Where that is not smaller than :math:`g(\beta) - g(\alpha)`, the constant :math:`b = g(\beta)` is used
(g increases).  Offsets equal in a numerator and a denominator factor are cancelled first.

**The bound on a box.**  With :math:`B(v) = \sum_r b_r(v_r)` and :math:`\log y \le y/s + \log s - 1`
(any s > 0), weak duality with a multiplier μ of :math:`u + \sum_r v_r = 1` gives, for every s > 0 and μ,

.. math:: \max_{\text{box}} \ell(u) + \log\sum_r g_r(v_r) \le \mu + \max_{u\in[0,1]} (\ell(u) - \mu u)
    + \sum_r \max_{v \in [\alpha_r, \beta_r]} \Big(\frac{b_r(v)}{s} - \mu v\Big) + \log s - 1 ,

each 1-D maximum exact (a quadratic) or below the tangent of the concave :math:`\ell - \mu u` at the
point found.  s and μ are taken at the maximiser of the concave problem
:math:`\ell(u) + \log B(v)` over the box (KKT: :math:`b_r'(v_r) = \nu`, :math:`\ell'(u) = \nu/B`, solved by
bisection on ν, then on u for the rivals whose chord slope equals ν), where the bound equals that
maximum.  **Lower bound**: the masses found, scaled down if their total exceeds 1, the rest to u, are a
prior of the set; the true objective there is attained.

**Branch and bound.**  Start from :math:`[0, 1]^K`; pop the box of largest bound, halve it along the
rival with the largest estimated gap, drop halves with :math:`\sum_r \alpha_r > 1` (no prior), bound
each half (never above its parent's bound), stop when the largest bound left is within
:data:`TOLERANCE` of the best value found.  The value returned is attained by a prior of the set and
a proved upper bound of :math:`\log R^*` is within :data:`TOLERANCE` of it (absolute in log R*,
i.e. relative in R*).  The gaps scale with the curvature of the :math:`g_r`: nearly linear rivals
(large counts), whose splits hardly matter, close in a few boxes.

**Symmetry.**  Rivals with the same :math:`g_r` can swap masses without changing the objective, so
some maximiser has their masses in decreasing order (rival order); a box in which a later one's lower
end exceeds an earlier one's upper end holds no such point and is dropped.

**Tolerance: 1e-9.**  The lower posterior is compared with 1 - d in the reject option; a relative
1e-9 is far below any meaningful difference and far above the rounding of the bounds (sums of a few
dozen logs of magnitude < 100: ~1e-13, covered by the margin :data:`_ROUNDING`).  Should a box budget
(:data:`_MAX_CELLS`) run out, the value is NaN rather than uncertified: not seen in the benchmark or the
brute-force tests, seen with ε ~ 1e-16 (offsets ~1e-17: g_r jumps within v < 1e-15, and the constant
bound of such a piece closes only at first order).
"""
from __future__ import annotations

import heapq

import numpy as np

from ._compiled import HELPER_OPTIONS, compiled_kernel

__all__ = ["TOLERANCE", "split_log_ratio"]

TOLERANCE = 1e-9          # absolute in log R*: relative width of the certified bracket of R*
_ROUNDING = 1e-12         # margin for the floating-point error of the bounds
_MAX_CELLS = 400_000      # boxes split per instance before giving up (NaN; ~4 s)


@compiled_kernel(**HELPER_OPTIONS)
def _comp(off, sgn, cst, sigma, x):
    """Value, first and second derivative of cst + Σ_t sgn_t log(off_t + σx) (one component)."""
    val, d1, d2 = cst, 0.0, 0.0
    for t in range(off.shape[0]):
        s = sgn[t]
        if s != 0.0:
            z = off[t] + sigma * x
            val += s * np.log(z)
            inv = sigma / z
            d1 += s * inv
            d2 -= s * inv * inv
    return val, d1, d2


@compiled_kernel(**HELPER_OPTIONS)
def _argmax(off, sgn, cst, sigma, w, lam, x0):
    """argmax over [0, 1] of w f(x) - λx for concave f (root of the decreasing w f'(x) - λ)."""
    if w <= 0.0:
        return 0.0
    _, g0, _ = _comp(off, sgn, cst, sigma, 0.0)
    if w * g0 - lam <= 0.0:
        return 0.0
    _, g1, _ = _comp(off, sgn, cst, sigma, 1.0)
    if w * g1 - lam >= 0.0:
        return 1.0
    lo, hi = 0.0, 1.0
    x = x0 if 0.0 < x0 < 1.0 else 0.5
    for _ in range(200):
        _, d1, d2 = _comp(off, sgn, cst, sigma, x)
        g = w * d1 - lam
        if g > 0.0:
            lo = x
        else:
            hi = x
        if g == 0.0 or hi - lo <= 4e-16 * hi:
            break
        step = g / (w * d2) if d2 < 0.0 else 0.0
        nxt = x - step
        if not (lo < nxt < hi) or d2 >= 0.0:
            nxt = 0.5 * (lo + hi) if lo >= 1e-3 * hi else np.sqrt(lo * hi) if lo > 0.0 else 0.5 * hi
        if abs(nxt - x) <= 2e-16 * x:
            x = nxt
            break
        x = nxt
    return x


@compiled_kernel(**HELPER_OPTIONS)
def _rival_piece(off, sgn, cst, sigma, top, lo, hi):
    """The concave upper bound b of g e^-top on [lo, hi] (see the module docstring): kind (0 constant,
    1 chord plus concave quadratic), g(lo), the chord's slope, M, the constant, the gap estimate."""
    h_lo, _, _ = _comp(off, sgn, cst, sigma, lo)
    h_hi, _, _ = _comp(off, sgn, cst, sigma, hi)
    g_lo, g_hi = np.exp(h_lo - top), np.exp(h_hi - top)
    rise, width = g_hi - g_lo, hi - lo
    if width <= 0.0:
        return 0, g_lo, 0.0, 0.0, g_hi, 0.0
    x_lo, x_hi = sigma * lo, sigma * hi
    # g = φ(x) k(x), φ = Π (o_t + x) over the numerator factors with an offset below the piece's width
    # (zero counts; φ, φ', φ'' grow with x); bounds of k, of S = (log k)' and S at both ends
    f_a, f1_a, f2_a, f_b, f1_b, f2_b = 1.0, 0.0, 0.0, 1.0, 0.0, 0.0
    log_k_hi, log_k_at_lo, log_k_at_hi = cst, cst, cst
    s_lo, s_at_lo, s_at_hi = 0.0, 0.0, 0.0
    small = x_hi - x_lo
    for t in range(off.shape[0]):
        st = sgn[t]
        if st == 0.0:
            continue
        if st > 0.0 and off[t] <= small:
            z_a, z_b = off[t] + x_lo, off[t] + x_hi
            f2_a, f1_a, f_a = f2_a * z_a + 2.0 * f1_a, f1_a * z_a + f_a, f_a * z_a
            f2_b, f1_b, f_b = f2_b * z_b + 2.0 * f1_b, f1_b * z_b + f_b, f_b * z_b
            continue
        y_a, y_b = 1.0 / (off[t] + x_lo), 1.0 / (off[t] + x_hi)          # y_a >= y_b
        l_a, l_b = np.log(off[t] + x_lo), np.log(off[t] + x_hi)
        log_k_at_lo += st * l_a
        log_k_at_hi += st * l_b
        s_at_lo += st * y_a
        s_at_hi += st * y_b
        if st > 0.0:
            log_k_hi += l_b
            s_lo += y_b
        else:
            log_k_hi -= l_a
            s_lo -= y_a
    # S^2 + S' = Σ_{t != t'} s_t s_t' y_t y_t' + Σ_{s_t < 0} 2 y_t^2 over k's factors, bounded term by term
    # (exact 0 for one linear factor, >= 0 for a polynomial)
    t_lo = 0.0
    for t in range(off.shape[0]):
        if sgn[t] == 0.0 or (sgn[t] > 0.0 and off[t] <= small):
            continue
        ya_t, yb_t = 1.0 / (off[t] + x_lo), 1.0 / (off[t] + x_hi)
        if sgn[t] < 0.0:
            t_lo += 2.0 * yb_t * yb_t
        for q in range(off.shape[0]):
            if q == t or sgn[q] == 0.0 or (sgn[q] > 0.0 and off[q] <= small):
                continue
            if sgn[t] * sgn[q] > 0.0:
                t_lo += yb_t / (off[q] + x_hi)
            else:
                t_lo -= ya_t / (off[q] + x_lo)
    # (φ k)'' = k [φ'' + 2 φ' S + φ (S^2 + S')]: a lower bound of the bracket
    e_lo = f2_a + 2.0 * s_lo * (f1_a if s_lo >= 0.0 else f1_b) + t_lo * (f_a if t_lo >= 0.0 else f_b)
    m = sigma * sigma * np.exp(log_k_hi - top) * (-e_lo) if e_lo < 0.0 else 0.0
    # g' = σ k (φ' + φ S) at both ends, for the gap estimate of the chord
    d_lo = sigma * np.exp(log_k_at_lo - top) * (f1_a + f_a * s_at_lo)
    d_hi = sigma * np.exp(log_k_at_hi - top) * (f1_b + f_b * s_at_hi)
    if not np.isfinite(m) or m * width * width / 8.0 >= rise:
        return 0, g_lo, 0.0, 0.0, g_hi, rise
    return 1, g_lo, rise / width, m, g_hi, m * width * width / 8.0 + max((d_hi - d_lo) * width / 4.0, 0.0)


@compiled_kernel(error_model="numpy")
def _box(off, sgn, cst, sigma, top, lo, hi, pieces):
    """Upper bound of log R* over the box lo <= v <= hi (rivals' masses), an attained value (a
    feasible prior's objective) and the rival to split.  ``pieces`` (K, 6) scratch."""
    n_r = lo.shape[0]
    split, widest = 0, -1.0
    for r in range(n_r):
        kind, g_lo, slope, m, const, gap = _rival_piece(off[r + 1], sgn[r + 1], cst[r + 1], sigma, top,
                                                        lo[r], hi[r])
        pieces[r, 0], pieces[r, 1], pieces[r, 2], pieces[r, 3], pieces[r, 4] = kind, g_lo, slope, m, const
        if gap > widest:
            split, widest = r, gap

    def place(nu, r):
        """argmax of b_r(v) - ν v on [lo_r, hi_r] and b_r there."""
        a, b = lo[r], hi[r]
        if pieces[r, 0] == 0.0:
            return a, pieces[r, 4]
        g_lo, slope, m = pieces[r, 1], pieces[r, 2], pieces[r, 3]
        if m > 0.0:
            v = 0.5 * (a + b) + (slope - nu) / m
            v = min(max(v, a), b)
        else:
            v = b if slope > nu else a
        return v, g_lo + slope * (v - a) + 0.5 * m * (v - a) * (b - v)

    def place_b(v, r):
        """b_r(v)."""
        if pieces[r, 0] == 0.0:
            return pieces[r, 4]
        a, b = lo[r], hi[r]
        return pieces[r, 1] + pieces[r, 2] * (v - a) + 0.5 * pieces[r, 3] * (v - a) * (b - v)

    def excess(nu):
        """> 0 where ν is too small: u = 1 - Σ v below 0, or ℓ'(u) above ν / B."""
        tot, bsum = 0.0, 0.0
        for r in range(n_r):
            v, bv = place(nu, r)
            tot += v
            bsum += bv
        if tot > 1.0:
            return 1.0
        _, d1, _ = _comp(off[0], sgn[0], cst[0], sigma, 1.0 - tot)
        return d1 - nu / bsum

    nu_lo, nu_hi = 1.0, 1.0
    for _ in range(400):
        if excess(nu_hi) <= 0.0:
            break
        nu_lo, nu_hi = nu_hi, 4.0 * nu_hi
    for _ in range(400):
        if nu_lo < 1e-250 or excess(nu_lo) > 0.0:
            break
        nu_hi, nu_lo = nu_lo, 0.25 * nu_lo
    for _ in range(200):
        if nu_hi - nu_lo <= 1e-15 * nu_hi:
            break
        mid = np.sqrt(nu_lo * nu_hi) if nu_hi > 16.0 * nu_lo else 0.5 * (nu_lo + nu_hi)
        if excess(mid) > 0.0:
            nu_lo = mid
        else:
            nu_hi = mid
    nu = 0.5 * (nu_lo + nu_hi)
    # the masses at ν; rivals whose chord slope is ν (a jump of the total) take what makes the total 1 - u
    vs = np.empty(n_r)
    free, inner = 0.0, 0.0
    for r in range(n_r):
        vs[r], bv = place(nu, r)
        inner += bv - nu * vs[r]                 # max of b_r - ν v on the box (the dual's term)
        if pieces[r, 0] == 1.0 and pieces[r, 3] == 0.0 and nu_lo <= pieces[r, 2] <= nu_hi:
            vs[r] = lo[r]
            pieces[r, 5] = 1.0
        else:
            free += vs[r]
            pieces[r, 5] = 0.0
    def fill(u):
        """the jump rivals take 1 - u - (the others' masses), in order, within their boxes; B."""
        need = 1.0 - u - free
        for r in range(n_r):
            if pieces[r, 5] == 1.0:
                need -= lo[r]
        total_b = 0.0
        for r in range(n_r):
            if pieces[r, 5] == 1.0:
                add = min(hi[r] - lo[r], max(need, 0.0))
                vs[r] = lo[r] + add
                need -= add
            total_b += place_b(vs[r], r)
        return total_b

    u_lo, u_hi = 0.0, 1.0                       # ℓ'(u) = ν / B(u): decreasing minus increasing in u
    _, d1, _ = _comp(off[0], sgn[0], cst[0], sigma, 1.0)
    if d1 - nu / fill(1.0) >= 0.0:
        u_lo = 1.0
    for _ in range(100):
        if u_hi - u_lo <= 1e-16:
            break
        mid_u = 0.5 * (u_lo + u_hi)
        _, d1, _ = _comp(off[0], sgn[0], cst[0], sigma, mid_u)
        if d1 - nu / fill(mid_u) > 0.0:
            u_lo = mid_u
        else:
            u_hi = mid_u
    fill(u_lo)
    u0 = u_lo
    bsum, tot = 0.0, 0.0
    for r in range(n_r):
        bsum += place_b(vs[r], r)
        tot += vs[r]
    # the certified bound at (μ, s) = (ν / B, B)
    mu = nu / bsum
    u0 = _argmax(off[0], sgn[0], cst[0], sigma, 1.0, mu, u0)
    val, d1, _ = _comp(off[0], sgn[0], cst[0], sigma, u0)
    tilt = d1 - mu
    upper = top + mu + val - mu * u0 + max(-tilt * u0, tilt * (1.0 - u0)) + inner / bsum + np.log(bsum) - 1.0
    # a feasible prior: the rivals' masses found, the rest to u
    scale = 1.0 / tot if tot > 1.0 else 1.0
    peak, acc = -np.inf, 0.0
    for r in range(n_r):
        pieces[r, 5], _, _ = _comp(off[r + 1], sgn[r + 1], cst[r + 1], sigma, vs[r] * scale)
        peak = max(peak, pieces[r, 5])
    for r in range(n_r):
        acc += np.exp(pieces[r, 5] - peak)
    u = max(0.0, 1.0 - tot * scale)
    low, _, _ = _comp(off[0], sgn[0], cst[0], sigma, u)
    return upper, low + peak + np.log(acc), split


@compiled_kernel(error_model="numpy")
def _split_kernel(off, sgn, cst, sigma, seed, tol, max_cells, tie):
    """Per instance i: branch and bound over boxes of the rivals' masses.  ``off``, ``sgn`` (n, K+1,
    T), ``cst`` (n, K+1), ``seed`` (n,) attained values of log R*.  Returns the best attained value, the
    certified upper bound and the number of boxes split."""
    n, n_comp = cst.shape
    n_r = n_comp - 1
    out_best, out_upper, out_cells = seed.copy(), np.empty(n), np.zeros(n, dtype=np.int64)
    pieces = np.zeros((n_r, 6))
    for i in range(n):
        top = -np.inf
        for r in range(n_r):
            h1, _, _ = _comp(off[i, r + 1], sgn[i, r + 1], cst[i, r + 1], sigma, 1.0)
            top = max(top, h1)
        cap = 1024
        c_lo = np.zeros((cap, n_r))
        c_hi = np.ones((cap, n_r))
        c_bound = np.empty(cap)
        best = seed[i]
        upper, low, split = _box(off[i], sgn[i], cst[i], sigma, top, c_lo[0], c_hi[0], pieces)
        best = max(best, low)
        c_bound[0] = upper
        c_split = np.zeros(cap, dtype=np.int64)
        c_split[0] = split
        n_c = 1
        heap = [(-upper, 0)]
        popped = 0
        while len(heap) > 0:
            neg, cid = heapq.heappop(heap)
            upper = -neg
            if upper <= best + tol or popped >= max_cells:
                break
            popped += 1
            if n_c + 2 > cap:
                cap *= 2
                grown_lo, grown_hi = np.zeros((cap, n_r)), np.ones((cap, n_r))
                grown_lo[:n_c], grown_hi[:n_c] = c_lo[:n_c], c_hi[:n_c]
                grown_bound, grown_split = np.empty(cap), np.zeros(cap, dtype=np.int64)
                grown_bound[:n_c], grown_split[:n_c] = c_bound[:n_c], c_split[:n_c]
                c_lo, c_hi, c_bound, c_split = grown_lo, grown_hi, grown_bound, grown_split
            r = c_split[cid]
            half = 0.5 * (c_lo[cid, r] + c_hi[cid, r])
            for side in range(2):
                c_lo[n_c], c_hi[n_c] = c_lo[cid], c_hi[cid]
                if side == 0:
                    c_hi[n_c, r] = half
                else:
                    c_lo[n_c, r] = half
                if c_lo[n_c].sum() > 1.0:                  # no prior in this box
                    continue
                ordered = True                              # identical rivals: v_q >= v_r (symmetry)
                for rr in range(n_r):
                    if tie[i, rr] >= 0 and c_lo[n_c, rr] > c_hi[n_c, tie[i, rr]]:
                        ordered = False
                if not ordered:
                    continue
                bound, low, split = _box(off[i], sgn[i], cst[i], sigma, top, c_lo[n_c], c_hi[n_c], pieces)
                best = max(best, low)
                c_bound[n_c] = min(upper, bound)            # the child lies in its parent
                c_split[n_c] = split
                if c_bound[n_c] > best + tol:
                    heapq.heappush(heap, (-c_bound[n_c], n_c))
                n_c += 1
        if len(heap) == 0 and upper > best + tol:
            upper = best + tol                              # every box closed below best + tol
        out_best[i], out_upper[i], out_cells[i] = best, upper, popped
    return out_best, out_upper, out_cells


def split_log_ratio(sigma, comps_off, comps_sgn, comps_cst, seed):
    """log R* for instances whose rivals may split their share (n,), NaN where the box budget ran out,
    with its certified upper bound (n,) and the number of boxes split (n,).  ``comps_*``: see
    :func:`_split_kernel`; ``seed``: an attained value of log R* per instance (e.g. the best vertex)."""
    off, sgn = np.ascontiguousarray(comps_off, dtype=float), np.ascontiguousarray(comps_sgn, dtype=float)
    n, k = off.shape[:2]
    tie = np.full((n, k - 1), -1, dtype=np.int64)         # the previous rival with the same g_r, if any
    for r in range(2, k):
        for q in range(r - 1, 0, -1):
            same = (tie[:, r - 1] < 0) & np.all((off[:, q] == off[:, r]) & (sgn[:, q] == sgn[:, r]), axis=1)
            tie[same, r - 1] = q - 1
    with np.errstate(divide="ignore", invalid="ignore"):  # log 0 at a zero count (numpy path, CREDAL_NUMBA=0)
        best, upper, cells = _split_kernel(off, sgn, np.ascontiguousarray(comps_cst, dtype=float),
                                           float(sigma), np.asarray(seed, dtype=float), TOLERANCE - _ROUNDING,
                                           _MAX_CELLS, tie)
    return np.where(upper <= best + TOLERANCE, best, np.nan), upper, cells
