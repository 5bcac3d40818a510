r"""The profile likelihood of a ratio with the instance in the likelihood (000 §4 on any network).

For :math:`g(\theta) = P_\theta(X = a, \text{rest}) / P_\theta(X = b, \text{rest})`, paper 000 (§4, eq. 9)
puts the instance to be classified in the likelihood with X missing, restricted to a or b:

.. math:: L(\theta) = \mathrm{lik}_d(\theta)\,\big(P_\theta(a, \text{rest}) + P_\theta(b, \text{rest})\big)
          = \mathrm{lik}_d(\theta)\,P_\theta(b, \text{rest})\,\big(1 + g(\theta)\big).

On :math:`\{g = \gamma\}` the factor :math:`1 + \gamma` is constant and
:math:`\mathrm{lik}_d\,P_\theta(b, \text{rest})` is Theorem 1's product form with the counts
:math:`d' = d + e_b` (one more observation, the instance labelled b), so

.. math:: \mathrm{lik}_g(\gamma) = \frac{(1 + \gamma)\,\Lambda'(\gamma)}
          {\sup_{\gamma'}(1 + \gamma')\,\Lambda'(\gamma')},

with :math:`\Lambda'` the profile of 003 Theorem 1 for the counts :math:`d'` (its path
:math:`\theta[\alpha] = \langle d' + \alpha q\rangle`, q = e_a - e_b).  Along that path
:math:`\log\big((1+g)\Lambda'\big) = \mathrm{logaddexp}(A, B)` (B: log lik of d', A = B + log g: log lik of
d + e_a), whose derivative is :math:`(\log g)'\,(g/(1+g) - \alpha)`: it increases for α <= 0, decreases
for α >= 1 (here :math:`\bar\alpha \ge 1`), and on [0, 1] may have several maxima (EM fixed points), so
the profile can be bimodal and :math:`\{\mathrm{lik}_g > \beta\}` two intervals.  The maximum is found
by branch and bound on [0, 1] (:func:`credal_core.likelihood.tan._max_on`); beyond the path's ends the
profile is :math:`(1+\gamma)(\gamma/g_{end})^{-\alpha_{end}}\Lambda'_{end}`, monotone the same way.
"""
from __future__ import annotations

import numpy as np
from scipy.special import expit

from .._roots import increasing_root
from .network import NetworkProfile, PathItems, _finite_bracket
from .tan import _max_on

__all__ = ["InstanceRatioProfile"]

_MAX_CELLS = 4096


class InstanceRatioProfile(NetworkProfile):
    r"""Profile likelihood of a ratio of two values of a node with the instance in the likelihood.

    See the module docstring for the formula.  Same interface as :class:`NetworkProfile`
    (``alpha_range``, ``g_range`` and ``lik_ends`` describe the path of the counts :math:`d' = d + e_b`;
    ``lik_ends`` are the values of this profile there); :meth:`region` returns the hull of
    :math:`\{\gamma : \mathrm{lik}_g(\gamma) > \beta\}` and :meth:`region_parts` its intervals (two
    when the profile is bimodal).
    """

    include_instance = True

    def __init__(self, items: PathItems, cells=None, what: str = "ratio"):
        super().__init__(items, cells, what)
        where = np.zeros(1)
        lo = np.array([max(self.alpha_range[0], 0.0)])
        hi = np.array([min(self.alpha_range[1], 1.0)])
        self._norm = float(_max_on(items, lo, hi, where=where)[0])
        self._alpha_mle = float(where[0])
        self.lik_ends = tuple(float(v) for v in self(np.array(self.g_range)))

    # --- values on the path -----------------------------------------------------------------------
    def _F(self, alpha):
        """log((1 + g) Λ') at α (normalised as Λ': 0 at α = 0 without the factor)."""
        alpha = np.atleast_1d(np.asarray(alpha, float))
        idx = np.zeros(alpha.size, dtype=int)
        with np.errstate(invalid="ignore"):
            return np.logaddexp(self._items.log_lik(alpha, idx, shift=1.0), self._items.log_lik(alpha, idx))

    def _g(self, alpha):
        alpha = np.atleast_1d(np.asarray(alpha, float))
        return np.exp(self._items.log_g(alpha, np.zeros(alpha.size, dtype=int)))

    def log(self, gamma) -> np.ndarray:
        """:math:`\\log \\mathrm{lik}_g(\\gamma)` (normalised: maximum 0)."""
        gamma = np.asarray(gamma, float)
        base = super().log(gamma)             # Λ' (checks γ)
        with np.errstate(invalid="ignore"):
            out = np.log1p(gamma) + base
        inf = np.isposinf(gamma)
        if np.any(inf):
            out = np.where(inf, self._log_at_infinity(), out)
        return np.minimum(out - self._norm, 0.0)

    def _log_at_infinity(self) -> float:
        """log((1 + γ)Λ'(γ)) as γ -> +inf: A at :math:`\\bar\\alpha` when g reaches +inf there, else
        :math:`(1+\\gamma)\\gamma^{-\\bar\\alpha}` times the end's value (0 unless
        :math:`\\bar\\alpha = 1`)."""
        a_hi, lg_hi, ll_hi = self.alpha_range[1], self._log_ends[1], self._log_ends[3]
        if np.isposinf(lg_hi):
            return float(self._items.log_lik(np.array([a_hi]), np.zeros(1, dtype=int), shift=1.0)[0])
        return lg_hi + ll_hi if a_hi == 1 else -np.inf

    def path(self, num: int = 200):
        """Theorem 1's path of the counts d' with this profile's likelihood: columns alpha, gamma,
        likelihood = :math:`(1 + g)\\Lambda'` at :math:`\\theta[\\alpha]`, normalised."""
        out = super().path(num)
        out["likelihood"] = np.exp(np.minimum(self._F(out["alpha"].to_numpy()) - self._norm, 0.0))
        return out

    # --- summaries ----------------------------------------------------------------------------------
    @property
    def mle(self) -> float:
        """γ at the maximum of L (:math:`g(\\theta[\\alpha^*])`, α* in [0, 1])."""
        a = self._alpha_mle
        if a == self.alpha_range[1]:
            return float(np.exp(self._log_ends[1]))
        if a == self.alpha_range[0]:
            return float(np.exp(self._log_ends[0]))
        return float(self._g(a)[0])

    @property
    def mle_range(self) -> tuple[float, float]:
        return (self.mle,) * 2

    def region(self, beta: float) -> tuple[float, float]:
        r"""The hull of :math:`\{\gamma : \mathrm{lik}_g(\gamma) > \beta\}` (the set itself when the
        profile is unimodal; see :meth:`region_parts`)."""
        parts = self.region_parts(beta)
        return parts[0][0], parts[-1][1]

    def region_parts(self, beta: float) -> list[tuple[float, float]]:
        r""":math:`\{\gamma : \mathrm{lik}_g(\gamma) > \beta\}` as a list of intervals (their end points).

        Increasing for α <= 0 and decreasing for α >= 1, the profile crosses β at most once on each
        side of [0, 1]; on [0, 1] the crossings are isolated by branch and bound on cells
        :math:`[x_1, x_2]`, where :math:`\mathrm{logaddexp}(A(x_1), B(x_2)) \le \log L \le
        \mathrm{logaddexp}(A(x_2), B(x_1))`, down to cells of width 1e-13.
        """
        if not (isinstance(beta, (int, float, np.integer, np.floating)) and 0 <= beta < 1):
            raise ValueError(f"beta must be a number in [0, 1); got {beta!r}")
        if beta == 0:       # positive inside the path; beyond an end positive iff the end's value is
            lg_lo, lg_hi, ll_lo, ll_hi = self._log_ends
            lo = 0.0 if (np.isneginf(lg_lo) or ll_lo > -np.inf) else float(np.exp(lg_lo))
            hi = np.inf if (np.isposinf(lg_hi) or ll_hi > -np.inf) else float(np.exp(lg_hi))
            return [(lo, hi)]
        level = self._norm + np.log(beta)
        runs = self._middle_runs(0.0, 1.0, level)        # α_lo <= 0 and α_hi >= 1 with the instance
        parts = []
        for s, e in runs:
            lo = self._left_end(level) if s == 0.0 else float(self._g(s)[0])
            hi = self._right_end(level) if e == 1.0 else float(self._g(e)[0])
            parts.append((lo, hi))
        return parts

    def _middle_runs(self, x0, x1, level):
        """Maximal runs of [x0, x1] where log L > level (ends within 1e-13)."""
        cells = [(x0, x1)]
        status = []
        count = 0
        while cells:
            a, b = cells.pop()
            A, B = self._items.log_lik(np.array([a, b]), np.zeros(2, dtype=int), shift=1.0), \
                self._items.log_lik(np.array([a, b]), np.zeros(2, dtype=int))
            with np.errstate(invalid="ignore"):
                lb, ub = np.logaddexp(A[0], B[1]), np.logaddexp(A[1], B[0])
            count += 1
            if lb > level:
                status.append((a, b, 1))
            elif ub <= level:
                status.append((a, b, 0))
            elif b - a <= 1e-13 * max(1.0, abs(a)) or count > _MAX_CELLS:
                status.append((a, b, 1 if self._F(0.5 * (a + b))[0] > level else 0))
            else:
                m = 0.5 * (a + b)
                cells += [(m, b), (a, m)]
        status.sort()
        runs = []
        for a, b, inside in status:
            if not inside:
                continue
            if runs and runs[-1][1] == a:
                runs[-1][1] = b
            else:
                runs.append([a, b])
        return [(float(a), float(b)) for a, b in runs]

    def _left_end(self, level) -> float:
        """Where the profile, increasing for α <= 0 (γ <= g(θ[0])), first exceeds ``level`` (> at α = 0)."""
        a_lo = self.alpha_range[0]
        if a_lo < 0 and not self._F(a_lo)[0] > level:
            return self._on_path(level, a_lo, 0.0, increasing=True)
        # below g(θ_lo): log L = log(1+γ) - α_lo (log γ - lg_lo) + ll_lo, increasing in γ
        lg_lo, ll_lo = self._log_ends[0], self._log_ends[2]
        if not np.isfinite(lg_lo):
            return 0.0
        c = level - ll_lo
        if a_lo == 0:
            return float(np.expm1(c)) if c > 0 else 0.0

        def fun(y, ii):
            return np.logaddexp(0.0, y) - a_lo * (y - lg_lo) - c, expit(y) - a_lo, abs(c) + 1.0

        lo, hi = _finite_bracket(lambda y, ii: fun(y, ii)[0], np.array([-np.inf]), np.array([lg_lo]))
        return float(np.exp(increasing_root(fun, lo, hi)[0]))

    def _right_end(self, level) -> float:
        """Where the profile, decreasing for α >= 1, last exceeds ``level`` (> at α = 1)."""
        a_hi = self.alpha_range[1]
        if a_hi > 1 and not self._F(a_hi)[0] > level:
            return self._on_path(level, 1.0, a_hi, increasing=False)
        # above g(θ_hi): log L = log(1+γ) - α_hi (log γ - lg_hi) + ll_hi, decreasing in γ (α_hi >= 1)
        lg_hi, ll_hi = self._log_ends[1], self._log_ends[3]
        if not np.isfinite(lg_hi) or self._log_at_infinity() > level:
            return np.inf
        c = level - ll_hi

        def fun(y, ii):
            return (-(np.logaddexp(0.0, y) - a_hi * (y - lg_hi) - c), -(expit(y) - a_hi),
                    abs(c) + 1.0)

        lo, hi = _finite_bracket(lambda y, ii: fun(y, ii)[0], np.array([lg_hi]), np.array([np.inf]))
        return float(np.exp(increasing_root(fun, lo, hi)[0]))

    def _on_path(self, level, x_lo, x_hi, increasing: bool) -> float:
        """γ where log L(θ[α]) = ``level`` for α in [x_lo, x_hi] (monotone there)."""
        sign = 1.0 if increasing else -1.0
        idx = np.zeros(1, dtype=int)

        def fun(x, ii):
            lg, dlg, _ = self._items.log_g(x, idx[ii], derivative=True)
            phi = expit(lg) - x
            return sign * (self._F(x) - level), sign * dlg * phi, abs(level) + 1.0

        root = increasing_root(fun, np.array([x_lo], float), np.array([x_hi], float))
        return float(self._g(root)[0])
