r"""Dash & Cooper's product form of Bayesian model averaging over naive feature subsets.

A model is a subset :math:`g \subseteq \{1..k\}` of the features; in model ``g`` feature ``j``
depends on the class if :math:`j \in g` and is independent of it otherwise.  With independent
inclusion priors :math:`P(g) = \prod_j t_j^{[j\in g]} (1-t_j)^{[j\notin g]}` and Dirichlet
parameter priors (Perks' with strength ``s``: :math:`s/(|C||F_j|)` per cell given the class,
:math:`s/|F_j|` per value without it, :math:`s/|C|` per class), the posterior of the subsets
factorises and the average over all :math:`2^k` models is a product over features
(Dash & Cooper 2002, eq. 8):

.. math::
    P(c, \mathbf x \mid D) \propto \theta_c \prod_j \big[t_j\, L^C_j\, \theta_{x_j\mid c}
        + (1 - t_j)\, L^0_j\, \theta^0_{x_j}\big]

where :math:`L^C_j` / :math:`L^0_j` are the marginal likelihoods of feature ``j``'s column with /
without the class (Dirichlet-multinomial), :math:`\theta_{v|c} = (n(c,v) + s/(|C||F_j|)) /
(n_j(c) + s/|C|)`, :math:`\theta^0_v = (n_j(v) + s/|F_j|)/(n_j + s)` and
:math:`\theta_c = (n(c) + s/|C|)/(N + s)`.  The normaliser :math:`\prod_j (t_j L^C_j + (1-t_j)
L^0_j)` does not depend on the class.

**Missing values (MAR).**  Feature ``j``'s likelihoods and estimates use the rows where it is
present (:math:`n_j(c)`, :math:`n_j(v)`), as the Weka plugin's ``NaiveClassifier`` does; a missing
test value makes the feature's factor :math:`t_j + (1 - t_j) = 1` (the plugin skips it).  A test
value unseen in training gets the zero-count estimates (the package's Perks convention).

Everything is stored relative to :math:`L^C_j`: per feature ``logθ`` (C, |F_j|+1) and
``logβ = log θ^0 + log L^0_j - log L^C_j`` (|F_j|+1,), so two classes' factors share the same
rounding of the likelihood ratio and exact ties stay exact.
"""
from __future__ import annotations

import numpy as np
from scipy.special import gammaln, logsumexp

from ..data.counts import Gather, lookup_sum

__all__ = ["ProductForm"]


class ProductForm:
    """Per-feature constants of the product form, from :class:`~credal_core.data.CountTables`.

    Attributes
    ----------
    log_prior : ndarray (C,) — :math:`\\log\\theta_c`.
    log_theta : list of ndarray (C, |F_j|+1) — :math:`\\log\\theta_{v|c}` (last column: unseen value).
    log_beta : list of ndarray (|F_j|+1,) — :math:`\\log\\theta^0_v + \\log L^0_j - \\log L^C_j`.
    log_lik_class, log_lik_none : ndarray (m,) — :math:`\\log L^C_j`, :math:`\\log L^0_j`.
    """

    def __init__(self, tables, s: float):
        n_classes = len(tables.classes)
        counts = np.asarray(tables.class_counts, dtype=float)
        self.log_prior = np.log((counts + s / n_classes) / (counts.sum() + s))
        self.n_values = np.array([len(c) for c in tables.categories])
        self.log_theta, self.log_beta = [], []
        lik_c, lik_0 = [], []
        for t in tables.feature_counts:
            t = np.asarray(t, dtype=float)
            v = max(t.shape[1], 1)
            a_cv, a_c = s / (n_classes * v), s / n_classes
            a_v = s / v
            present = t.sum(axis=1)                         # n_j(c)
            by_value = t.sum(axis=0)                        # n_j(v)
            ext = np.hstack([t, np.zeros((n_classes, 1))])
            ext0 = np.append(by_value, 0.0)
            lc = float(np.sum(gammaln(a_c) - gammaln(a_c + present))
                       + np.sum(gammaln(a_cv + t) - gammaln(a_cv)))
            l0 = float(gammaln(s) - gammaln(s + present.sum())
                       + np.sum(gammaln(a_v + by_value) - gammaln(a_v)))
            self.log_theta.append(np.log(ext + a_cv) - np.log(present + a_c)[:, None])
            self.log_beta.append(np.log(ext0 + a_v) - np.log(present.sum() + s) + (l0 - lc))
            lik_c.append(lc)
            lik_0.append(l0)
        self.log_lik_class = np.array(lik_c)
        self.log_lik_none = np.array(lik_0)

    def gather(self, codes: np.ndarray):
        """``(logθ (C, m, n), logβ (m, n))`` at each instance's values; 0 for a missing value (its
        factor is then 1 for every prior)."""
        g = Gather(codes, self.n_values)
        theta = g.take(self.log_theta, missing=0.0)                        # (C, m, n)
        beta = g.take([b[None, :] for b in self.log_beta], missing=0.0)[0]  # (m, n)
        return theta, beta

    def factor_tables(self, t: float) -> list:
        r"""Per feature, the log factor :math:`\log[t\,\theta_{v|c} + (1-t)\,\beta_v]` of every (class,
        value), (C, |F_j|+1): what an instance's product gathers (a missing value adds 0)."""
        lt, lf = np.log(t), np.log1p(-t)
        return [np.logaddexp(lt + th, lf + b[None, :]) for th, b in zip(self.log_theta, self.log_beta)]

    def subset_log_posterior(self, t) -> np.ndarray:
        r"""Log posterior probability of each feature's inclusion, :math:`P(j \in g \mid D)` (m,)."""
        t = np.broadcast_to(np.asarray(t, dtype=float), self.log_lik_class.shape)
        a = np.log(t) + self.log_lik_class
        b = np.log1p(-t) + self.log_lik_none
        return a - np.logaddexp(a, b)


def log_factors(theta: np.ndarray, beta: np.ndarray, t) -> np.ndarray:
    r""":math:`\log[t\,\theta_{x_j|c} + (1-t)\,\beta_{x_j}]` (C, m, n) for inclusion prior(s) ``t``
    (a scalar, or an array broadcasting against (m, n))."""
    t = np.asarray(t, dtype=float)
    return np.logaddexp(np.log(t) + theta, np.log1p(-t) + beta[None])


def log_joint(form: ProductForm, codes: np.ndarray, t: float) -> np.ndarray:
    """BMA's :math:`\\log P(c, \\mathbf x)` (C, n) up to a per-row constant, inclusion prior ``t``."""
    return form.log_prior[:, None] + lookup_sum(codes, form.factor_tables(t))


def log_posterior(form: ProductForm, codes: np.ndarray, t: float) -> np.ndarray:
    """Normalised log posterior (n, C)."""
    jll = log_joint(form, codes, t).T
    return jll - logsumexp(jll, axis=1, keepdims=True)
