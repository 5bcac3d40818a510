r"""Credal model averaging (Corani & Zaffalon, ECML PKDD 2008): BMA over naive feature subsets under
a credal set of priors over the subsets."""
from __future__ import annotations

import functools
import itertools
from numbers import Real

import numpy as np
from sklearn.utils._param_validation import Interval

from .._base import CATEGORIES_CONSTRAINT, TIE, CredalClassifierMixin
from .._ncc_lower import _logsumexp_except
from ..data.counts import lookup_sum
from ._product_form import log_factors
from .bma_naive import BMANaive

__all__ = ["CMA", "cma_min_log_ratio", "cma_lower_posterior"]

# Mixed features (rivals disagree on the worst end point) enumerated at once up to this many;
# beyond, a branch and bound over them (exact too).
_ENUMERATE = 14


def cma_min_log_ratio(theta, beta, log_prior, t_lo, t_hi, a, b) -> np.ndarray:
    r"""Exact :math:`\min_{t \in [t_{lo}, t_{hi}]^k} \log P_t(a, \mathbf x) / P_t(b, \mathbf x)` (n,).

    ``theta`` (C, m, n), ``beta`` (m, n) from :meth:`ProductForm.gather`.  The ratio is a product of
    per-feature factors :math:`r_j(t_j) = (t\theta_a + (1-t)\beta)/(t\theta_b + (1-t)\beta)`, each
    monotone in its own :math:`t_j` (its derivative has the sign of :math:`\beta(\theta_a-\theta_b)`),
    so the minimum takes each factor at its worse end point: :math:`t_{lo}` if
    :math:`\theta_a > \theta_b`, else :math:`t_{hi}` — no enumeration of the :math:`2^k` vertices.
    """
    lo, hi = log_factors(theta[[a, b]], beta, t_lo), log_factors(theta[[a, b]], beta, t_hi)
    worst = np.minimum(lo[0] - lo[1], hi[0] - hi[1])
    return log_prior[a] - log_prior[b] + worst.sum(axis=0)


def cma_lower_posterior(theta, beta, log_prior, t_lo, t_hi, target) -> np.ndarray:
    r"""Exact lower posterior :math:`\min_t P_t(c \mid \mathbf x)` of class ``target[i]`` (n,).

    :math:`1/P_t(c\mid\mathbf x) = 1 + \sum_{c' \ne c} e^{w_{c'} + \sum_j R_{c'j}(t_j)}` with
    :math:`R_{c'j} = \log f_j(c', t_j) - \log f_j(c, t_j)`, and in each :math:`t_j` alone the sum is a
    linear-fractional function (its terms share the denominator :math:`f_j(c, t_j)`), so the
    minimum is at a vertex of the box.  A feature on which every rival's :math:`R_{c'j}` moves the
    same way between the end points takes its best end point whatever the others do; only the
    remaining *mixed* features (none with two classes) need a search: every combination when there
    are at most 14 of them, else a depth-first branch and bound (bound: each term at its own best end
    points), both exact.
    """
    n_classes, _, n = theta.shape
    f_lo, f_hi = log_factors(theta, beta, t_lo), log_factors(theta, beta, t_hi)    # (C, m, n)
    target = np.asarray(target, dtype=np.int64)
    rows = np.arange(n)
    # every row at once, (n, C, m) with each class's R_{c'j} (the target's own row is 0 at both ends, so
    # it never decides "up" / "down"; it is left out of the sums below)
    own_lo, own_hi = f_lo[target, :, rows], f_hi[target, :, rows]                    # (n, m)
    r_lo = np.ascontiguousarray(f_lo.transpose(2, 0, 1)) - own_lo[:, None, :]
    r_hi = np.ascontiguousarray(f_hi.transpose(2, 0, 1)) - own_hi[:, None, :]
    step = r_hi - r_lo
    up, down = (step >= 0).all(axis=1), (step <= 0).all(axis=1)                      # (n, m)
    w = log_prior[None, :] - log_prior[target][:, None]                               # (n, C)
    base = w + np.where(up[:, None, :], r_hi, np.where(down[:, None, :], r_lo, 0.0)).sum(axis=2)
    mixed = ~up & ~down
    out = np.empty(n)
    plain = ~mixed.any(axis=1)                        # no mixed feature (always so with two classes)
    if plain.any():
        own = np.arange(n_classes)[None, :] == target[plain][:, None]
        out[plain] = np.exp(-np.logaddexp(0.0, _logsumexp_except(base[plain], own)))
    for i in np.flatnonzero(~plain):
        c = int(target[i])
        rivals = [r for r in range(n_classes) if r != c]
        cols = np.flatnonzero(mixed[i])
        log_s = _max_log_sum(base[i, rivals], r_lo[i][rivals][:, cols], r_hi[i][rivals][:, cols])
        out[i] = np.exp(-np.logaddexp(0.0, log_s))
    return out


@functools.cache
def _vertices(n_mixed: int) -> np.ndarray:
    """Every end point choice of ``n_mixed`` features, (2^M, M) of 0 (lower) / 1 (upper); read only."""
    pick = np.array(list(itertools.product((0.0, 1.0), repeat=n_mixed)))
    pick.flags.writeable = False
    return pick


def _max_log_sum(base, r_lo, r_hi) -> float:
    """max over e in {lo, hi}^M of log sum_r exp(base_r + sum_j R_rj(e_j))."""
    n_mixed = r_lo.shape[1]
    if n_mixed == 0:
        return float(_logsumexp_except(base))
    if n_mixed <= _ENUMERATE:
        vals = base[None, :] + r_lo.sum(axis=1)[None, :] + _vertices(n_mixed) @ (r_hi - r_lo).T
        return float(_logsumexp_except(vals).max())
    best_each = np.maximum(r_lo, r_hi)
    tail = np.concatenate([np.cumsum(best_each[:, ::-1], axis=1)[:, ::-1], np.zeros((len(base), 1))], axis=1)
    incumbent = [-np.inf]

    def search(j, acc):
        if _logsumexp_except(acc + tail[:, j]) <= incumbent[0]:
            return
        if j == n_mixed:
            incumbent[0] = float(_logsumexp_except(acc))
            return
        high_first = _logsumexp_except(acc + r_hi[:, j]) >= _logsumexp_except(acc + r_lo[:, j])
        first, second = (r_hi, r_lo) if high_first else (r_lo, r_hi)
        search(j + 1, acc + first[:, j])
        search(j + 1, acc + second[:, j])

    search(0, base.astype(float))
    return incumbent[0]


class CMA(CredalClassifierMixin, BMANaive):
    r"""Credal model averaging over the naive Bayes classifiers on every subset of features.

    BMA over the :math:`2^k` feature subsets (Dash & Cooper's product form, see
    :class:`BMANaive`), with the single prior over subsets replaced by the credal set

    .. math::
        \mathcal P = \Big\{P(g) = \prod_j t_j^{[j \in g]} (1-t_j)^{[j \notin g]} :
            t_j \in [t_{\min}, 1 - t_{\min}]\Big\}

    (each feature's prior probability of inclusion free in an interval, independently; the Weka
    plugin's ``credalNB.Cma``, the implementation paper 001 ran, uses :math:`t_{\min} = 0.1`).
    Class ``a`` dominates ``b`` iff :math:`\min_{P \in \mathcal P} P(a, \mathbf x)/P(b, \mathbf x) > 1`;
    the ratio is a product of per-feature factors each monotone in its own :math:`t_j`, so the
    minimum is exact in closed form (:func:`cma_min_log_ratio`) — no subset and no vertex enumerated.
    Dominance implies a higher BMA score at every prior, so it has no cycle; ``predict`` is
    :class:`BMANaive`'s label at :math:`t = 1/2` (inside the set), always in ``predict_set``.

    **Missing values.** As :class:`BMANaive` (and the plugin): each feature's counts and likelihoods
    over the rows where it is present; a missing test value leaves the product.  The plugin passes
    ``s`` as an integer (``(int) getSValue()``); here any ``s > 0``.  Its marginal likelihoods use
    :math:`\Gamma(1)` where :math:`\Gamma(s)` belongs (equal at the default s = 1) and a series
    approximation of :math:`\log\Gamma`; here scipy's exact ``gammaln``.

    Parameters
    ----------
    s : float, default=1.0
        Strength of the Dirichlet (Perks) parameter priors (> 0).
    t_min : float, default=0.1
        Each feature's prior probability of inclusion ranges over :math:`[t_{\min}, 1-t_{\min}]`;
        in (0, 1/2].  ``t_min = 0.5`` is BMA.
    categories : {"seen", "declared"} or list of lists, default="seen"

    Attributes
    ----------
    form_ : ProductForm — per-feature constants of the product form.
    inclusion_probability_ : ndarray (m,) — BMA's posterior probability that each feature is in the
        model, at t = 1/2.
    inclusion_interval_ : ndarray (m, 2) — its lower and upper values over the credal set
        (:math:`t L^C_j/(t L^C_j + (1-t) L^0_j)` grows with t: the ends are at :math:`t_{\min}` and
        :math:`1-t_{\min}`).

    References
    ----------
    Corani, G. and Zaffalon, M. (2008). Credal model averaging: an extension of Bayesian model
    averaging to imprecise probabilities. ECML PKDD 2008, 257-271.

    Examples
    --------
    >>> import pandas as pd
    >>> from credal_core.model_averaging import CMA
    >>> X = pd.DataFrame({"a": list("xxyyxy"), "b": list("ppqqqp")})
    >>> CMA().fit(X, [0, 0, 1, 1, 0, 1]).predict_set(X.iloc[:1])
    array([[ True, False]])
    """

    _parameter_constraints = {"s": [Interval(Real, 0, None, closed="neither")],
                              "t_min": [Interval(Real, 0, 0.5, closed="right")],
                              "categories": CATEGORIES_CONSTRAINT}

    def __init__(self, *, s: float = 1.0, t_min: float = 0.1, categories="seen"):
        self.s = s
        self.t_min = t_min
        self.categories = categories

    def _fit_tables(self, tables, codes=None, y_codes=None):
        super()._fit_tables(tables, codes, y_codes)
        lo = self.form_.subset_log_posterior(float(self.t_min))
        hi = self.form_.subset_log_posterior(1.0 - float(self.t_min))
        self.inclusion_interval_ = np.exp(np.column_stack([lo, hi]))

    @property
    def t(self):
        """BMA's inclusion prior used by ``predict``: 1/2, the centre of the credal set."""
        return 0.5

    def _dominance(self, codes):
        # per ordered pair (a, b) and feature value, the worse end point's log ratio (on the small
        # tables), then one gather-sum per pair: the sum over features of the per-feature minima
        lo = self.form_.factor_tables(float(self.t_min))
        hi = self.form_.factor_tables(1.0 - float(self.t_min))
        n_classes = len(self.form_.log_prior)
        pairs = [(a, b) for a in range(n_classes) for b in range(n_classes) if a != b]
        first, second = np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs])
        tables = [np.minimum(l_[first] - l_[second], h_[first] - h_[second]) for l_, h_ in zip(lo, hi)]
        worst = lookup_sum(codes, tables)                                        # (pairs, n)
        lp = self.form_.log_prior
        dom = np.zeros((codes.shape[0], n_classes, n_classes), dtype=bool)
        dom[:, first, second] = (lp[first, None] - lp[second, None] + worst > TIE).T
        return dom

    def lower_posterior(self, X, target=None) -> np.ndarray:
        """Exact lower posterior probability over the credal set (n,) of class ``target`` (positions
        in ``classes_``; default: ``predict``'s class), see :func:`cma_lower_posterior`."""
        codes = self._encode(X)
        theta, beta = self.form_.gather(codes)
        if target is None:
            target = np.argmax(self._joint_log_likelihood(codes), axis=0)
        return cma_lower_posterior(theta, beta, self.form_.log_prior, float(self.t_min),
                                   1.0 - float(self.t_min), np.asarray(target))
