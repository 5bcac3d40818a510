"""BMA over the naive Bayes classifiers on every subset of features (Dash & Cooper 2002)."""
from __future__ import annotations

from numbers import Real

import numpy as np
from sklearn.utils._param_validation import Interval

from .._base import CATEGORIES_CONSTRAINT, NaiveCountsClassifier
from ._product_form import ProductForm, log_joint

__all__ = ["BMANaive"]


class BMANaive(NaiveCountsClassifier):
    r"""Bayesian model averaging over the :math:`2^k` naive Bayes classifiers on feature subsets.

    Exact, in Dash & Cooper's product form (no enumeration; see
    :mod:`credal_core.model_averaging._product_form`):

    .. math::
        P(c \mid \mathbf x, D) \propto \theta_c \prod_j \big[t\, L^C_j\, \theta_{x_j\mid c}
            + (1 - t)\, L^0_j\, \theta^0_{x_j}\big]

    with every feature included with prior probability ``t`` independently (the Weka plugin's
    ``Bma``: t = 1/2, Perks' priors of strength ``s``).  This is the precise counterpart of
    :class:`~credal_core.model_averaging.CMA` (the centre of its credal set).

    Parameters
    ----------
    s : float, default=1.0
        Strength of the Dirichlet (Perks) parameter priors (> 0).
    t : float, default=0.5
        Prior probability that a feature belongs to the model, in (0, 1).
    categories : {"seen", "declared"} or list of lists, default="seen"
        :math:`F_j` policy of :meth:`~credal_core.data.CountTables.from_data`.

    Attributes
    ----------
    form_ : ProductForm — per-feature constants.
    inclusion_probability_ : ndarray (m,) — posterior :math:`P(j \in g \mid D)` of each feature.

    Missing values are missing at random (see the module of the product form): the original
    (Weka plugin, ``credalNB.Bma``) counts each feature over the rows where it is present and skips
    a missing test value, as here.

    References
    ----------
    Dash, D. and Cooper, G. F. (2002). Exact model averaging with naive Bayesian classifiers. ICML.

    Examples
    --------
    >>> import pandas as pd
    >>> from credal_core.model_averaging import BMANaive
    >>> X = pd.DataFrame({"a": list("xxyyxy"), "b": list("ppqqqp")})
    >>> BMANaive().fit(X, [0, 0, 1, 1, 0, 1]).predict(X.iloc[:2])
    array([0, 0])
    """

    _parameter_constraints = {"s": [Interval(Real, 0, None, closed="neither")],
                              "t": [Interval(Real, 0, 1, closed="neither")],
                              "categories": CATEGORIES_CONSTRAINT}

    def __init__(self, *, s: float = 1.0, t: float = 0.5, categories="seen"):
        self.s = s
        self.t = t
        self.categories = categories

    def _fit_tables(self, tables, codes=None, y_codes=None):
        self.form_ = ProductForm(tables, float(self.s))
        self.inclusion_probability_ = np.exp(self.form_.subset_log_posterior(float(self.t)))

    def _joint_log_likelihood(self, codes):
        return log_joint(self.form_, codes, float(self.t))
