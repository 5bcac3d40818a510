"""AODE: the plain mean of the SPODE posteriors (Webb et al. 2005; paper 001 §2.1)."""
from __future__ import annotations

import numpy as np

from ._spode import DEFAULT_MAX_TABLE_BYTES, SpodeEnsemble

__all__ = ["AODE"]


class AODE(SpodeEnsemble):
    r"""Averaged one-dependence estimators: every feature is a super-parent, all weights 1/k.

    .. math:: P(c \mid \mathbf a) = \frac1k \sum_{j=1}^k P(c \mid \mathbf a, s_j)

    (paper 001 §2.1; the paper's display averages the joints, its text and the authors' code the
    posteriors, which is what we do).  SPODE parameters: Dirichlet priors of equivalent sample size 1,
    see :mod:`credal_core.aode._spode`.

    Parameters
    ----------
    max_table_bytes : float, default=512 MiB
        Refuse (ValueError, before allocating) SPODE tables larger than this.

    Attributes
    ----------
    classes_, n_features_in_, class_count_, spodes_ (SpodeTables), tables_ (CountTables),
    weights_ : ndarray (k,), all 1/k.

    Examples
    --------
    >>> import pandas as pd
    >>> from credal_core.aode import AODE
    >>> X = pd.DataFrame({"a": list("xxyyxy"), "b": list("ppqqqp")})
    >>> AODE().fit(X, [0, 0, 1, 1, 0, 1]).predict(X.iloc[:2])
    array([0, 0])
    """

    _needs_training_posteriors = False

    def __init__(self, *, max_table_bytes: float = DEFAULT_MAX_TABLE_BYTES):
        self.max_table_bytes = max_table_bytes

    def _fit_weights(self, log_post, y_codes):
        k = self.n_features_in_
        self.weights_ = np.full(k, 1.0 / k)
