"""BMA-AODE* and COMP-AODE*: the credal versions of BMA-AODE and COMP-AODE (paper 001 §2.3, §2.5)."""
from __future__ import annotations

from numbers import Real

import numpy as np
from sklearn.base import clone
from sklearn.utils._param_validation import Interval
from sklearn.utils.validation import check_is_fitted

from .._base import CredalClassifierMixin
from . import _kernels
from ._dominance import REL_TIE, bma_dominance, comp_dominance
from ._spode import DEFAULT_MAX_TABLE_BYTES
from .bma import BMAAODE
from .compression import CompAODE

__all__ = ["CredalBMAAODE", "CredalCompAODE"]

# Instances per dominance chunk, so that the (n, C, C, k) work arrays stay small.
_CHUNK_CELLS = 2 ** 21


def _kept_posteriors(spodes, codes, keep) -> np.ndarray:
    """Posteriors of the kept SPODEs, class-major per instance: a contiguous array (n, C, k̃).

    exp(L - max L) divided by its sum over the classes (added in class order): one exponential per
    class instead of two and a log, the operations of the compiled kernels (same floats)."""
    joint = spodes.log_joint_ckn(codes)[:, keep, :]                              # (C, k̃, n)
    shifted = np.exp(joint - joint.max(axis=0, keepdims=True))
    total = shifted[0].copy()
    for c in range(1, shifted.shape[0]):                # class order, as the kernels add them
        total += shifted[c]
    return np.ascontiguousarray((shifted / total).transpose(2, 0, 1))


class _WithEpsilon:
    def with_epsilon(self, epsilon: float):
        """A copy of this fitted model with another ``epsilon``, its SPODE tables shared (no recount).

        Equal to a fresh ``fit`` on the same rows with ``epsilon`` (same weights, intervals,
        dominance and sets), at the cost of the weights alone: what a slider over ε needs.  The
        copy shares ``spodes_`` and ``tables_`` with this model (never mutate them).  ValueError for
        an ``epsilon`` the credal set cannot take, as ``fit`` raises.
        """
        check_is_fitted(self, "spodes_")
        return clone(self).set_params(epsilon=epsilon).fit_spodes(self.spodes_)


def _chunked(n, n_classes, k):
    step = max(1, _CHUNK_CELLS // max(1, n_classes * n_classes * k))
    return [slice(s, s + step) for s in range(0, n, step)]


class CredalBMAAODE(_WithEpsilon, CredalClassifierMixin, BMAAODE):
    r"""BMA-AODE*: BMA-AODE under the prior credal set of eq. 4 over the kept SPODEs.

    .. math:: \mathcal P(S) = \{P(S) : P(s_j) \ge \epsilon,\ \textstyle\sum_{j\in K} P(s_j) = 1\}

    Class a dominates b iff
    :math:`\min_{P \in \mathcal P(S)} \frac{\sum_j P(a \mid \tilde{\mathbf a}, s_j) L_j P(s_j)}
    {\sum_j P(b \mid \tilde{\mathbf a}, s_j) L_j P(s_j)} > 1`, computed exactly at the k̃ vertices of
    the credal set (see :mod:`credal_core.aode._dominance`), O(l² k) per instance instead of l² LPs.
    The verdict has a relative tie band of 1e-12: a dominance holding by less than 1e-12 of the
    scale of the two numerators is reported as non-dominance (the set can only get larger).
    The pruned SPODEs (``kept_`` false) are outside the credal set: the sum runs over the kept
    ones, :math:`\sum_{j \in K} P(s_j) = 1`, so ``epsilon`` must be at most :math:`1/\tilde k`.
    ``predict`` is BMA-AODE's label, which is always in ``predict_set`` (the uniform prior over K is
    in the credal set).

    Parameters
    ----------
    epsilon : float, default=0.01
        Lower bound of every SPODE's prior; needs :math:`\tilde k\,\epsilon \le 1`.
    max_table_bytes, categories
        As in :class:`~credal_core.aode.AODE` (the size limit of the SPODE tables; :math:`|A_j|`).

    Examples
    --------
    >>> import pandas as pd
    >>> from credal_core.aode import CredalBMAAODE
    >>> X = pd.DataFrame({"a": list("xxyyxy"), "b": list("ppqqqp")})
    >>> CredalBMAAODE().fit(X, [0, 0, 1, 1, 0, 1]).predict_set(X.iloc[:1])
    array([[ True, False]])
    """

    _parameter_constraints = {**BMAAODE._parameter_constraints,
                              "epsilon": [Interval(Real, 0, 1, closed="both")]}

    def __init__(self, *, epsilon: float = 0.01, max_table_bytes: float = DEFAULT_MAX_TABLE_BYTES,
                 categories="seen"):
        self.epsilon = epsilon
        self.max_table_bytes = max_table_bytes
        self.categories = categories

    def _fit_weights(self, log_likelihoods):
        super()._fit_weights(log_likelihoods)
        k_kept = int(self.kept_.sum())
        if k_kept * self.epsilon > 1.0:
            raise ValueError(f"epsilon = {self.epsilon:g} is too large for {k_kept} kept SPODEs: the "
                             f"credal set of eq. 4 needs k·epsilon <= 1 (epsilon <= {1 / k_kept:.4g})")

    def _dominance(self, codes):
        kept = self.kept_
        n, n_classes = codes.shape[0], len(self.classes_)
        out = np.empty((n, n_classes, n_classes), dtype=bool)
        w = self.weights_[kept]
        tt = self.spodes_.kernel_table()
        if tt is not None:                  # compiled, row by row: the same operations
            _kernels.bma_dominance_rows(tt, self.spodes_.slot_index(codes), np.flatnonzero(kept),
                                        np.ascontiguousarray(self._usable(codes).T), w,
                                        float(self.epsilon), REL_TIE, out)
            return out
        for sl in _chunked(n, n_classes, int(kept.sum())):
            part = codes[sl]
            post = _kept_posteriors(self.spodes_, part, kept).swapaxes(1, 2)   # (n, k̃, C) view
            usable = self._usable(part)[:, kept]
            out[sl] = bma_dominance(post, w, float(self.epsilon), None if usable.all() else usable)
        return out


class CredalCompAODE(_WithEpsilon, CredalClassifierMixin, CompAODE):
    r"""COMP-AODE*: COMP-AODE under the prior credal set of eq. 9 (null model fixed at ε).

    .. math:: \mathcal P_c(S) = \{P(S) : P(s_0) = \epsilon,\ P(s_j) \ge \epsilon,\
              \textstyle\sum_{j=0}^k P(s_j) = 1\}

    A SPODE is kept (``credal_feasible_``) iff its upper compression coefficient (eq. 10) is
    positive.  Class a dominates b iff :math:`\sum_{j} (P(a \mid \tilde{\mathbf a}, s_j) -
    P(b \mid \tilde{\mathbf a}, s_j))\,\pi_j(P(s_j)) > 0` for every prior — eq. 15's ratio exceeding
    1 whenever its denominator is positive — computed exactly in closed form (separable objective:
    water-filling or a vertex, see :mod:`credal_core.aode._dominance`), with a relative tie band of
    1e-12: a dominance holding by less than 1e-12 of the scale of the terms is reported as
    non-dominance.  The dropped SPODEs' priors stay free in eq. 9, so the kept ones share at most
    :math:`1-(k-\tilde k+1)\epsilon` (001 pins the dropped ones at ε before eq. 15, "the best
    solution"; it is not always: parking mass on a dropped SPODE can lower the minimum).  If no
    SPODE is feasible no class can be ranked: every class is returned.  ``predict`` is COMP-AODE's
    label; it is in the set whenever COMP-AODE and COMP-AODE* keep the same SPODEs (001 footnote 3).

    **Negative weights (eq. 12 kept as printed).** :math:`\pi_j(P(s_j))` is negative at the priors
    where :math:`LL_j + \log P(s_j) < LL_0 + \log\epsilon`.  A kept SPODE whose *lower*
    coefficient (eq. 10) is negative therefore gets a negative weight at some priors of the credal
    set, and its preference then counts *against* the class it prefers.  Example: :math:`LL_0=-30`,
    :math:`LL=(-30.5,-33.5,-33.5)`, ε = 0.01, SPODE posteriors of class 0 = (.51, .9, .9): every SPODE
    prefers class 0, yet neither class dominates (at the prior 1-3ε on SPODE 1, SPODEs 2 and 3 weigh
    negatively) and the set is {0, 1}.  We keep the paper's definition rather than clipping π_j at 0
    per prior (which is what COMP-AODE does at its single prior): clipping would make the objective
    non-concave and non-smooth and the pool undefined where every clipped weight is 0.  The effect
    (which can widen or narrow a set) needs a kept SPODE with :math:`LL_j < LL_0`, i.e. one that
    fits the training classes worse than the null model in-sample: rare (no SPODE of the
    categorical sample data sets shipped in sample_data/ has it).

    Parameters
    ----------
    epsilon : float, default=0.01
        Prior of the null model and lower bound of each SPODE's prior; needs :math:`(k+1)\epsilon \le 1`.
    max_table_bytes, categories
        As in :class:`~credal_core.aode.AODE` (the size limit of the SPODE tables; :math:`|A_j|`).

    Attributes
    ----------
    credal_feasible_ : ndarray (k,) of bool — upper coefficient of eq. 10 > 0.
    (and those of :class:`CompAODE`)

    Examples
    --------
    >>> import pandas as pd
    >>> from credal_core.aode import CredalCompAODE
    >>> X = pd.DataFrame({"a": list("xxyyxy"), "b": list("ppqqqp")})
    >>> CredalCompAODE().fit(X, [0, 0, 1, 1, 0, 1]).predict_set(X.iloc[:1])
    array([[ True, False]])
    """

    def _validate_n_features(self, k):
        if (k + 1) * self.epsilon > 1.0:
            raise ValueError(f"epsilon = {self.epsilon:g} is too large for {k} SPODEs: the credal set "
                             f"of eq. 9 needs (k+1)·epsilon <= 1 (epsilon <= {1 / (k + 1):.4g})")

    def _fit_weights(self, log_likelihoods):
        super()._fit_weights(log_likelihoods)
        self.credal_feasible_ = self.compression_interval_[:, 1] > 0

    def comp_problem(self):
        """Constants of the dominance problem: (feasible mask, b_j = D + LL_j, T, equality)."""
        eps, k = float(self.epsilon), self.n_features_in_
        keep = self.credal_feasible_
        d_null = -(self.null_log_likelihood_ + np.log(eps))
        base = d_null + self.log_likelihoods_[keep]
        total = 1.0 - (k - int(keep.sum()) + 1) * eps
        return keep, base, total, bool(keep.all())

    def _dominance(self, codes, sets_only=False):
        keep, base, total, equality = self.comp_problem()
        n, n_classes = codes.shape[0], len(self.classes_)
        if not keep.any():
            return np.zeros((n, n_classes, n_classes), dtype=bool)
        out = np.empty((n, n_classes, n_classes), dtype=bool)
        tt = self.spodes_.kernel_table()
        if tt is not None:                  # compiled, row by row: the same operations
            kept = np.flatnonzero(keep)
            _kernels.comp_dominance_rows(tt, self.spodes_.slot_index(codes), kept,
                                         np.ascontiguousarray(self._usable(codes).T), base,
                                         base + np.log(total / kept.size), float(self.epsilon), float(total),
                                         equality, REL_TIE, sets_only, out)
            return out
        for sl in _chunked(n, n_classes, int(keep.sum())):
            part = codes[sl]
            post = _kept_posteriors(self.spodes_, part, keep)                # (n, C, k̃)
            # a SPODE whose parent is missing leaves the pool: zero posteriors make its term vanish,
            # and its prior is then free like a dropped SPODE's (see _dominance's module doc)
            unusable = ~self._usable(part)[:, keep]
            if unusable.any():
                post *= ~unusable[:, None, :]
            out[sl] = comp_dominance(post.swapaxes(1, 2), base, float(self.epsilon), total, equality)
        return out

    def _set_dominance(self, codes):
        # dominance needs a strictly higher centre score (no cycle): the compiled rows stop testing
        # the rivals of a class once one dominates it (``CredalClassifierMixin._set_dominance``)
        return self._dominance(codes, sets_only=True)
