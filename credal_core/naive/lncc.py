"""Likelihood-based naive credal classifier (paper 000 §4; paper 003 §4)."""
from __future__ import annotations

import numpy as np
from scipy.special import expit, xlogy
from sklearn.utils.validation import check_is_fitted

from .._base import CredalClassifierMixin, NaiveCountsClassifier, check_number, perks_log_joint
from .._compiled import numba_enabled
from ..data.counts import MISSING, check_categories_policy, lookup
from ..likelihood.pairwise import (
    PairCounts,
    class_terms_max,
    critical_alpha_pairs,
    dominance_pairs,
    log_lik,
    ratio_root,
    side_logs,
)
from ._lncc_constants import FEW_ROWS, ROUNDING
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

    def __init__(self, *, alpha: float = 0.75, include_instance: bool = True, categories="seen"):
        self.alpha = alpha
        self.include_instance = include_instance
        self.categories = categories

    def _validate_params(self):
        check_number("alpha", self.alpha, 0.0, 1.0)
        check_categories_policy(self.categories)
        if not isinstance(self.include_instance, (bool, np.bool_)):
            raise ValueError(f"include_instance must be True or False; got {self.include_instance!r}")

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

    def _dominance_missing(self, codes):
        """Verdicts where values are missing (in training, or in these rows), equal to ``alpha >
        critical_alpha`` over the observed values, once per distinct row (a row's verdicts depend on
        its codes alone, and real tables repeat rows).  The verdicts are settled from u0 (r(u0) = 1)
        and L(u0) wherever that decides them, as for complete data (:func:`_settle_at_root`: u0
        outside [0, 1] with L(u0) clear of α max L, or u0 inside with L(u0) above it; the end values
        evaluated exactly by :func:`_exact_pair_ends`); the rows it leaves, and those whose
        profile continues along a free conditional (the segment of
        :mod:`~credal_core.likelihood.pairwise`), get the exact critical levels (25–45 µs per row
        and pair)."""
        # each row as one opaque value: np.unique on those is ~6x faster than with axis=0
        rows = np.ascontiguousarray(codes)
        keys = rows.view(np.dtype((np.void, rows.itemsize * rows.shape[1]))).ravel()
        _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        if first.size == codes.shape[0]:
            return self._dominance_missing_rows(codes)
        return self._dominance_missing_rows(codes[first])[inverse.reshape(-1)]

    def _dominance_missing_rows(self, codes):
        tables = self.tables_
        shift = 1.0 if self.include_instance else 0.0
        n_classes = len(tables.classes)
        nc = tables.class_counts
        dom = np.zeros((codes.shape[0], n_classes, n_classes), dtype=bool)
        for a in range(n_classes):
            for b in range(a + 1, n_classes):
                pc = _pair_counts(tables, codes, a, b)
                rest = np.flatnonzero(pc.seg1 | pc.seg2)
                curve = np.flatnonzero(~(pc.seg1 | pc.seg2))
                if curve.size:
                    sub = pc.take(curve)
                    ab, ba, known, _, _ = _settle_at_root(sub, _exact_pair_ends(sub, nc[a], nc[b], shift),
                                                          np.log(self.alpha), shift)
                    dom[curve, a, b], dom[curve, b, a] = ab, ba
                    rest = np.concatenate([rest, curve[~known]])
                if rest.size:
                    crit_ab, crit_ba = critical_alpha_pairs(pc.take(rest), bool(shift))
                    dom[rest, a, b], dom[rest, b, a] = self.alpha > crit_ab, self.alpha > crit_ba
        return dom

    def _set_dominance(self, codes):
        # with numba, a row whose best-scored class is proven to dominate every other class skips
        # the other pairs: its maximal set is that class whatever they say (see :func:`certify`)
        return self._dominance(codes, sets_only=True)

    def _dominance(self, codes, sets_only=False):
        """Certified verdicts, equal to ``alpha > critical_alpha`` without computing it.

        First a few cheap probes of the profile likelihood, bracketed from per-row sums over the
        features (one lookup per block of features, see :class:`_BlockSums`), prove the confident
        verdicts (:func:`_probe_sums`).  For the rows they leave, the Taylor stage
        (:func:`_taylor_verdicts`): per-row power sums of the counts give log r and log L with
        bounded remainders at the cost of a few operations per row, and a certified shape of the
        profile likelihood turns bracketed roots into verdicts — this settles most close calls.
        The rows still open are settled from the exact root u0 of r = 1 (:func:`_settle_at_root`)
        and, if still open, by the exact search, which with the instance stops as soon as the
        verdicts are proven (:func:`~credal_core.likelihood.pairwise.dominance_pairs`).  Every
        shortcut keeps a rounding margin, and every stage is a proof on its own (the order only
        decides which stage settles a row, never its verdict),
        so a verdict within rounding of ``critical_alpha`` is left to the exact route.
        With numba, the compiled certificates of :mod:`._lncc_kernels` run first on every row and
        these stages (or, for a handful of pairs, ``alpha > critical_alpha``) get what they leave.
        """
        shift = 1.0 if self.include_instance else 0.0
        tables = self.tables_
        n_classes = len(tables.classes)
        n = codes.shape[0]
        dom = np.zeros((n, n_classes, n_classes), dtype=bool)
        if self.alpha == 0 or n == 0:           # critical levels are >= 0: nothing dominates
            return dom
        if _training_missing(tables):           # every row's profile has its own denominators
            return self._dominance_missing(codes)
        holes = np.flatnonzero((codes == MISSING).any(axis=1))
        if holes.size:
            dom[holes] = self._dominance_missing(codes[holes])
            full = np.flatnonzero(~(codes == MISSING).any(axis=1))
            if full.size:
                dom[full] = self._dominance(codes[full], sets_only)
            return dom
        if numba_enabled():
            # the compiled certificates first (:mod:`._lncc_kernels`); the numpy stages get the rows
            # they leave open
            dom, unknown = certify(codes, tables, bool(shift), np.log(self.alpha), sets_only)
            # the open pairs (few: flatnonzero of the flat array is far cheaper than any() per row)
            flat = np.flatnonzero(unknown)
            rows, pairs = np.divmod(flat, n_classes * n_classes)
            rest = np.unique(rows)
            if rest.size >= FEW_ROWS:
                dom[rest] = self._dominance_stages(codes[rest])
            elif rest.size:
                # a handful of pairs: the exact definition costs less than the stages' set-up; one
                # call for all of them (every item of a PairCounts has its own counts)
                a, b = np.divmod(pairs, n_classes)
                counts = lookup(codes[rows], tables.extended_counts())          # (C, m, k)
                item = np.arange(rows.size)
                nc = np.asarray(tables.class_counts)
                pc = PairCounts(nc[a], counts[a, :, item], nc[b], counts[b, :, item])
                crit_ab, crit_ba = critical_alpha_pairs(pc, bool(shift))
                dom[rows, a, b], dom[rows, b, a] = self.alpha > crit_ab, self.alpha > crit_ba
            return dom
        return self._dominance_stages(codes)

    def _dominance_stages(self, codes):
        """The numpy stages of :meth:`_dominance` on complete rows (training data complete too)."""
        shift = 1.0 if self.include_instance else 0.0
        tables = self.tables_
        n_classes = len(tables.classes)
        n = codes.shape[0]
        dom = np.zeros((n, n_classes, n_classes), dtype=bool)
        log_alpha = np.log(self.alpha)
        pairs = [(a, b) for a in range(n_classes) for b in range(a + 1, n_classes)]
        open_rows = {pair: np.ones(n, bool) for pair in pairs}
        sample = codes[::max(1, n // _SAMPLE_ROWS)]
        if n > 2 * _SAMPLE_ROWS and not self._probes_pay(sample, pairs, log_alpha, shift):
            # flat profiles (close calls nearly everywhere): the Taylor stage first, then the
            # probes and the exact routes on the rows it leaves
            _taylor_stage(tables, codes, None, open_rows, None, log_alpha, shift, dom)
            rest = _union(open_rows, n)
            if rest.size:
                sub = dom[rest]
                self._probes_and_exact(codes[rest], {key: val[rest] for key, val in open_rows.items()},
                                       log_alpha, shift, sub, taylor=False)
                dom[rest] = sub
        else:
            self._probes_and_exact(codes, open_rows, log_alpha, shift, dom, taylor=True)
        return dom

    def _probes_pay(self, codes, pairs, log_alpha, shift):
        """Whether the probes settle at least the share ``_PROBE_RATE`` of the verdicts on the
        rows ``codes`` (a sample): they then go before the Taylor stage."""
        tables = self.tables_
        nc = tables.class_counts
        stats = _class_stats(tables, codes, shift)
        sides = [_end_values(stats, c, nc[c], shift) for c in range(len(nc))]
        dom = np.zeros((codes.shape[0], len(nc), len(nc)), dtype=bool)
        every = np.ones(codes.shape[0], bool)
        settled = sum(int(_probe_stage(stats, sides, a, b, nc, _pair_ends(sides[a], sides[b], shift),
                                       log_alpha, shift, dom, every, cheap=True).sum()) for a, b in pairs)
        return settled >= _PROBE_RATE * len(pairs) * codes.shape[0]

    def _probes_and_exact(self, codes, open_rows, log_alpha, shift, dom, taylor):
        """The probes on the rows ``open_rows[a, b]`` of every pair, then (with ``taylor``) the
        Taylor stage, then the exact routes on the rows they leave open; writes into ``dom``."""
        tables = self.tables_
        nc = tables.class_counts
        n = codes.shape[0]
        stats = _class_stats(tables, codes, shift)
        sides = [_end_values(stats, c, nc[c], shift) for c in range(len(nc))]
        ends = {}
        for a, b in open_rows:
            ends[a, b] = _pair_ends(sides[a], sides[b], shift)
            open_rows[a, b] &= ~_probe_stage(stats, sides, a, b, nc, ends[a, b], log_alpha, shift, dom,
                                             open_rows[a, b], cheap=True)
        if taylor:
            rest = _union(open_rows, n)
            if rest.size:
                _taylor_stage(tables, codes, rest, open_rows, stats["blocks"], log_alpha, shift, dom)
        if _union(open_rows, n).size:
            self._dominance_exact_routes(codes, open_rows, ends, log_alpha, shift, dom)

    def _dominance_exact_routes(self, codes, open_rows, ends, log_alpha, shift, dom):
        """The root and the exact search (see :meth:`_dominance`) on the rows of ``codes`` still
        open: ``open_rows[a, b]`` marks the rows whose verdicts for the pair are still
        needed, ``ends[a, b]`` holds the pair's end values (:func:`_pair_ends`); the verdicts
        are written into ``dom``."""
        tables = self.tables_
        nc = tables.class_counts
        extended = tables.extended_counts()
        for (a, b), need in open_rows.items():
            todo = np.flatnonzero(need)
            if todo.size == 0:
                continue
            # only this pair's two classes: the other rows of the tables are not needed here
            counts = lookup(codes[todo], [e[[a, b]] for e in extended])     # (2, m, k)
            pc = PairCounts(np.full(todo.size, nc[a]), counts[0].T, np.full(todo.size, nc[b]),
                            counts[1].T)
            sub_ends = {key: val[todo] for key, val in ends[a, b].items()}
            ab, ba, known, u0, at_u0 = _settle_at_root(pc, sub_ends, log_alpha, shift)
            dom[todo, a, b], dom[todo, b, a] = ab, ba
            left = np.flatnonzero(~known)
            if left.size and shift:
                dom[todo[left], a, b], dom[todo[left], b, a] = dominance_pairs(
                    pc.take(left), self.alpha, sub_ends["margin"][left], u0[left], at_u0[left])
            elif left.size:
                crit_ab, crit_ba = critical_alpha_pairs(pc.take(left), False)
                dom[todo[left], a, b] = self.alpha > crit_ab
                dom[todo[left], b, a] = self.alpha > crit_ba


def _taylor_stage(tables, codes, rest, open_rows, blocks, log_alpha, shift, dom):
    """The Taylor stage (:func:`_taylor_verdicts`) on the rows ``rest`` (None: every row) where
    ``open_rows[a, b]`` is set; writes the verdicts into ``dom`` and clears those rows.
    ``blocks``: the :class:`_BlockSums` of ``codes`` if known."""
    nc = tables.class_counts
    if rest is None:
        rest, part = np.arange(codes.shape[0]), codes
    else:
        part, blocks = codes[rest], None if blocks is None else blocks.take(rest)
    tstats = _taylor_stats(tables, part, 0.5 * shift, bool(shift), blocks)
    # an upper bound on the scale of _end_values (the terms its margin covers), from m and n only
    scale = [(nc[c] + 2) * (tstats["m"][c] + 1) * (1 + 6 * np.log(nc[c] + 2)) for c in range(len(nc))]
    for a, b in open_rows:
        sel = np.flatnonzero(open_rows[a, b][rest])
        if sel.size == 0:
            continue
        if sel.size == rest.size:
            sel = slice(None)                                # every row: views, no copies
        tsides = {c: _Side(tstats, c, nc[c], sel, 0.5 * shift) for c in (a, b)}
        margin = ROUNDING * (scale[a][sel] + scale[b][sel])
        ab, ba, known = _taylor_verdicts(tsides, a, b, log_alpha, shift, margin)
        rows = rest[sel][known]
        dom[rows, a, b], dom[rows, b, a] = ab[known], ba[known]
        open_rows[a, b][rows] = False


def _union(open_rows, n):
    """The rows open for some pair."""
    if not open_rows:
        return np.zeros(0, int)
    return np.flatnonzero(np.any(list(open_rows.values()), axis=0)) if n else np.zeros(0, int)



# The probes go first when they settle at least this share of the verdicts on a sample of about
# _SAMPLE_ROWS rows (they cost about a fifth of the Taylor stage per row, and settle most
# confident calls but few close calls).
_SAMPLE_ROWS, _PROBE_RATE = 1024, 0.4


def _probe_stage(stats, sides, a, b, nc, ends, log_alpha, shift, dom, where, cheap=False):
    """The probes (:func:`_probe_sums`) for the pair (a, b) on the rows ``where`` and, with
    ``cheap``, the checks at the ends of [0, 1] on every row; writes the verdicts they prove into
    ``dom`` and returns the rows decided."""
    decided = np.zeros(ends["margin"].size, bool)
    # log r(0) >= 0 for (a, b) means u0 <= 0: b never dominates a (the likelihood's
    # maximum lies in [0, 1], where r >= 1) and only a over b needs a verdict.
    # log r(0) >= 0 for (b, a) is the mirror case r(1) <= 1.  Within the rounding
    # margin of 0 the side of u0 is unsure: those rows take the exact route.
    for hi, lo, lr0 in ((a, b, ends["lr_ab"]), (b, a, ends["lr_ba"])):
        rows = np.flatnonzero((lr0 >= ends["margin"]) & where)
        verdict, known = _probe_sums(stats, hi, lo, nc, rows, lr0[rows], ends, log_alpha, shift)
        dom[rows[known], hi, lo] = verdict[known]
        decided[rows[known]] = True
    if not cheap:
        return decided
    if not shift:
        # both classes give the instance probability 0 at the maximum-likelihood
        # estimate (log r(0) = NaN): the curve of 003 Cor. 1 shrinks to that point
        # (u_min = 0 = u_max - 1), both critical levels are 1: neither dominates
        decided |= (sides[a]["lp0"] == -np.inf) & (sides[b]["lp0"] == -np.inf)
    else:
        # u0 inside (0, 1): the set {r <= 1} contains u = 0 and {r >= 1} contains
        # u = 1, so neither class dominates if L(0) and L(1) reach α times max L.
        cut = log_alpha + ends["m_up"] + ends["margin"]
        decided |= ((ends["lr_ab"] < -ends["margin"]) & (ends["lr_ba"] < -ends["margin"])
                    & (ends["ll0"] >= cut) & (ends["ll1"] >= cut))
    return decided


def _training_missing(tables) -> bool:
    """Whether some feature is missing in some training row (n_j(c) < n(c))."""
    return any(np.any(t.sum(axis=1) < tables.class_counts) for t in tables.feature_counts)


def _pair_counts(tables, codes, a, b):
    """:class:`PairCounts` of classes a, b for the rows of ``codes``: the instance's counts
    n(c, f_j), the per-feature sample sizes n_j(c) (MAR) and the missing test values."""
    n = codes.shape[0]
    missing = codes == MISSING
    safe = np.where(missing, -1, codes)                     # a missing value reads the zero column
    counts = lookup(safe, [e[[a, b]] for e in tables.extended_counts()])     # (2, m, n)
    nc = tables.class_counts
    if not missing.any() and not _training_missing(tables):
        return PairCounts(np.full(n, nc[a]), counts[0].T, np.full(n, nc[b]), counts[1].T)
    present = np.array([t.sum(axis=1) for t in tables.feature_counts]).reshape(len(tables.feature_counts), -1)
    d1 = np.broadcast_to(present[:, a], counts[0].T.shape)
    d2 = np.broadcast_to(present[:, b], counts[1].T.shape)
    return PairCounts(np.full(n, nc[a]), counts[0].T, np.full(n, nc[b]), counts[1].T, d1, d2, missing)




class _BlockSums:
    """Per-row sums (or minima) over the features of per-(class, feature, value) tables.

    Features are grouped into consecutive blocks with at most ``limit`` value combinations; a
    table over a block's combinations holds the block's sum, so each row needs one lookup per
    block instead of one per feature (the tables are tiny next to the rows they serve).  Code -1
    (a value unseen in training) selects the extra last column of each extended table.
    """

    def __init__(self, codes: np.ndarray, widths, limit: int):
        widths = [int(w) for w in widths]
        self.blocks, start, size = [], 0, 1
        for j, w in enumerate(widths):
            if j > start and size * w > limit:
                self.blocks.append((start, j))
                start, size = j, 1
            size *= w
        self.blocks.append((start, len(widths)))
        strides = np.zeros((len(widths), len(self.blocks)), dtype=np.int64)
        base = np.zeros(len(self.blocks), dtype=np.int64)
        total = 0
        for k, (lo, hi) in enumerate(self.blocks):
            stride = 1
            for j in range(hi - 1, lo - 1, -1):      # the block's last feature varies fastest
                strides[j, k] = stride
                stride *= widths[j]
            base[k] = total
            total += stride
        # Tables store each feature's unseen column first, so the row index of a combination is
        # sum_j (code_j + 1) * stride_j: code -1 needs no special case.
        self.idx = np.ascontiguousarray((codes @ strides).T) + (base + strides.sum(axis=0))[:, None]

    def take(self, rows) -> "_BlockSums":
        """The same blocks for the rows ``rows`` only."""
        out = object.__new__(_BlockSums)
        out.blocks, out.idx = self.blocks, np.ascontiguousarray(self.idx[:, rows])
        return out

    def reduce(self, per_feature: list, combine=np.add) -> np.ndarray:
        """``combine`` over j of ``per_feature[j][..., code[i, j]]``: an array (..., n).

        ``per_feature[j]`` has any leading shape (e.g. statistics × classes) and one last axis
        over the feature's values (the extended table, unseen value last).
        """
        tables = []
        for lo, hi in self.blocks:
            table = np.roll(per_feature[lo], 1, axis=-1)
            for j in range(lo + 1, hi):
                nxt = np.roll(per_feature[j], 1, axis=-1)
                table = combine(table[..., :, None], nxt[..., None, :]).reshape(*table.shape[:-1], -1)
            tables.append(table)
        flat = np.concatenate(tables, axis=-1)
        lead = flat.shape[:-1]
        out = np.empty((*lead, self.idx.shape[1]))
        rows = int(np.prod(lead))
        for row, acc in zip(flat.reshape(rows, -1), out.reshape(rows, self.idx.shape[1])):
            parts = row.take(self.idx)
            acc[:] = parts[0]
            for part in parts[1:]:
                combine(acc, part, out=acc)
        return out


def _class_stats(tables, codes, shift):
    r"""Per class (C, n): sums over the features ``j`` with :math:`c_j = n(c, f_j) < n(c)`.

    ``m`` (how many), ``k0`` (how many with :math:`c_j = 0`), and over those with :math:`c_j > 0`
    the sums of :math:`\log c_j,\ 1/c_j,\ 1/c_j^2,\ c_j \log c_j` (``l0 i0 q0 w0``).  With the
    instance (``shift = 1``) also the sums of :math:`\log(c_j+1),\ 1/(c_j+1),\ 1/(c_j+1)^2,
    \ c_j\log(c_j+1)` (``l1 i1 q1 w1``).  ``cmin``: the least c_j with the instance, the least
    positive c_j without it (+inf when there is none); ``blocks``: the :class:`_BlockSums` used.
    """
    nc = tables.class_counts[:, None]
    names = ["m", "k0", "l0", "i0", "q0", "w0"] + (["l1", "i1", "q1", "w1"] if shift else [])
    sums, mins = [], []
    for t in tables.extended_counts():
        inside = t < nc
        pos = inside & (t > 0)
        safe = np.where(pos, t, 1.0)
        log_t = np.log(safe)
        entry = {"m": inside, "k0": inside & (t == 0), "l0": np.where(pos, log_t, 0.0),
                 "i0": np.where(pos, 1 / safe, 0.0), "q0": np.where(pos, 1 / safe ** 2, 0.0),
                 "w0": np.where(pos, t * log_t, 0.0)}
        if shift:
            entry.update(l1=np.where(inside, np.log(t + 1), 0.0), i1=np.where(inside, 1 / (t + 1), 0.0),
                         q1=np.where(inside, 1 / (t + 1) ** 2, 0.0),
                         w1=np.where(inside, t * np.log(t + 1), 0.0))
        sums.append(np.stack([np.asarray(entry[k], float) for k in names]))   # (P, C, V + 1)
        # least count (without the instance: least positive count); +inf when there is none
        mins.append(np.where(inside if shift else pos, t, np.inf))
    blocks = _blocks(tables, codes)
    stats = dict(zip(names, blocks.reduce(sums)))
    stats["cmin"] = blocks.reduce(mins, np.minimum)
    stats["blocks"] = blocks
    return stats


def _blocks(tables, codes):
    """The :class:`_BlockSums` of ``codes``."""
    widths = [len(c) + 1 for c in tables.categories]
    # a block's table should stay small next to the rows it serves (and fit in the cache)
    return _BlockSums(codes, widths, limit=max(1, min(4096, codes.shape[0] // 4)))


def _end_values(stats, c, n_c, shift):
    """Exact log p and log Λ of class ``c`` at the arguments 0 and 1 (rows), and their scale.

    ``t0``, ``t1`` are the scalar terms n(c)(1 - m) log(n(c) + 0 or 1) of log Λ.
    """
    m, k0 = stats["m"][c], stats["k0"][c]
    with np.errstate(divide="ignore", invalid="ignore"):
        log_n = np.log(n_c) if n_c > 0 else -np.inf
        out = {"lp0": np.where(k0 > 0, -np.inf, (1 - m) * log_n + stats["l0"][c])}
        out["t0"] = (1 - m) * xlogy(n_c, n_c)
        out["lam0"] = out["t0"] + stats["w0"][c]
        scale = np.abs(out["t0"]) + stats["w0"][c] + np.abs(stats["l0"][c]) + (n_c + 2) * (m + 1)
        if shift:
            out["lp1"] = (1 - m) * np.log(n_c + 1) + stats["l1"][c]
            out["t1"] = (1 - m) * n_c * np.log(n_c + 1)
            out["lam1"] = out["t1"] + stats["w1"][c]
            scale = scale + np.abs(out["t1"]) + stats["w1"][c] + np.abs(stats["l1"][c])
    out["scale"] = scale
    out["n"] = float(n_c)
    return out


def _pair_ends(sa, sb, shift):
    """For the pair (a, b): log r(0) for (a, b) and for (b, a), bounds on log max L, log L at the
    parameter values 0 and 1, and the rounding margin (rows).

    With the instance (``shift = 1``) ``b``'s argument is ``v = 1 - u``; the maximum of the
    (unnormalised) log profile likelihood lies in [0, 1] and is at least
    ``m_lo = max(log L(0), log L(1))`` and at most ``m_up``, the one-cell bound of ``_profile`` on
    [0, 1].  Without it (``shift = 0``, 003 Corollary 1) the maximum is exactly at 0.
    """
    margin = ROUNDING * (sa["scale"] + sb["scale"])
    with np.errstate(invalid="ignore"):
        if not shift:
            lr = sa["lp0"] - sb["lp0"]
            ll0 = sa["lam0"] + sb["lam0"]
            return {"lr_ab": lr, "lr_ba": -lr, "m_lo": ll0, "m_up": ll0, "ll0": ll0, "margin": margin}
        ll0 = sa["lam0"] + sb["lam1"] + np.logaddexp(sa["lp0"], sb["lp1"])
        ll1 = sa["lam1"] + sb["lam0"] + np.logaddexp(sa["lp1"], sb["lp0"])
    # On [0, 1]: G_a = log Λ_a - n_a log(n_a + u) decreases, G_b (at 1 - u) increases, p_a and
    # p_b(1 - u) move apart, and the class terms' sum is at most its value at n_a / (n_a + n_b)
    # (see ``credal_core.likelihood.pairwise._cell_ends``).
    na, nb = sa["n"], sb["n"]
    upper = (sa["lam0"] - xlogy(na, na) + sb["lam0"] - xlogy(nb, nb)
             + class_terms_max(na, nb, 0.0, 1.0) + np.logaddexp(sa["lp1"], sb["lp1"]))
    m_lo = np.maximum(ll0, ll1)
    return {"lr_ab": sa["lp0"] - sb["lp1"], "lr_ba": sb["lp0"] - sa["lp1"], "m_lo": m_lo,
            "m_up": np.maximum(upper, m_lo), "ll0": ll0, "ll1": ll1, "margin": margin}


def _exact_pair_ends(pc, n_a, n_b, shift):
    """:func:`_pair_ends` for the rows of ``pc`` (missing values allowed), from log p and log Λ of
    both classes evaluated exactly at the arguments 0 and 1 (:func:`side_logs`).  With missing
    values each feature's log Λ term c log(c + u) - n_j log(n_j + u) still decreases and each
    factor of p still increases in u (see :mod:`~credal_core.likelihood.pairwise`), so the one-cell
    bound of the maximum on [0, 1] holds as with complete data.  The rounding margin's scale sums
    the sizes of every term added (at both arguments), with the slack of :func:`_end_values`."""
    k = pc.n1.size
    rows = np.arange(k)
    lpa, lpb, lam_a, lam_b = side_logs(pc, rows, np.zeros(k), shift)        # b's argument: shift
    sa = {"lp0": lpa, "lam0": lam_a, "n": float(n_a),
          "scale": _term_sizes(pc.c1, pc.d1, pc.j1, pc.den1, pc.n1, pc.m1)}
    sb = {"n": float(n_b), "scale": _term_sizes(pc.c2, pc.d2, pc.j2, pc.den2, pc.n2, pc.m2)}
    if shift:
        sb["lp1"], sb["lam1"] = lpb, lam_b
        sa["lp1"], sb["lp0"], sa["lam1"], sb["lam0"] = side_logs(pc, rows, np.ones(k), shift)
    else:
        sb["lp0"], sb["lam0"] = lpb, lam_b
    return _pair_ends(sa, sb, shift)


def _term_sizes(c, d, j, den, n, m):
    """Sum of the sizes of the terms of one class's log p and log Λ at the arguments 0 and 1 (each
    weighted by its count plus one), plus (n + 2)(m + 1): the scale of the rounding margin."""
    total = (n + 2.0) * (m + 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        for u in (0.0, 1.0):
            log_c, log_d, log_n = np.abs(np.log(c + u)), np.abs(np.log(d + u)), np.abs(np.log(n + u))
            # a class without rows (declared only) has log n = -inf at 0 and a term 0 log 0 = 0
            total = (total + np.where(j & np.isfinite(log_c), (c + 1.0) * log_c, 0.0).sum(axis=1)
                     + np.where(den, (d + 1.0) * log_d, 0.0).sum(axis=1)
                     + np.where(np.isfinite(log_n), (n + 1.0) * (np.abs(1.0 - m) + 1.0) * log_n, 0.0))
    return total


def _probe_sums(stats, hi, lo, nc, rows, lr0, ends, log_alpha, shift, tries=4):
    r"""Certified verdicts on "``hi`` dominates ``lo``" where log r(0) > 0 (u0 < 0), from sums only.

    ``hi`` dominates ``lo`` iff L(u0) < α max L, and L increases on u <= 0.  A probe u' in
    [u0, 0] (r(u') >= 1) bounds L(u0) <= L(u'); a probe u' < u0 (r(u') < 1) bounds L(u0) >= L(u').
    At a probe u' < 0 every feature term is bracketed by second-order Taylor bounds around 0
    (for ``hi``, x = u'/c in [X, 0] with X = u'/min c) or around ``shift`` (for ``lo``,
    y = -u'/(c + shift) in [0, Y]):

    .. math:: x - \frac{x^2}{2(1+X)} \le \log(1+x) \le x - \frac{x^2}{2}, \qquad
              y - \frac{y^2}{2} \le \log(1+y) \le y - \frac{y^2}{2(1+Y)},

    so log r(u') and log L(u') are bracketed by the per-row sums of ``_class_stats``: no
    per-feature work.  A verdict is issued only when it holds for the whole bracket with a
    rounding margin.  Returns (verdict, known) boolean arrays over ``rows``.
    """
    k = rows.size
    verdict = np.zeros(k, dtype=bool)
    known = np.zeros(k, dtype=bool)
    if k == 0:
        return verdict, known
    n1, n2 = nc[hi], nc[lo]
    ma, mb = stats["m"][hi][rows], stats["m"][lo][rows]
    l0a, i0a, q0a, w0a = (stats[s][hi][rows] for s in ("l0", "i0", "q0", "w0"))
    k0b = stats["k0"][lo][rows]
    if shift:
        lsb, isb, qsb, wsb = (stats[s][lo][rows] for s in ("l1", "i1", "q1", "w1"))
        wib, wqb = mb - isb, isb - qsb              # sums of c/(c+1) and c/(c+1)^2
        cb = stats["cmin"][lo][rows] + 1
    else:
        lsb, isb, qsb, wsb = (stats[s][lo][rows] for s in ("l0", "i0", "q0", "w0"))
        wib, wqb = mb - k0b, isb                    # sums of c/c and c/c^2 over c > 0
        cb = stats["cmin"][lo][rows]
    ca = np.minimum(stats["cmin"][hi][rows], n1)    # least count of hi (all positive: r(0) > 0)
    m_lo, m_up, margin = ends["m_lo"][rows], ends["m_up"][rows], ends["margin"][rows]
    with np.errstate(divide="ignore", invalid="ignore"):
        slope0 = (1 - ma) / n1 + i0a + (1 - mb) / (n2 + shift) + isb
        if not shift:                                    # zero counts of lo: log v, slope +inf
            slope0 = np.where(k0b > 0, np.inf, slope0)
        u_floor = -0.5 * ca
        u = np.maximum(-0.5 * lr0 / slope0, u_floor)     # half a Newton step from 0 towards u0
    # r(0) = +inf (a zero count on lo's side) or no usable slope: start halfway to the end point
    u = np.where(np.isfinite(u) & (u < 0), u, u_floor)
    live = np.flatnonzero(np.isfinite(u) & (u < 0) & (stats["k0"][hi][rows] == 0))
    for _ in range(tries):
        if live.size == 0:
            break
        up = u[live]
        sq = 0.5 * up * up
        va = 1 / (1 + up / ca[live])                    # 1 / (1 + X)
        ta = (1 - ma[live]) * np.log(n1 + up)          # exact scalar terms
        base_a = l0a[live] + up * i0a[live]
        lpa_hi = ta + base_a - sq * q0a[live]
        lpa_lo = ta + base_a - sq * q0a[live] * va
        wbase_a = n1 * ta + w0a[live] + up * ma[live]
        lam_a_hi = wbase_a - sq * i0a[live]
        lam_a_lo = wbase_a - sq * i0a[live] * va
        v = shift - up
        vb = 1 / (1 - up / cb[live])                    # 1 / (1 + Y)
        tb = (1 - mb[live]) * np.log(n2 + v)
        lam_b_t = n2 * tb
        if not shift:
            tb = tb + np.where(k0b[live] > 0, k0b[live] * np.log(v), 0.0)
        base_b = lsb[live] - up * isb[live]
        lpb_lo = tb + base_b - sq * qsb[live]
        lpb_hi = tb + base_b - sq * qsb[live] * vb
        wbase_b = lam_b_t + wsb[live] - up * wib[live]
        lam_b_lo = wbase_b - sq * wqb[live]
        lam_b_hi = wbase_b - sq * wqb[live] * vb
        log_l_hi = lam_a_hi + lam_b_hi
        log_l_lo = lam_a_lo + lam_b_lo
        if shift:
            log_l_hi = log_l_hi + np.logaddexp(lpa_hi, lpb_hi)
            log_l_lo = log_l_lo + np.logaddexp(lpa_lo, lpb_lo)
        # rounding: the probe's own terms on top of the end values' margin (which covers the sums)
        marg = margin[live] + ROUNDING * (
            (n1 + 1) * np.abs(ta) + (n2 + 1) * np.abs(tb)
            + np.abs(up) * (ma[live] + i0a[live] + mb[live] + isb[live] + wib[live])
            + 2 * sq * (q0a[live] + i0a[live] + qsb[live] + wqb[live]))
        right = lpa_lo - lpb_hi >= marg                  # r(u') >= 1: u' lies in [u0, 0]
        wrong = lpa_hi - lpb_lo < -marg                  # r(u') < 1: u' lies left of u0
        yes = right & (log_l_hi < log_alpha + m_lo[live] - marg)
        no = wrong & (log_l_lo >= log_alpha + m_up[live] + marg)
        verdict[live[yes]] = True
        known[live[yes | no]] = True
        # undecided: go further left if still right of u0, halfway back if past it; give up
        # where the bracket cannot tell or the floor is reached
        at_floor = up <= u_floor[live]
        u[live] = np.where(right, np.maximum(2 * up, u_floor[live]), 0.5 * up)
        live = live[~(yes | no) & ((right & ~at_floor) | wrong)]
    return verdict, known


def _settle_at_root(pc, ends, log_alpha, shift):
    """Verdicts for the rows the sums left open, from u0 (r(u0) = 1) and L(u0) computed exactly.

    The set {r <= 1} is {u <= u0}.  If u0 <= 0, L increases up to u0, so ``a`` dominates ``b`` iff
    L(u0) < α max L, and ``b`` never dominates ``a``; u0 >= 1 is the mirror case.  If u0 lies in
    (0, 1), both sets contain u0, so neither class dominates when L(u0) >= α max L.  The maximum
    is bracketed by ``m_lo`` and ``m_up`` (exact without the instance); rows the bracket or the
    rounding margin leave open are not ``known`` and need the exact search.
    Returns (a over b, b over a, known, u0, log L(u0)) over the rows of ``pc`` (u0 and L(u0) are
    NaN where the sign of log r(0) or log r(1) is within the margin of 0: not computed).
    """
    margin = ends["margin"]
    left = ends["lr_ab"] >= margin                               # u0 < 0: only a over b
    right = ends["lr_ba"] >= margin                              # u0 > 1 (u0 > 0 without it)
    middle = (ends["lr_ab"] < -margin) & (ends["lr_ba"] < -margin) if shift else np.zeros_like(left)
    rows = np.flatnonzero(left | right | middle)
    log_l = np.full(left.size, np.nan)
    u0 = np.full(left.size, np.nan)
    if rows.size:
        sub = pc.take(rows)
        u0[rows] = ratio_root(sub, shift)
        log_l[rows] = log_lik(sub, np.arange(rows.size), u0[rows], include_instance=bool(shift))
    with np.errstate(invalid="ignore"):
        low = log_l < log_alpha + ends["m_lo"] - margin          # L(u0) < α max L for sure
        high = log_l >= log_alpha + ends["m_up"] + margin        # L(u0) >= α max L for sure
    known = ((left | right) & (low | high)) | (middle & high)
    return left & low, right & low, known, u0, log_l


# --- The Taylor stage: whole verdicts from per-row sums, where the profile's shape is certified ---

_ORDER = 5          # Taylor order Q of the per-feature sums
_REACH = 0.6        # expansions are used where |d| <= _REACH (c + z) for every count c of the row
_CONFIDENT = 4.0    # |log r| at the centre beyond which a row is left to the probes


def _taylor_stats(tables, codes, z, slopes, blocks=None):
    r"""Per class (C, n), over the features with :math:`0 < c_j = n(c, f_j) < n(c)`: how many
    (``cnt``), :math:`A = \sum_j \log(c_j + z)`, :math:`S_q = \sum_j (c_j + z)^{-q}` (``S[q]``,
    q = 1..Q+1), the least such count ``cmin`` (+inf if none); the number ``k`` of zero counts and
    ``m`` of counts below n(c).  With ``slopes``: :math:`\sum_j 1/c_j` and :math:`\sum_j 1/(c_j+1)`
    (``ihi``, ``ilo``), the extreme values of :math:`\sum_j 1/(c_j + u)` on [0, 1].
    A missing test value (code MISSING) adds nothing.  ``blocks``: the :class:`_BlockSums` of
    ``codes`` if known.
    """
    nc = tables.class_counts[:, None]
    sums, mins = [], []
    for t in tables.extended_counts():
        inside = t < nc
        pos = inside & (t > 0)
        base = np.where(pos, t + z, 1.0)
        rows = [inside, inside & (t == 0), pos, np.where(pos, np.log(base), 0.0)]
        power = np.where(pos, 1.0, 0.0)
        for _ in range(_ORDER + 1):
            power = power / base
            rows.append(power)
        if slopes:
            safe = np.where(pos, t, 1.0)
            rows += [np.where(pos, 1 / safe, 0.0), np.where(pos, 1 / (safe + 1), 0.0)]
        sums.append(np.stack([np.asarray(r, float) for r in rows]))        # (P, C, V + 1)
        mins.append(np.where(pos, t, np.inf))
    blocks = _blocks(tables, codes) if blocks is None else blocks
    out = blocks.reduce(sums)
    stats = {"m": out[0], "k": out[1], "cnt": out[2], "A": out[3], "S": out[4:5 + _ORDER]}
    if slopes:
        stats["ihi"], stats["ilo"] = out[5 + _ORDER], out[6 + _ORDER]
    stats["cmin"] = blocks.reduce(mins, np.minimum)
    return stats


class _Side:
    """One class of a pair, at argument ``z + d`` (a's ``u``, or b's ``1 - u`` / ``-u``).

    The per-row quantities sit in the rows of one array, so that taking a subset of rows (as the
    root finder does every iteration) is one indexing operation: the counts m, k, cnt, the sum A,
    cmin, the slope sums, and the Taylor coefficients of the log sums (``g``), of their slopes
    (``dg``) and of the count-weighted sums (``w``), highest order first.
    """

    _FIELDS = ("m", "k", "cnt", "A", "cmin", "ihi", "ilo", "tail_g", "tail_w")

    def __init__(self, stats, c, n_c, rows, z):
        self.n, self.z = float(n_c), z
        Q = _ORDER

        def col(x):
            # C order (x[:, rows] would hand over a Fortran-ordered block, and every row of
            # ``data`` read below would then be a strided view)
            return x[..., rows] if isinstance(rows, slice) else np.take(x, rows, axis=-1)

        S = col(stats["S"][:, c])                              # S_1 .. S_(Q+1)
        cnt = col(stats["cnt"][c])
        base = len(_Side._FIELDS)
        self.data = data = np.empty((base + 3 * Q, cnt.size))
        data[0], data[1], data[2], data[3], data[4] = (col(stats["m"][c]), col(stats["k"][c]), cnt,
                                                        col(stats["A"][c]), col(stats["cmin"][c]))
        if "ihi" in stats:
            data[5], data[6] = col(stats["ihi"][c]), col(stats["ilo"][c])
        else:
            data[5:7] = 0.0
        data[7], data[8] = S[Q], S[Q - 1]
        for q in range(1, Q + 1):                              # highest order first
            sign = 1.0 if q % 2 else -1.0
            prev = cnt if q == 1 else S[q - 2]                 # S_(q-1), with S_0 = cnt
            data[base + Q - q] = sign * S[q - 1] / q                        # g
            data[base + 2 * Q - q] = sign * S[q - 1]                        # dg
            data[base + 3 * Q - q] = sign * (prev - z * S[q - 1]) / q       # w

    def __getattr__(self, name):
        if name == "g1":                       # S_1: the last (first-order) Taylor coefficient
            return self.data[len(_Side._FIELDS) + _ORDER - 1]
        try:
            return self.data[_Side._FIELDS.index(name)]
        except ValueError:
            raise AttributeError(name) from None

    def take(self, idx):
        if idx.size == self.data.shape[1] and (idx.size == 0 or idx[-1] == idx.size - 1):  # every row
            return self
        out = object.__new__(_Side)
        out.n, out.z, out.data = self.n, self.z, self.data[:, idx]
        return out

    def _horner(self, start, d):
        coefs = self.data[start:start + _ORDER]
        poly = coefs[0] * d
        for coef in coefs[1:]:
            poly += coef
            poly *= d
        return poly

    def log_p(self, d, with_k=True, arg=None):
        """log p at z + d without the remainder, and its derivative in d.  ``with_k=False`` leaves
        out the k log(z + d) term (the zero counts' factor); ``arg`` may give z + d exactly."""
        arg = self.z + d if arg is None else arg
        base = len(_Side._FIELDS)
        coefs = self.data[base + _ORDER:base + 2 * _ORDER]
        dpoly = coefs[0] * d
        for coef in coefs[1:-1]:
            dpoly += coef
            dpoly *= d
        dpoly += coefs[-1]
        with np.errstate(divide="ignore", invalid="ignore"):
            one_m = 1 - self.m
            value = one_m * np.log(self.n + arg) + self.A + self._horner(base, d)
            slope = one_m / (self.n + arg) + dpoly
            if with_k:
                value += xlogy(self.k, arg)
                slope += np.divide(self.k, arg, out=np.zeros_like(slope), where=self.k > 0)
        return value, slope

    def bounds(self, d, arg=None):
        """log p (with the k term), log Λ relative to its value at z, and their remainder bounds."""
        base = len(_Side._FIELDS)
        arg = self.z + d if arg is None else arg
        with np.errstate(divide="ignore", invalid="ignore"):
            lp = (1 - self.m) * np.log(self.n + arg) + self.A + self._horner(base, d) + xlogy(self.k, arg)
            lam = self.n * (1 - self.m) * np.log1p(d / (self.n + self.z)) + self._horner(base + 2 * _ORDER, d)
            ad = np.abs(d)
            rho = ad / (self.cmin + self.z)
            power = ad * ad
            power = power * power * power if _ORDER == 5 else ad ** (_ORDER + 1)
            tail = np.where(rho < 1, power / ((_ORDER + 1) * (1 - rho)), np.inf)
            tail[self.cnt == 0] = 0.0
        return lp, lam, tail * self.tail_g, tail * self.tail_w


def _class_slope_range(side):
    """Least and largest value on u in [0, 1] of (1 - m) / (n + u) (the class term's slope)."""
    at0, at1 = (1 - side.m) / side.n, (1 - side.m) / (side.n + 1)
    return np.minimum(at0, at1), np.maximum(at0, at1)


def _newton(fun, x, lo, hi, take, steps=3, more=12):
    """Newton steps on increasing functions, kept inside [lo, hi]: ``steps`` on every row, then
    up to ``more`` on the rows still moving (``take(idx)`` restricts ``fun`` to rows ``idx``).
    No convergence test is needed for exactness: the rigorous bracket built around the result
    decides whether it is good enough."""
    def step(f, x, lo, hi):
        value, slope = f(x)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            new = x - value / slope
        return np.clip(np.where(np.isfinite(new), new, x), lo, hi)

    for _ in range(steps):
        x_old, x = x, step(fun, x, lo, hi)
    live = np.flatnonzero(np.abs(x - x_old) > 1e-12 * (1 + np.abs(x)))
    for _ in range(more):
        if live.size == 0:
            break
        new = step(take(live), x[live], lo[live], hi[live])
        moving = np.abs(new - x[live]) > 1e-12 * (1 + np.abs(new))
        x[live] = new
        live = live[moving]
    return x


class _Pair:
    """log r and bounds on log L (relative to the centre) for a pair of :class:`_Side`.

    The root u0 of r = 1 is sought in a coordinate t per row that keeps log r nearly linear:
    ``mode`` 0: u = z + t; 1 (a has a zero count, log u in log r): a's argument is e^t; 2 (b has
    one): b's argument is e^(-t); 3 (both, with the instance): u = expit(t).  Each class's
    argument is computed directly from t, so none loses precision next to its singularity.
    """

    def __init__(self, pa, pb, mg, shift, mode, coefs=None):
        self.pa, self.pb, self.mg, self.shift, self.mode = pa, pb, mg, shift, mode
        self.z = 0.5 if shift else 0.0
        self.plain = not mode.any()
        if coefs is None:
            # log r's polynomial part in d = u - z as one polynomial (b's argument is z - d):
            # the Newton steps evaluate it once instead of once per class
            base, Q = len(_Side._FIELDS), _ORDER
            ga, gb = pa.data[base:base + Q], pb.data[base:base + Q]        # highest order first
            flip = np.array([(-1.0) ** (Q - i) for i in range(Q)])[:, None]   # (-1)^q
            c = ga - flip * gb
            dc = c * np.arange(Q, 0, -1)[:, None]
            coefs = np.vstack([c, dc, pa.A - pb.A, 1 - pa.m, 1 - pb.m, pa.k, pb.k])
        self.coefs = coefs

    def take(self, idx):
        if idx.size == self.mode.size and (idx.size == 0 or idx[-1] == idx.size - 1):
            return self                                   # every row, in order
        return _Pair(self.pa.take(idx), self.pb.take(idx), self.mg[idx], self.shift, self.mode[idx],
                     self.coefs[:, idx])

    def light(self, idx):
        """The rows ``idx`` for :meth:`lr` and :meth:`psi` only (no remainder bounds): a cheap copy."""
        out = object.__new__(_Pair)
        out.pa, out.pb, out.shift, out.z = self.pa, self.pb, self.shift, self.z   # only n is read
        out.mode, out.coefs = self.mode[idx], self.coefs[:, idx]
        out.plain = not out.mode.any()
        return out

    def _lr_mid(self, arg_a, arg_b):
        """log r without the remainder and its slope in u, from the pair's polynomial."""
        Q, c = _ORDER, self.coefs
        d = arg_a - self.z
        poly = c[0] * d
        for coef in c[1:Q]:
            poly += coef
            poly *= d
        slope = c[Q] * d
        for coef in c[Q + 1:2 * Q - 1]:
            slope += coef
            slope *= d
        slope += c[2 * Q - 1]
        A, ma, mb, ka, kb = c[2 * Q:]
        na, nb = self.pa.n + arg_a, self.pb.n + arg_b
        with np.errstate(divide="ignore", invalid="ignore"):
            value = poly + A + ma * np.log(na) - mb * np.log(nb)
            slope += ma / na + mb / nb
            if not self.plain:
                value += xlogy(ka, arg_a) - xlogy(kb, arg_b)
                slope += np.divide(ka, arg_a, out=np.zeros_like(slope), where=ka > 0)
                slope += np.divide(kb, arg_b, out=np.zeros_like(slope), where=kb > 0)
        return value, slope

    def args(self, t):
        """(a's argument, b's argument, du/dt) at t; b's argument is shift - u."""
        mode, z = self.mode, self.z
        if self.plain:
            return z + t, z - t, 1.0
        arg_a, arg_b, dudt = z + t, z - t, np.ones_like(t)
        with np.errstate(over="ignore"):
            for which in (1, 2, 3):
                sel = np.flatnonzero(mode == which)
                if sel.size == 0:
                    continue
                ts = t[sel]
                if which == 1:
                    a = np.exp(ts)
                    arg_a[sel], arg_b[sel], dudt[sel] = a, self.shift - a, a
                elif which == 2:
                    b = np.exp(-ts)
                    arg_a[sel], arg_b[sel], dudt[sel] = self.shift - b, b, b
                else:
                    a, b = expit(ts), expit(-ts)
                    arg_a[sel], arg_b[sel], dudt[sel] = a, b, a * b
        return arg_a, arg_b, dudt

    def lr(self, t):
        arg_a, arg_b, dudt = self.args(t)
        value, slope = self._lr_mid(arg_a, arg_b)
        return value, slope * dudt

    def psi(self, w):
        """-ψ in w = logit(u) and its slope (ψ = log r - w decreases where it is certified)."""
        u, v = expit(w), expit(-w)
        value, slope = self._lr_mid(u, v)
        return w - value, 1 - slope * u * v

    def at(self, arg_a, arg_b):
        """Bounds at the arguments (a's u, b's shift - u): (lr_lo, lr_hi, ll_lo, ll_hi), with
        log Λ in place of log L without the instance."""
        lpa, lama, ega, ewa = self.pa.bounds(arg_a - self.z, arg=arg_a)
        lpb, lamb, egb, ewb = self.pb.bounds(arg_b - self.z, arg=arg_b)
        lr, er = lpa - lpb, ega + egb + self.mg
        ll, el = lama + lamb, ewa + ewb + self.mg
        if self.shift:
            ll = ll + np.logaddexp(lpa, lpb)
            el = el + np.maximum(ega, egb)
        return lr - er, lr + er, ll - el, ll + el

    def domain(self):
        """Search interval of t and a start point: the expansions' reach and the domain."""
        pa, pb, z, mode = self.pa, self.pb, self.z, self.mode
        reach = _REACH * (np.minimum(np.minimum(pa.cmin, pa.n), np.minimum(pb.cmin, pb.n)) + z)
        top = np.log(np.maximum(z + reach, 1e-300))
        lo = np.select([mode == 0, mode == 1, mode == 2], [-reach, -700.0, -top], -700.0)
        hi = np.select([mode == 0, mode == 1, mode == 2], [reach, top, 700.0], 700.0)
        mid = np.log(z) if z else top - 1          # u = 1/2, or a third of the reach without it
        start = np.select([mode == 0, mode == 1, mode == 2], [0.0, mid, -mid], 0.0)
        return lo, hi, np.clip(start, lo, hi)


def _root_bracket(pair, t, lo, hi):
    """Rigorous bracket of the root u0 of log r near ``t``: (u_lo, u_hi, ok, bounds at the two
    ends).  Tried with a narrow and, where that fails, a wider bracket."""
    _, slope = pair.lr(t)
    with np.errstate(divide="ignore", invalid="ignore"):
        width = 1e-9 * (1 + np.abs(t)) + 8 * pair.mg / np.abs(slope)
    width = np.where(np.isfinite(width), width, 0.0)
    left, right = np.maximum(t - width, lo), np.minimum(t + width, hi)
    al, bl, _ = pair.args(left)
    ar, br, _ = pair.args(right)
    with np.errstate(divide="ignore", invalid="ignore"):
        at_l, at_r = pair.at(al, bl), pair.at(ar, br)
    ok = (at_l[1] < 0) & (at_r[0] > 0)
    out = [al, ar, ok, list(at_l), list(at_r)]
    redo = np.flatnonzero(~ok & np.isfinite(t))
    if redo.size:                       # a wider bracket where the narrow one failed
        sub = pair.take(redo)
        left = np.maximum(t[redo] - 1e3 * width[redo], lo[redo])
        right = np.minimum(t[redo] + 1e3 * width[redo], hi[redo])
        al, bl, _ = sub.args(left)
        ar, br, _ = sub.args(right)
        with np.errstate(divide="ignore", invalid="ignore"):
            wl, wr = sub.at(al, bl), sub.at(ar, br)
        good = (wl[1] < 0) & (wr[0] > 0)
        rows = redo[good]
        out[0][rows], out[1][rows], out[2][rows] = al[good], ar[good], True
        for k in range(4):
            out[3][k][rows], out[4][k][rows] = wl[k][good], wr[k][good]
    return out


def _taylor_verdicts(sides, a, b, log_alpha, shift, margin):
    r"""Certified verdicts (a over b, b over a, known) from Taylor expansions of per-row sums.

    Every per-feature sum of the profile likelihood is expanded around the centre z (1/2 with the
    instance, 0 without it) with the sums of :func:`_taylor_stats`, in d = u - z for ``a`` and
    -d for ``b``; the remainder after order Q is bounded by

    .. math:: \Big|\sum_j \log\big(1 + \tfrac{d}{c_j+z}\big) - \sum_{q \le Q}
              \tfrac{(-1)^{q+1} d^q}{q} S_q\Big| \le \frac{|d|^{Q+1} S_{Q+1}}{(Q+1)(1-\rho)},
              \qquad \rho = \frac{|d|}{c_{\min} + z},

    (and :math:`|d|^{Q+1} S_Q / ((Q+1)(1-\rho))` for the sums weighted by :math:`c_j`), so log r and
    log L are bracketed at any point at the cost of a few operations per row.  The root u0 of
    r = 1 is then bracketed rigorously.  Without the instance L is unimodal with its maximum at
    u = 0 (003 Cor. 1), so a dominates b iff u0 < 0 and L(u0) < α L(0).  With it, the shape of
    L on [0, 1] follows from ψ(u) = log r - logit u (see :mod:`~credal_core.likelihood.pairwise`):

    .. math:: \psi'(u) = S'(u) + \frac{k_a - 1}{u} + \frac{k_b - 1}{1 - u},

    with :math:`S'` the slope of the smooth part of log r, bounded on [0, 1] by the sums of
    1/c and 1/(c+1).  With at most one zero count per class and :math:`S' <
    (\sqrt{1-k_a} + \sqrt{1-k_b})^2`, ψ decreases: L is unimodal with its mode û at the root of
    ψ, and a dominates b iff u0 < û and L(u0) < α L(û).  With zero counts on both sides and
    :math:`S' + (\sqrt{k_a-1} + \sqrt{k_b-1})^2 > 0`, ψ increases: the maximum of L is
    max(L(0), L(1)) and the supremum over {r <= 1} is max(L(0), L(u0)).  Rows with another shape
    (or out of the expansions' reach) are left unknown for the exact routes; every verdict keeps
    the rounding ``margin`` of the other certificates.  The roots come from a few Newton steps
    and are then bracketed rigorously (a verdict needs no more than a bracket).
    """
    n = margin.size
    ab, ba, known = np.zeros(n, bool), np.zeros(n, bool), np.zeros(n, bool)
    pa, pb = sides[a], sides[b]
    if pa.n <= 0 or pb.n <= 0 or n == 0:
        return ab, ba, known
    rows = np.arange(n)
    if not shift:
        rows = np.flatnonzero(~((pa.k > 0) & (pb.k > 0)))    # both zero: the flat case, elsewhere
        pa, pb = pa.take(rows), pb.take(rows)
    mode = np.where(pa.k > 0, 1, 0) + np.where(pb.k > 0, 2, 0)
    pair = _Pair(pa, pb, margin[rows], shift, mode)
    t_lo, t_hi, start = pair.domain()
    # one Newton step first: rows whose root lies clearly beyond the expansions' reach (confident
    # predictions) are left to the probes at once
    value, slope = pair.lr(start)
    with np.errstate(divide="ignore", invalid="ignore"):
        first = start - value / slope
    # confident rows (log r at the centre beyond _CONFIDENT) are cheaper for the probes
    usable = (t_lo < t_hi) & ((mode != 0) | ((first > 1.5 * t_lo) & (first < 1.5 * t_hi)
                                             & (np.abs(value) < _CONFIDENT)))
    keep = np.flatnonzero(usable)
    if keep.size == 0:
        return ab, ba, known
    if keep.size < 0.8 * rows.size:      # (a copy of the rows costs more than a few wasted ones)
        rows, pair, t_lo, t_hi, first = rows[keep], pair.take(keep), t_lo[keep], t_hi[keep], first[keep]
    start = np.clip(np.where(np.isfinite(first), first, 0.0), t_lo, t_hi)
    t = _newton(pair.lr, start, t_lo, t_hi, lambda idx: pair.light(idx).lr, steps=2)
    u_l, u_r, ok, at_l, at_r = _root_bracket(pair, t, t_lo, t_hi)
    if keep.size >= 0.8 * usable.size:
        ok &= usable
    # L at u0 lies between its values at the bracket's ends where L is monotone there; the least
    # of the two is a lower bound wherever L is unimodal (and without the instance)
    lu_lo, lu_hi = np.minimum(at_l[2], at_r[2]), np.maximum(at_l[3], at_r[3])
    la = log_alpha
    if not shift:
        # L is unimodal with its maximum 0 (relative to the centre) at u = 0
        left, right = u_r < 0, u_l > 0
        lu_hi = np.where(left | right, lu_hi, np.maximum(lu_hi, 0.0))
        mg = pair.mg
        v_ab = left & (lu_hi < la - mg), right | (lu_lo >= la + mg)
        v_ba = right & (lu_hi < la - mg), left | (lu_lo >= la + mg)
    else:
        sel = np.flatnonzero(ok)             # the shape only where u0 is bracketed
        if sel.size >= 0.8 * ok.size:
            sel = np.arange(ok.size)
        v_ab, v_ba = (tuple(np.zeros(ok.size, bool) for _ in range(2)) for _ in range(2))
        if sel.size:
            s_ab, s_ba, shape_ok = _shape_verdicts(pair.take(sel), u_l[sel], u_r[sel], lu_lo[sel],
                                                   lu_hi[sel], la)
            ok[sel] &= shape_ok
            for whole, part in zip(v_ab + v_ba, s_ab + s_ba):
                whole[sel] = part
    got = ok & (v_ab[0] | v_ab[1]) & (v_ba[0] | v_ba[1])
    out = rows[got]
    ab[out], ba[out], known[out] = v_ab[0][got], v_ba[0][got], True
    return ab, ba, known


def _shape_verdicts(pair, u0l, u0h, lu_lo, lu_hi, la):
    """With the instance: verdicts from the certified shape of L on [0, 1] (see
    :func:`_taylor_verdicts`); returns (yes, no) for a over b, (yes, no) for b over a, and the
    rows where the shape is certified."""
    pa, pb, mg = pair.pa, pair.pb, pair.mg
    ea, eb = pa.k - 1, pb.k - 1
    (ca_lo, ca_hi), (cb_lo, cb_hi) = _class_slope_range(pa), _class_slope_range(pb)
    s_hi = pa.ihi + pb.ihi + ca_hi + cb_hi
    s_lo = pa.ilo + pb.ilo + ca_lo + cb_lo
    root = np.sqrt
    dec = (ea <= 0) & (eb <= 0) & (s_hi < (root(np.maximum(-ea, 0)) + root(np.maximum(-eb, 0))) ** 2)
    bowl = (ea >= 0) & (eb >= 0) & (s_lo + (root(np.maximum(ea, 0)) + root(np.maximum(eb, 0))) ** 2 > 0)
    # the same on the halves [0, 1/2] and [1/2, 1], where each class's sum of 1/(c + u) is bounded
    # by its values at the half's ends (S_1 = sum 1/(c + 1/2) at the middle), and the terms
    # e_a/u + e_b/(1 - u) by theirs (e = k - 1 is -1 or 0 for dec, >= 0 for the bowl)
    s1a, s1b = pa.g1, pb.g1
    both = ea * eb                              # 1 where both are -1: the bound -4 at u = 1/2
    dec |= ((ea <= 0) & (eb <= 0) & (pa.ihi + s1b + ca_hi + cb_hi + 2 * ea + eb - both < 0)
            & (s1a + pb.ihi + ca_hi + cb_hi + ea + 2 * eb - both < 0))
    bowl |= ((ea >= 0) & (eb >= 0) & (s1a + pb.ilo + ca_lo + cb_lo + 2 * ea + eb > 0)
             & (pa.ilo + s1b + ca_lo + cb_lo + ea + 2 * eb > 0))
    k = mg.size
    m_lo, m_hi = np.full(k, np.nan), np.full(k, np.nan)
    u_lo, u_hi = np.full(k, np.nan), np.full(k, np.nan)
    # log L at u = 0 and u = 1 where needed: the bowl (its maximum is at an end), and the rows
    # with one zero count, whose mode may sit at an end (ψ has a finite limit there)
    l0, l1 = np.full((2, k), np.nan), np.full((2, k), np.nan)
    ends = np.flatnonzero(bowl | (dec & ((ea == 0) | (eb == 0))))
    at0, at1 = np.zeros(k, bool), np.zeros(k, bool)
    if ends.size:
        sub = pair.take(ends)
        zeros, ones = np.zeros(ends.size), np.ones(ends.size)
        with np.errstate(divide="ignore", invalid="ignore"):
            l0[:, ends] = sub.at(zeros, ones)[2:]
            l1[:, ends] = sub.at(ones, zeros)[2:]
            # ψ at the ends without the infinite logs (their coefficient k - 1 is 0 there)
            psi0 = sub.pa.log_p(zeros - 0.5, False)[0] - sub.pb.log_p(ones - 0.5, False)[0]
            psi1 = sub.pa.log_p(ones - 0.5, False)[0] - sub.pb.log_p(zeros - 0.5, False)[0]
            err0 = sub.pa.bounds(zeros - 0.5)[2] + sub.pb.bounds(ones - 0.5)[2] + sub.mg
            err1 = sub.pa.bounds(ones - 0.5)[2] + sub.pb.bounds(zeros - 0.5)[2] + sub.mg
        at0[ends] = (ea[ends] == 0) & (psi0 + err0 < 0)
        at1[ends] = (eb[ends] == 0) & (psi1 - err1 > 0)
    at0 &= dec
    at1 &= dec
    m_lo[bowl], m_hi[bowl] = np.maximum(l0[0], l1[0])[bowl], np.maximum(l0[1], l1[1])[bowl]
    for sel, end, u in ((at0, l0, 0.0), (at1, l1, 1.0)):
        m_lo[sel], m_hi[sel], u_lo[sel], u_hi[sel] = end[0][sel], end[1][sel], u, u
    want = dec & ~at0 & ~at1
    inner = np.flatnonzero(want)
    if inner.size >= 0.8 * k:
        inner = np.arange(k)                  # computed on every row, kept where wanted
    if inner.size:
        sub = pair.take(inner)
        lim = np.full(inner.size, 700.0)
        w0 = np.clip(sub.lr(np.zeros(inner.size))[0], -lim, lim)    # ψ(1/2) = log r(1/2)
        w = _newton(sub.psi, w0, -lim, lim, lambda idx: sub.light(idx).psi)
        _, slope = sub.psi(w)
        with np.errstate(divide="ignore", invalid="ignore"):
            hw = 1e-9 * (1 + np.abs(w)) + 8 * sub.mg / np.abs(slope)
        hw = np.where(np.isfinite(hw), hw, 0.0)
        wl, wh = w - hw, w + hw
        ul, uh, vl, vh = expit(wl), expit(wh), expit(-wl), expit(-wh)
        with np.errstate(divide="ignore", invalid="ignore"):
            bl, bh = sub.at(ul, vl), sub.at(uh, vh)
            # ψ = log r - w: positive at the left end, negative at the right one
            fine = (bl[0] - wl > 0) & (bh[1] - wh < 0)
            slope_max = (sub.pa.ihi + sub.pb.ihi + np.abs(1 - sub.pa.m) / sub.pa.n
                         + np.abs(1 - sub.pb.m) / sub.pb.n + sub.pa.k / ul + sub.pb.k / vh)
        fine &= want[inner]
        sel = inner[fine]
        m_lo[sel] = np.maximum(bl[2], bh[2])[fine]
        m_hi[sel] = (np.maximum(bl[3], bh[3]) + slope_max * (uh - ul))[fine]
        u_lo[sel], u_hi[sel] = ul[fine], uh[fine]
        dec[inner[~fine & want[inner]]] = False
    ok = (dec | bowl) & np.isfinite(m_lo) & np.isfinite(m_hi)
    with np.errstate(invalid="ignore"):
        left, right = dec & (u0h < u_lo), dec & (u0l > u_hi)
        top = np.where(left | right, lu_hi, np.maximum(lu_hi, m_hi))
        low = np.where(bowl, -np.inf, lu_lo)
        ab_sup_hi = np.where(bowl, np.maximum(l0[1], lu_hi), top)
        ba_sup_hi = np.where(bowl, np.maximum(l1[1], lu_hi), top)
        ab_sup_lo = np.where(bowl, np.maximum(l0[0], low), low)
        ba_sup_lo = np.where(bowl, np.maximum(l1[0], low), low)
        ab = ((bowl | left) & (ab_sup_hi < la + m_lo - mg), right | (ab_sup_lo >= la + m_hi + mg))
        ba = ((bowl | right) & (ba_sup_hi < la + m_lo - mg), left | (ba_sup_lo >= la + m_hi + mg))
    return ab, ba, ok
