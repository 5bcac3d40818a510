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


def increasing_root(fun, lo: np.ndarray, hi: np.ndarray, *, maxiter: int = 300) -> np.ndarray:
    """Root of increasing functions, one per item, each bracketed by ``fun(lo) <= 0 <= fun(hi)``.

    Parameters
    ----------
    fun : callable
        ``fun(x, idx) -> (value, derivative)`` for the items ``idx`` evaluated at ``x``
        (both 1-D arrays of the same length).  Only still-unconverged items are evaluated.
    lo, hi : ndarray of shape (n,)
        Finite brackets.

    Returns
    -------
    ndarray of shape (n,)
        Points within a few ulps of the root (or a point where ``fun`` is exactly 0).
    """
    lo = np.array(lo, dtype=float)
    hi = np.array(hi, dtype=float)
    x = 0.5 * (lo + hi)
    active = np.arange(x.size)
    for _ in range(maxiter):
        if active.size == 0:
            break
        xa = x[active]
        g, dg = fun(xa, active)
        neg, pos = g < 0, g > 0
        lo[active[neg]] = xa[neg]
        hi[active[pos]] = xa[pos]
        la, ha = lo[active], hi[active]
        with np.errstate(divide="ignore", invalid="ignore"):
            xn = xa - g / dg
        bisect = ~np.isfinite(xn) | (xn <= la) | (xn >= ha)
        xn = np.where(bisect, 0.5 * (la + ha), xn)
        tol = 4 * _EPS * np.maximum(np.abs(la), np.abs(ha)) + 1e-300
        done = (g == 0) | ~(neg | pos) | (ha - la <= tol) | (np.abs(xn - xa) <= tol)
        x[active] = np.where(g == 0, xa, xn)
        active = active[~done]
    return x
