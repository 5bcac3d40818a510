r"""SPODE tables shared by the AODE family (paper 001 §2.1-2.2; Webb et al. 2005).

A SPODE :math:`s_j` makes feature :math:`A_j` the super-parent of every other feature:

.. math:: P(c, \mathbf a \mid s_j) = P(c, a_j) \prod_{l \ne j} P(a_l \mid a_j, c).

**Estimators** (``estimator``; :math:`|A_l|` = number of values of feature l under the
``categories`` policy, a :math:`\alpha_l` the pseudo-count of each cell of a child's table):

* ``"paper"`` (default): posterior means under Dirichlet priors of equivalent sample size 1 per
  local distribution (001 §2; the authors' code puts :math:`1/r` in each of the r cells),
  :math:`P(c, a_j) = \frac{n_c + 1/|C|}{n + 1}\,\frac{n_{c a_j} + 1/|A_j|}{n_j(c) + 1}`,
  :math:`\alpha_l = 1/|A_l|`;
* ``"laplace"`` (Weka 3.6 ``AODE``, its default): :math:`P(c, a_j) = \frac{n_{c a_j} + 1}{N_j +
  |C||A_j|}`, :math:`\alpha_l = 1`;
* ``"m-estimate"`` (Weka ``AODE -M -W m``): :math:`P(c, a_j) = \frac{n_{c a_j} + m/(|C||A_j|)}
  {N_j + m}`, :math:`\alpha_l = m/|A_l|`;

and in every case

.. math:: P(a_l \mid a_j, c) = \frac{n_{c a_j a_l} + \alpha_l}{n_{jl}(c, a_j) + |A_l|\alpha_l}.

**Missing values (missing at random).**  Each table is counted over the rows where the values it
needs are present: :math:`n_{c a_j a_l}` over rows with both :math:`A_j` and :math:`A_l` present,
:math:`n_{jl}(c, a_j) = \sum_v n_{c a_j v}` (rows with parent :math:`a_j` and child l present),
:math:`n_{c a_j}` and :math:`n_j(c) = \sum_v n_{c v}` over rows with the parent present, :math:`N_j
= \sum_c n_j(c)`; :math:`n_c` and n over every row.  Under MAR the likelihood of the observed cells
factorises over these local tables, so each is the Dirichlet update of its prior by exactly the rows
that observe it (as Weka's AODE counts them).  At prediction a missing child value is summed out
(:math:`\sum_{a_l} P(a_l \mid a_j, c) = 1`: its factor is 1) and a SPODE whose parent is missing
cannot be evaluated and is left out of the ensemble (Weka's AODE does the same; see
:class:`SpodeEnsemble`).  With complete data every count above is the plain one.

Every probability is positive, so every log below is finite.  A value unseen in training has zero
counts, never an exception.

Storage: one log table ``T[c, p, q]`` over the concatenated value indices of all features (plus one
"unseen" slot per feature).  Block ``(j, l)`` holds :math:`\log P(a_l \mid a_j, c)`; the diagonal
of block ``(j, j)`` holds :math:`\log P(c, a_j)`.  So :math:`\log P(c, \mathbf a \mid s_j) =
\sum_l T[c, \mathrm{idx}_j, \mathrm{idx}_l]`: memory O(l k² v²), learning O(n k²), one SPODE
posterior O(l k) (001 Table 1).  Prediction evaluates that sum for every (c, j) at once by
gathering the k² cells of each instance and adding them over l in feature order.  The pair counts
:math:`n(c, p, q)` are :func:`credal_core.data.pairs.pair_counts` (symmetric: the pairs j < l are
counted and mirrored).

**Sharing.**  Estimators of the family fitted on the same rows with the same estimator and
``categories`` can share one :class:`SpodeTables` (:meth:`SpodeTables.from_data`, then each
estimator's ``fit_spodes``); nothing is shared behind the estimators' backs.

With numba installed (and ``CREDAL_NUMBA`` not 0), counting, the joints, the in-sample
log-likelihoods, the pool and the dominance tests run as compiled row-by-row loops with the same
operations in the same order (:mod:`credal_core.aode._kernels`); otherwise the numpy code below.
"""
from __future__ import annotations

import numpy as np

from .._compiled import numba_enabled
from ..data.counts import MISSING, CountTables
from ..data.pairs import pair_counts, slot_offsets
from . import _kernels

__all__ = ["SpodeTables", "DEFAULT_MAX_TABLE_BYTES", "ESTIMATORS", "table_bytes", "check_table_bytes",
           "log_normalise", "log_weighted_mean", "conditional_log_likelihoods", "null_log_likelihood"]

DEFAULT_MAX_TABLE_BYTES = 512 * 2 ** 20
ESTIMATORS = ("paper", "laplace", "m-estimate")

# Cells (instances x k²) per prediction gather block: index and gathered arrays of 2 MiB each stay in
# cache (measured on nursery's 8 and the synthetic 20 features: 2**18 fastest, 2**16 and 2**19
# 1.2x slower, 2**20 1.3-1.7x).
_GATHER_CELLS = 2 ** 18


def table_bytes(n_classes: int, n_values) -> int:
    """Bytes of the float64 SPODE log table for these class / value counts (unseen slots included).

    This is what ``max_table_bytes`` is compared with.  Counting allocates no other array of this
    size (counts are accumulated and turned into logs in place): the numpy path's peak memory is this
    plus chunked work arrays of a few tens of MiB at most, whatever the table size (tables of at most
    64 MiB are mirrored through one temporary copy).  With the compiled kernels, tables of at most
    :data:`~credal_core.aode._kernels.KERNEL_MAX_TABLE_BYTES` also get the class-minor copy they
    read (kept), and BMA / COMP fits its exponential for the in-sample pass (freed after it).
    """
    width = int(np.sum(np.asarray(n_values, dtype=np.int64) + 1))
    return 8 * int(n_classes) * width * width


def check_table_bytes(n_classes: int, n_values, limit: float) -> None:
    """ValueError if the SPODE tables of these class / value counts would exceed ``limit`` bytes."""
    n_values = [int(v) for v in n_values]
    need = table_bytes(n_classes, n_values)
    if need > limit:
        raise ValueError(
            f"the SPODE tables would take {need / 2**20:.1f} MiB (classes × (Σ feature values)², "
            f"8 bytes each: {n_classes} × {sum(n_values) + len(n_values)}²), more than "
            f"max_table_bytes = {limit / 2**20:.1f} MiB; drop or merge features / "
            "values, or raise max_table_bytes")


def log_normalise(log_values: np.ndarray, axis: int) -> np.ndarray:
    """``log_values`` minus its log-sum-exp along ``axis`` (a log posterior from log joints)."""
    top = np.max(log_values, axis=axis, keepdims=True)
    shifted = log_values - top
    shifted -= np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))      # in place: same values
    return shifted


def log_weighted_mean(logs: np.ndarray, weights: np.ndarray) -> np.ndarray:
    r""":math:`\log \sum_j w_{ji} e^{L_{cji}} / \sum_j w_{ji}` for logs (C, k, n), weights (k, n) >= 0.

    Shifted by the largest log of a weighted term, so nothing underflows to log 0.  Columns whose
    weights are all 0 give NaN (the caller replaces them).  Returns (C, n).
    """
    masked = logs if np.all(weights > 0) else np.where(weights[None] > 0, logs, -np.inf)
    top = np.max(masked, axis=1)
    top = np.where(np.isfinite(top), top, 0.0)
    total = np.sum(weights[None] * np.exp(masked - top[:, None, :]), axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return top + np.log(total) - np.log(weights.sum(axis=0))[None, :]


class SpodeTables:
    """Log-probability tables of all k SPODEs, learned from integer codes.

    Parameters
    ----------
    codes : ndarray (n, k) of int, values in ``[0, n_values[j])`` or ``MISSING`` (-2).
    y_codes : ndarray (n,) of int in ``[0, n_classes)``.
    n_classes : int
    n_values : sequence of int, values per feature (|A_j|).
    estimator : {"paper", "laplace", "m-estimate"}, see the module docstring.
    m : float, the weight of the m-estimate.

    Attributes
    ----------
    estimator, m : the estimator the tables were learned with.
    counts : CountTables or None — the single counts they were learned with (set by
        :meth:`from_data`; what an estimator adopting them encodes with).
    log_likelihoods : ndarray (k,) or None — the in-sample :math:`LL_j`
        (:meth:`training_log_likelihoods`) when computed at learning time (BMA / COMP weights).
    log_table : ndarray (C, W*W) — T (see the module docstring).
    class_counts : ndarray (C,) — n_c over every row.
    parent_frequency : ndarray (W,) — training rows holding each value (Weka's frequency limit).
    nb_log_prior, nb_log_cond : the naive Bayes fallback (same estimator) for instances no SPODE
        can evaluate: (C,) and (C, W).
    """

    def __init__(self, codes: np.ndarray, y_codes: np.ndarray, n_classes: int, n_values, *,
                 estimator: str = "paper", m: float = 1.0):
        n_values = np.asarray(n_values, dtype=np.int64)
        widths = n_values + 1                               # + one slot for unseen values
        self.n_classes, self.n_values = C, _ = int(n_classes), n_values
        self.estimator, self.m = estimator, float(m)
        self.counts, self.log_likelihoods = None, None
        self.offsets = slot_offsets(n_values)
        self.width = W = int(widths.sum())
        y_codes = np.asarray(y_codes, dtype=np.int64)
        counts = pair_counts(codes, y_codes, C, n_values)   # (C, W, W): the fit's only table-sized array
        card = np.maximum(n_values, 1).astype(float)        # a feature never present has no values
        slot_card = np.repeat(card, widths)                 # |A_l| for every slot q of feature l
        alpha = {"paper": 1.0 / card, "laplace": np.ones_like(card), "m-estimate": m / card}[estimator]
        slot_alpha = np.repeat(alpha, widths)
        n_c = np.bincount(y_codes, minlength=C).astype(float)
        n_cp = np.einsum("cpp->cp", counts).copy()          # n(c, p): rows with the parent present
        # n_{jl}(c, p): per child block l, rows with parent p and child l present
        den = np.add.reduceat(counts, self.offsets, axis=2) if W else np.zeros((C, W, 0))
        n_pc = np.add.reduceat(n_cp, self.offsets, axis=1)  # n_j(c): (C, k)
        n_slot = np.repeat(n_pc, widths, axis=1)            # n_j(c) for every slot of feature j
        counts += slot_alpha[None, None, :]
        np.log(counts, out=counts)
        for child, (start, w) in enumerate(zip(self.offsets.tolist(), widths.tolist())):
            counts[:, :, start:start + w] -= np.log(den[:, :, child] + card[child] * alpha[child])[:, :, None]
        log_t = counts
        n = float(len(y_codes))
        if estimator == "paper":
            log_parent = (np.log((n_c + 1.0 / C) / (n + 1.0))[:, None]
                          + np.log(n_cp + slot_alpha[None, :]) - np.log(n_slot + 1.0))
            prior_mass = 1.0 / C
        else:
            beta = 1.0 if estimator == "laplace" else m / (C * slot_card)
            n_present = n_slot.sum(axis=0)                  # N_j: rows with feature j present
            log_parent = np.log(n_cp + beta) - np.log(n_present + C * slot_card * beta)[None, :]
            prior_mass = 1.0 if estimator == "laplace" else m / C
        diag = np.arange(W)
        log_t[:, diag, diag] = log_parent
        self.log_table = counts.reshape(C, W * W)           # log_t's storage, no copy
        self.class_counts = n_c
        self.parent_frequency = n_cp.sum(axis=0)
        self.nb_log_prior = np.log(n_c + prior_mass) - np.log(n + C * prior_mass)
        self.nb_log_cond = np.log(n_cp + slot_alpha[None, :]) - np.log(n_slot + slot_card * slot_alpha)

    @classmethod
    def from_data(cls, X, y, *, classes=None, categories="seen", estimator: str = "paper", m: float = 1.0,
                  log_likelihoods: bool = True, max_table_bytes: float = DEFAULT_MAX_TABLE_BYTES):
        """Count categorical ``X`` against ``y`` once, for several estimators of the family to share.

        What ``fit`` of an AODE-family estimator learns before its weights; adopt the result with
        its ``fit_spodes(tables)`` (estimators with the same ``estimator``, ``m`` and
        ``categories``).  ``classes`` and ``categories`` as in ``fit``; ``log_likelihoods``: also
        compute the in-sample :math:`LL_j` that BMA / COMP weights need.  ValueError for tables
        above ``max_table_bytes`` (before anything large is allocated).
        """
        if estimator not in ESTIMATORS:
            raise ValueError(f"estimator must be one of {ESTIMATORS}; got {estimator!r}")
        counts, codes, y_codes = CountTables.count_and_encode(X, y, classes=classes, categories=categories)
        return cls.from_counts(counts, codes, y_codes, estimator=estimator, m=m,
                               log_likelihoods=log_likelihoods, max_table_bytes=max_table_bytes)

    @classmethod
    def from_counts(cls, counts: CountTables, codes, y_codes, *, estimator: str = "paper", m: float = 1.0,
                    log_likelihoods: bool = True, max_table_bytes: float = DEFAULT_MAX_TABLE_BYTES):
        """:meth:`from_data` from the single counts and the training rows' codes already made
        (:meth:`CountTables.count_and_encode`)."""
        n_values = [len(c) for c in counts.categories]
        check_table_bytes(len(counts.classes), n_values, max_table_bytes)
        tables = cls(codes, y_codes, len(counts.classes), n_values, estimator=estimator, m=m)
        tables.counts = counts
        if log_likelihoods:
            tables.log_likelihoods = tables.training_log_likelihoods(codes, y_codes)
        return tables

    def slots(self, codes: np.ndarray) -> np.ndarray:
        """Slot index of every code: unseen (-1) -> the feature's last slot, MISSING -> -1."""
        widths = self.n_values + 1
        idx = np.where(codes == -1, widths - 1, codes) + self.offsets
        return np.where(codes == MISSING, -1, idx)

    def slot_index(self, codes: np.ndarray) -> np.ndarray:
        """:meth:`slots` feature-major and contiguous (k, n), int64: what the kernels read."""
        codes_t = codes.T
        widths = (self.n_values + 1)[:, None]
        idx = np.where(codes_t == -1, widths - 1, codes_t) + self.offsets[:, None]
        idx[codes_t == MISSING] = -1
        return np.ascontiguousarray(idx, dtype=np.int64)

    def kernel_table(self) -> np.ndarray | None:
        """The class-minor copy ``tt[p, q, c]`` of the log table the compiled kernels read, or None
        when they are off (numba missing or ``CREDAL_NUMBA=0``) or the table is larger than
        :data:`~credal_core.aode._kernels.KERNEL_MAX_TABLE_BYTES` (the numpy path then runs)."""
        if not numba_enabled() or self.log_table.nbytes > _kernels.KERNEL_MAX_TABLE_BYTES:
            return None
        tt = getattr(self, "_tt", None)
        if tt is None:
            C, W = self.n_classes, self.width
            tt = self._tt = np.ascontiguousarray(self.log_table.reshape(C, W, W).transpose(1, 2, 0))
        return tt

    def log_joint(self, codes: np.ndarray) -> np.ndarray:
        """:math:`\\log P(c, \\mathbf a \\mid s_j)` as an array (n, k, C), a view of :meth:`log_joint_ckn`."""
        return self.log_joint_ckn(codes).transpose(2, 1, 0)

    def log_joint_ckn(self, codes: np.ndarray) -> np.ndarray:
        """:math:`\\log P(c, \\mathbf a \\mid s_j)` as an array (C, k, n); missing children left out.

        Entries of SPODEs whose parent is missing hold finite values of no meaning: mask them with
        :meth:`usable`.  Class-major layout: every later reduction (over classes, over SPODEs) adds
        whole contiguous slabs instead of short rows.  Computed by gathering the k² cells
        :math:`T[c, \\mathrm{idx}_j, \\mathrm{idx}_l]` of every instance (one flat index per
        (parent, child) pair, reused for every class) and adding them over the children in feature
        order, in row blocks of :data:`_GATHER_CELLS` cells.
        """
        n, k = codes.shape
        C, W = self.n_classes, self.width
        out = np.empty((C, k, n))
        tt = self.kernel_table()
        if tt is not None:
            _kernels.log_joint_ckn(tt, self.slot_index(codes), out)
            return out
        idx = np.ascontiguousarray(self.slots(codes).T)                       # (k, n)
        step = max(1, _GATHER_CELLS // max(1, k * k))
        for start in range(0, n, step):
            block = idx[:, start:start + step]
            present = block >= 0
            complete = bool(present.all())
            if not complete:
                block = np.where(present, block, 0)
            flat = (block * W)[:, None, :] + block[None, :, :]               # (j, l, b): [p_j, q_l]
            for c in range(C):
                cells = np.take(self.log_table[c], flat, mode="clip")   # valid indices: no bound check
                if not complete:
                    cells *= present[None, :, :]       # a missing child adds 0 (tables are finite)
                np.sum(cells, axis=1, out=out[c, :, start:start + block.shape[1]])
        return out

    def usable(self, codes: np.ndarray, frequency_limit: float = 0.0) -> np.ndarray:
        """Bool (n, k): SPODE j can be evaluated on instance i — its parent is present and its value
        occurred in at least ``frequency_limit`` training rows (Weka's ``-F``; unseen values: 0)."""
        ok = codes != MISSING
        if frequency_limit > 0:
            freq = np.where(codes >= 0, self.parent_frequency[np.maximum(self.slots(codes), 0)], 0.0)
            ok &= freq >= frequency_limit
        return ok

    def nb_log_joint(self, codes: np.ndarray) -> np.ndarray:
        """Naive Bayes fallback (same estimator), missing values left out: log P(c, a) (n, C)."""
        idx = self.slots(codes)
        cond = np.where((idx >= 0)[:, :, None], self.nb_log_cond.T[np.maximum(idx, 0)], 0.0)
        return self.nb_log_prior[None, :] + cond.sum(axis=1)

    def log_posteriors(self, codes: np.ndarray) -> np.ndarray:
        """:math:`\\log P(c \\mid \\mathbf a, s_j)` (n, k, C); rows of missing parents: no meaning."""
        return log_normalise(self.log_joint_ckn(codes), axis=0).transpose(2, 1, 0)

    def training_log_posteriors(self, codes: np.ndarray) -> np.ndarray:
        r"""In-sample log posteriors for the SPODE weights; a SPODE whose parent is missing on a row
        predicts that row like the null model, :math:`\log(n_c / n)` (it cannot encode the row any
        better: its contribution to :math:`LL_j` is the row's term of :math:`LL_0`)."""
        log_post = self.log_posteriors(codes)
        missing = codes == MISSING
        if missing.any():
            with np.errstate(divide="ignore"):
                null = np.log(self.class_counts / self.class_counts.sum())
            log_post[missing] = null
        return log_post


    def training_log_likelihoods(self, codes: np.ndarray, y_codes: np.ndarray) -> np.ndarray:
        r"""In-sample conditional log-likelihood of every SPODE, :math:`LL_j` (k,): the sum over the
        training rows of :meth:`training_log_posteriors` at the row's class (001 eq. 2).

        The compiled kernel computes each row's SPODE posteriors from products of probabilities
        and adds the one of its class directly (no (n, k, C) array; ~1e-14 relative from the numpy
        path, see :func:`~credal_core.aode._kernels.training_log_likelihoods`).
        """
        tt = self.kernel_table()
        if tt is None:
            return conditional_log_likelihoods(self.training_log_posteriors(codes), y_codes)
        with np.errstate(divide="ignore"):
            null = np.log(self.class_counts / self.class_counts.sum())
        ll = np.zeros(codes.shape[1])
        n, k = codes.shape
        # exp of the whole table (not kept: the fit's only pass) against the pass's n·k² products:
        # many values and few rows stay in log space
        logs_only = tt.shape[0] ** 2 > n * k * k
        probabilities = tt[:1, :1] if logs_only else np.exp(tt)
        _kernels.training_log_likelihoods(probabilities, tt, self.slot_index(codes),
                                          np.asarray(y_codes, dtype=np.int64), null, ll, logs_only)
        return ll


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
