"""BMA-AODE: Bayesian model averaging over SPODEs with conditional likelihood (paper 001 §2.2)."""
from __future__ import annotations

import numpy as np

from ._ensemble import SpodeEnsemble
from ._spode import DEFAULT_MAX_TABLE_BYTES

__all__ = ["BMAAODE", "bma_posterior_weights", "bma_kept"]

# 001 §2.2: SPODEs with L_j < L_max / 10^4 are removed.
PRUNE_LOG_RATIO = np.log(1e4)


def bma_posterior_weights(log_likelihoods) -> np.ndarray:
    r"""Normalised :math:`\exp(LL_j) / \sum_l \exp(LL_l)` (uniform model prior), never overflowing.

    001's Algorithm 1 shifts by the *minimum* log-likelihood, which overflows once the spread of
    LL_j exceeds ~709 (common on large data); shifting by the maximum gives the same normalised
    weights whenever Algorithm 1 does not overflow, and finite ones always.
    """
    ll = np.asarray(log_likelihoods, dtype=float)
    w = np.exp(ll - ll.max())
    return w / w.sum()


def bma_kept(log_likelihoods) -> np.ndarray:
    """SPODEs kept by the pruning of 001 §2.2: :math:`L_j \\ge L_{max}/10^4` (bool, (k,))."""
    ll = np.asarray(log_likelihoods, dtype=float)
    return ll >= ll.max() - PRUNE_LOG_RATIO


class BMAAODE(SpodeEnsemble):
    r"""BMA over SPODEs with conditional likelihood and pruning (paper 001 eq. 3).

    .. math::
        P(c \mid \tilde{\mathbf a}) \propto \sum_{j \in K} P(c \mid \tilde{\mathbf a}, s_j)\, L_j, \qquad
        L_j = \prod_{i=1}^n P(c^{(i)} \mid \mathbf a^{(i)}, s_j, \hat\theta_j),

    with a uniform prior over SPODEs and :math:`K = \{j : L_j \ge L_{\max}/10^4\}`.  ``weights_`` are
    the normalised :math:`L_j` over K (0 outside K); the posterior is normalised (eq. 3 is "∝").

    Parameters
    ----------
    max_table_bytes, categories
        As in :class:`~credal_core.aode.AODE` (the size limit of the SPODE tables; :math:`|A_j|`).

    Attributes
    ----------
    log_likelihoods_ : ndarray (k,) — :math:`LL_j`, in-sample, natural log.
    posterior_weights_ : ndarray (k,) — BMA posterior weights before pruning.
    kept_ : ndarray (k,) of bool — SPODEs surviving the pruning.
    weights_ : ndarray (k,) — the weights used (sum 1, >= 0).

    Examples
    --------
    >>> import pandas as pd
    >>> from credal_core.aode import BMAAODE
    >>> X = pd.DataFrame({"a": list("xxyyxy"), "b": list("ppqqqp")})
    >>> m = BMAAODE().fit(X, [0, 0, 1, 1, 0, 1])
    >>> bool(abs(m.weights_.sum() - 1) < 1e-12)
    True
    """

    def __init__(self, *, max_table_bytes: float = DEFAULT_MAX_TABLE_BYTES,
                 categories="seen"):
        self.max_table_bytes = max_table_bytes
        self.categories = categories

    def _fit_weights(self, log_likelihoods):
        ll = log_likelihoods
        self.log_likelihoods_ = ll
        self.posterior_weights_ = bma_posterior_weights(ll)
        self.kept_ = bma_kept(ll)
        w = np.where(self.kept_, self.posterior_weights_, 0.0)
        self.weights_ = w / w.sum()
