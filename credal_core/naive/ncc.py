"""Naive credal classifier (Zaffalon's IDM, paper 000 §2.2) and its ε-contaminated version NCC_ε."""
from __future__ import annotations

import numpy as np

from .._base import TIE, CredalClassifierMixin, NaiveCountsClassifier, check_number, perks_log_joint
from .._roots import increasing_root
from ..data.counts import Gather

__all__ = ["NCC"]


class NCC(CredalClassifierMixin, NaiveCountsClassifier):
    r"""Naive credal classifier with the imprecise Dirichlet model, optionally ε-contaminated.

    Class ``a`` dominates ``b`` on instance :math:`\tilde f` iff (paper 000, eq. 5)

    .. math:: \inf_{t \in \mathcal T_\epsilon} \frac{P_t(a, \tilde f)}{P_t(b, \tilde f)} > 1,

    where :math:`P_t` is the NBC of eqs. 2-3 with prior :math:`(s, t)`, and
    :math:`\mathcal T_\epsilon = \{(1-\epsilon) u + \epsilon\, t_{\rm Perks} : u \in \mathcal T\}`
    contaminates Zaffalon's set :math:`\mathcal T` (eq. 4: :math:`\sum_c t(c) = 1`,
    :math:`\sum_{f_j} t(c, f_j) = t(c)`) with Perks' prior (000 §2.2, after Corani and Benavoli).
    ``epsilon=0`` is Zaffalon's NCC; ``epsilon=1`` is the Perks NBC.

    **Exact solution.** Write :math:`N(\cdot) = n(\cdot) + s\epsilon\,t_{\rm Perks}(\cdot)` and
    :math:`\sigma = s(1-\epsilon)`: NCC_ε is Zaffalon's IDM with strength σ on the counts N.  The
    infimum sets :math:`u(a, \tilde f_j) = 0`, :math:`u(b, \tilde f_j) = u(b) = x` and, when there are
    two or more features, :math:`u(a) = 1 - x`, leaving the one-dimensional problem

    .. math::
        \min_{x \in [0, 1]} h(x) = (m-1)\log\frac{N(b) + \sigma x}{N(a) + \sigma(1-x)}
            + \sum_j \log N(a, \tilde f_j) - \sum_j \log\big(N(b, \tilde f_j) + \sigma x\big).

    For ``m >= 1``, ``h`` is convex (its second derivative is at least
    :math:`\sum_j \sigma^2/(N(b,\tilde f_j)+\sigma x)^2 - (m-1)\sigma^2/(N(b)+\sigma x)^2 \ge 0`
    because :math:`N(b, \tilde f_j) \le N(b)`), so ``a`` dominates ``b`` iff ``min h > 0``.  The
    minimum is decided from its end points and tangents when possible, otherwise located by bracketed
    Newton iteration on ``h'`` to machine precision — no grid.  A zero count
    :math:`N(a, \tilde f_j) = 0` makes the infimum 0 (000 §2.2, zero-count issue (a)).  A feature
    with a single value in training cannot move prior mass off the instance's value, so it
    contributes the factor 1 and ``m`` counts the other features only; with ``m = 0`` the
    infimum is :math:`N(a)/(N(b)+\sigma)`, at x = 1 (``h`` decreases).

    Sets shrink as ``epsilon`` grows, and as ``s`` falls when ``epsilon = 0``; with ``epsilon > 0``
    they need not be nested in ``s``, because the Perks part :math:`s\epsilon` moves the centre of
    the prior set as well as its size.

    Parameters
    ----------
    s : float, default=1.0
        Number of hidden instances of the IDM (> 0).
    epsilon : float, default=0.0
        Contamination with Perks' prior, in [0, 1].

    Examples
    --------
    >>> import pandas as pd
    >>> from credal_core import NCC
    >>> X = pd.DataFrame({"f": ["x"] * 6 + ["y"] * 2})
    >>> y = ["c", "c", "c", "c", "c", "d", "c", "d"]   # 000 Example 2's counts
    >>> NCC(s=1.0).fit(X, y).predict_set(pd.DataFrame({"f": ["x"]}))
    array([[ True, False]])
    """

    def __init__(self, *, s: float = 1.0, epsilon: float = 0.0):
        self.s = s
        self.epsilon = epsilon

    def _validate_params(self):
        check_number("s", self.s, 0.0, low_open=True)
        check_number("epsilon", self.epsilon, 0.0, 1.0)

    def _joint_log_likelihood(self, codes):
        # The precise counterpart: the Perks NBC with the same s (it lies in every T_eps).
        return perks_log_joint(self.tables_, codes, float(self.s))

    def _dominance(self, codes):
        tables = self.tables_
        n_classes = len(tables.classes)
        s, eps = float(self.s), float(self.epsilon)
        sigma = s * (1 - eps)
        big_n = tables.class_counts + s * eps / n_classes
        counts = [ext + s * eps / (n_classes * (ext.shape[1] - 1)) for ext in tables.extended_counts()]
        # A feature with a single value in training is certain under every prior: it contributes
        # the factor 1 to every ratio and drops out (unless the instance's value is unseen, which
        # then widens its space to two values with a zero count).
        single = np.array([c.shape[1] == 2 for c in counts])   # one value + the unseen column
        keep = [np.where(np.arange(c.shape[1]) < c.shape[1] - 1, 0.0, 1.0) if one else
                np.ones(c.shape[1]) for c, one in zip(counts, single)]
        gather = Gather(codes, [c.shape[1] - 1 for c in counts])
        dropped = codes[:, single] >= 0                                  # (n, #single features)
        m = codes.shape[1] - dropped.sum(axis=1)                         # features taking part
        with np.errstate(divide="ignore", over="ignore"):   # zero counts: log 0 = -inf, 1/0 = inf
            sums = gather.sum_many({
                "log": [np.where(k > 0, np.log(c), 0.0) for c, k in zip(counts, keep)],
                "log_s": [np.where(k > 0, np.log(c + sigma), 0.0) for c, k in zip(counts, keep)],
                "inv": [np.where(k > 0, 1 / c, 0.0) for c, k in zip(counts, keep)],
                "inv_s": [np.where(k > 0, 1 / (c + sigma), 0.0) for c, k in zip(counts, keep)]})
        sum_log, sum_log_s, sum_inv, sum_inv_s = (sums[k] for k in ("log", "log_s", "inv", "inv_s"))
        n = codes.shape[0]
        dom = np.zeros((n, n_classes, n_classes), dtype=bool)
        gathered = None
        for a in range(n_classes):
            for b in range(n_classes):
                if a == b:
                    continue
                na, nb = big_n[a], big_n[b]
                can = np.isfinite(sum_log[a])                       # a zero N(a, f_j): inf h = 0
                # tiny ε makes 1/N huge: ±inf end slopes are handled by the logic below
                with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                    h1 = (m - 1) * (np.log(nb + sigma) - np.log(na)) + sum_log[a] - sum_log_s[b]
                    zero_b = ~np.isfinite(sum_log[b])               # some N(b, f_j) = 0: h(0) = +inf
                    h0 = np.where(zero_b, np.inf,
                                  (m - 1) * (np.log(nb) - np.log(na + sigma)) + sum_log[a] - sum_log[b])
                    d0 = np.where(zero_b, -np.inf,
                                  sigma * ((m - 1) * (1 / nb + 1 / (na + sigma)) - sum_inv[b]))
                    d1 = sigma * ((m - 1) * (1 / (nb + sigma) + 1 / na) - sum_inv_s[b])
                if sigma == 0:                                      # epsilon = 1: h is constant
                    dom[:, a, b] = can & (h1 > TIE)
                    continue
                result = can & (h0 > TIE) & (h1 > TIE)
                decided = ~result | (d0 >= 0) | (d1 <= 0)           # min at an end point
                # Convexity: h lies above both end tangents, hence above their crossing point.
                with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
                    xc = (h1 - d1 - h0) / (d0 - d1)
                    lower = h0 + d0 * xc
                decided |= np.isfinite(lower) & (lower > TIE)
                todo = np.flatnonzero(~decided)
                if todo.size:
                    if gathered is None:
                        gathered = gather.take(counts)              # (C, m, n)
                    cb = gathered[b][:, todo].T                     # (k, m)
                    wb = np.ones((todo.size, codes.shape[1]))
                    wb[:, single] = ~dropped[todo]
                    mt = m[todo]
                    xstar = increasing_root(
                        lambda x, idx: _ncc_slope(x, cb[idx], wb[idx], na, nb, sigma, mt[idx]),
                        np.zeros(todo.size), np.ones(todo.size))
                    hmin = ((mt - 1) * (np.log(nb + sigma * xstar) - np.log(na + sigma * (1 - xstar)))
                            + sum_log[a][todo] - (wb * np.log(cb + sigma * xstar[:, None])).sum(axis=1))
                    result[todo] = hmin > TIE
                dom[:, a, b] = result
        return dom


def _ncc_slope(x, cb, wb, na, nb, sigma, m):
    """h'(x)/σ and its derivative for the one-dimensional NCC problem (see :class:`NCC`).

    ``wb`` (k, m) is 1 for the features that take part and 0 for single-valued ones.
    """
    inv = wb / (cb + sigma * x[:, None])
    value = (m - 1) * (1 / (nb + sigma * x) + 1 / (na + sigma * (1 - x))) - inv.sum(axis=1)
    slope = sigma * (-(m - 1) * (1 / (nb + sigma * x) ** 2 - 1 / (na + sigma * (1 - x)) ** 2)
                     + (inv ** 2).sum(axis=1))
    return value, slope
