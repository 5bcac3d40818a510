r"""Profile likelihood in a Bayesian network learned from complete categorical data (paper 003 §3).

For a DAG with conditional tables :math:`\theta_{X_i|\pi_i}`, counts :math:`d_{X_i|\pi_i}` and a
product-form function :math:`g(\theta) = \prod_{i, \pi_i, x_i} \theta_{X_i|\pi_i}(x_i)^{q_{X_i|\pi_i}(x_i)}`,
003 Theorem 1 gives the profile likelihood
:math:`\mathrm{lik}_g(\gamma) = \max\{\mathrm{lik}(\theta) : g(\theta) = \gamma\}` as a parametric curve:
with :math:`\theta[\alpha]_{X_i|\pi_i} = \langle d + \alpha q\rangle` (each table proportional to its
counts plus α times its exponents) for α in
:math:`]\underline\alpha, \bar\alpha[` (the α keeping every :math:`d + \alpha q \ge 0`),

.. math:: \{(g(\theta[\alpha]),\ \mathrm{lik}(\theta[\alpha]))\},

because :math:`\theta[\alpha]` maximises :math:`g^\alpha\,\mathrm{lik}`.  Below :math:`g(\underline\theta)`
the profile is :math:`(\gamma/g(\underline\theta))^{-\underline\alpha}\,\mathrm{lik}(\underline\theta)` (0 if
:math:`\underline\alpha = -\infty`), and above :math:`g(\bar\theta)` the same with :math:`\bar\alpha`.

**The closed form we evaluate.**  For a joint probability and for a ratio of two values of a node
given the rest (003 §3's two examples) every table row that ``q`` touches either holds one
exponent (a node at its value: :math:`Q = \sum_x q(x) = q_e`), or is the ratio node's own row
(exponents +1 and -1, :math:`Q = 0`).  Writing each touched cell ``e`` with its count :math:`d_e`,
exponent :math:`q_e`, row total :math:`D_e` and :math:`w_e = 1` when it has its own row term,

.. math::
    \log g(\theta[\alpha]) = \sum_e q_e\big[\log(d_e + \alpha q_e) - w_e \log(D_e + \alpha q_e)\big],

.. math::
    \log \mathrm{lik}(\theta[\alpha]) = \sum_e \big[d_e \log\tfrac{d_e + \alpha q_e}{d_e}
        - w_e D_e \log\tfrac{D_e + \alpha q_e}{D_e}\big]   \quad (0 \log 0 = 0).

Each term of :math:`(\log g)' = \sum_e q_e^2[1/(d_e+\alpha q_e) - w_e/(D_e + \alpha q_e)]` is >= 0 (``g``
increases along the path) and :math:`(\log\mathrm{lik})' = -\alpha(\log g)'` (envelope theorem), so
the profile is unimodal with its maximum 1 at :math:`\alpha = 0` (the MLE :math:`\langle d\rangle`).  A
cell holding its whole row (:math:`d_e = D_e`, the papers' :math:`0/0 = 1`) contributes nothing for
any α but still bounds α.  γ → α is a bracketed root of the increasing :math:`\log g(\theta[\alpha])`.

**With the instance** (``profile_ratio(..., include_instance=True)``, paper 000 §4 on any graph): the
likelihood times :math:`P_\theta(a, \text{rest}) + P_\theta(b, \text{rest})`, whose profile is
:math:`(1+\gamma)` times Theorem 1's profile of the counts plus the instance labelled b, renormalised
(:mod:`credal_core.likelihood.instance_ratio`).

**Missing values are refused**: with a missing parent the likelihood of that row is a sum over
its values, which is not of Theorem 1's product form (paper 003 §3.1 assumes complete data).

**Parent sets.**  A node whose parent configurations outnumber the rows (``configurations >
n_rows``) is refused: most of its rows would hold no data, each a free distribution.
"""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
from scipy.special import xlogy

from .._roots import increasing_root

__all__ = ["NetworkLikelihood", "NetworkProfile", "PathItems"]

_MAX_CELLS = 10_000_000


def _all_rows(idx, n: int) -> bool:
    """``idx`` is ``arange(n)`` (then no gather is needed)."""
    idx = np.asarray(idx)
    return idx.size == n and (n == 0 or (idx[0] == 0 and bool(np.all(np.diff(idx) == 1))))


def _finite_bracket(fun, lo, hi):
    """Replace infinite ends by points where the increasing ``fun`` has the right sign."""
    for end, sign in ((lo, -1.0), (hi, 1.0)):
        bad = np.flatnonzero(~np.isfinite(end))
        other = hi if sign < 0 else lo
        step = np.ones(bad.size)
        while bad.size:
            base = np.where(np.isfinite(other[bad]), other[bad], 0.0)
            x = base + sign * step
            val = fun(x, bad)
            ok = (val * sign >= 0) | (step > 1e300)
            end[bad[ok]] = x[ok]
            bad, step = bad[~ok], step[~ok] * 4.0
    return lo, hi


class PathItems:
    r"""Many Theorem 1 paths at once: cells ``d, q, D, w`` of shape (K, E) (see the module docstring).

    ``q`` are the exponents used for α's bounds; cells holding their whole row are evaluated with
    exponent 0 (their terms vanish identically).  Padding cells have ``q = 0``.
    """

    def __init__(self, d, q, D, w):
        self.d, self.q, self.D, self.w = (np.atleast_2d(np.asarray(v, float)) for v in (d, q, D, w))
        whole = (self.w > 0) & (self.d == self.D)
        self.qe = np.where(whole, 0.0, self.q)
        with np.errstate(divide="ignore", invalid="ignore"):
            lo = np.where(self.q > 0, -self.d / np.where(self.q > 0, self.q, 1.0), -np.inf)
            hi = np.where(self.q < 0, self.d / np.where(self.q < 0, -self.q, 1.0), np.inf)
        self.alpha_lo = lo.max(axis=1) + 0.0
        self.alpha_hi = hi.min(axis=1) + 0.0
        self.flat = (self.alpha_lo == 0) & (self.alpha_hi == 0)
        # g is constant along the path when every touched cell holds its whole row
        self.constant = ~np.any(self.qe != 0, axis=1)

    def __len__(self):
        return self.d.shape[0]

    def _ab_coefficients(self):
        """Cached coefficients of :meth:`log_lik_pair` (all >= 0 on a path: d, d + q, D, D + q)."""
        if not hasattr(self, "_coef"):
            moving = self.qe != 0
            own = moving & (self.w > 0)
            cx = np.where(moving, self.d, 0.0)
            cxa = np.where(moving, self.d + self.qe, 0.0)
            cX = np.where(own, self.D, 0.0)
            cXa = np.where(own, self.D + self.qe, 0.0)
            D1 = np.where(own, self.D, 1.0)     # row totals only where a cell has its own row term
            with np.errstate(divide="ignore"):        # coefficient 0 wherever the count is 0
                lx, lX = np.maximum(np.log(self.d), -1e300), np.maximum(np.log(D1), -1e300)
            const = np.einsum("ij,ij->i", cx, lx) - np.einsum("ij,ij->i", cX, lX)
            # log lik_pair at α = 0 from the same logs: B(0) = 0 (the maximum), A(0) = B(0) + log g(0)
            self._at_zero = (np.einsum("ij,ij->i", cxa, lx) - np.einsum("ij,ij->i", cXa, lX) - const,
                             np.zeros(len(self)))
            self._coef = (cx, cxa, cX, cXa, const, D1, np.where(own, self.qe, 0.0))
            # the arrays log_lik_pair reads, stacked so that a subset of items is one gather
            self._stack = np.stack([cx, cxa, cX, cXa, self.d, self.qe, self._coef[5], self._coef[6]], axis=1)
        return self._coef

    def log_lik_pair(self, alpha, idx=None):
        """(:meth:`log_lik` with ``shift=1``, with ``shift=0``) in one pass: two logs per cell.

        A zero cell's log is clipped at -1e300 so that a zero coefficient gives 0 (``0 log 0 = 0``)
        and a positive one a value that ``exp`` maps to 0."""
        const = self._ab_coefficients()[4]
        if idx is None and np.ndim(alpha) == 1 and not np.any(alpha):
            return self._at_zero[0].copy(), self._at_zero[1].copy()
        stack = self._stack
        if idx is not None:
            stack, const = stack[idx], const[idx]
        cx, cxa, cX, cXa, d, q, D, qX = (stack[:, k] for k in range(8))
        a = np.asarray(alpha, float)[:, None]
        with np.errstate(divide="ignore"):
            lx = np.maximum(np.log(d + a * q), -1e300)
            lX = np.maximum(np.log(D + a * qX), -1e300)
        B = np.einsum("ij,ij->i", cx, lx) - np.einsum("ij,ij->i", cX, lX) - const
        A = np.einsum("ij,ij->i", cxa, lx) - np.einsum("ij,ij->i", cXa, lX) - const
        return A, B

    def take(self, rows) -> "PathItems":
        """The items ``rows`` (a new PathItems sharing nothing mutable)."""
        out = object.__new__(PathItems)
        for key, val in vars(self).items():
            out.__dict__[key] = tuple(v[rows] for v in val) if isinstance(val, tuple) else val[rows]
        return out

    def _at(self, alpha, idx, base=None):
        """Cells of items ``idx`` at α = ``base + alpha``: ``x = d + αq`` and ``X = D + αq`` computed as
        ``(d + base q) + alpha q``, exact in the first sum for integer counts, so that α within a few
        ulps of a bound (γ near 0 or ∞) keeps its relative accuracy when ``base`` is that bound."""
        a = np.asarray(alpha, float)[:, None]
        d, q, D, w = self.d[idx], self.qe[idx], self.D[idx], self.w[idx]
        if base is None:
            return a, d, q, D, w, d + a * q, D + a * q
        b = np.asarray(base, float)[:, None]
        return a + b, d, q, D, w, (d + b * q) + a * q, (D + b * q) + a * q

    def log_g(self, alpha, idx, derivative=False, base=None):
        """:math:`\\log g(\\theta[\\alpha])` of items ``idx`` (and its derivative and scale) at α inside
        the path (α = ``base + alpha`` when ``base`` is given)."""
        _, _, _, _, _, D1, qX = self._ab_coefficients()
        d, q = self.d, self.qe
        if not _all_rows(idx, len(self)):
            d, q, D1, qX = d[idx], q[idx], D1[idx], qX[idx]
        a = np.asarray(alpha, float)[:, None]
        if base is None:
            x, X = d + a * q, D1 + a * qX
        else:
            b = np.asarray(base, float)[:, None]
            x, X = (d + b * q) + a * q, (D1 + b * qX) + a * qX
        with np.errstate(divide="ignore", invalid="ignore"):
            lx = np.maximum(np.log(x), -1e300)
            lX = np.maximum(np.log(X), -1e300)
            t1, t2 = q * lx, qX * lX
            val = t1.sum(axis=1) - t2.sum(axis=1)
            if not derivative:
                return val
            q2, qX2 = q * q, qX * qX
            dv = (np.divide(q2, x, out=np.zeros_like(x), where=q2 > 0).sum(axis=1)
                  - np.divide(qX2, X, out=np.zeros_like(X), where=qX2 > 0).sum(axis=1))
        return val, dv, np.abs(t1).sum(axis=1) + np.abs(t2).sum(axis=1)

    def log_lik(self, alpha, idx, shift=0.0, base=None):
        """Normalised :math:`\\log \\mathrm{lik}(\\theta[\\alpha])` plus ``shift`` times
        :math:`\\log g(\\theta[\\alpha])`, summed cell by cell so that :math:`0 \\log 0 = 0` holds for
        the combined exponents :math:`d + \\text{shift}\\cdot q` (no ∞ - ∞ at the path's ends)."""
        a, d, q, D, w, x, X = self._at(alpha, idx, base)
        with np.errstate(divide="ignore", invalid="ignore"):
            t = (xlogy(d + shift * q, x) - xlogy(d, d)
                 - np.where(w > 0, xlogy(D + shift * q, X) - xlogy(D, D), 0.0))
            t = np.where(q != 0, t, 0.0)
        return t.sum(axis=1)

    def ends(self, side: str):
        r"""(log g, log lik) at :math:`\underline\theta` (``side="lo"``) or :math:`\bar\theta` (``"hi"``),
        per 003 Theorem 1's cases; ValueError when g is undefined there (0 and ∞ in one product).

        Finite bound: the touched rows at :math:`\langle d + \alpha q\rangle` (a cell holding its whole
        row is at :math:`\langle q \rangle`, factor 1).  Infinite bound: every touched row is at
        :math:`\langle \pm q\rangle`, a point mass on its cell, so g = 1 and lik = 0 unless each such
        cell holds its whole row (then 1).
        """
        alpha = self.alpha_lo if side == "lo" else self.alpha_hi
        finite = np.isfinite(alpha)
        a = np.where(finite, alpha, 0.0)[:, None]
        d, q, D, w = self.d, self.qe, self.D, self.w
        with np.errstate(divide="ignore", invalid="ignore"):
            x = np.maximum(d + a * q, 0.0)
            X = np.maximum(D + a * q, 0.0)
            logt = np.where(w > 0, np.log(x) - np.log(X), np.log(x))
            gt = np.where(q != 0, q * logt, 0.0)            # q log θ = ±inf where θ = 0
            lt = xlogy(d, x) - xlogy(d, d) - np.where(w > 0, xlogy(D, X) - xlogy(D, D), 0.0)
            lt = np.where(q != 0, lt, 0.0)
        undefined = np.isposinf(gt).any(axis=1) & np.isneginf(gt).any(axis=1)
        if np.any(finite & undefined & ~self.flat):
            raise ValueError("g is undefined at the end of the parametric path (both 0 and +inf appear in "
                             "its product, 003 Theorem 1): choose a function with a defined value")
        inf_l = np.where((q != 0).any(axis=1), -np.inf, 0.0)
        with np.errstate(invalid="ignore"):        # flat items: 0 and ∞ together, never used
            log_g = np.where(finite, gt.sum(axis=1), 0.0)
        log_l = np.where(finite, lt.sum(axis=1), inf_l)
        return log_g, np.minimum(log_l, 0.0)

    def alpha_of_log_g(self, target, idx, base=None, x0=None):
        """α with :math:`\\log g(\\theta[\\alpha])` = ``target`` (strictly inside the path's g range),
        returned as the offset from ``base`` (default 0; a finite bound of α for accuracy near it);
        ``x0``: starting offsets (default: the brackets' midpoints)."""
        target = np.asarray(target, float)
        base = np.zeros(target.size) if base is None else np.asarray(base, float)
        lo = self.alpha_lo[idx] - base
        hi = self.alpha_hi[idx] - base
        lo, hi = _finite_bracket(
            lambda al, ii: self.log_g(al, idx[ii], base=base[ii]) - target[ii], lo, hi)

        def fun(x, ii):
            v, dv, scale = self.log_g(x, idx[ii], derivative=True, base=base[ii])
            return v - target[ii], dv, scale + np.abs(target[ii])

        return increasing_root(fun, lo, hi, x0=x0)

class NetworkProfile:
    r"""The profile likelihood :math:`\mathrm{lik}_g` of one product-form function (003 Theorem 1).

    Call it on an array of γ for the normalised :math:`\mathrm{lik}_g(\gamma)`.

    Attributes
    ----------
    alpha_range : tuple of float
        :math:`(\underline\alpha, \bar\alpha)`, possibly infinite.
    flat : bool
        :math:`\underline\alpha = \bar\alpha = 0`: :math:`\mathrm{lik}_g \equiv 1` on :math:`[0, +\infty]`.
    g_range : tuple of float
        :math:`(g(\underline\theta), g(\bar\theta))`; the parametric path covers the open interval.
    lik_ends : tuple of float
        :math:`(\mathrm{lik}(\underline\theta), \mathrm{lik}(\bar\theta))`.
    cells : DataFrame
        The cells the function touches: node, parent configuration, value, count d, row total,
        exponent q (the counts and exponents behind the curve).
    """

    def __init__(self, items: PathItems, cells: pd.DataFrame | None = None, what: str = "g"):
        self._items = items
        self._idx = np.zeros(1, dtype=int)
        self.what = what
        self.cells = cells
        self.alpha_range = (float(items.alpha_lo[0]), float(items.alpha_hi[0]))
        self.flat = bool(items.flat[0])
        if self.flat:
            self.g_range, self.lik_ends = (0.0, np.inf), (1.0, 1.0)
            self._log_ends = (-np.inf, np.inf, 0.0, 0.0)
            return
        lg_lo, ll_lo = (float(v[0]) for v in items.ends("lo"))
        lg_hi, ll_hi = (float(v[0]) for v in items.ends("hi"))
        if items.constant[0]:           # no cell moves g: the path is one point
            lg_hi = lg_lo = min(lg_lo, lg_hi)
        self._log_ends = (lg_lo, lg_hi, ll_lo, ll_hi)
        self.g_range = (float(np.exp(lg_lo)), float(np.exp(lg_hi)))
        self.lik_ends = (float(np.exp(ll_lo)), float(np.exp(ll_hi)))

    # --- the curve ------------------------------------------------------------------------------
    def log(self, gamma) -> np.ndarray:
        """:math:`\\log \\mathrm{lik}_g(\\gamma)` (normalised: maximum 0)."""
        gamma = np.asarray(gamma, float)
        if np.any(np.isnan(gamma)) or np.any(gamma < 0):
            raise ValueError("gamma must be >= 0 (and not NaN)")
        shape = gamma.shape
        gamma = gamma.ravel()
        out = np.zeros(gamma.size)
        if self.flat:
            return out.reshape(shape)
        a_lo, a_hi = self.alpha_range
        lg_lo, lg_hi, ll_lo, ll_hi = self._log_ends
        with np.errstate(divide="ignore", invalid="ignore"):
            lg = np.log(gamma)
            below, above = lg < lg_lo, lg > lg_hi
            inside = ~below & ~above
            if np.isfinite(a_lo):
                out[below] = np.where(a_lo == 0, 0.0, -a_lo * (lg[below] - lg_lo)) + ll_lo
            else:
                out[below] = -np.inf
            if np.isfinite(a_hi):
                out[above] = np.where(a_hi == 0, 0.0, -a_hi * (lg[above] - lg_hi)) + ll_hi
            else:
                out[above] = -np.inf
        out[inside & (lg == lg_lo)] = ll_lo
        out[inside & (lg == lg_hi)] = ll_hi
        mid = np.flatnonzero(inside & (lg > lg_lo) & (lg < lg_hi))
        if mid.size:
            zeros = np.zeros(mid.size, dtype=int)
            lg0 = self._items.log_g(np.zeros(1), self._idx)[0]
            # offsets from the nearer finite bound of α keep the tails accurate
            base = np.where((lg[mid] < lg0) & np.isfinite(a_lo), a_lo, 0.0)
            base = np.where((lg[mid] > lg0) & np.isfinite(a_hi), a_hi, base)
            off = self._items.alpha_of_log_g(lg[mid], zeros, base)
            out[mid] = self._items.log_lik(off, zeros, base=base)
        return np.minimum(out, 0.0).reshape(shape)

    def __call__(self, gamma) -> np.ndarray:
        return np.exp(self.log(gamma))

    def path(self, num: int = 200) -> pd.DataFrame:
        """Theorem 1's parametric path: columns alpha, gamma = g(θ[α]), likelihood = lik(θ[α]).

        ``num`` values of α over :math:`]\\underline\\alpha, \\bar\\alpha[` (a finite stretch around 0
        on an infinite side), always including α = 0 when it lies inside.
        """
        if self.flat:
            return pd.DataFrame({"alpha": [0.0], "gamma": [np.nan], "likelihood": [1.0]})
        lo, hi = self.alpha_range
        span = max(abs(lo) if np.isfinite(lo) else 0, abs(hi) if np.isfinite(hi) else 0, 1.0)
        lo_f = lo if np.isfinite(lo) else -50 * span
        hi_f = hi if np.isfinite(hi) else 50 * span
        t = (1 - np.cos(np.linspace(0, np.pi, int(num) + 2)[1:-1])) / 2     # denser near the ends
        alpha = np.unique(np.concatenate([lo_f + (hi_f - lo_f) * t, [0.0] if lo < 0 < hi else []]))
        idx = np.zeros(alpha.size, dtype=int)
        return pd.DataFrame({"alpha": alpha, "gamma": np.exp(self._items.log_g(alpha, idx)),
                             "likelihood": np.exp(np.minimum(self._items.log_lik(alpha, idx), 0.0))})

    # --- summaries ------------------------------------------------------------------------------
    @property
    def mle_range(self) -> tuple[float, float]:
        """The γ with :math:`\\mathrm{lik}_g(\\gamma) = 1` (an interval when :math:`\\underline\\alpha = 0`
        or :math:`\\bar\\alpha = 0`: some table row without data leaves γ free there)."""
        if self.flat:
            return 0.0, np.inf
        lo, hi = self.alpha_range
        if lo == 0:
            return 0.0, self.g_range[0]
        if hi == 0:
            return self.g_range[1], np.inf
        return (self.mle,) * 2

    @property
    def mle(self) -> float:
        """:math:`g(\\hat\\theta)` at the maximum-likelihood :math:`\\hat\\theta = \\langle d \\rangle`
        (003 §3.1; NaN when the profile is flat).  See :attr:`mle_range` when it is not unique."""
        if self.flat:
            return float("nan")
        lo, hi = self.alpha_range
        if lo == 0:
            return self.g_range[0]
        if hi == 0:
            return self.g_range[1]
        if self._items.constant[0]:
            return self.g_range[0]
        return float(np.exp(self._items.log_g(np.zeros(1), self._idx)[0]))

    def region(self, beta: float) -> tuple[float, float]:
        r"""The likelihood-based confidence region :math:`\{\gamma : \mathrm{lik}_g(\gamma) > \beta\}`.

        An interval (the profile is unimodal); returned as its two end points (an end at 0 or
        :math:`+\infty` is included when the profile exceeds β there).
        """
        if not (isinstance(beta, (int, float, np.integer, np.floating)) and 0 <= beta < 1):
            raise ValueError(f"beta must be a number in [0, 1); got {beta!r}")
        if self.flat:
            return 0.0, np.inf
        log_b = np.log(beta) if beta > 0 else -np.inf
        return self._end(log_b, "lo"), self._end(log_b, "hi")

    def _end(self, log_b, side):
        a_lo, a_hi = self.alpha_range
        lg_lo, lg_hi, ll_lo, ll_hi = self._log_ends
        alpha_end, lg_end, ll_end = (a_lo, lg_lo, ll_lo) if side == "lo" else (a_hi, lg_hi, ll_hi)
        far = 0.0 if side == "lo" else np.inf
        if alpha_end == 0:                      # flat at its maximum out to 0 or +inf
            return far
        if ll_end > log_b or (ll_end == log_b and not np.isfinite(alpha_end)):
            # beyond the path: (γ/g_end)^(-α_end) lik_end, or 0 when α_end is infinite
            if not np.isfinite(alpha_end):
                return float(np.exp(lg_end))
            if not np.isfinite(log_b):
                return far
            return float(np.exp(lg_end + (log_b - ll_end) / -alpha_end))
        if self._items.constant[0] or ll_end == log_b:
            return float(np.exp(lg_end))
        # on the path: log lik(θ[α]) = log β, increasing on (α_lo, 0) and decreasing on (0, α_hi)
        sign = 1.0 if side == "lo" else -1.0
        idx = self._idx

        def fun(x, ii):
            _, dlg, _ = self._items.log_g(x, idx[ii], derivative=True)
            return sign * (self._items.log_lik(x, idx[ii]) - log_b), sign * (-x * dlg), abs(log_b) + 1.0

        lo, hi = (np.array([a_lo]), np.zeros(1)) if side == "lo" else (np.zeros(1), np.array([a_hi]))
        lo, hi = _finite_bracket(lambda x, ii: fun(x, ii)[0], lo, hi)
        root = increasing_root(fun, lo, hi)
        return float(np.exp(self._items.log_g(root, idx)[0]))


class NetworkLikelihood:
    r"""Profile likelihoods of a Bayesian network's probabilities learned from complete data (003 §3).

    Parameters
    ----------
    parents : mapping
        ``{node: (parent, ...)}`` for every node (the DAG); a node without parents maps to ``()``.

    Attributes
    ----------
    nodes_ : list
        Nodes in a topological order.
    states_ : dict
        The values seen of each node (sorted).
    counts_ : dict
        ``counts_[node]`` of shape (configurations, states): :math:`d_{X_i|\pi_i}(x_i)`, parent
        configurations in C order over ``parents[node]``'s ``states_``.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"A": list("xxxy"), "B": list("uvuu")})
    >>> net = NetworkLikelihood(parents={"A": (), "B": ("A",)}).fit(frame)
    >>> p = net.profile_joint({"A": "x", "B": "u"})
    >>> round(p.mle, 6)          # (3/4) * (2/3)
    0.5
    """

    def __init__(self, parents: Mapping):
        self.parents = parents

    # --- structure --------------------------------------------------------------------------------
    def _graph(self):
        if not isinstance(self.parents, Mapping) or not self.parents:
            raise ValueError("parents must be a non-empty mapping {node: (parent, ...)}")
        graph = {}
        for node, pa in self.parents.items():
            pa = (pa,) if isinstance(pa, str) else tuple(pa)
            for p in pa:
                if p not in self.parents:
                    raise ValueError(f"unknown node {p!r} (a parent of {node!r}); every node needs its "
                                     "own entry in parents")
                if p == node:
                    raise ValueError(f"node {node!r} is its own parent (a cycle)")
            if len(set(pa)) != len(pa):
                raise ValueError(f"node {node!r} lists a parent twice")
            graph[node] = pa
        order, state = [], {}

        def visit(node, stack):
            if state.get(node) == 2:
                return
            if state.get(node) == 1:
                cycle = stack[stack.index(node):] + [node]
                raise ValueError("the graph has a cycle: " + " -> ".join(map(str, reversed(cycle))))
            state[node] = 1
            for p in graph[node]:
                visit(p, stack + [node])
            state[node] = 2
            order.append(node)

        for node in graph:
            visit(node, [])
        return graph, order

    def fit(self, frame: pd.DataFrame):
        """Count :math:`d_{X_i|\\pi_i}` from complete categorical data, one column per node.

        Raises ValueError on a cycle, an unknown node, a column missing from ``frame``, a missing
        value, a node seen with a single value (|Ω| >= 2 in 003) or a parent set with more
        configurations than rows.
        """
        graph, order = self._graph()
        if not isinstance(frame, pd.DataFrame):
            raise ValueError("frame must be a pandas DataFrame with one column per node")
        absent = [n for n in order if n not in frame.columns]
        if absent:
            raise ValueError(f"node(s) {absent} have no column in the data")
        data = frame[order]
        if data.isna().any().any():
            cols = [str(c) for c in data.columns[data.isna().any().to_numpy()]]
            raise ValueError(f"missing values in {cols}: Theorem 1 needs complete data (a missing value "
                             "makes the likelihood a sum over it, not a product); drop or impute those rows")
        n = len(data)
        if n == 0:
            raise ValueError("the data have no rows")
        states, codes = {}, {}
        for node in order:
            codes[node], uniques = pd.factorize(data[node], sort=True)
            states[node] = list(uniques)
            if len(uniques) < 2:
                raise ValueError(f"node {node!r} takes a single value ({uniques[0]!r}) in the data; "
                                 "003 needs at least two values per node")
        counts = {}
        for node in order:
            pa = graph[node]
            sizes = [len(states[p]) for p in pa]
            configs = int(np.prod(sizes)) if pa else 1
            if pa and (configs > n or configs * len(states[node]) > _MAX_CELLS):
                raise ValueError(f"parent set of {node!r} too large for the data: {pa} have "
                                 f"{' x '.join(map(str, sizes))} = {configs} configurations but there are "
                                 f"only {n} rows (at most one configuration per row is allowed)")
            cfg = np.ravel_multi_index([codes[p] for p in pa], sizes) if pa else np.zeros(n, dtype=int)
            k = len(states[node])
            flat = np.bincount(cfg * k + codes[node], minlength=configs * k)
            counts[node] = flat.reshape(configs, k).astype(float)
        self.graph_, self.nodes_, self.states_, self.counts_ = graph, order, states, counts
        self.n_rows_ = n
        return self

    # --- functions g --------------------------------------------------------------------------------
    def _check_fitted(self):
        if not hasattr(self, "counts_"):
            raise ValueError("call fit(frame) first")

    def _code(self, node, value):
        if node not in self.states_:
            raise ValueError(f"unknown node {node!r}; the nodes are {self.nodes_}")
        try:
            return self.states_[node].index(value)
        except ValueError:
            raise ValueError(f"unknown value {value!r} of node {node!r}; its values are "
                             f"{self.states_[node]}") from None

    def _assignment(self, assignment: Mapping):
        if not isinstance(assignment, Mapping):
            raise ValueError("the assignment must be a mapping {node: value}")
        extra = [k for k in assignment if k not in self.states_]
        if extra:
            raise ValueError(f"unknown node(s) {extra}; the nodes are {self.nodes_}")
        absent = [k for k in self.nodes_ if k not in assignment]
        if absent:
            raise ValueError(f"give a value of every node; missing: {absent}")
        return {k: self._code(k, assignment[k]) for k in self.nodes_}

    def _row(self, node, codes):
        pa = self.graph_[node]
        if not pa:
            return 0
        return int(np.ravel_multi_index([codes[p] for p in pa], [len(self.states_[p]) for p in pa]))

    def _exponents(self, *weighted):
        """{(node, row, value): q} of a signed sum of assignments (codes)."""
        q = {}
        for sign, codes in weighted:
            for node in self.nodes_:
                key = (node, self._row(node, codes), codes[node])
                q[key] = q.get(key, 0) + sign
        return {k: v for k, v in q.items() if v != 0}

    def _profile(self, q: dict, what: str, instance=None) -> NetworkProfile:
        """The profile of the exponents ``q``; with ``instance`` (codes of a realisation), its counts
        are added to the touched rows (the likelihood times that realisation's probability)."""
        rows = {}
        for (node, row, value), e in q.items():
            rows.setdefault((node, row), []).append((value, e))
        d, qs, D, w, cells = [], [], [], [], []
        for (node, row), entries in rows.items():
            table = self.counts_[node][row]
            total = sum(e for _, e in entries)
            if len(entries) > 1 and total != 0:
                raise ValueError("only functions whose touched rows hold one exponent or sum to zero are "
                                 "supported (a joint probability or a ratio of two values of a node)")
            in_row = instance is not None and self._row(node, instance) == row
            for value, e in entries:
                plus = 1.0 if in_row and instance[node] == value else 0.0
                d.append(table[value] + plus)
                qs.append(e)
                D.append(table.sum() + in_row)
                w.append(1.0 if len(entries) == 1 else 0.0)
                pa = self.graph_[node]
                config = np.unravel_index(row, [len(self.states_[p]) for p in pa]) if pa else ()
                cell = {"node": node,
                        "parents": ", ".join(f"{p}={self.states_[p][c]}" for p, c in zip(pa, config)),
                        "value": self.states_[node][value], "d": table[value], "row_total": table.sum(),
                        "q": e}
                if instance is not None:
                    cell["instance"] = plus
                cells.append(cell)
        items = PathItems([d], [qs], [D], [w])
        if instance is not None:
            from .instance_ratio import InstanceRatioProfile  # it imports this module

            return InstanceRatioProfile(items, pd.DataFrame(cells), what)
        return NetworkProfile(items, pd.DataFrame(cells), what)

    def profile_joint(self, assignment: Mapping) -> NetworkProfile:
        r"""Profile likelihood of :math:`g(\theta) = P_\theta(X_1 = x_1, \dots, X_k = x_k)`.

        ``assignment`` maps every node to a value seen in the data (:math:`q = ` the counts of that
        single realisation, 003 §3).
        """
        self._check_fitted()
        codes = self._assignment(assignment)
        return self._profile(self._exponents((1, codes)), "joint")

    def profile_ratio(self, node, a, b, evidence: Mapping, *,
                      include_instance: bool = False) -> NetworkProfile:
        r"""Profile likelihood of :math:`g = P_\theta(X = a, \text{rest}) / P_\theta(X = b, \text{rest})`.

        ``evidence`` gives every other node's value; :math:`q = ` the counts of the realisation with
        ``node = a`` minus those with ``node = b`` (003 §3).

        Parameters
        ----------
        node, a, b
            The node and two of its values.
        evidence : mapping
            ``{other node: value}`` for every other node (the instance).
        include_instance : bool, default=False
            False: the likelihood of the data alone, :math:`\mathrm{lik}_d` (003 Theorem 1; the
            profile is unimodal, :class:`NetworkProfile`).  True: as paper 000 §4 does for the class,
            the data times the instance's probability with ``node`` missing, restricted to a or b,

            .. math:: L(\theta) = \mathrm{lik}_d(\theta)\,\big(P_\theta(a, \text{rest})
                      + P_\theta(b, \text{rest})\big), \qquad
                      \mathrm{lik}_g(\gamma) = \frac{(1+\gamma)\,\Lambda_{d+e_b}(\gamma)}
                      {\sup_{\gamma'} (1+\gamma')\,\Lambda_{d+e_b}(\gamma')},

            with :math:`\Lambda_{d+e_b}` Theorem 1's profile for the counts plus the instance labelled
            b (:class:`~credal_core.likelihood.instance_ratio.InstanceRatioProfile`; it can be bimodal).
            The LTANC's ``include_instance`` is this likelihood on its TAN.
        """
        self._check_fitted()
        self._code(node, a)
        self._code(node, b)
        if a == b:
            raise ValueError(f"a and b must be different values of {node!r}")
        if not isinstance(evidence, Mapping):
            raise ValueError("evidence must be a mapping {node: value}")
        if node in evidence:
            raise ValueError(f"evidence gives a value of {node!r} itself; leave it out")
        if not isinstance(include_instance, (bool, np.bool_)):
            raise ValueError(f"include_instance must be True or False; got {include_instance!r}")
        ca = self._assignment({**evidence, node: a})
        cb = self._assignment({**evidence, node: b})
        q = self._exponents((1, ca), (-1, cb))
        return self._profile(q, "ratio", instance=cb if include_instance else None)
