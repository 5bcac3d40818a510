"""COMP-AODE: SPODEs weighted by compression coefficients (paper 001 §2.4, Boullé 2007)."""
from __future__ import annotations

from numbers import Real

import numpy as np
from sklearn.utils._param_validation import Interval

from ._ensemble import SpodeEnsemble
from ._spode import DEFAULT_MAX_TABLE_BYTES, null_log_likelihood

__all__ = ["CompAODE", "compression_coefficients", "compression_interval"]


def _code_length_null(ll0: float, epsilon: float) -> float:
    return ll0 + np.log(epsilon)                 # LL_0 + log P(s_0) < 0


def compression_coefficients(log_likelihoods, ll0: float, epsilon: float) -> np.ndarray:
    r"""Raw compression coefficients (001 eq. 6) under the prior of eq. 5.

    .. math:: \pi_j = 1 - \frac{LL_j + \log\frac{1-\epsilon}{k}}{-nH(C) + \log\epsilon}
    """
    ll = np.asarray(log_likelihoods, dtype=float)
    return 1.0 - (ll + np.log((1.0 - epsilon) / ll.size)) / _code_length_null(ll0, epsilon)


def compression_interval(log_likelihoods, ll0: float, epsilon: float) -> np.ndarray:
    r"""Bounds of :math:`\pi_j` over the credal set of eq. 9 (001 eq. 10), shape (k, 2).

    .. math:: \pi_j \in \Big[1 - \frac{LL_j + \log\epsilon}{-nH(C)+\log\epsilon},\;
              1 - \frac{LL_j + \log(1-k\epsilon)}{-nH(C)+\log\epsilon}\Big]

    The lower end is the prior :math:`P(s_j) = \epsilon`, reachable only when another SPODE can take
    the remaining mass, i.e. k >= 2.  With one feature eq. 9 forces :math:`P(s_1) = 1 - \epsilon`, so
    the interval is the single point :math:`1 - (LL_1 + \log(1-\epsilon))/(-nH(C)+\log\epsilon)`
    (which is also eq. 6's value).
    """
    ll = np.asarray(log_likelihoods, dtype=float)
    den = _code_length_null(ll0, epsilon)
    high = 1.0 - (ll + np.log(1.0 - ll.size * epsilon)) / den
    low = 1.0 - (ll + np.log(epsilon)) / den if ll.size > 1 else high.copy()
    return np.column_stack([low, high])


def normalised_weights(raw: np.ndarray) -> np.ndarray:
    """Eq. 7: feasible (π_j > 0) coefficients normalised, 0 elsewhere; uniform if none is feasible."""
    feasible = raw > 0
    if not feasible.any():        # no SPODE compresses better than the null model: plain AODE
        return np.full(raw.size, 1.0 / raw.size)
    w = np.where(feasible, raw, 0.0)
    return w / w.sum()


class CompAODE(SpodeEnsemble):
    r"""COMP-AODE: linear pool of SPODEs with normalised compression weights (001 eqs. 5-8).

    .. math::
        \pi_j = 1 - \frac{LL_j + \log\frac{1-\epsilon}{k}}{LL_0 + \log\epsilon}, \quad
        LL_0 = -nH(C), \quad
        P(c \mid \tilde{\mathbf a}) = \sum_j P(c \mid \tilde{\mathbf a}, s_j)
            \frac{\pi_j^{+}}{\sum_l \pi_l^{+}}

    where only feasible SPODEs (:math:`\pi_j > 0`) are kept.  H(C) is the empirical class entropy of
    the training data in nats.  If no SPODE is feasible the weights fall back to uniform (AODE), as
    in the authors' code.

    Parameters
    ----------
    epsilon : float, default=0.01
        Prior probability of the null model (eq. 5), in (0, 1).
    max_table_bytes, categories
        As in :class:`~credal_core.aode.AODE` (the size limit of the SPODE tables; :math:`|A_j|`).

    Attributes
    ----------
    log_likelihoods_ : ndarray (k,) — :math:`LL_j` (eq. 2, in-sample, natural log).
    null_log_likelihood_ : float — :math:`LL_0 = -nH(C)`.
    compression_raw_ : ndarray (k,) — :math:`\pi_j` (eq. 6).
    compression_interval_ : ndarray (k, 2) or None — eq. 10; None when :math:`(k+1)\epsilon > 1`
        (the credal set of eq. 9 is then empty).
    feasible_ : ndarray (k,) of bool — :math:`\pi_j > 0`.
    weights_ : ndarray (k,) — eq. 7.

    Examples
    --------
    >>> import pandas as pd
    >>> from credal_core.aode import CompAODE
    >>> X = pd.DataFrame({"a": list("xxyyxy"), "b": list("ppqqqp")})
    >>> CompAODE().fit(X, [0, 0, 1, 1, 0, 1]).weights_.round(3)
    array([0.518, 0.482])
    """

    # epsilon: the prior probability of the null model
    _parameter_constraints = {**SpodeEnsemble._parameter_constraints,
                              "epsilon": [Interval(Real, 0, 1, closed="neither")]}

    def __init__(self, *, epsilon: float = 0.01, max_table_bytes: float = DEFAULT_MAX_TABLE_BYTES,
                 categories="seen"):
        self.epsilon = epsilon
        self.max_table_bytes = max_table_bytes
        self.categories = categories

    def _fit_weights(self, log_likelihoods):
        eps = float(self.epsilon)
        ll = log_likelihoods
        ll0 = null_log_likelihood(self.spodes_.class_counts)
        self.log_likelihoods_ = ll
        self.null_log_likelihood_ = ll0
        self.compression_raw_ = compression_coefficients(ll, ll0, eps)
        self.compression_interval_ = (compression_interval(ll, ll0, eps)
                                      if (ll.size + 1) * eps <= 1.0 else None)
        self.feasible_ = self.compression_raw_ > 0
        self.weights_ = normalised_weights(self.compression_raw_)
