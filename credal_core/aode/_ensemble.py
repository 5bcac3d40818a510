r"""The common estimator base of the AODE family: fit, the precise pool, missing parents.

**Pool.**  Posterior averaging (the paper's form, 001 eqs. 3 and 8):
:math:`P(c \mid \mathbf a) = \sum_{j \in U} w_j P(c \mid \mathbf a, s_j) / \sum_{j\in U} w_j`;
joint averaging (Webb's AODE, Weka's ``AODE``; :class:`~credal_core.aode.AODE` with
``combine="joint"``): :math:`P(c \mid \mathbf a) \propto \sum_{j\in U} P(c, \mathbf a \mid s_j)`.

**Missing parents.**  U is the set of SPODEs that can be evaluated on the instance: a SPODE whose
super-parent value is missing (or, with ``frequency_limit``, occurred fewer times in training) is
left out, the other weights renormalised — Weka's ``AODE.distributionForInstance`` skips such a
parent the same way.  If U is empty (every weighted parent missing), the prediction is the naive
Bayes posterior with the same estimator (Weka's fallback, ``NBconditionalProb``).  Missing child
values are summed out inside each SPODE (see :mod:`credal_core.aode._spode`).
"""
from __future__ import annotations

from numbers import Real

import numpy as np
from sklearn.utils._param_validation import Interval

from .._base import CATEGORIES_CONSTRAINT, CategoricalClassifier, warn_once
from .._compiled import numba_enabled
from . import _kernels
from ._spode import SpodeTables, check_table_bytes, log_normalise, log_weighted_mean

__all__ = ["SpodeEnsemble"]

# Cells (instances x SPODEs x classes) per predict block: the (C, k, rows) work arrays of one block
# stay in cache (2 MiB each); larger blocks measured up to 1.5x slower, memory-bound.
_PREDICT_CELLS = 2 ** 18


class SpodeEnsemble(CategoricalClassifier):
    """Base of the AODE family: the SPODE tables; subclasses choose the weights.

    A :class:`~credal_core._base.CategoricalClassifier` that needs the training rows
    (``_needs_training_codes``): ``fit`` counts the pairs of values into :class:`SpodeTables` and
    computes the in-sample conditional log-likelihoods :math:`LL_j` of the SPODEs when
    ``_needs_training_posteriors``.  Subclasses implement ``_fit_weights(log_likelihoods)`` (the
    :math:`LL_j`, or None) and set ``weights_`` (k,).

    **Sharing tables.**  Estimators fitted on the same rows with the same ``estimator``, ``m`` and
    ``categories`` can share one set of tables: ``tables = SpodeTables.from_data(X, y, ...)`` once
    (or a fitted model's ``spodes_``), then ``model.fit_spodes(tables)`` for each — the same fitted
    state as ``fit(X, y)``, without counting again.
    """

    _needs_training_codes = True
    _needs_training_posteriors = True
    _parameter_constraints = {"max_table_bytes": [Interval(Real, 0, None, closed="neither")],
                              "categories": CATEGORIES_CONSTRAINT}

    # hooks with the defaults of the paper's form (AODE overrides them)
    def _estimator(self):
        return "paper", 1.0

    def _combine(self) -> str:
        return "posterior"

    def _frequency_limit(self) -> float:
        return 0.0

    def spode_settings(self) -> tuple:
        """What the SPODE tables depend on: ``(estimator, m, categories)``; estimators with equal
        settings fitted on the same rows can share tables (:meth:`fit_spodes`)."""
        estimator, m = self._estimator()
        return estimator, float(m), repr(self._categories_policy())

    def fit_spodes(self, tables: SpodeTables):
        """Adopt SPODE tables learned once (:meth:`SpodeTables.from_data`, or another model's
        ``spodes_``) instead of counting data: the fitted state equals ``fit`` on the same rows.

        ValueError if the tables were learned with another estimator / ``m``, lack the in-sample
        log-likelihoods this model's weights need, hold fewer than two classes, or exceed
        ``max_table_bytes``.
        """
        self.check_parameters()
        estimator, m = self._estimator()
        if tables.counts is None:
            raise ValueError("these SPODE tables carry no count tables: build them with "
                             "SpodeTables.from_data (or take a fitted model's spodes_)")
        if (tables.estimator, tables.m) != (estimator, float(m)):
            raise ValueError(f"the SPODE tables were learned with estimator={tables.estimator!r}, "
                             f"m={tables.m:g}; {type(self).__name__} uses estimator={estimator!r}, m={m:g}")
        if self._needs_training_posteriors and tables.log_likelihoods is None:
            raise ValueError(f"{type(self).__name__} weighs SPODEs by their in-sample log-likelihoods: "
                             "build the tables with SpodeTables.from_data(..., log_likelihoods=True)")
        if len(tables.counts.classes) < 2:
            raise ValueError("the SPODE tables hold fewer than two classes; a classifier needs two")
        return self._set_tables(tables.counts, spodes=tables)

    def _fit_tables(self, tables, codes=None, y_codes=None, spodes=None):
        if not numba_enabled():
            _warn_numpy_only()
        n_values = [len(c) for c in tables.categories]
        check_table_bytes(len(tables.classes), n_values, self.max_table_bytes)
        self._validate_n_features(tables.n_features)
        if spodes is None:
            estimator, m = self._estimator()
            spodes = SpodeTables.from_counts(tables, codes, y_codes, estimator=estimator, m=m,
                                             log_likelihoods=self._needs_training_posteriors,
                                             max_table_bytes=self.max_table_bytes)
        self.spodes_ = spodes
        log_lik = None if spodes.log_likelihoods is None else spodes.log_likelihoods.copy()
        self._fit_weights(log_lik if self._needs_training_posteriors else None)

    def _validate_n_features(self, k: int):
        """Hook: refuse a number of SPODEs the method cannot handle (e.g. k ε > 1)."""

    def _fit_weights(self, log_likelihoods):
        raise NotImplementedError

    def _usable(self, codes) -> np.ndarray:
        """Bool (n, k): the SPODEs each instance can evaluate (parent present, frequent enough)."""
        return self.spodes_.usable(codes, self._frequency_limit())

    def spode_posteriors(self, X) -> np.ndarray:
        """Each SPODE's class posterior :math:`P(c \\mid \\mathbf a, s_j)`, shape (n, k, C); NaN for
        the SPODEs an instance cannot evaluate (parent missing)."""
        codes = self._encode(X)
        post = np.exp(self.spodes_.log_posteriors(codes))
        post[~self._usable(codes)] = np.nan
        return post

    def _log_pooled(self, codes) -> np.ndarray:
        """Log of the normalised pool (n, C), block by block.

        One pass in probability space (SPODE joints shifted by their largest class term before
        ``exp``, so the best term of every instance is 1); the few instances where a class's pooled
        value underflows to 0 are recomputed in log space, so no finite log probability becomes
        ``-inf``.
        """
        n_classes = len(self.classes_)
        joint = self._combine() == "joint"
        tt = self.spodes_.kernel_table()
        if tt is not None:          # compiled, row by row; the rows it flags take the numpy path
            out = np.empty((codes.shape[0], n_classes))
            flag = np.empty(codes.shape[0], dtype=np.int8)
            usable = np.ascontiguousarray(self._usable(codes).T)
            _kernels.log_pooled(tt, self.spodes_.slot_index(codes), np.asarray(self.weights_, dtype=float),
                                usable, joint, out, flag)
            redo = np.flatnonzero(flag)
            if redo.size:
                out[redo] = self._log_pooled_numpy(codes[redo])
            return out
        return self._log_pooled_numpy(codes)

    def _log_pooled_numpy(self, codes) -> np.ndarray:
        """:meth:`_log_pooled` with numpy, in blocks of :data:`_PREDICT_CELLS` cells."""
        n_classes, k = len(self.classes_), codes.shape[1]
        out = np.empty((codes.shape[0], n_classes))
        joint = self._combine() == "joint"
        rows = max(1, _PREDICT_CELLS // (n_classes * k))
        for start in range(0, codes.shape[0], rows):
            part = codes[start:start + rows]
            usable = self._usable(part).T                                             # (k, n)
            weights = self.weights_[:, None] * usable
            terms = self.spodes_.log_joint_ckn(part)                                  # (C, k, n)
            top = terms.max(axis=0)                                                   # (k, n)
            if joint:       # one shift per instance: the largest joint of a usable SPODE
                top = np.where(usable, top, -np.inf).max(axis=0)
                top = np.where(np.isfinite(top), top, 0.0)
            terms -= top
            np.exp(terms, out=terms)
            if not joint:
                terms /= terms.sum(axis=0)                                            # posteriors
            pooled = np.einsum("kn,ckn->cn", weights, terms)
            none = weights.sum(axis=0) == 0
            with np.errstate(divide="ignore"):
                pooled = np.log(pooled)
            redo = ~none & ~np.isfinite(pooled).all(axis=0)
            if redo.any():                   # underflow: the same pool in log space
                logs = self.spodes_.log_joint_ckn(part[redo])
                pooled[:, redo] = log_weighted_mean(logs if joint else log_normalise(logs, axis=0),
                                                    weights[:, redo])
            if none.any():                   # no SPODE can speak: Weka's naive Bayes fallback
                pooled[:, none] = self.spodes_.nb_log_joint(part[none]).T
            out[start:start + rows] = log_normalise(pooled, axis=0).T
        return out

    # --- the base's predict path: the pool is already normalised --------------------------------
    def _log_proba(self, codes) -> np.ndarray:
        return self._log_pooled(codes)

    def _joint_log_likelihood(self, codes) -> np.ndarray:
        """The log pool (C, n): normalised, so a joint up to each instance's constant."""
        return self._log_pooled(codes).T


# Measured with benchmarks (fit + predict on 20,000 rows x 12 features, CREDAL_NUMBA=0 against 1, CPU
# time, 2026-11-28): AODE 1.8x, BMA-AODE* 2.8x, COMP-AODE* 2.2x slower.
_WARNED = []


def _warn_numpy_only():
    """Warn once per process that the AODE family runs its numpy path (the same results, slower)."""
    warn_once(_WARNED, "numba is off (not installed, not importable, or CREDAL_NUMBA=0): the AODE family "
              "counts and tests dominance with numpy, the same results 2-3x slower; install the [fast] extra "
              "(pip install 'credal-core[fast]') for the compiled kernels", stacklevel=5)
