"""Naive Bayes classifier (paper 000 §2.1, paper 004 §2) and its critical perturbation threshold."""
from __future__ import annotations

from numbers import Real

import numpy as np
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from .._base import CATEGORIES_CONSTRAINT, TIE, NaiveCountsClassifier, perks_log_joint
from .._roots import increasing_root
from ..data.counts import MISSING, lookup, lookup_sum

__all__ = ["NaiveBayes"]


class NaiveBayes(NaiveCountsClassifier):
    r"""Naive Bayes classifier on categorical features.

    Parameters
    ----------
    s : float, default=1.0
        Equivalent sample size of Perks' prior (``prior="perks"``); ``s = 0`` is maximum likelihood.
        Not used by ``prior="laplace"``.  A value unseen in training gets the zero-count formula
        below with |F_j| the number of values seen in training (so, with it, the conditional
        probabilities of feature j no longer sum to exactly 1).
    prior : {"perks", "laplace"}, default="perks"
        ``"perks"`` (paper 000, eqs. 2-3 with :math:`t(c) = 1/|C|`,
        :math:`t(c, f_j) = 1/(|C||F_j|)`):

        .. math:: \theta_c = \frac{n(c) + s/|C|}{N + s}, \quad
                  \theta_{f_j|c} = \frac{n(c, f_j) + s/(|C||F_j|)}{n(c) + s/|C|}

        ``"laplace"`` (paper 004, §2): :math:`P(c) = \frac{n(c)+1}{N+|C|}`,
        :math:`P(f_j|c) = \frac{n(c, f_j)+1}{n_j(c)+|F_j|}` (JNCC2's NBC).

        Missing values are missing at random: :math:`n_j(c)` counts the class-``c`` rows where
        feature ``j`` is present (``n(c)`` with complete data), so each conditional is the Bayesian
        update of its prior by the rows that observe it; a missing test value is left out of the
        product.  :math:`n_j(c)` replaces ``n(c)`` in the conditionals of both priors.
    categories : {"seen", "declared"} or list of lists, default="seen"
        :math:`F_j`: the values seen in training, a pandas Categorical column's declared categories,
        or explicit per-feature value lists (see :meth:`CountTables.from_data`).

    Attributes
    ----------
    classes_ : ndarray of shape (C,)
    class_count_ : ndarray of shape (C,)
    feature_count_ : list of ndarray, ``feature_count_[j][c, v] = n(c, F_j = v)``
    tables_ : CountTables

    Examples
    --------
    >>> import pandas as pd
    >>> from credal_core import NaiveBayes
    >>> X = pd.DataFrame({"colour": list("rrgbg"), "size": list("sslsl")})
    >>> nb = NaiveBayes(s=1.0).fit(X, ["yes", "no", "yes", "no", "no"])
    >>> nb.predict(pd.DataFrame({"colour": ["r"], "size": ["s"]}))
    array(['no'], dtype='<U3')
    """

    _parameter_constraints = {"s": [Interval(Real, 0, None, closed="left")],
                              "prior": [StrOptions({"perks", "laplace"})],
                              "categories": CATEGORIES_CONSTRAINT}

    def __init__(self, *, s: float = 1.0, prior: str = "perks", categories="seen"):
        self.s = s
        self.prior = prior
        self.categories = categories

    def _joint_log_likelihood(self, codes):
        if self.prior == "perks":
            return perks_log_joint(self.tables_, codes, float(self.s))
        return _laplace_log_joint(self.tables_, codes)

    def perturbation_threshold(self, X) -> np.ndarray:
        r"""Critical perturbation threshold of each instance (paper 004, §3).

        The largest ``s`` for which the NCC built from local imprecise Dirichlet models around the
        Laplace counts (004's "Laplace-IDM") still returns only the Laplace NBC's class:

        .. math::
            P(c) = \frac{n(c) + 1 + s\,t(c)}{N + |C| + s}, \qquad
            P(f_j|c) = \frac{n(c, f_j) + 1 + s\,t_{j,c}(f_j)}{n(c) + |F_j| + s}

        with every pmf :math:`t, t_{j,c}` free.  These local sets are separately specified, so the
        infimum of :math:`P(\hat c, f)/P(b, f)` puts :math:`t(\hat c) = 0, t(b) = 1`,
        :math:`t_{j,\hat c}(\tilde f_j) = 0, t_{j,b}(\tilde f_j) = 1`:

        .. math::
            R_b(s) = \frac{n(\hat c)+1}{n(b)+1+s} \prod_j
                     \frac{(n(\hat c, \tilde f_j)+1)\,(n(b)+|F_j|+s)}
                          {(n(\hat c)+|F_j|+s)\,(n(b, \tilde f_j)+1+s)}

        (:math:`n_j(c)` replaces ``n(c)`` in feature ``j``'s factor when values are missing; a missing
        test value leaves the product.)  :math:`\log R_b` is strictly decreasing in ``s`` (each
        feature's term of its derivative is below :math:`-1/(n_j(\hat c)+|F_j|+s)`, because
        :math:`n(b, \tilde f_j) + 1 \le n_j(b) + |F_j|`), from the NBC's log-odds at ``s = 0`` to
        :math:`-\infty`, so the threshold is :math:`\min_{b \ne \hat c}` of the unique root of
        :math:`R_b(s) = 1`, found by bracketed Newton iteration to machine precision.  It is 0 when
        the NBC has a tie.  This is the Laplace-smoothed NBC whatever ``prior`` is set to.  A
        feature with a single value in training has :math:`P(f_j|c) = 1` under every local prior and
        drops out.

        Returns
        -------
        ndarray of shape (n,)
        """
        return self._threshold_and_best(self._encode(X))[0]

    def threshold_and_best_codes(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`perturbation_threshold` and the Laplace NBC's class of instances already encoded.

        The argmax is computed on the way to the thresholds anyway, so callers that need both (the
        threshold selector's inner loops) do not compute it twice.

        Parameters
        ----------
        codes : ndarray of int, shape (n, m)
            Integer codes in this model's tables (:meth:`encode`).

        Returns
        -------
        threshold : ndarray of float, shape (n,)
            The critical perturbation thresholds (004 §3).
        best : ndarray of int, shape (n,)
            Positions in ``classes_`` of the Laplace-smoothed NBC's classes (ties: the first), i.e.
            ``NaiveBayes(prior="laplace").predict`` as class codes, whatever ``prior`` is set to.
        """
        check_is_fitted(self, "tables_")
        return self._threshold_and_best(codes)

    def _threshold_and_best(self, codes) -> tuple[np.ndarray, np.ndarray]:
        """Thresholds (n,) and the Laplace NBC's class codes (n,): the argmax is computed here anyway,
        so callers that need both (the threshold selector's inner loops) do not compute it twice."""
        tables = self.tables_
        n_classes = len(tables.classes)
        counts = lookup(codes, tables.extended_counts())            # (C, m, n)
        n_values = np.array([max(len(c), 1) for c in tables.categories], dtype=float)
        nc = tables.class_counts
        present = tables.present_counts().T                         # (C, m): n_j(c)
        # A feature with one value in training has P(f|c) = 1 under every local prior (t_{j,c}
        # has a single point): it drops out, unless the instance's value is unseen.  A missing
        # value drops out too (MAR).
        active = ~((n_values == 1)[None, :] & (codes >= 0)) & (codes != MISSING)     # (n, m)
        jll = _laplace_log_joint(tables, codes)                     # (C, n)
        best = np.argmax(jll, axis=0)
        n = codes.shape[0]
        rows = np.arange(n)
        log_caj1 = np.log(counts + 1)                                # constant in s: taken once
        log_na1 = np.log(nc + 1)

        def solver(b, items):
            """log R_b(s) and its slope for the instances ``items`` (whose class is not b)."""
            a = best[items]
            nb, nbj = nc[b], present[b]
            naj = present[a]                                             # (k, m)
            cbj, lcaj = counts[b][:, items].T, log_caj1[a, :, items]    # (k, m)
            act = active[items]

            def log_r(s, idx):
                s_ = s[:, None]
                feat = (lcaj[idx] + np.log(nbj + n_values + s_)
                        - np.log(naj[idx] + n_values + s_) - np.log(cbj[idx] + 1 + s_))
                value = log_na1[a[idx]] - np.log(nb + 1 + s) + (act[idx] * feat).sum(axis=1)
                dfeat = (1 / (nbj + n_values + s_) - 1 / (naj[idx] + n_values + s_)
                         - 1 / (cbj[idx] + 1 + s_))
                slope = -1 / (nb + 1 + s) + (act[idx] * dfeat).sum(axis=1)
                return value, slope
            return log_r

        def roots(log_r, k):
            """Root of log R_b = 0 for k instances with log R_b(0) > 0: bracket [0, 2^i] by doubling
            (only the instances not yet bracketed are evaluated), then bracketed Newton."""
            hi = np.ones(k)
            open_ = np.arange(k)
            while open_.size:            # grow the bracket until R < 1 (R -> 0 as s -> inf)
                val, _ = log_r(hi[open_], open_)
                open_ = open_[val >= 0]
                hi[open_] *= 2
            return increasing_root(lambda s, idx: tuple(-v for v in log_r(s, idx)), np.zeros(k), hi)

        # log R_b at s = 0 (the log-odds) for every rival b; a tie (within rounding) gives 0
        solvers, odds = {}, np.full((n_classes, n), np.inf)
        for b in range(n_classes):
            items = np.flatnonzero(best != b)
            if items.size:
                solvers[b] = (items, solver(b, items))
                odds[b, items] = solvers[b][1](np.zeros(items.size), np.arange(items.size))[0]
        threshold = np.where(odds.min(axis=0) > TIE, np.inf, 0.0)
        # The threshold is min_b of the roots, and log R_b decreases in s: first the closest rival at
        # s = 0 (usually the minimiser), then another rival only where log R_b(threshold) < 0, i.e.
        # its root lies below the running minimum.  Every root is found exactly as on its own.
        closest = np.argmin(odds, axis=0)
        for b, (items, log_r) in solvers.items():
            pos = np.flatnonzero((closest[items] == b) & np.isinf(threshold[items]))
            if pos.size:
                threshold[items[pos]] = roots(lambda s, idx, p=pos, f=log_r: f(s, p[idx]), pos.size)
        for b, (items, log_r) in solvers.items():
            pos = np.flatnonzero((closest[items] != b) & (threshold[items] > 0))
            if pos.size:
                pos = pos[log_r(threshold[items[pos]], pos)[0] < 0]
            if pos.size:
                found = roots(lambda s, idx, p=pos, f=log_r: f(s, p[idx]), pos.size)
                threshold[items[pos]] = np.minimum(threshold[items[pos]], found)
        top = jll[best, rows]
        threshold[np.sum(jll >= top[None, :] - TIE, axis=0) > 1] = 0.0
        return threshold, best


def _laplace_log_joint(tables, codes) -> np.ndarray:
    """Log joint (C, n) of the Laplace-smoothed NBC of paper 004 (add one to every count), with
    feature ``j``'s conditionals over the ``n_j(c)`` rows where it is present (MAR)."""
    nc = tables.class_counts
    log_prior = np.log((nc + 1) / (nc.sum() + len(nc)))
    logs = [np.log((ext + 1) / (present[:, None] + max(ext.shape[1] - 1, 1)))
            for ext, present in zip(tables.extended_counts(), tables.present_counts())]
    return log_prior[:, None] + lookup_sum(codes, logs)
