r"""The NCC's lower posterior probability of a class with more than two classes (paper 001 §3.5).

Zaffalon's IDM as :class:`~credal_core.NCC` uses it (ε-shifted counts N, strength
:math:`\sigma = s(1-\epsilon)`, features MAR): with class masses :math:`t(k)` and feature masses
:math:`t(k, x_j)`,

.. math::
    P_t(k, \mathbf x) \propto (N(k) + \sigma t(k)) \prod_{j} \frac{N(k, x_j) + \sigma t(k, x_j)}
        {N_j(k) + \sigma t(k)},
    \qquad \underline P(c \mid \mathbf x) = \frac{1}{1 + R^*},\quad
    R^* = \sup_t \sum_{r \ne c} \frac{P_t(r, \mathbf x)}{P_t(c, \mathbf x)} .

**Feature masses.**  For fixed class masses the ratio falls with :math:`t(c, x_j)` and grows with
every :math:`t(r, x_j)`, so the supremum puts :math:`t(c, x_j) = 0` and :math:`t(r, x_j) = t(r)`
(active features: present, not single-valued).  With :math:`u = t(c)`, :math:`v_r = t(r)`:

.. math::
    R^* = \max_{u + \sum_r v_r = 1} q(u) \sum_{r \ne c} g_r(v_r), \quad
    q(u) = \frac{\prod_j (N_j(c) + \sigma u)}{(N(c) + \sigma u)\prod_j N(c, x_j)}, \quad
    g_r(v) = (N(r) + \sigma v)\prod_j \frac{N(r, x_j) + \sigma v}{N_j(r) + \sigma v}.

``log q`` and every ``log g_r`` are concave (each :math:`\log(a + x) - \log(b + x)` with
:math:`a \le b` is concave, and :math:`\sum_j \log(N_j(c) + \sigma u) - \log(N(c) + \sigma u)` is
once a feature is active).

**Class masses: the rivals' share goes to one rival when their counts are complete.**  If
:math:`N_j(r) = N(r)` on every active feature (no missing value of the rival on them), ``g_r`` is
convex: with :math:`w = N(r) + \sigma v` and :math:`y = 1/w`, :math:`g_r = w\,F(1/w)` where
:math:`F(y) = \prod_j (1 - \delta_j y)`, :math:`\delta_j = N(r) - N(r, x_j) \in [0, w]`, is a product of
positive, decreasing, convex (linear) functions, hence positive, decreasing and convex
(:math:`(fh)'' = f''h + 2f'h' + fh'' \ge 0`), and the perspective :math:`w F(1/w)` of a convex
function is convex.  For fixed ``u`` the sum of convex :math:`g_r` over the face
:math:`\sum_r v_r = 1-u` is maximal at a vertex: all of it on one rival ``r``, the others at 0, so

.. math:: R^* = \max_r \max_{u\in[0,1]} \varphi_r(u),\quad
    \varphi_r(u) = q(u)\,g_r(1-u) + K_r\,q(u),\quad K_r = \sum_{r' \ne c, r} g_{r'}(0).

When a rival has missing values (:math:`N_j(r) < N(r)`) ``g_r`` can be concave and splitting its
share beats every vertex (two equal such rivals: :math:`2g(V/2) > g(V) + g(0)`).  Convexity is then
checked by a sufficient certificate: with :math:`\delta_j = N(r) - N(r, x_j) \ge e_j = N(r) - N_j(r)
\ge 0`, :math:`F(y) = \prod_j (1 - \delta_j y)/(1 - e_j y)` and (writing
:math:`p_j = \delta_j/(1-\delta_j y)`, :math:`q_j = e_j/(1 - e_j y)`, :math:`A_j = p_j - q_j \ge 0`)

.. math:: \frac{F''}{F} = (\log F)'' + ((\log F)')^2 = 2\Big[\sum_{i<j} A_i A_j - \sum_j q_j A_j\Big];

:math:`A_j` and :math:`q_j` grow with y, and the bracket is :math:`\sum_j A_j b_j` with
:math:`b_j = \tfrac12\sum_{i \ne j} A_i - q_j`; on a piece :math:`[y_1, y_2]` of
:math:`y \in [1/(N(r)+\sigma), 1/N(r)]`, :math:`b_j \ge \beta_j = \tfrac12\sum_{i\ne j} A_i(y_1) - q_j(y_2)`,
so the bracket is at least :math:`\sum_j A_j(y_1)\beta_j` over the :math:`\beta_j \ge 0` plus
:math:`\sum_j A_j(y_2)\beta_j` over the :math:`\beta_j < 0`; when that is :math:`\ge 0` on each of
:data:`_PIECES` pieces, ``g_r`` is convex and the vertex argument holds.  When a rival (with three or
more classes; with two the one rival takes the whole share) fails the certificate, the vertex value is
only a lower bound: :mod:`credal_core._ncc_lower_split` then finds the exact value (branch and bound
over the rivals' masses with concave second-order bounds of each ``g_r``, seeded with the best vertex),
to a certified relative 1e-9 (:data:`credal_core._ncc_lower_split.TOLERANCE`).

**The one-dimensional problem.**  :math:`\varphi_r` is the sum of two log-concave functions and can
have two local maxima (an interior one and u = 1), so no single root is its maximiser.  It is solved
by branch and bound with a proved bound: on a cell :math:`[u_1, u_2]` each log-concave term lies
below the exponential of the smaller of its two end tangents (a concave function lies below each
tangent), and the sum of two exponentials of linear functions is convex on each piece between the
tangents' crossings, so the bound's maximum over the cell is at the ends or the crossings.  Cells
whose bound is within a relative :data:`TOLERANCE` of the best value found are closed; the bound is
second-order (the tangent error is :math:`O(h^2)`), so the bracket closes after a few dozen
halvings; each open cell is cut into :data:`_SPLIT` equal cells at a time (a third of the rounds of
halving, each on a few times more cells: numpy's cost per call, not per cell, dominated).  The best
value found is attained by a prior of the set, so the lower posterior returned is at most a relative
:data:`TOLERANCE` above the true one, never below it.
"""
from __future__ import annotations

import numpy as np

from ._ncc_lower_split import split_log_ratio
from .data.counts import MISSING, Gather

__all__ = ["ncc_lower_posterior_multiclass", "shifted_counts", "TOLERANCE"]

TOLERANCE = 1e-12          # relative width of the certified bracket of R* (absolute in log R*)
_PIECES = 32               # sub-intervals of the convexity certificate of a rival with gaps
_MAX_LEVELS = 200
_SPLIT = 8                 # cells an open cell is cut into per round of the branch and bound


def shifted_counts(model):
    """The ε-shifted counts of a fitted NCC (MAR features only): ``sigma`` = s(1-ε), ``n_values``
    (m,) = |F_j|, ``big_n`` (C,) = N(k), ``cell`` (per feature, (C, |F_j|+1)) = N(k, v) and
    ``den`` (m, C) = N_j(k)."""
    if np.any(model.non_mar_training_) or np.any(model.non_mar_testing_):
        raise NotImplementedError("lower posteriors of an NCC with non-MAR features are not implemented")
    tables = model.tables_
    n_classes = len(tables.classes)
    s, eps = float(model.s), float(model.epsilon)
    n_values = np.array([len(c) for c in tables.categories])
    big_n = tables.class_counts + s * eps / n_classes
    cell = [t + s * eps / (n_classes * max(len(c), 1))
            for t, c in zip(tables.extended_counts(), tables.categories)]
    den = tables.present_counts() + s * eps / n_classes
    return s * (1 - eps), n_values, big_n, cell, den


def _certified_convex(sigma, n_r, a_r, d_r, on, pieces: int = _PIECES) -> np.ndarray:
    r"""Bool (k,): :math:`g_r` is convex on v in [0, 1], by a sufficient certificate (see the module
    docstring); ``n_r`` (k,), ``a_r``, ``d_r``, ``on`` (k, m) per (instance, rival) pair."""
    n_r = n_r[:, None, None]
    delta = np.where(on, n_r[:, :, 0] - a_r, 0.0)[:, None, :]                     # (k, 1, m)
    e = np.where(on, n_r[:, :, 0] - d_r, 0.0)[:, None, :]
    edges = 1 / (n_r[:, :, 0] + sigma * np.linspace(1, 0, pieces + 1)[None, :])   # y = 1/w, increasing
    y1, y2 = edges[:, :-1, None], edges[:, 1:, None]                              # (k, P, 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        def parts(y):
            p, q = delta / (1 - delta * y), e / (1 - e * y)
            return p - q, q                                                       # A_j >= 0, q_j >= 0
        a1, _ = parts(y1)
        a2, q2 = parts(y2)
        beta = 0.5 * (a1.sum(axis=2, keepdims=True) - a1) - q2        # <= (1/2) sum_{i != j} A_i - q_j
        bound = np.where(beta >= 0, a1 * beta, np.nan_to_num(a2 * beta, nan=-np.inf)).sum(axis=2)
    return np.all(bound >= 0, axis=1)


def _logsumexp_except(values: np.ndarray, excluded=False) -> np.ndarray:
    """log Σ exp(values[i, k]) over k with ``excluded[i, k]`` False (``-inf`` for an empty sum); by the
    maximum's shift, without scipy's ``logsumexp`` and its array-API dispatch (this is called per row and
    per node of the searches of the NCC and CMA: the dispatch cost more than the sums)."""
    v = np.where(excluded, -np.inf, values)
    top = v.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(divide="ignore"):
        return np.log(np.exp(v - top).sum(axis=-1)) + top[..., 0]


class _Pairs:
    """Per (instance, rival) pair the functions ``a = log(q g_r(1-u))`` and ``b = log(K_r q)`` with slopes."""

    def __init__(self, sigma, n_c, a_c, d_c, act, n_r, a_r, d_r, w_r, log_k):
        self.sigma = sigma
        self.n_c, self.d_c, self.act = n_c, d_c, act
        self.n_r, self.a_r, self.d_r, self.w_r = n_r, a_r, d_r, w_r
        self.log_k = log_k
        with np.errstate(divide="ignore"):
            self.log_a_c = np.where(act, np.log(np.where(act, a_c, 1.0)), 0.0).sum(axis=1)

    def __call__(self, u, p):
        sigma = self.sigma
        us, v = u[:, None], (1 - u)[:, None]
        act, w = self.act[p], self.w_r[p]
        with np.errstate(divide="ignore", invalid="ignore"):
            dc = self.d_c[p] + sigma * us
            nc = self.n_c[p] + sigma * u
            lq = np.where(act, np.log(dc), 0.0).sum(axis=1) - self.log_a_c[p] - np.log(nc)
            dlq = sigma * (np.where(act, 1 / dc, 0.0).sum(axis=1) - 1 / nc)
            ar, dr = self.a_r[p] + sigma * v, self.d_r[p] + sigma * v
            nr = self.n_r[p] + sigma * (1 - u)
            lg = np.log(nr) + np.where(w, np.log(ar) - np.log(dr), 0.0).sum(axis=1)
            dlg = sigma * (1 / nr + np.where(w, 1 / ar - 1 / dr, 0.0).sum(axis=1))
        a, sa = lg + lq, dlq - dlg
        b = self.log_k[p] + lq
        return a, sa, b, dlq


def _tent(f1, s1, f2, s2, u1, u2, x):
    """min of the tangents at both ends (a tangent at a point where the function is -inf is dropped)."""
    with np.errstate(invalid="ignore"):
        t1 = np.where(np.isfinite(f1), f1 + s1 * (x - u1), np.inf)
        t2 = np.where(np.isfinite(f2), f2 + s2 * (x - u2), np.inf)
    return np.minimum(t1, t2)


def _crossing(f1, s1, f2, s2, u1, u2):
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        x = (f2 - f1 + s1 * u1 - s2 * u2) / (s1 - s2)
    return np.clip(np.where(np.isfinite(x), x, u1), u1, u2)


def _log_upper_bound(c):
    """log of an upper bound of exp(a) + exp(b) on each cell (see the module docstring)."""
    u1, u2 = c["lo"], c["hi"]
    ta = (c["a1"], c["sa1"], c["a2"], c["sa2"], u1, u2)
    tb = (c["b1"], c["sb1"], c["b2"], c["sb2"], u1, u2)
    has_b = np.isfinite(c["b1"])                  # log K = -inf: b is -inf everywhere
    best = np.full(u1.shape, -np.inf)
    for x in (u1, u2, _crossing(*ta), _crossing(*tb)):
        top_b = np.where(has_b, _tent(*tb, x), -np.inf)
        best = np.maximum(best, np.logaddexp(_tent(*ta, x), top_b))
    return best


def _branch_and_bound(fun, n_pairs: int) -> np.ndarray:
    """max over u in [0, 1] of log(exp(a) + exp(b)) per pair, to :data:`TOLERANCE` (certified)."""
    p = np.arange(n_pairs)
    zeros, ones = np.zeros(n_pairs), np.ones(n_pairs)
    a0, sa0, b0, sb0 = fun(zeros, p)
    a1, sa1, b1, sb1 = fun(ones, p)
    best = np.maximum(np.logaddexp(a0, b0), np.logaddexp(a1, b1))
    cells = {"p": p, "lo": zeros, "hi": ones, "a1": a0, "sa1": sa0, "b1": b0, "sb1": sb0,
             "a2": a1, "sa2": sa1, "b2": b1, "sb2": sb1}
    fractions = np.arange(1, _SPLIT) / _SPLIT
    for _ in range(_MAX_LEVELS):
        bound = _log_upper_bound(cells)
        keep = bound > best[cells["p"]] + TOLERANCE
        if not keep.any():
            return best
        c = {k: v[keep] for k, v in cells.items()}
        inner = c["lo"][:, None] + (c["hi"] - c["lo"])[:, None] * fractions[None, :]    # (cells, S-1)
        at = np.repeat(c["p"], _SPLIT - 1)
        am, sam, bm, sbm = (v.reshape(inner.shape) for v in fun(inner.ravel(), at))
        np.maximum.at(best, at, np.logaddexp(am, bm).ravel())
        # the S cells between consecutive points (ends included), each with its end values
        points = {"u": (c["lo"], inner, c["hi"]), "a": (c["a1"], am, c["a2"]),
                  "sa": (c["sa1"], sam, c["sa2"]), "b": (c["b1"], bm, c["b2"]),
                  "sb": (c["sb1"], sbm, c["sb2"])}
        edge = {k: np.column_stack(v) for k, v in points.items()}                      # (cells, S+1)
        cells = {"p": np.repeat(c["p"], _SPLIT),
                 "lo": edge["u"][:, :-1].ravel(), "hi": edge["u"][:, 1:].ravel()}
        for name in ("a", "sa", "b", "sb"):
            cells[f"{name}1"], cells[f"{name}2"] = edge[name][:, :-1].ravel(), edge[name][:, 1:].ravel()
    return best                              # not reached in practice: 8^-200 wide cells


def ncc_lower_posterior_multiclass(model, codes: np.ndarray, target: np.ndarray) -> np.ndarray:
    """Lower posterior of class ``target[i]`` (positions) under a fitted NCC, any number of classes (n,).

    Exact everywhere: the vertex branch and bound (to 1e-12) where every rival is certified convex,
    :mod:`credal_core._ncc_lower_split` (to 1e-9) where one is not; features declared non-MAR raise
    ``NotImplementedError``."""
    sigma, n_values, big_n, cell, den = shifted_counts(model)
    den = den.T                                                                        # N_j(k) (C, m)
    n_classes = big_n.size
    n = codes.shape[0]
    target = np.asarray(target, dtype=np.int64)
    rows = np.arange(n)
    act = (codes != MISSING) & ~((n_values == 1)[None, :] & (codes >= 0))             # (n, m)
    cnt = np.transpose(Gather(codes, n_values).take(cell, missing=1.0), (2, 0, 1))    # (n, C, m)
    w_all = act[:, None, :] & (cnt < den[None])            # rival factors that are not identically 1
    with np.errstate(divide="ignore", invalid="ignore"):
        log_g0 = np.log(big_n)[None, :] + np.where(w_all, np.log(cnt) - np.log(den[None]), 0.0).sum(axis=2)
    a_c, d_c = cnt[rows, target], den[target]                                          # (n, m)
    blocked = (act & (a_c <= 0)).any(axis=1)
    has_act = act.any(axis=1)
    incomplete = (w_all & (den[None] < big_n[None, :, None])).any(axis=2)              # (n, C)
    incomplete[rows, target] = False
    if n_classes == 2:                                     # one rival takes the whole share anyway
        incomplete[:] = False
    gi, gr = np.nonzero(incomplete)
    if gi.size and sigma > 0:                              # gaps, yet g_r certified convex: a vertex again
        incomplete[gi, gr] = ~_certified_convex(sigma, big_n[gr], cnt[gi, gr], den[gr], w_all[gi, gr])
    out = np.full(n, np.nan)
    out[~has_act] = big_n[target[~has_act]] / (big_n.sum() + sigma)
    out[blocked] = 0.0
    live = np.flatnonzero(has_act & ~blocked)
    if live.size == 0:
        return out
    pi, pr = np.nonzero(np.arange(n_classes)[None, :] != target[live, None])           # pairs (live, rival)
    inst = live[pi]
    others = np.ones((pi.size, n_classes), dtype=bool)
    others[np.arange(pi.size), pr] = False
    others[np.arange(pi.size), target[inst]] = False
    log_k = _logsumexp_except(log_g0[inst], ~others)
    fun = _Pairs(sigma, big_n[target[inst]], a_c[inst], d_c[inst], act[inst], big_n[pr],
                 cnt[inst, pr], den[pr], w_all[inst, pr], log_k)
    best = _branch_and_bound(fun, pi.size)
    log_r = np.full(live.size, -np.inf)
    np.maximum.at(log_r, pi, best)                       # the best vertex: exact when no rival splits
    split = incomplete[live].any(axis=1) & (sigma > 0)
    if split.any():
        rows = live[split]
        log_r[split] = split_log_ratio(sigma, *_components(
            big_n, target[rows], a_c[rows], d_c[rows], act[rows], cnt[rows], den, w_all[rows]),
            seed=log_r[split])[0]
    out[live] = np.exp(-np.logaddexp(0.0, log_r))
    return out


def _components(big_n, target, a_c, d_c, act, cnt, den, w_all):
    r"""The concave terms of :mod:`credal_core._ncc_lower_split` per instance: component 0 is
    :math:`\log q(u)`, components 1.. the rivals' :math:`\log g_r(v)`, each as
    cst + Σ_t sgn_t log(off_t + σx) over 1 + 2m slots."""
    n, m = act.shape
    n_classes = big_n.size
    rivals = np.nonzero(np.arange(n_classes)[None, :] != target[:, None])[1].reshape(n, n_classes - 1)
    off = np.ones((n, n_classes, 1 + 2 * m))
    sgn = np.zeros_like(off)
    cst = np.zeros((n, n_classes))
    off[:, 0, 0], sgn[:, 0, 0] = big_n[target], -1.0
    off[:, 0, 1:m + 1] = np.where(act, d_c, 1.0)
    sgn[:, 0, 1:m + 1] = act
    with np.errstate(divide="ignore"):
        cst[:, 0] = -np.where(act, np.log(np.where(act, a_c, 1.0)), 0.0).sum(axis=1)
    rows = np.arange(n)[:, None]
    w = w_all[rows, rivals]                                                        # (n, K, m)
    off[:, 1:, 0], sgn[:, 1:, 0] = big_n[rivals], 1.0
    off[:, 1:, 1:m + 1] = np.where(w, cnt[rows, rivals], 1.0)
    sgn[:, 1:, 1:m + 1] = w
    off[:, 1:, m + 1:] = np.where(w, den[rivals], 1.0)
    sgn[:, 1:, m + 1:] = -1.0 * w
    _cancel(off, sgn)
    return off, sgn, cst


def _cancel(off, sgn):
    """Drop the pairs of equal offsets with opposite signs in each component (in place): the same
    function, and its curvature bounds see through the cancelled factors."""
    n, k, t = off.shape
    flat_off, flat_sgn = off.reshape(n * k, t), sgn.reshape(n * k, t)
    for row in np.flatnonzero(((sgn < 0).any(axis=2)).ravel()):
        o, s = flat_off[row], flat_sgn[row]
        for neg in np.flatnonzero(s < 0):
            pos = np.flatnonzero((s > 0) & (o == o[neg]))
            if pos.size:
                s[neg] = s[pos[0]] = 0.0
