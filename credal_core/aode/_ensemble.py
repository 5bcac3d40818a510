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

import hashlib
import threading
import warnings
from collections import OrderedDict

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from .._base import check_number, natural_dtype
from ..data.counts import CountTables, check_categories_policy
from . import _kernels
from ._spode import SpodeTables, log_normalise, log_weighted_mean, table_bytes

__all__ = ["SpodeEnsemble", "shared_spode_tables"]

# Cells (instances x SPODEs x classes) per predict block: the (C, k, rows) work arrays of one block
# stay in cache (2 MiB each); larger blocks measured up to 1.5x slower, memory-bound.
_PREDICT_CELLS = 2 ** 18

# Models of the family fitted on the same rows (the compare page fits five per fold) share one
# SpodeTables and one set of in-sample log-likelihoods: a few small entries, keyed by a digest of
# the codes, labels and estimator; tables above _SHARE_MAX_BYTES are never kept.
_SHARED: OrderedDict = OrderedDict()
_SHARED_ENTRIES = 2
_SHARE_MAX_BYTES = 32 * 2 ** 20
_SHARED_LOCK = threading.Lock()


def shared_spode_tables(codes, y_codes, n_classes, n_values, estimator, m, with_likelihoods):
    """(SpodeTables, in-sample log-likelihoods LL_j (k,) or None) for these data, computed once and
    shared."""
    entry = key = None
    if _SHARED_ENTRIES > 0:         # sharing on: look the data up (a digest of every code)
        key = hashlib.blake2b(repr((codes.shape, codes.dtype.str, n_classes, list(map(int, n_values)),
                                    estimator, float(m))).encode()
                              + np.ascontiguousarray(codes.T).tobytes() + y_codes.tobytes(),
                              digest_size=20).digest()
        with _SHARED_LOCK:
            entry = _SHARED.get(key)
            if entry is not None:
                _SHARED.move_to_end(key)
    if entry is None:
        entry = [SpodeTables(codes, y_codes, n_classes, n_values, estimator=estimator, m=m), None]
        if key is not None and table_bytes(n_classes, n_values) <= _SHARE_MAX_BYTES:
            with _SHARED_LOCK:
                _SHARED[key] = entry
                while len(_SHARED) > _SHARED_ENTRIES:
                    _SHARED.popitem(last=False)
    if not with_likelihoods:
        return entry[0], None
    if entry[1] is None:
        entry[1] = entry[0].training_log_likelihoods(codes, y_codes)
    return entry[0], entry[1].copy()


class SpodeEnsemble(ClassifierMixin, BaseEstimator):
    """Base of the AODE family: fit learns the SPODE tables; subclasses choose the weights.

    Subclasses implement ``_fit_weights(log_likelihoods)`` (called at fit time with the in-sample
    conditional log-likelihoods :math:`LL_j` of the SPODEs, or None when ``_needs_training_posteriors``
    is false) and set ``weights_`` (k,).
    """

    _needs_training_posteriors = True

    def _validate_params(self):
        check_number("max_table_bytes", self.max_table_bytes, 0.0, low_open=True)
        check_categories_policy(getattr(self, "categories", "seen"))

    # hooks with the defaults of the paper's form (AODE overrides them)
    def _estimator(self):
        return "paper", 1.0

    def _combine(self) -> str:
        return "posterior"

    def _frequency_limit(self) -> float:
        return 0.0

    def fit(self, X, y, classes=None):
        """Learn the SPODE tables and the ensemble weights from categorical ``X`` and labels ``y``.

        Missing values in ``X`` (NaN / None / pandas NA) are missing at random: every table is
        counted over the rows where its values are present.  ``classes`` declares the class
        labels: a declared class with no training row stays a class (without it, a pandas
        Categorical ``y`` declares its categories).  Raises ``ValueError`` on
        non-categorical ``X``, missing labels, a single class, or tables larger than
        ``max_table_bytes`` (checked before anything large is allocated).
        """
        self._validate_params()
        tables, codes, y_codes = CountTables.count_and_encode(X, y, classes=classes,
                                                              categories=getattr(self, "categories", "seen"))
        if len(tables.classes) < 2:
            raise ValueError(f"y has only one class ({tables.classes[0]!r}) in "
                             f"{int(tables.class_counts.sum())} sample(s); a classifier needs at least "
                             "two classes")
        n_values = [len(c) for c in tables.categories]
        need = table_bytes(len(tables.classes), n_values)
        if need > self.max_table_bytes:
            raise ValueError(
                f"the SPODE tables would take {need / 2**20:.1f} MiB (classes × (Σ feature values)², "
                f"8 bytes each: {len(tables.classes)} × {sum(n_values) + len(n_values)}²), more than "
                f"max_table_bytes = {self.max_table_bytes / 2**20:.1f} MiB; drop or merge features / "
                "values, or raise max_table_bytes")
        self._validate_n_features(tables.n_features)
        absent = tables.absent_features()
        if absent.any():
            names = [str(n) for n in tables.feature_names[absent]]
            warnings.warn(f"feature(s) {names} are missing in every training row: they carry no "
                          "information and are left out of every prediction", UserWarning, stacklevel=2)
        estimator, m = self._estimator()
        self.spodes_, log_lik = shared_spode_tables(codes, y_codes, len(tables.classes), n_values, estimator,
                                                     m, self._needs_training_posteriors)
        self.tables_ = tables
        self.classes_ = natural_dtype(tables.classes)
        self.n_features_in_ = tables.n_features
        self.class_count_ = tables.class_counts
        if not all(isinstance(c, (int, np.integer)) for c in tables.feature_names):
            self.feature_names_in_ = tables.feature_names.astype(str)
        elif hasattr(self, "feature_names_in_"):
            del self.feature_names_in_
        self._fit_weights(log_lik)
        return self

    def _validate_n_features(self, k: int):
        """Hook: refuse a number of SPODEs the method cannot handle (e.g. k ε > 1)."""

    def _fit_weights(self, log_likelihoods):
        raise NotImplementedError

    def _encode(self, X) -> np.ndarray:
        check_is_fitted(self, "spodes_")
        return self.tables_.encode(X, who=type(self).__name__)

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

    def predict_proba(self, X) -> np.ndarray:
        """Posterior class probabilities (n, C) in ``classes_`` order: the weighted pool of SPODEs."""
        return np.exp(self._log_pooled(self._encode(X)))

    def predict_log_proba(self, X) -> np.ndarray:
        """Log of :meth:`predict_proba`."""
        return self._log_pooled(self._encode(X))

    def predict(self, X) -> np.ndarray:
        """Most probable class (ties: the first in ``classes_`` order)."""
        best = np.argmax(self._log_pooled(self._encode(X)), axis=1)     # NotFittedError first
        return self.classes_[best]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        tags.input_tags.allow_nan = True      # missing values are missing at random
        return tags
