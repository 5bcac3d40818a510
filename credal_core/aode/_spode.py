r"""SPODE tables shared by the AODE family (paper 001 §2.1-2.2) and the common estimator base.

A SPODE :math:`s_j` makes feature :math:`A_j` the super-parent of every other feature:

.. math:: P(c, \mathbf a \mid s_j) = P(c)\,P(a_j \mid c) \prod_{l \ne j} P(a_l \mid a_j, c).

Parameters are posterior means under Dirichlet priors of equivalent sample size 1 per local
distribution (001 §2; the authors' code puts :math:`1/r` in each of the :math:`r` cells of every
conditional table):

.. math::
    P(c) = \frac{n_c + 1/|C|}{n + 1}, \quad
    P(a_j \mid c) = \frac{n_{c a_j} + 1/|A_j|}{n_c + 1}, \quad
    P(a_l \mid a_j, c) = \frac{n_{c a_j a_l} + 1/|A_l|}{n_{c a_j} + 1}.

Every probability is positive, so every log below is finite.  A value unseen in training has zero
counts (|A| is the number of values seen in training), never an exception.

Storage: one log table ``T[c, p, q]`` over the concatenated value indices of all features (plus one
"unseen" slot per feature).  Block ``(j, l)`` holds :math:`\log P(a_l \mid a_j, c)`; the diagonal
of block ``(j, j)`` holds :math:`\log P(c) + \log P(a_j \mid c)`.  So
:math:`\log P(c, \mathbf a \mid s_j) = \sum_l T[c, \mathrm{idx}_j, \mathrm{idx}_l]`: memory
O(l k² v²), learning O(n k²), one SPODE posterior O(l k) (001 Table 1).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.special import logsumexp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from .._base import check_number, natural_dtype
from ..data.counts import CountTables, check_labels

__all__ = ["SpodeTables", "SpodeEnsemble", "DEFAULT_MAX_TABLE_BYTES", "table_bytes"]

DEFAULT_MAX_TABLE_BYTES = 512 * 2 ** 20

# Cells per counting / gather chunk: bounds the work arrays (a few times 8 bytes x 2**20 = 8 MiB each)
# whatever n is, so that a fit's peak memory is the log table plus O(_CHUNK_CELLS) (see table_bytes).
_CHUNK_CELLS = 2 ** 20


def table_bytes(n_classes: int, n_values) -> int:
    """Bytes of the float64 SPODE log table for these class / value counts (unseen slots included).

    This is what ``max_table_bytes`` is compared with.  Fitting allocates no other array of this
    size (counts are accumulated and turned into logs in place), so the fit's peak memory is this
    plus chunked work arrays of a few tens of MiB at most, whatever the table size.
    """
    width = int(np.sum(np.asarray(n_values, dtype=np.int64) + 1))
    return 8 * int(n_classes) * width * width


class SpodeTables:
    """Log-probability tables of all k SPODEs, learned from integer codes.

    Parameters
    ----------
    codes : ndarray (n, k) of int, values in ``[0, n_values[j])``.
    y_codes : ndarray (n,) of int in ``[0, n_classes)``.
    n_classes : int
    n_values : sequence of int, values seen per feature.
    """

    def __init__(self, codes: np.ndarray, y_codes: np.ndarray, n_classes: int, n_values):
        n_values = np.asarray(n_values, dtype=np.int64)
        widths = n_values + 1                               # + one slot for unseen values
        self.n_classes, self.n_values = int(n_classes), n_values
        self.offsets = np.concatenate([[0], np.cumsum(widths)[:-1]])
        self.width = W = int(widths.sum())
        k = len(n_values)
        idx = codes + self.offsets                          # (n, k) global value index
        # n(c, p, q) for all pairs at once, accumulated in place (np.add.at allocates nothing of the
        # table's size), then turned into the log table in place: the fit's only table-sized array.
        counts = np.zeros(n_classes * W * W)
        step = max(1, _CHUNK_CELLS // (k * k))
        for start in range(0, len(y_codes), step):
            rows = idx[start:start + step]
            flat = (y_codes[start:start + step, None, None] * W + rows[:, :, None]) * W + rows[:, None, :]
            np.add.at(counts, flat.ravel(), 1.0)
        log_t = counts.reshape(n_classes, W, W)
        n_c = np.bincount(y_codes, minlength=n_classes).astype(float)
        n_cp = np.einsum("cpp->cp", log_t).copy()           # n(c, p): diagonal of the pair counts
        inv_card = np.repeat(1.0 / n_values, widths)        # 1/|A_l| for every slot q of feature l
        # log P(a_l = q | a_j = p, c) for every pair of slots; unseen rows/cols have zero counts
        log_t += inv_card[None, None, :]
        np.log(log_t, out=log_t)
        log_t -= np.log(n_cp + 1.0)[:, :, None]
        log_prior = np.log((n_c + 1.0 / n_classes) / (len(y_codes) + 1.0))
        log_parent = np.log(n_cp + inv_card[None, :]) - np.log(n_c + 1.0)[:, None]
        diag = np.arange(W)
        log_t[:, diag, diag] = log_prior[:, None] + log_parent
        self.log_table = counts.reshape(n_classes, W * W)   # log_t's storage, no copy
        self.class_counts = n_c

    def log_joint(self, codes: np.ndarray) -> np.ndarray:
        """:math:`\\log P(c, \\mathbf a \\mid s_j)` as an array (n, k, C); code -1 = unseen value."""
        n, k = codes.shape
        widths = self.n_values + 1
        idx = np.where(codes < 0, widths - 1, codes) + self.offsets      # (n, k)
        out = np.empty((n, k, self.n_classes))
        step = max(1, _CHUNK_CELLS // max(1, self.n_classes * k * k))
        for start in range(0, n, step):
            block = idx[start:start + step]                               # (b, k)
            flat = block[:, :, None] * self.width + block[:, None, :]     # (b, j, l)
            gathered = self.log_table[:, flat]                            # (C, b, j, l)
            out[start:start + step] = gathered.sum(axis=3).transpose(1, 2, 0)
        return out

    def log_posteriors(self, codes: np.ndarray) -> np.ndarray:
        """:math:`\\log P(c \\mid \\mathbf a, s_j)` as an array (n, k, C)."""
        jll = self.log_joint(codes)
        return jll - logsumexp(jll, axis=2, keepdims=True)


def conditional_log_likelihoods(log_post: np.ndarray, y_codes: np.ndarray) -> np.ndarray:
    r"""In-sample conditional log-likelihood of each SPODE (001 eq. 2, natural log), shape (k,).

    .. math:: LL_j = \sum_{i=1}^n \log P(c^{(i)} \mid \mathbf a^{(i)}, s_j, \hat\theta_j)
    """
    return log_post[np.arange(len(y_codes)), :, y_codes].sum(axis=0)


def null_log_likelihood(class_counts: np.ndarray) -> float:
    r""":math:`LL_0 = -n H(C)` with the empirical class entropy in nats (001 §2.4; 0 log 0 = 0)."""
    n = class_counts.sum()
    seen = class_counts[class_counts > 0]
    return float(np.sum(seen * np.log(seen / n)))


class SpodeEnsemble(ClassifierMixin, BaseEstimator):
    """Base of the AODE family: fit learns the SPODE tables; subclasses choose the weights.

    Subclasses implement ``_fit_weights(log_post, y_codes)`` (called at fit time with the
    in-sample SPODE log posteriors) and set ``weights_`` (k,).  The precise posterior is the linear
    pool :math:`\\sum_j w_j P(c \\mid \\mathbf a, s_j)` (001 eqs. 3 and 8).
    """

    _needs_training_posteriors = True

    def _validate_params(self):
        check_number("max_table_bytes", self.max_table_bytes, 0.0, low_open=True)

    def fit(self, X, y):
        """Learn the SPODE tables and the ensemble weights from categorical ``X`` and labels ``y``.

        Raises ``ValueError`` on non-categorical ``X``, missing values, a single class, or tables
        larger than ``max_table_bytes`` (checked before anything large is allocated).
        """
        self._validate_params()
        tables = CountTables.from_data(X, y)
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
        codes = tables.encode(X, who=type(self).__name__)
        labels = check_labels(y, codes.shape[0])
        y_codes = pd.Index(tables.classes).get_indexer(labels)
        self.spodes_ = SpodeTables(codes, y_codes, len(tables.classes), n_values)
        self.tables_ = tables
        self.classes_ = natural_dtype(tables.classes)
        self.n_features_in_ = tables.n_features
        self.class_count_ = tables.class_counts
        if not all(isinstance(c, (int, np.integer)) for c in tables.feature_names):
            self.feature_names_in_ = tables.feature_names.astype(str)
        log_post = self.spodes_.log_posteriors(codes) if self._needs_training_posteriors else None
        self._fit_weights(log_post, y_codes)
        return self

    def _validate_n_features(self, k: int):
        """Hook: refuse a number of SPODEs the method cannot handle (e.g. k ε > 1)."""

    def _fit_weights(self, log_post, y_codes):
        raise NotImplementedError

    def _encode(self, X) -> np.ndarray:
        check_is_fitted(self, "spodes_")
        return self.tables_.encode(X, who=type(self).__name__)

    def spode_posteriors(self, X) -> np.ndarray:
        """Each SPODE's class posterior :math:`P(c \\mid \\mathbf a, s_j)`, shape (n, k, C)."""
        return np.exp(self.spodes_.log_posteriors(self._encode(X)))

    def _log_pooled(self, codes) -> np.ndarray:
        """Log of the normalised pool, computed in log space (no underflow to log 0): (n, C)."""
        log_post = self.spodes_.log_posteriors(codes)                   # (n, k, C)
        log_pool = logsumexp(log_post, axis=1, b=self.weights_[None, :, None])
        return log_pool - logsumexp(log_pool, axis=1, keepdims=True)

    def predict_proba(self, X) -> np.ndarray:
        """Posterior class probabilities (n, C) in ``classes_`` order: the weighted pool of SPODEs."""
        return np.exp(self._log_pooled(self._encode(X)))

    def predict_log_proba(self, X) -> np.ndarray:
        """Log of :meth:`predict_proba`."""
        return self._log_pooled(self._encode(X))

    def predict(self, X) -> np.ndarray:
        """Most probable class (ties: the first in ``classes_`` order)."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        return tags

