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
from scipy.special import xlogy
from scipy.stats import chi2

from ._roots import increasing_root

__all__ = ["multinomial_profile", "likelihood_interval", "wilks_level"]


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
    return float(chi2.cdf(-2 * np.log(beta), df=1))
