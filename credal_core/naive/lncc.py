"""Likelihood-based naive credal classifier (paper 000 §4; paper 003 §4)."""
from __future__ import annotations

from numbers import Real

import numpy as np
from sklearn.utils._param_validation import Interval
from sklearn.utils.validation import check_is_fitted

from .._base import (
    CATEGORIES_CONSTRAINT,
    CredalClassifierMixin,
    NaiveCountsClassifier,
    perks_log_joint,
    warn_once,
)
from .._compiled import numba_enabled
from ..data.counts import MISSING, lookup
from ..likelihood.pairwise import PairCounts, critical_alpha_pairs, dominance_verdicts
from ._lncc_kernels import certify

__all__ = ["LNCC"]


class LNCC(CredalClassifierMixin, NaiveCountsClassifier):
    r"""Likelihood-based naive credal classifier: the NBCs whose normalised likelihood is at least α.

    Class ``a`` dominates ``b`` on :math:`\tilde f` iff (000 eq. 8)

    .. math:: \inf_{\theta:\ \mathrm{lik}(\theta) \ge \alpha}
              \frac{P_\theta(a, \tilde f)}{P_\theta(b, \tilde f)} > 1 .

    With ``include_instance=True`` the likelihood is that of the data times the probability of the
    instance with its class missing, restricted to ``a`` or ``b`` (000 eq. 9 and the pairwise
    simplification of §4); with ``include_instance=False`` it is the likelihood of the data alone —
    the naive hierarchical classifier of 003 (Corollary 1) with cutoff β = α.

    Dominance holds iff ``alpha > critical_alpha``: the largest normalised profile likelihood
    among the θ with ratio ≤ 1.  It is computed exactly from the profile likelihood of Theorems 1-2
    (see :mod:`credal_core.likelihood.pairwise`): no grid (the paper used 250 points).

    Parameters
    ----------
    alpha : float, default=0.75
        Likelihood threshold in [0, 1].
    include_instance : bool, default=True
        Put the instance to classify in the likelihood.
    categories : {"seen", "declared"} or list of lists, default="seen"
        :math:`F_j`: values seen in training, a pandas Categorical column's declared categories, or
        explicit per-feature value lists (see :meth:`CountTables.from_data`).  It sets the Perks
        prior of ``predict``; the critical α (and so the set) does not depend on it: an empty value
        other than the instance's only costs likelihood wherever θ puts mass on it (the profile's
        optimum puts none there), and the instance's own value enters the likelihood with its
        counts (zero if unseen) whether it is declared or not.

    Notes
    -----
    Missing values (NaN / None) are missing at random: the likelihood is over the observed values
    (each feature's conditional from the rows where it is present, a missing test value left out
    of the instance's term); see :mod:`credal_core.likelihood.pairwise` for the profile it gives.

    ``predict`` returns the label of the Perks NBC with ``s = 1``, the precise classifier the paper
    compares against (000 §5).  Unlike the NCC, the LNCC's set is not guaranteed to contain it.

    A class declared with ``partial_fit(classes=...)`` but absent from the data has entirely free
    feature probabilities, so with the instance in the likelihood the best fit may assign an
    unlikely instance to it — with many features such a class can even dominate.  That is the
    model of 000 §4 taken literally; fit on data where every class occurs to avoid it.

    Examples
    --------
    >>> import pandas as pd
    >>> from credal_core import LNCC
    >>> X = pd.DataFrame({"f": ["x"] * 6 + ["y"] * 2})
    >>> y = ["c", "c", "c", "c", "c", "d", "c", "d"]   # 000 Example 2's counts
    >>> crit = LNCC().fit(X, y).critical_alpha(pd.DataFrame({"f": ["x"]}))
    >>> round(float(crit[0, 0, 1]), 4)  # c dominates d for alpha above this
    0.2334
    """

    # (the base adds: no bool or non-finite alpha, and the contents of a categories list)
    _parameter_constraints = {"alpha": [Interval(Real, 0, 1, closed="both")],
                              "include_instance": ["boolean"],
                              "categories": CATEGORIES_CONSTRAINT}

    def __init__(self, *, alpha: float = 0.75, include_instance: bool = True, categories="seen"):
        self.alpha = alpha
        self.include_instance = include_instance
        self.categories = categories

    def _joint_log_likelihood(self, codes):
        return perks_log_joint(self.tables_, codes, 1.0)

    def critical_alpha(self, X) -> np.ndarray:
        """Critical levels (n, C, C): ``a`` dominates ``b`` iff ``alpha > critical_alpha[i, a, b]``.

        1.0 on the diagonal and wherever ``a`` can never dominate ``b``.
        """
        return self._critical_alpha(self._encode(X))

    def critical_alpha_codes(self, codes: np.ndarray) -> np.ndarray:
        """:meth:`critical_alpha` of instances already encoded by this model.

        Computed once, these levels give the LNCC's dominance for every ``alpha``
        (``alpha > critical_alpha``), as the evaluation engine's sweeps over α use them.

        Parameters
        ----------
        codes : ndarray of int, shape (n, m)
            Integer codes in this model's tables (:meth:`encode`).

        Returns
        -------
        ndarray of float, shape (n, C, C)
            ``a`` dominates ``b`` iff ``alpha > critical_alpha[i, a, b]``; 1.0 on the diagonal and
            wherever ``a`` can never dominate ``b``.
        """
        check_is_fitted(self, "tables_")
        return self._critical_alpha(codes)

    def _critical_alpha(self, codes):
        tables = self.tables_
        n_classes = len(tables.classes)
        n = codes.shape[0]
        crit = np.ones((n, n_classes, n_classes))
        for a in range(n_classes):
            for b in range(a + 1, n_classes):
                pc = _pair_counts(tables, codes, a, b)
                crit[:, a, b], crit[:, b, a] = critical_alpha_pairs(pc, bool(self.include_instance))
        return crit

    def _set_dominance(self, codes):
        # with numba, a row whose best-scored class is proven to dominate every other class skips
        # the other pairs: its maximal set is that class whatever they say (see :func:`certify`)
        return self._dominance(codes, sets_only=True)

    def _dominance(self, codes, sets_only=False):
        """Verdicts ``alpha > critical_alpha`` (n, C, C), proven without computing every level.

        With numba, the compiled certificates of :mod:`._lncc_kernels` settle most verdicts of the
        complete rows in one pass (complete training data); the pairs they leave open, and the rows
        with missing values, go straight to the exact route
        (:func:`~credal_core.likelihood.pairwise.dominance_verdicts`).  Without numba the exact
        route settles every distinct row (the same verdicts, slower: see :func:`_warn_exact_only`).
        Every certificate keeps a rounding margin, so a verdict within rounding of
        ``critical_alpha`` is always the exact comparison's.
        """
        tables = self.tables_
        n_classes = len(tables.classes)
        n = codes.shape[0]
        dom = np.zeros((n, n_classes, n_classes), dtype=bool)
        if self.alpha == 0 or n == 0:           # critical levels are >= 0: nothing dominates
            return dom
        if not numba_enabled():
            _warn_exact_only()
            return self._exact_distinct(codes)
        if _training_missing(tables):           # every row's profile has its own denominators
            return self._exact_distinct(codes)
        holes = (codes == MISSING).any(axis=1)
        full = np.flatnonzero(~holes)
        if full.size:
            dom[full], unknown = certify(codes[full], tables, bool(self.include_instance), np.log(self.alpha),
                                         sets_only)
            # the open pairs, a < b (few: flatnonzero of the flat array is far cheaper than any() per row)
            rows, pairs = np.divmod(np.flatnonzero(unknown), n_classes * n_classes)
            a, b = np.divmod(pairs, n_classes)
            self._exact(codes, full[rows], a, b, dom)
        if holes.any():
            dom[holes] = self._exact_distinct(codes[holes])
        return dom

    def _exact_distinct(self, codes):
        """:meth:`_exact` for every pair of every row, once per distinct row (a row's verdicts
        depend on its codes alone, and real tables repeat rows)."""
        # each row as one opaque value: np.unique on those is ~6x faster than with axis=0
        rows = np.ascontiguousarray(codes)
        keys = rows.view(np.dtype((np.void, rows.itemsize * rows.shape[1]))).ravel()
        _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        distinct = codes if first.size == codes.shape[0] else codes[first]
        n_classes = len(self.tables_.classes)
        dom = np.zeros((distinct.shape[0], n_classes, n_classes), dtype=bool)
        every = np.arange(distinct.shape[0])
        for a in range(n_classes):
            for b in range(a + 1, n_classes):
                self._exact(distinct, every, a, b, dom)
        return dom if first.size == codes.shape[0] else dom[inverse.reshape(-1)]

    def _exact(self, codes, rows, a, b, dom):
        """The exact route (:func:`~credal_core.likelihood.pairwise.dominance_verdicts`) for the
        items (rows[i], a[i], b[i]) (``a``, ``b``: arrays, or one pair for every row), in blocks of
        ``_BLOCK`` items; writes the verdicts into ``dom``."""
        for start in range(0, rows.size, _BLOCK):
            part = slice(start, start + _BLOCK)
            i = rows[part]
            pa, pb = (a, b) if np.ndim(a) == 0 else (a[part], b[part])
            pc = _pair_counts(self.tables_, codes[i], pa, pb)
            dom[i, pa, pb], dom[i, pb, pa] = dominance_verdicts(pc, self.alpha, bool(self.include_instance))


# items of the exact route per call (bounds its memory: a dozen (items, features) arrays)
_BLOCK = 8192

# How much slower the exact route alone is than with the compiled certificates first
# (benchmarks/bench_lncc_paths.py: predict_set on 20,000 rows, the range over its eight cells in
# three runs on a loaded machine; with missing training values 1.4-2.8x, numba compiling only sums).
_SLOWDOWN = "20-50x"
_WARNED = []


def _warn_exact_only():
    """Warn once per process that the LNCC's verdicts come from the exact route alone."""
    warn_once(_WARNED, "numba is off (not installed, not importable, or CREDAL_NUMBA=0): the LNCC settles "
              f"every verdict by its exact route, the same verdicts {_SLOWDOWN} slower on large tables; "
              "install the [fast] extra (pip install 'credal-core[fast]') for the compiled certificates",
              stacklevel=4)


def _training_missing(tables) -> bool:
    """Whether some feature is missing in some training row (n_j(c) < n(c))."""
    return any(np.any(t.sum(axis=1) < tables.class_counts) for t in tables.feature_counts)


def _pair_counts(tables, codes, a, b):
    """:class:`PairCounts` of classes a, b (two ints, or one pair per row) for the rows of ``codes``:
    the instance's counts n(c, f_j), the per-feature sample sizes n_j(c) (MAR) and the missing test
    values."""
    n = codes.shape[0]
    missing = codes == MISSING
    safe = np.where(missing, -1, codes)                     # a missing value reads the zero column
    extended = tables.extended_counts()
    if np.ndim(a) == 0:                                     # only this pair's two classes
        counts = lookup(safe, [e[[a, b]] for e in extended])                  # (2, m, n)
        c1, c2 = counts[0].T, counts[1].T
    else:
        counts = lookup(safe, extended)                                       # (C, m, n)
        item = np.arange(n)
        c1, c2 = counts[a, :, item], counts[b, :, item]
    nc = np.asarray(tables.class_counts)
    n1, n2 = np.broadcast_to(nc[a], n).copy(), np.broadcast_to(nc[b], n).copy()
    if not missing.any() and not _training_missing(tables):
        return PairCounts(n1, c1, n2, c2)
    present = np.array([t.sum(axis=1) for t in tables.feature_counts]).reshape(len(tables.feature_counts), -1)
    d1 = np.broadcast_to(present[:, a].T, c1.shape)
    d2 = np.broadcast_to(present[:, b].T, c2.shape)
    return PairCounts(n1, c1, n2, c2, d1, d2, missing)
