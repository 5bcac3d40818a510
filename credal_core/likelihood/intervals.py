r"""Profile likelihoods of multinomial models (paper 003 §2, Example 1).

For i.i.d. categorical data with counts :math:`n_\omega` the normalised likelihood is
:math:`\prod_\omega (\theta_\omega / \hat\theta_\omega)^{n_\omega}`.  The profile likelihood of a
subset probability :math:`g(\theta) = \sum_{\omega \in S} \theta_\omega` is maximised, for a fixed
:math:`g = \gamma`, by splitting γ over S and 1-γ over its complement in proportion to the counts:

.. math:: \mathrm{lik}_g(\gamma) = \frac{\gamma^{n_S} (1-\gamma)^{n - n_S}}
                                        {(n_S/n)^{n_S} (1 - n_S/n)^{n - n_S}}, \qquad 0^0 = 1 .

The likelihood-based confidence region with cutoff β is :math:`\{\gamma : \mathrm{lik}_g(\gamma) > \beta\}`,
an interval; by Wilks' theorem its confidence level is about :math:`P(\chi^2_1 \le -2\log\beta)`.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.special import bdtr, chdtr, xlogy  # light: scipy.stats takes ~1 s to import

from .._roots import increasing_root

__all__ = ["multinomial_profile", "likelihood_interval", "wilks_level", "multinomial_cloud",
           "bernoulli_likelihood_interval", "idm_interval", "vacuous_probability"]


def _subset_counts(counts, subset) -> tuple[float, float]:
    counts = np.asarray(counts, float)
    if counts.ndim != 1 or counts.size < 2 or np.any(counts < 0) or not np.all(np.isfinite(counts)):
        raise ValueError("counts must be a 1-D array of at least two finite non-negative numbers")
    mask = np.zeros(counts.size, bool)
    mask[np.asarray(subset, int)] = True
    n_s, n = counts[mask].sum(), counts.sum()
    if n == 0:
        raise ValueError("counts are all zero: the likelihood is flat")
    return n_s, n


def multinomial_profile(counts, subset, gamma) -> np.ndarray:
    """Normalised profile likelihood of :math:`\\sum_{\\omega \\in subset} \\theta_\\omega` at ``gamma``.

    Examples
    --------
    >>> round(float(multinomial_profile([2, 4, 3], [0, 1], 2 / 3)), 12)   # 003 Example 1: the MLE
    1.0
    """
    n_s, n = _subset_counts(counts, subset)
    g = np.asarray(gamma, float)
    log_lik = (xlogy(n_s, g) + xlogy(n - n_s, 1 - g)) - (xlogy(n_s, n_s / n) + xlogy(n - n_s, 1 - n_s / n))
    return np.exp(log_lik)


def likelihood_interval(counts, subset, beta: float) -> tuple[float, float]:
    """End points of ``{γ : lik_g(γ) > β}`` (exact, by bracketed root finding on each side).

    Examples
    --------
    >>> lo, hi = likelihood_interval([2, 4, 3], [0, 1], 0.15)   # 003 Example 1: about [0.35, 0.90]
    >>> round(lo, 2), round(hi, 2)
    (0.35, 0.9)
    """
    if not 0 < beta < 1:
        raise ValueError(f"beta must be in (0, 1); got {beta!r}")
    n_s, n = _subset_counts(counts, subset)
    mle = n_s / n
    log_beta = np.log(beta)

    def side(lo, hi, sign):
        # log lik_g - log β, made increasing in γ on the chosen side of the maximum
        def fun(g, idx):
            value = (xlogy(n_s, g) + xlogy(n - n_s, 1 - g)
                     - xlogy(n_s, mle) - xlogy(n - n_s, 1 - mle) - log_beta)
            with np.errstate(divide="ignore", invalid="ignore"):
                slope = np.where(n_s > 0, n_s / g, 0.0) - np.where(n > n_s, (n - n_s) / (1 - g), 0.0)
            return sign * value, sign * slope
        return float(increasing_root(fun, np.array([lo]), np.array([hi]))[0])

    lower = 0.0 if multinomial_profile(counts, subset, 0.0) > beta else side(0.0, mle, 1.0)
    upper = 1.0 if multinomial_profile(counts, subset, 1.0) > beta else side(mle, 1.0, -1.0)
    return lower, upper


def wilks_level(beta: float) -> float:
    """Approximate confidence level of the likelihood region with cutoff β: P(χ²₁ ≤ −2 log β)."""
    return float(chdtr(1, -2 * np.log(beta)))


def multinomial_cloud(counts, subset, size: int = 3000, seed: int = 0) -> pd.DataFrame:
    """Monte Carlo points (g(θ), lik(θ)) with θ uniform on the simplex (003 Example 1).

    Every point lies on or under :func:`multinomial_profile`, the upper envelope of the cloud.
    """
    counts = np.asarray(counts, float)
    n_s, n = _subset_counts(counts, subset)
    theta = np.random.default_rng(seed).dirichlet(np.ones(counts.size), size=int(size))
    mask = np.zeros(counts.size, bool)
    mask[np.asarray(subset, int)] = True
    log_lik = xlogy(counts, theta).sum(axis=1) - xlogy(counts, counts / n).sum()
    return pd.DataFrame({"g": theta[:, mask].sum(axis=1), "likelihood": np.exp(log_lik)})


def bernoulli_likelihood_interval(n, N, alpha: float):
    r"""Likelihood interval :math:`\{\theta : \mathrm{lik}(\theta) \ge \alpha\,\mathrm{lik}(\hat\theta)\}`.

    ``n`` successes in ``N`` Bernoulli trials (000 Example 1, Fig. 1); ``n`` may be real, and
    ``n``, ``N`` may be arrays (broadcast together): then two arrays are returned.

    Examples
    --------
    >>> lo, hi = bernoulli_likelihood_interval(5, 10, 0.85)
    >>> round(lo, 4), round(hi, 4)
    (0.4106, 0.5894)
    """
    if not 0 <= alpha <= 1:
        raise ValueError(f"alpha must be in [0, 1]; got {alpha!r}")
    n_arr, big_n = np.broadcast_arrays(np.asarray(n, float), np.asarray(N, float))
    if np.any(~np.isfinite(n_arr)) or np.any((n_arr < 0) | (n_arr > big_n)):
        raise ValueError(f"need 0 <= n <= N; got n={n!r}, N={N!r}")
    n_arr, big_n = n_arr.ravel(), big_n.ravel()
    with np.errstate(invalid="ignore", divide="ignore"):
        mle = np.where(big_n > 0, n_arr / np.where(big_n > 0, big_n, 1), 0.5)
    lo, hi = np.zeros(n_arr.size), np.ones(n_arr.size)
    if alpha == 1:
        lo, hi = mle.copy(), mle.copy()
    elif alpha > 0:
        log_alpha = np.log(alpha)
        top = xlogy(n_arr, mle) + xlogy(big_n - n_arr, 1 - mle)

        def solve(items, a, b, sign):
            # log lik - log α - log max, made increasing on the chosen side of the maximum
            def fun(theta, idx):
                k, m = n_arr[items[idx]], big_n[items[idx]] - n_arr[items[idx]]
                value = xlogy(k, theta) + xlogy(m, 1 - theta) - top[items[idx]] - log_alpha
                with np.errstate(divide="ignore", invalid="ignore"):
                    slope = np.where(k > 0, k / theta, 0.0) - np.where(m > 0, m / (1 - theta), 0.0)
                return sign * value, sign * slope
            return increasing_root(fun, a, b)

        left = np.flatnonzero((big_n > 0) & (n_arr > 0))       # n = 0: lik(0) = max, so lo = 0
        lo[left] = solve(left, np.zeros(left.size), mle[left], 1.0)
        right = np.flatnonzero((big_n > 0) & (n_arr < big_n))  # n = N: hi = 1
        hi[right] = solve(right, mle[right], np.ones(right.size), -1.0)
    if np.ndim(n) == 0 and np.ndim(N) == 0:
        return float(lo[0]), float(hi[0])
    shape = np.broadcast_shapes(np.shape(n), np.shape(N))
    return lo.reshape(shape), hi.reshape(shape)


def idm_interval(n: float, N: float, s: float) -> tuple[float, float]:
    """Imprecise Dirichlet model interval ``[n/(N+s), (n+s)/(N+s)]`` for a Bernoulli chance."""
    if s <= 0 or not 0 <= n <= N:
        raise ValueError(f"need s > 0 and 0 <= n <= N; got n={n!r}, N={N!r}, s={s!r}")
    return n / (N + s), (n + s) / (N + s)


def _ratio_one_log_likelihood(k: np.ndarray, size: np.ndarray) -> np.ndarray:
    """log of (1/2)^n / ((k/n)^k ((n-k)/n)^(n-k)): the NHC's likelihood of "ratio 1" with k of n."""
    total = np.maximum(size, 1)
    return size * np.log(0.5) - xlogy(k, k / total) - xlogy(size - k, (size - k) / total)


def _first_at_least(sizes: np.ndarray, level: float) -> np.ndarray:
    """Per size n, the first k in 0 … n // 2 whose :func:`_ratio_one_log_likelihood` is >= ``level``
    (n // 2 + 1 if none): ``np.searchsorted(values, level)`` over the array of those values, by the same
    bisection numpy runs on it, evaluating only the O(log n) values it reads (all sizes at once)."""
    lo = np.zeros(sizes.size, dtype=np.int64)
    hi = sizes // 2 + 1                                   # the length of each array of k = 0 … n // 2
    while np.any(lo < hi):
        active = lo < hi
        mid = lo + ((hi - lo) >> 1)
        below = np.zeros(sizes.size, dtype=bool)
        below[active] = _ratio_one_log_likelihood(mid[active], sizes[active]) < level
        lo = np.where(active & below, mid + 1, lo)
        hi = np.where(active & ~below, mid, hi)
    return lo


def vacuous_probability(n, *, beta: float | None = None, s: float | None = None, p: float = 0.5):
    r"""Probability that a two-class prediction without features is vacuous (003 Example 2).

    ``n`` objects are drawn with :math:`P(C=a) = p`; :math:`k \sim \mathrm{Bin}(n, p)` of them are
    ``a``.  With no features the ratio :math:`\theta_a/\theta_b` has the binomial profile likelihood,
    so for the NHC with cutoff β (:class:`~credal_core.LNCC` without the instance, α = β) a class
    dominates iff β exceeds the likelihood of "ratio 1",

    .. math:: \frac{(1/2)^n}{(k/n)^k\,((n-k)/n)^{n-k}},

    and the prediction is vacuous iff that value is at least β.  For the NCC with the IDM, ``a``
    dominates iff :math:`k/(n-k+s) > 1`, so the prediction is vacuous iff :math:`|2k-n| \le s`.
    Both regions are symmetric intervals of ``k``; their probability is an exact binomial sum.

    Parameters
    ----------
    n : int or array of int
    beta, s : float
        Exactly one: the NHC's cutoff in (0, 1) or the IDM's s > 0.
    p : float
        :math:`P(C = a)`.

    Examples
    --------
    >>> round(float(vacuous_probability(100, beta=0.15)), 3), round(float(vacuous_probability(1000, s=2)), 3)
    (0.943, 0.076)
    """
    if (beta is None) == (s is None):
        raise ValueError("give exactly one of beta (NHC) or s (NCC)")
    if beta is not None and not 0 < beta <= 1:
        raise ValueError(f"beta must be in (0, 1]; got {beta!r}")
    if s is not None and s <= 0:
        raise ValueError(f"s must be > 0; got {s!r}")
    sizes = np.atleast_1d(np.asarray(n))
    if sizes.ndim != 1 or np.any(sizes < 0) or np.any(sizes != np.round(sizes)):
        raise ValueError("n must be a non-negative integer or a 1-D array of them")
    sizes = sizes.astype(np.int64)
    if s is not None:
        k_lo = np.ceil((sizes - s) / 2).astype(np.int64)            # |2k - n| <= s
    else:
        k_lo = _first_at_least(sizes, np.log(beta))
    k_lo = np.maximum(k_lo, 0)
    k_hi = sizes - k_lo
    below = np.where(k_lo >= 1, bdtr(np.maximum(k_lo - 1, 0), sizes, p), 0.0)   # P(k <= k_lo - 1)
    out = np.where(k_lo <= k_hi, bdtr(np.maximum(k_hi, 0), sizes, p) - below, 0.0)
    return out if np.ndim(n) else float(out[0])
