"""Vectorised root finding with guaranteed bracketing (safeguarded Newton).

Used wherever a closed form leaves a one-dimensional monotone equation: the minimiser of Zaffalon's
convex dominance objective (NCC), the critical perturbation threshold (004), and the profile
likelihood of the LNCC.  Each item keeps a bracket ``[lo, hi]`` that always contains its root; a
Newton step is taken when it stays strictly inside the bracket, otherwise the bracket is bisected,
so convergence to machine precision is guaranteed.
"""
from __future__ import annotations

import numpy as np

__all__ = ["increasing_root"]

_EPS = np.finfo(float).eps


def increasing_root(fun, lo: np.ndarray, hi: np.ndarray, *, x0: np.ndarray | None = None,
                    maxiter: int = 300) -> np.ndarray:
    """Root of increasing functions, one per item, each bracketed by ``fun(lo) <= 0 <= fun(hi)``.

    Parameters
    ----------
    fun : callable
        ``fun(x, idx) -> (value, derivative[, scale])`` for the items ``idx`` evaluated at ``x``
        (1-D arrays of the same length).  Only still-unconverged items are evaluated.  The
        optional ``scale`` is the size of the terms summed into ``value``: once ``|value|`` is
        within rounding error of it the root is as exact as the function allows.
    lo, hi : ndarray of shape (n,)
        Finite brackets.
    x0 : ndarray of shape (n,), optional
        Starting points strictly inside the brackets (default: their midpoints).

    Returns
    -------
    ndarray of shape (n,)
        Points within a few ulps of the root (or a point where ``fun`` is exactly 0).
    """
    lo = np.array(lo, dtype=float)
    hi = np.array(hi, dtype=float)
    x = 0.5 * (lo + hi)
    if x0 is not None:
        inside = (x0 > lo) & (x0 < hi)
        x = np.where(inside, x0, x)
    active = np.arange(x.size)
    step_before = np.abs(hi - lo)          # |step| two iterations back (rtsafe's dxold)
    step_last = np.abs(hi - lo)
    for _ in range(maxiter):
        if active.size == 0:
            break
        xa = x[active]
        out = fun(xa, active)
        g, dg = out[0], out[1]
        noise = 8 * _EPS * out[2] if len(out) > 2 else 0.0
        neg, pos = g < 0, g > 0
        lo[active[neg]] = xa[neg]
        hi[active[pos]] = xa[pos]
        la, ha = lo[active], hi[active]
        with np.errstate(divide="ignore", invalid="ignore"):
            xn = xa - g / dg
        # Bisect when Newton leaves the bracket or fails to halve the step of two iterations
        # ago (it then ping-pongs on sigmoid-shaped functions): Numerical Recipes' rtsafe rule.
        bisect = (~np.isfinite(xn) | (xn <= la) | (xn >= ha)
                  | (np.abs(xn - xa) > 0.5 * step_before[active]))
        xn = np.where(bisect, 0.5 * (la + ha), xn)
        tol = 4 * _EPS * np.maximum(np.abs(la), np.abs(ha)) + 1e-300
        done = (np.abs(g) <= noise) | ~(neg | pos) | (ha - la <= tol) | (np.abs(xn - xa) <= tol)
        x[active] = np.where(np.abs(g) <= noise, xa, xn)
        step_before[active] = step_last[active]
        step_last[active] = np.abs(xn - xa)
        active = active[~done]
    return x
