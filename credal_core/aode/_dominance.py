r"""Exact dominance tests of BMA-AODE* and COMP-AODE* (paper 001 §2.3, §2.5, appendix A).

Both tests ask whether, for every prior in a credal set over the SPODEs, class ``a`` is more
probable than ``b``.  With positive denominators, ``min ratio > 1`` iff ``min (numerator -
denominator) > 0``, and the difference is what we minimise: no LP, no non-linear solver.

**BMA-AODE*** (credal set eq. 4 over the k̃ SPODEs kept by pruning, γ_j = w_j P_j(a), δ_j = w_j P_j(b)):
the ratio :math:`\sum\gamma_j x_j / \sum\delta_j x_j` is linear-fractional, so its minimum over the
polytope is at a vertex (one SPODE at :math:`1-(\tilde k-1)\epsilon`, all others at ε); a dominates b
iff :math:`\epsilon\sum_j d_j + (1-\tilde k\epsilon)\min_j d_j > 0` with :math:`d_j = \gamma_j-\delta_j`.

**COMP-AODE*** (credal set eq. 9; feasible SPODEs K, |K| = k̃): with
:math:`D = -(LL_0 + \log\epsilon) > 0` and :math:`\pi_j(y) = (D + LL_j + \log y)/D` (eq. 6 with prior
y), the pooled preference for a over b is :math:`G(y) = \sum_{j\in K} d_j \pi_j(y_j)`,
:math:`d_j = P_j(a) - P_j(b)`.  The prior of the kept SPODEs ranges over
:math:`Y = \{y_j \ge \epsilon, \sum_K y_j = T\}` if k̃ = k, and :math:`\sum_K y_j \le T` if k̃ < k
(the dropped SPODEs take the rest), :math:`T = 1 - (k-\tilde k+1)\epsilon` — the exact projection
of eq. 9 (eq. 15 as printed has :math:`1-(k-\tilde k-1)\epsilon`, a typo).  G is separable:

* if some :math:`d_j < 0`: every SPODE with :math:`d_j \ge 0` sits at ε (moving its mass to one
  with :math:`d_j<0` lowers both terms) and the rest maximise :math:`\sum |d_j|\log y_j` — a
  concave problem solved in closed form by water-filling, :math:`y_j = \max(\epsilon, |d_j|/\lambda)`;
* if all :math:`d_j \ge 0`: G is concave and non-decreasing, so its minimum is at a vertex: with
  equality, one SPODE (the smallest d_j) at :math:`1-k\epsilon`; with inequality, all at ε.

The minimum of the ratio itself (eq. 15), needed only for display, is found by Dinkelbach's method
with this closed-form inner problem (:func:`comp_min_ratio`).

**Negative weights.** π_j(y) is eq. 6 at prior y and is negative when
:math:`LL_j + \log y < LL_0 + \log\epsilon`.  A kept SPODE (upper end of eq. 10 > 0) whose lower
end is negative therefore enters G with a negative weight at some priors, and its preference then
counts against the class it prefers.  This is eq. 12 as printed (its denominator is assumed
positive); we keep it, see :class:`~credal_core.aode.CredalCompAODE`.

**Tie band.** The minimum is computed exactly in closed form, but compared with 0 in floating
point: a dominance is reported only if the minimum exceeds ``REL_TIE`` (1e-12) times the scale of
the terms (:math:`\sum_j (P_j(a)+P_j(b))\,|\ldots|`).  A dominance holding by less than that is
reported as non-dominance, so the returned set may keep a class that a infinitely precise
computation would drop — never the reverse.
"""
from __future__ import annotations

import numpy as np

__all__ = ["bma_dominance", "bma_min_ratio", "comp_inner_min", "comp_dominance", "comp_min_ratio"]

# Relative tie band: a dominance must beat rounding, never be created by it.  A dominance holding by
# less than REL_TIE times the scale of the compared terms is reported as non-dominance (the set may
# then contain one more class; it never misses a non-dominated one).
REL_TIE = 1e-12


def _pairs(post: np.ndarray):
    """Per instance and ordered class pair, P_j(a) and P_j(b): arrays (n, C, C, k)."""
    p = np.swapaxes(post, 1, 2)                 # (n, C, k)
    return p[:, :, None, :], p[:, None, :, :]


def bma_dominance(post: np.ndarray, weights: np.ndarray, epsilon: float, usable=None) -> np.ndarray:
    """BMA-AODE* dominance (n, C, C) from SPODE posteriors ``post`` (n, k̃, C) and weights (k̃,).

    ``usable`` (n, k̃) bool, optional: the SPODEs each instance can evaluate (parent present); the
    others leave that instance's credal set (k̃ becomes their number; none: no dominance).
    Work arrays are SPODE-major (k̃, n, C, C): every sum and minimum over SPODEs adds whole slabs.
    """
    q = np.transpose(post, (1, 0, 2)) * weights[:, None, None]                # (k, n, C)
    if usable is None:
        k = post.shape[1]
        d = q[:, :, :, None] - q[:, :, None, :]                                 # (k, n, C, C)
        value = epsilon * d.sum(axis=0) + (1.0 - k * epsilon) * d.min(axis=0)
        scale = (q[:, :, :, None] + q[:, :, None, :]).sum(axis=0)
        return value > REL_TIE * scale
    ok = usable.T[:, :, None]                                                   # (k, n, 1)
    k = usable.sum(axis=1)[:, None, None]
    q = np.where(ok, q, 0.0)
    d = q[:, :, :, None] - q[:, :, None, :]
    low = np.where(ok[..., None], d, np.inf).min(axis=0)
    value = np.where(k > 0, epsilon * d.sum(axis=0) + (1.0 - k * epsilon) * np.where(k > 0, low, 0.0), 0.0)
    scale = (q[:, :, :, None] + q[:, :, None, :]).sum(axis=0)
    return value > REL_TIE * scale


def bma_min_ratio(post: np.ndarray, weights: np.ndarray, epsilon: float) -> np.ndarray:
    """Minimum of the BMA-AODE* ratio over the credal set (eq. 4): (n, C, C), attained at a vertex."""
    k = post.shape[1]
    pa, pb = _pairs(post * weights[None, :, None])
    num = epsilon * pa.sum(axis=3, keepdims=True) + (1.0 - k * epsilon) * pa
    den = epsilon * pb.sum(axis=3, keepdims=True) + (1.0 - k * epsilon) * pb
    return (num / den).min(axis=3)


def _water_fill(c: np.ndarray, epsilon: float, total: float, axis: int = -1) -> np.ndarray:
    """Minimising y where some c_j < 0 (closed-form water-filling; see the module doc).

    The SPODEs lie along ``axis`` of ``c`` (any axis: the same operations, value for value)."""
    k = c.shape[axis]
    w = np.maximum(-c, 0.0)                                     # weights of the water-filling part
    order = -np.sort(-w, axis=axis)                             # descending
    shape = [1] * c.ndim
    shape[axis] = k
    m = np.arange(1, k + 1).reshape(shape)
    lam = np.cumsum(order, axis=axis) / (total - epsilon * (k - m))
    valid = (order > epsilon * lam) & (order > 0)
    m_star = valid.sum(axis=axis, keepdims=True)                # valid is a prefix (see module doc)
    lam_star = np.take_along_axis(lam, np.maximum(m_star - 1, 0), axis=axis)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.maximum(epsilon, np.where(m_star > 0, w / lam_star, epsilon))


def _vertex(c: np.ndarray, epsilon: float, total: float, equality: bool, axis: int = -1) -> np.ndarray:
    """Minimising y where every c_j >= 0: the smallest c at the top (equality) or all at epsilon."""
    k = c.shape[axis]
    y = np.full(c.shape, epsilon)
    if equality:
        top = np.expand_dims(np.argmin(c, axis=axis), axis)
        np.put_along_axis(y, top, total - epsilon * (k - 1), axis=axis)
    return y


def comp_inner_min(c: np.ndarray, base: np.ndarray, epsilon: float, total: float, equality: bool):
    r"""Exact :math:`\min_{y \in Y} \sum_j c_j (b_j + \log y_j)` along the last axis of ``c``.

    ``base`` = :math:`b_j = D + LL_j` (broadcast to ``c``), ``total`` = T, ``equality`` chooses
    :math:`\sum y = T` or :math:`\le T`.  Returns (value, y), y of the shape of ``c``.
    """
    has_neg = (c < 0).any(axis=-1)
    y = np.where(has_neg[..., None], _water_fill(c, epsilon, total), _vertex(c, epsilon, total, equality))
    value = np.sum(c * (base + np.log(y)), axis=-1)
    return value, y


def comp_dominance(post: np.ndarray, base: np.ndarray, epsilon: float, total: float,
                   equality: bool) -> np.ndarray:
    r"""COMP-AODE* dominance (n, C, C) from feasible SPODEs' posteriors (n, k̃, C) and b_j (k̃,).

    Only the pairs that can dominate are solved: at the feasible centre :math:`y_j = T/\tilde k`
    the objective is :math:`G_0 = s_a - s_b`, :math:`s_c = \sum_j P_j(c)(b_j + \log(T/\tilde k))`,
    and the minimum is at most :math:`G_0`, so :math:`G_0 \le 0` already means non-dominance (at
    least half the ordered pairs, since :math:`G_0(a,b) = -G_0(b,a)`; rounding in :math:`G_0` is
    far inside the tie band).  The others are split into water-filling and vertex cases, each
    solved on its own rows with the formulas of :func:`comp_inner_min`.
    """
    n, k, n_classes = post.shape
    # SPODE-major (k, n C): every operation below runs along the long axis of pairs, not along k
    by_spode = np.ascontiguousarray(np.transpose(post, (1, 0, 2))).reshape(k, n * n_classes)
    score = np.einsum("km,k->m", by_spode, base + np.log(total / k)).reshape(n, n_classes)   # s_c
    todo = score[:, :, None] > score[:, None, :]
    out = np.zeros((n, n_classes, n_classes), dtype=bool)
    if not todo.any():
        return out
    i, a, b = np.nonzero(todo)
    i *= n_classes
    pa = by_spode.take(i + a, axis=1, mode="clip")                     # column i C + a: (k, m)
    pb = by_spode.take(i + b, axis=1, mode="clip")                     # (valid indices: no check)
    c = pa - pb
    has_neg = (c < 0).any(axis=0)
    if has_neg.all():
        y = _water_fill(c, epsilon, total, axis=0)
    elif not has_neg.any():
        y = _vertex(c, epsilon, total, equality, axis=0)
    else:
        y = np.empty_like(c)
        y[:, has_neg] = _water_fill(c[:, has_neg], epsilon, total, axis=0)
        y[:, ~has_neg] = _vertex(c[:, ~has_neg], epsilon, total, equality, axis=0)
    logs = np.log(y)
    logs += base[:, None]
    pa += pb                                                           # the scale's weights
    c *= logs
    np.abs(logs, out=logs)
    logs *= pa
    out[todo] = c.sum(axis=0) > REL_TIE * logs.sum(axis=0)             # np.nonzero's order
    return out


def comp_min_ratio(alpha: np.ndarray, beta: np.ndarray, base: np.ndarray, epsilon: float, total: float,
                   equality: bool, *, max_iter: int = 100):
    r"""Minimum of eq. 15, :math:`\min_Y \sum\alpha_j\pi_j / \sum\beta_j\pi_j`, by Dinkelbach's method.

    Requires :math:`\sum_j \beta_j \pi_j(y_j) > 0` on Y (true when every lower compression
    coefficient is positive).  Arrays ``alpha``, ``beta`` (..., k̃).  Returns (ratio, y).
    """
    k = alpha.shape[-1]
    y = np.full(alpha.shape, total / k)
    pi = base + np.log(y)
    lam = np.sum(alpha * pi, axis=-1) / np.sum(beta * pi, axis=-1)
    for _ in range(max_iter):
        value, y = comp_inner_min(alpha - lam[..., None] * beta, base, epsilon, total, equality)
        pi = base + np.log(y)
        new = np.sum(alpha * pi, axis=-1) / np.sum(beta * pi, axis=-1)
        done = np.all(np.abs(new - lam) <= 1e-15 * np.maximum(1.0, np.abs(lam)))
        lam = np.minimum(lam, new)
        if done:
            break
    return lam, y
