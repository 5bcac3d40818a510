r"""The LNCC's dominance test for one instance and two classes, for plotting and teaching.

:class:`PairProfile` exposes the exact profile likelihood of the ratio
:math:`P_\theta(c, \tilde f)/P_\theta(\neg c, \tilde f)` (000 Theorems 1-2 with the instance in the
likelihood; 003 Corollary 1 without it), the critical α of each direction, and a Monte Carlo cloud
of NBC parameters (000 Fig. 2) normalised by the same exact maximum, so every point of the cloud
lies on or under the curve.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.special import expit, logit, xlogy

from .pairwise import PairCounts, critical_alpha_data_only, log_lik, log_ratio, profile_maxima, ratio_root

__all__ = ["PairProfile", "paper_presets"]


def _check_alpha(alpha) -> None:
    if not (isinstance(alpha, (int, float, np.integer, np.floating)) and 0 <= alpha <= 1):
        raise ValueError(f"alpha must be a number in [0, 1]; got {alpha!r}")


def paper_presets() -> dict:
    """The two-class examples of paper 000, as counts for :class:`PairProfile`."""
    return {
        "000 Example 2": dict(n_c=6, n_not=2, counts_c=[5], counts_not=[1],
                              note="One Boolean feature; (c, f) five times, the other three "
                                   "combinations once; the instance has F = f."),
        "000 Example 3": dict(n_c=50, n_not=50, counts_c=[50, 0], counts_not=[1, 1],
                              note="n = 100; c always with f1~ but never with f2~; not-c once "
                                   "with each. The zero count n(c, f2~) = 0."),
    }


class PairProfile:
    """Profile likelihood of the ratio of two classes for one instance (two-class naive problem).

    Parameters
    ----------
    n_c, n_not : float
        Class counts :math:`n(c)`, :math:`n(\\neg c)`.
    counts_c, counts_not : sequence of float
        :math:`n(c, \\tilde f_j)` and :math:`n(\\neg c, \\tilde f_j)` for the instance's value of
        each feature (at least one feature).
    include_instance : bool
        Put the instance (class missing) in the likelihood (000 §4) or not (003 Corollary 1).

    Examples
    --------
    >>> p = PairProfile(6, 2, [5], [1])        # 000 Example 2
    >>> p.t_range, round(p.critical_alpha, 5), round(p.t_hat, 6)
    ((-5.5, 1.5), 0.23328, 0.333333)
    """

    def __init__(self, n_c, n_not, counts_c, counts_not, *, include_instance: bool = True):
        values = [np.asarray(v, float) for v in (n_c, n_not, counts_c, counts_not)]
        n1, n2, c1, c2 = values
        if n1.ndim or n2.ndim:
            raise ValueError("n_c and n_not must be numbers")
        if c1.ndim != 1 or c2.ndim != 1 or c1.size != c2.size:
            raise ValueError("counts_c and counts_not must be 1-D with one entry per feature each")
        if c1.size == 0:
            raise ValueError("give at least one feature")
        if not all(np.all(np.isfinite(v)) for v in values):
            raise ValueError("counts must be finite numbers")
        if min(n1, n2, c1.min(), c2.min()) < 0:
            raise ValueError("counts cannot be negative")
        for name, c, n in (("c", c1, n1), ("not c", c2, n2)):
            if np.any(c > n):
                j = int(np.argmax(c > n))
                raise ValueError(f"feature {j + 1}: n({name}, f~) = {c[j]:g} exceeds n({name}) = {n:g}")
        self.include_instance = bool(include_instance)
        self._shift = 1.0 if self.include_instance else 0.0
        self._pc = PairCounts([float(n1)], [c1], [float(n2)], [c2])
        self._flat = False
        self._raw = (float(n1), float(n2), c1, c2)
        pc = self._pc
        if self.include_instance:
            best, where, u0 = profile_maxima(pc)
            side = int(np.argmax(best[0]))
            self._top = float(best[0, side])
            self._u_hat = float(where[0, side])
            crit = np.exp(best[0] - self._top)
            self.critical_alpha, self.critical_alpha_reverse = float(crit[0]), float(crit[1])
            self._u0 = float(u0[0])
        else:
            ab, ba = critical_alpha_data_only(pc)
            self.critical_alpha, self.critical_alpha_reverse = float(ab[0]), float(ba[0])
            self._u_hat = 0.0                      # the maximum-likelihood estimate (003 §3.1)
            self._top = float(log_lik(pc, np.array([0]), np.zeros(1), False)[0])
            # 003 Cor. 1: with a zero count on both sides lik_g ≡ 1 (every ratio fully plausible)
            self._flat = bool(pc.u_min[0] == 0 and pc.u_max[0] == 1)
            self._u0 = 0.0 if self._flat else float(ratio_root(pc, 0.0)[0])

    # --- parameters in the paper's coordinates ------------------------------------------------
    def _t(self, u):
        return u - 0.5 * self._shift

    @property
    def t_range(self) -> tuple[float, float]:
        """The parameter interval [a, b] of 000 §4.1 (003's [α_lo, α_hi] without the instance)."""
        a = float(self._t(self._pc.u_min[0])) + 0.0      # + 0.0 turns -0.0 into 0.0
        return a, float(self._t(self._pc.u_max[0]) - (1 - self._shift)) + 0.0

    @property
    def t_hat(self) -> float:
        """Where the profile likelihood is maximal."""
        return float(self._t(self._u_hat))

    @property
    def t_at_ratio_one(self) -> float:
        """Where :math:`P(c, \\tilde f) = P(\\neg c, \\tilde f)`."""
        return float(self._t(self._u0))

    def dominance(self, alpha: float) -> tuple[bool, bool]:
        """(c dominates not-c, not-c dominates c) at level ``alpha``."""
        _check_alpha(alpha)
        return bool(alpha > self.critical_alpha), bool(alpha > self.critical_alpha_reverse)

    # --- curves ---------------------------------------------------------------------------------
    def _log_lik(self, u):
        idx = np.zeros(np.size(u), dtype=int)
        return log_lik(self._pc, idx, np.atleast_1d(np.asarray(u, float)), self.include_instance)

    def curve(self, num: int = 600) -> pd.DataFrame:
        """The profile likelihood along its parameter: columns t, ratio, posterior, likelihood.

        ``posterior`` is :math:`r/(1+r)`, the probability of c given the instance when the class is
        c or not-c; ``likelihood`` is normalised to a maximum of exactly 1.  The grid includes
        t̂ and the point of ratio 1.
        """
        if self._flat:
            q = np.linspace(0, 1, int(num))
            with np.errstate(divide="ignore"):
                return pd.DataFrame({"t": np.zeros(q.size), "ratio": q / (1 - q), "posterior": q,
                                     "likelihood": np.ones(q.size)})
        lo, hi = self._pc.u_min[0], self._pc.u_max[0] - (1 - self._shift)
        u = np.unique(np.concatenate([np.linspace(lo, hi, int(num)), [self._u_hat, self._u0]]))
        idx = np.zeros(u.size, dtype=int)
        with np.errstate(divide="ignore", invalid="ignore"):
            lr = log_ratio(self._pc, idx, u, self._shift)[0]
            lr[0], lr[-1] = -np.inf, np.inf            # the ends of [a, b]: ratio 0 and +inf
            lik = np.exp(self._log_lik(u) - self._top)
            ratio = np.exp(lr)
        return pd.DataFrame({"t": self._t(u), "ratio": ratio, "posterior": expit(lr),
                             "likelihood": np.minimum(lik, 1.0)})

    def envelope(self, posterior) -> np.ndarray:
        """Exact normalised profile likelihood at the given values of :math:`P(c | \\tilde f)`."""
        q = np.atleast_1d(np.asarray(posterior, float))
        if np.any((q < 0) | (q > 1)):
            raise ValueError("posterior values must lie in [0, 1]")
        if self._flat:
            return np.ones(q.size)
        out = np.empty(q.size)
        inner = (q > 0) & (q < 1)
        if inner.any():
            k = int(inner.sum())
            pc = self._pc.take(np.zeros(k, dtype=int))
            u = ratio_root(pc, self._shift, target=logit(q[inner]))
            out[inner] = np.exp(self._log_lik(u) - self._top)
        lo, hi = self._pc.u_min[0], self._pc.u_max[0] - (1 - self._shift)
        with np.errstate(divide="ignore", invalid="ignore"):
            out[q == 0] = np.exp(self._log_lik([lo])[0] - self._top)
            out[q == 1] = np.exp(self._log_lik([hi])[0] - self._top)
        return np.minimum(out, 1.0)

    def alpha_cut(self, alpha: float, num: int = 4001) -> tuple[float, float]:
        r"""Range of :math:`P(c | \tilde f)` over the parameters with normalised likelihood ≥ α.

        The ends are located on a grid and refined by bisection on the exact curve (the hull of
        the cut if the profile is bimodal).
        """
        lo, hi = self.alpha_cuts([alpha], num)[0]
        return float(lo), float(hi)

    def alpha_cuts(self, alphas, num: int = 4001) -> np.ndarray:
        """:meth:`alpha_cut` of every α of ``alphas``, shape (len, 2): the curve computed once and all the
        bisections run side by side (one likelihood evaluation per step for every end at once), with
        the same steps, so each row is what :meth:`alpha_cut` gives for that α alone."""
        alphas = list(alphas)
        for alpha in alphas:
            _check_alpha(alpha)
        out = np.full((len(alphas), 2), np.nan)
        if self._flat:                                  # lik_g ≡ 1: every ratio is in every cut
            out[:] = (0.0, 1.0)
            return out
        curve = self.curve(num)
        likelihood = curve["likelihood"].to_numpy()
        u = curve["t"].to_numpy() + 0.5 * self._shift
        rows, a, b, levels, ends = [], [], [], [], np.full((len(alphas), 2), np.nan)
        for row, alpha in enumerate(alphas):
            inside = np.flatnonzero(likelihood >= alpha)
            if inside.size == 0:
                continue
            for side, (i, j) in enumerate(((inside[0], inside[0] - 1), (inside[-1], inside[-1] + 1))):
                if j < 0 or j >= u.size:
                    ends[row, side] = u[i]
                    continue
                rows.append((row, side))
                a.append(u[j])                         # L(a) < α <= L(b)
                b.append(u[i])
                levels.append(alpha)
        if rows:
            a, b, levels = np.array(a), np.array(b), np.array(levels, dtype=float)
            for _ in range(60):
                mid = 0.5 * (a + b)
                kept = np.exp(self._log_lik(mid) - self._top) >= levels
                b = np.where(kept, mid, b)
                a = np.where(kept, a, mid)
            for (row, side), end in zip(rows, b):
                ends[row, side] = end
        found = np.flatnonzero(~np.isnan(ends[:, 0]))
        if found.size:
            points = ends[found].ravel()
            with np.errstate(divide="ignore"):
                post = expit(log_ratio(self._pc, np.zeros(points.size, dtype=int), points, self._shift)[0])
            out[found] = post.reshape(-1, 2)
        return out

    # --- Monte Carlo (000 Fig. 2) -----------------------------------------------------------------
    def _raw_log_lik(self, theta_c, th1, th2):
        """log likelihood of the data (and the instance) at explicit NBC parameters (vectorised).

        Each feature is collapsed to "the instance's value" vs "any other": the split of the other
        values is at its maximum-likelihood proportion, which leaves the ratio unchanged.
        """
        n1, n2, c1, c2 = self._raw
        out = (xlogy(n1, theta_c) + xlogy(n2, 1 - theta_c)
               + (xlogy(c1, th1) + xlogy(n1 - c1, 1 - th1)).sum(axis=-1)
               + (xlogy(c2, th2) + xlogy(n2 - c2, 1 - th2)).sum(axis=-1))
        with np.errstate(divide="ignore", invalid="ignore"):   # a zero chance: log 0 = -inf
            pa = np.log(theta_c) + np.log(th1).sum(axis=-1)
            pb = np.log(1 - theta_c) + np.log(th2).sum(axis=-1)
            if self.include_instance:
                out = out + np.logaddexp(pa, pb)
            return out, pa - pb

    def _maximiser(self):
        """The NBC parameters of maximal likelihood (000 Thm 2's proof; 003 §3.1 without instance)."""
        n1, n2, c1, c2 = self._raw
        u = self._u_hat
        v = self._shift - u
        total = n1 + n2 + self._shift
        with np.errstate(invalid="ignore", divide="ignore"):
            th1 = np.where(n1 + u > 0, (c1 + u) / (n1 + u), 1.0)
            th2 = np.where(n2 + v > 0, (c2 + v) / (n2 + v), 1.0)
        # no data at all: every θ has likelihood 1, any θ_c maximises it
        return ((n1 + u) / total if total > 0 else 0.5), th1, th2

    def sample_cloud(self, size: int = 3000, seed: int = 0) -> pd.DataFrame:
        """Monte Carlo NBC parameters drawn uniformly: columns posterior, likelihood.

        :math:`\\theta_c, \\theta_{\\tilde f_j|c}, \\theta_{\\tilde f_j|\\neg c} \\sim U(0, 1)`; the
        likelihood is normalised by the exact maximum, so every point lies on or under
        :meth:`envelope`.
        """
        rng = np.random.default_rng(seed)
        m = self._raw[2].size
        theta = rng.random((int(size), 1 + 2 * m))
        log_l, log_r = self._raw_log_lik(theta[:, 0], theta[:, 1:1 + m], theta[:, 1 + m:])
        top, _ = self._raw_log_lik(*(np.atleast_1d(x) for x in self._maximiser()))
        return pd.DataFrame({"posterior": expit(log_r), "likelihood": np.exp(log_l - top[0])})
