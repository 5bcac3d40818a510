r"""Likelihood-based credal TAN (LTANC): the LNCC's dominance test on a tree-augmented naive graph.

**Graph.**  The class C is the parent of every feature, and the features form the Chow-Liu tree of
the conditional mutual information :math:`I(F_i; F_j \mid C)` (Friedman, Geiger & Goldszmidt 1997),
rooted at the first feature: each feature has C and at most one feature as parents.

**Dominance (000 §4 on this graph).**  For an instance :math:`\tilde f` and classes a, b let
:math:`g(\theta) = P_\theta(a, \tilde f) / P_\theta(b, \tilde f)`, a product of the network's
parameters with exponents :math:`q = e_a - e_b` (the counts of the instance labelled a minus those
labelled b: the class row and, for each feature, the rows of its parent configuration under a and
under b).  With ``include_instance=True`` the likelihood is that of the data times the instance's
probability with its class missing, restricted to a or b, as paper 000 does for the naive graph:

.. math:: L(\theta) = \mathrm{lik}_d(\theta)\,\big(P_\theta(a, \tilde f) + P_\theta(b, \tilde f)\big)
          = \mathrm{lik}_d(\theta)\,P_\theta(b, \tilde f)\,(1 + g(\theta)).

:math:`\mathrm{lik}_d\,P_\theta(b,\tilde f)` is Theorem 1's product form with counts
:math:`d' = d + e_b`, so Theorem 1 applies: on its path :math:`\theta[\alpha] = \langle d' + \alpha q\rangle`,
:math:`\log L = \mathrm{logaddexp}(A, B)` with :math:`B(\alpha) = \log \mathrm{lik}_{d'}(\theta[\alpha])`
(decreasing for α >= 0) and :math:`A = B + \log g` (the likelihood with :math:`d + e_a`, increasing for
α <= 1), and

.. math:: \frac{d \log L}{d\alpha} = (\log g)'\,\Big(\frac{g}{1+g} - \alpha\Big),

so the maxima lie in α ∈ [0, 1] (an EM fixed point; several may exist).  They are found by branch
and bound: on a cell :math:`[x_1, x_2]`, :math:`\log L \le \mathrm{logaddexp}(A(x_2), B(x_1))`, and a cell
where :math:`g/(1+g) - \alpha` keeps one sign is monotone.  With ``include_instance=False`` the
likelihood is the data's alone (003's hierarchical classifier): the unimodal Theorem 1 profile.

a dominates b iff the normalised profile likelihood of g is below α at every γ <= 1:
``alpha > critical_alpha[a, b]`` with :math:`\text{critical} = \sup_{g \le 1} L / \sup L`.
(:meth:`NetworkLikelihood.profile_ratio(..., include_instance=True)
<credal_core.likelihood.network.NetworkLikelihood.profile_ratio>` is this profile on any graph.)

**Verdicts** (``dominance``, ``predict_set``, with the instance).  With numba, compiled certificates
(:mod:`._tan_kernels`: integer counts, look-ups of log k at integer α, a rounding margin on every bound)
settle most pairs; only the pairs they leave open take :func:`pair_dominance` (bounds from brackets
of g = 1, then the exact levels).  Every certificate is a proof, so both routes give the verdicts of
``alpha > critical_alpha``.

**Missing values are refused** (training and test): a missing feature with a child in the tree
makes the likelihood a sum over its values, not Theorem 1's product form.  A test value unseen in
training has count 0 (also as a parent configuration).
"""
from __future__ import annotations

from numbers import Real

import numpy as np
from sklearn.utils._param_validation import Interval

from .._base import TIE, CategoricalClassifier, CredalClassifierMixin, warn_once
from .._compiled import numba_enabled
from .._roots import increasing_root
from ..data.counts import MISSING
from ._tan_kernels import certify, kernel_tables
from .network import PathItems

# predict_set on 2,000 rows of a 10,000 x 20 x 3 fit at alpha = 0.75: 40 ms with the compiled certificates,
# 207 ms without (2026-11-28, this project's 2-core machine)
_SLOWDOWN = "about 5x"
_WARNED = []

__all__ = ["LTANC", "chow_liu_parents", "tan_graph"]

_LOG2 = float(np.log(2.0))


def conditional_mutual_information(codes, y_codes, sizes, n_classes) -> np.ndarray:
    r""":math:`I(F_i; F_j \mid C)` (m, m) from the empirical frequencies (nats)."""
    n, m = codes.shape
    out = np.zeros((m, m))
    for i in range(m):
        for j in range(i + 1, m):
            ki, kj = sizes[i], sizes[j]
            joint = np.bincount((y_codes * ki + codes[:, i]) * kj + codes[:, j],
                                minlength=n_classes * ki * kj).reshape(n_classes, ki, kj) / n
            pc = joint.sum(axis=(1, 2), keepdims=True)
            pci = joint.sum(axis=2, keepdims=True)
            pcj = joint.sum(axis=1, keepdims=True)
            with np.errstate(divide="ignore", invalid="ignore"):
                terms = joint * np.log(joint * pc / (pci * pcj))
            out[i, j] = out[j, i] = np.nansum(np.where(joint > 0, terms, 0.0))
    return out


def chow_liu_parents(weights: np.ndarray) -> np.ndarray:
    """Maximum-weight spanning tree (Prim, from feature 0; ties to the lower index) as a parent
    array: ``parents[j]`` is j's parent feature, -1 for the root."""
    m = weights.shape[0]
    parents = np.full(m, -1)
    if m <= 1:
        return parents
    in_tree = np.zeros(m, bool)
    in_tree[0] = True
    best = weights[0].copy()
    link = np.zeros(m, dtype=int)
    for _ in range(m - 1):
        cand = np.where(in_tree, -np.inf, best)
        j = int(np.argmax(cand))
        in_tree[j] = True
        parents[j] = link[j]
        better = ~in_tree & (weights[j] > best)
        best = np.where(better, weights[j], best)
        link = np.where(better, j, link)
    return parents


def tan_graph(parents, features, class_node="C") -> dict:
    """The DAG of a TAN as :class:`~credal_core.likelihood.network.NetworkLikelihood`'s ``parents``:
    ``{class_node: (), feature: (class_node,) or (class_node, parent feature)}``, from a parent array
    (``parents[j]`` is feature j's parent feature, -1 for none: all -1 gives the naive graph)."""
    features = list(features)
    if len(parents) != len(features):
        raise ValueError(f"{len(parents)} parents for {len(features)} features")
    if class_node in features:
        raise ValueError(f"the class node {class_node!r} is also a feature's name; choose another")
    graph = {class_node: ()}
    for f, p in zip(features, parents):
        graph[f] = (class_node,) if p < 0 else (class_node, features[p])
    return graph


class LTANC(CredalClassifierMixin, CategoricalClassifier):
    r"""Likelihood-based credal TAN: the TAN networks whose normalised likelihood is at least α.

    Class ``a`` dominates ``b`` on :math:`\tilde f` iff the profile likelihood of
    :math:`P_\theta(a, \tilde f)/P_\theta(b, \tilde f)` is below α at every value <= 1 (paper 000's
    test, on the Chow-Liu TAN graph; see the module docstring for the exact computation through
    paper 003's Theorem 1).

    Parameters
    ----------
    alpha : float, default=0.75
        Likelihood threshold in [0, 1].
    include_instance : bool, default=True
        Put the instance (class missing, restricted to the pair) in the likelihood (000 §4).
    s : float, default=1.0
        Dirichlet prior strength of ``predict``'s precise TAN (the credal set does not use it).

    Attributes
    ----------
    parents_ : ndarray of int, shape (m,)
        Each feature's parent feature in the tree (-1: the root, whose only parent is C).
    cmi_ : ndarray of shape (m, m)
        The conditional mutual information that weighted the tree.
    """

    _parameter_constraints = {"alpha": [Interval(Real, 0, 1, closed="both")],
                              "include_instance": ["boolean"],
                              "s": [Interval(Real, 0, None, closed="left")]}
    _needs_training_codes = True

    def __init__(self, *, alpha: float = 0.75, include_instance: bool = True, s: float = 1.0):
        self.alpha = alpha
        self.include_instance = include_instance
        self.s = s

    # --- fitting ---------------------------------------------------------------------------------
    def graph(self, class_node="C") -> dict:
        """The learned TAN as ``NetworkLikelihood(parents=...)``'s mapping (:func:`tan_graph`), the
        features named as in the training data."""
        return tan_graph(self.parents_, self.tables_.feature_names, class_node)

    def _fit_tables(self, tables, codes=None, y_codes=None):
        codes = np.asarray(codes)
        if np.any(codes == MISSING):
            cols = [str(tables.feature_names[j]) for j in np.flatnonzero((codes == MISSING).any(axis=0))]
            raise ValueError(f"LTANC needs complete training data; missing values in {cols} (a missing "
                             "feature with a child in the tree breaks Theorem 1's product form): impute "
                             "or drop those rows")
        sizes = [len(c) for c in tables.categories]
        n_classes = len(tables.classes)
        y_codes = np.asarray(y_codes)
        self.cmi_ = conditional_mutual_information(codes, y_codes, sizes, n_classes)
        self.parents_ = chow_liu_parents(self.cmi_)
        counts = []
        for j, p in enumerate(self.parents_):
            kp = sizes[p] if p >= 0 else 1
            vp = codes[:, p] if p >= 0 else np.zeros(len(codes), dtype=int)
            flat = np.bincount((y_codes * kp + vp) * sizes[j] + codes[:, j],
                               minlength=n_classes * kp * sizes[j]).reshape(n_classes, kp, sizes[j])
            ext = np.zeros((n_classes, kp + 1, sizes[j] + 1))     # last slots: unseen values (count 0)
            ext[:, :kp, :sizes[j]] = flat
            counts.append(ext)
        self.tan_counts_ = counts
        self._sizes = sizes
        self._certify_tables = kernel_tables(counts, tables.class_counts)
        self._log_ratio_cache = None

    def _instance_codes(self, codes):
        codes = np.asarray(codes)
        if np.any(codes == MISSING):
            raise ValueError("LTANC cannot classify rows with missing values (a missing feature with a "
                             "child in the tree breaks Theorem 1's product form); impute them first")
        sizes = np.asarray(self._sizes)
        return np.where(codes < 0, sizes[None, :], codes)         # UNSEEN -> the zero slot

    def _log_ratio_tables(self):
        """Per fit and prior strength: log P(class) (C,) and, for each feature, log P(f_j | c, parent)
        (C, kp + 1, kj + 1) of ``predict``'s precise TAN (a row without data: 1 / kj)."""
        s = float(self.s)
        if self._log_ratio_cache is not None and self._log_ratio_cache[0] == s:
            return self._log_ratio_cache[1]
        C = len(self.classes_)
        nc = self.tables_.class_counts
        with np.errstate(divide="ignore"):
            prior = np.log((nc + s / C) / (nc.sum() + s))
        logs = []
        for j, p in enumerate(self.parents_):
            table = self.tan_counts_[j]
            kj, kp = self._sizes[j], (self._sizes[p] if p >= 0 else 1)
            num = table + s / (C * kp * kj)
            den = table.sum(axis=2, keepdims=True) + s / (C * kp)
            with np.errstate(divide="ignore", invalid="ignore"):
                ratio = np.where(den > 0, num / np.where(den > 0, den, 1.0), 1.0 / kj)
                logs.append(np.log(ratio))
        self._log_ratio_cache = (s, (prior, logs))
        return prior, logs

    def _joint_log_likelihood(self, codes):
        codes = self._instance_codes(codes)
        prior, logs = self._log_ratio_tables()
        out = np.repeat(prior[:, None], codes.shape[0], axis=1)
        for j, p in enumerate(self.parents_):
            vp = codes[:, p] if p >= 0 else np.zeros(codes.shape[0], dtype=int)
            out += logs[j][:, vp, codes[:, j]]
        return out

    # --- the pairwise profile ------------------------------------------------------------------------
    def _items(self, codes, a, b):
        """PathItems of every (row, pair): cells = class a, class b, then each feature under a, under b."""
        codes = self._instance_codes(codes)
        n, m = codes.shape
        a, b = np.asarray(a), np.asarray(b)
        P = max(a.shape[-1], b.shape[-1])
        a, b = np.broadcast_to(a, (n, P)), np.broadcast_to(b, (n, P))     # shared pairs or one set per row
        shift = 1.0 if self.include_instance else 0.0
        nc = self.tables_.class_counts
        K, E = n * P, 2 + 2 * m
        d, D = np.empty((n, P, E)), np.zeros((n, P, E))
        q = np.empty(E)
        q[0::2], q[1::2] = 1.0, -1.0
        w = np.ones(E)
        w[:2] = 0.0
        d[:, :, 0], d[:, :, 1] = nc[a], nc[b] + shift
        for j, p in enumerate(self.parents_):
            table = self.tan_counts_[j]
            kp1, kj1 = table.shape[1], table.shape[2]
            vp = codes[:, p] if p >= 0 else np.zeros(n, dtype=int)
            cell = (vp * kj1 + codes[:, j])[:, None]               # (n, 1) within a class's block
            block = kp1 * kj1
            flat, totals = table.ravel(), table.sum(axis=2).ravel()
            d[:, :, 2 + 2 * j] = flat[a * block + cell]
            d[:, :, 3 + 2 * j] = flat[b * block + cell] + shift
            row = vp[:, None]
            D[:, :, 2 + 2 * j] = totals[a * kp1 + row]
            D[:, :, 3 + 2 * j] = totals[b * kp1 + row] + shift
        return PathItems(d.reshape(K, E), np.broadcast_to(q, (K, E)), D.reshape(K, E),
                         np.broadcast_to(w, (K, E)))

    def _pairs(self):
        C = len(self.classes_)
        a, b = np.triu_indices(C, k=1)
        return a, b

    def critical_alpha(self, X) -> np.ndarray:
        """Critical levels (n, C, C): ``a`` dominates ``b`` iff ``alpha > critical_alpha[i, a, b]``
        (1.0 on the diagonal)."""
        return self.critical_alpha_codes(self._encode(X))

    def critical_alpha_codes(self, codes) -> np.ndarray:
        """:meth:`critical_alpha` of instances already encoded by this model."""
        codes = np.asarray(codes)
        a, b = self._pairs()
        items = self._items(codes, a, b)
        ab, ba = pair_critical_alphas(items, self.include_instance)
        n, C = codes.shape[0], len(self.classes_)
        out = np.ones((n, C, C))
        out[:, a, b] = ab.reshape(n, a.size)
        out[:, b, a] = ba.reshape(n, a.size)
        return out

    def _set_dominance(self, codes):
        """The pairs of each row's best-scored class first; a row where it dominates every other class
        (and none dominates it) skips the other pairs — its maximal set is that class (the hook's
        rule (ii), :meth:`CredalClassifierMixin._set_dominance`)."""
        C = len(self.classes_)
        if not self.include_instance or C <= 2:
            return self._dominance(codes)
        codes = np.asarray(codes)
        n = codes.shape[0]
        top = np.argmax(self._joint_log_likelihood(codes), axis=0)
        others = (np.arange(C - 1)[None, :] + (np.arange(C - 1)[None, :] >= top[:, None]))     # (n, C-1)
        ab, ba = self._pair_verdicts(codes, top[:, None], others)
        settled = ab.all(axis=1) & ~ba.any(axis=1)
        out = np.zeros((n, C, C), dtype=bool)
        rows = np.flatnonzero(settled)
        out[rows[:, None], top[rows, None], others[rows]] = True
        rest = np.flatnonzero(~settled)
        if rest.size:
            out[rest] = self._dominance(codes[rest])
        return out

    def _dominance(self, codes):
        if not self.include_instance:
            return float(self.alpha) > self.critical_alpha_codes(codes)
        codes = np.asarray(codes)
        a, b = self._pairs()
        ab, ba = self._pair_verdicts(codes, a, b)
        n, C = codes.shape[0], len(self.classes_)
        out = np.zeros((n, C, C), dtype=bool)
        out[:, a, b] = ab
        out[:, b, a] = ba
        return out

    def _pair_verdicts(self, codes, a, b):
        """With the instance: (a over b, b over a) of every row and pair, two bool (n, P); ``a``, ``b``
        give the pairs' classes, shared (P,) or per row (n, P).

        With numba the compiled certificates (:mod:`._tan_kernels`, integer counts and look-ups, each
        verdict a proof) come first and the items they leave open take :func:`pair_dominance`;
        without it, :func:`pair_dominance` alone — the same verdicts."""
        codes = self._instance_codes(codes)
        n = codes.shape[0]
        P = max(np.shape(a)[-1], np.shape(b)[-1])
        a, b = np.broadcast_to(a, (n, P)).ravel(), np.broadcast_to(b, (n, P)).ravel()
        alpha = float(self.alpha)
        if not numba_enabled():
            warn_once(_WARNED, "numba is off (not installed, not importable, or CREDAL_NUMBA=0): "
                      "the LTANC settles every verdict by its exact route, the same verdicts "
                      f"{_SLOWDOWN} slower; install the [fast] extra (pip install 'credal-core[fast]') "
                      "for the compiled certificates", stacklevel=4)
            ab, ba = pair_dominance(self._items(codes, a.reshape(n, P), b.reshape(n, P)), alpha)
            return ab.reshape(n, P), ba.reshape(n, P)
        rows = np.repeat(np.arange(n), P)
        ab, ba, known = certify(codes, self.parents_, self._certify_tables, rows, a, b,
                                np.log(alpha) if alpha > 0 else -np.inf)
        rest = np.flatnonzero(~known)
        if rest.size:
            ab[rest], ba[rest] = pair_dominance(self._items(codes[rows[rest]], a[rest, None], b[rest, None]),
                                                alpha)
        return ab.reshape(n, P), ba.reshape(n, P)


# --- exact critical alphas of many pairs --------------------------------------------------------------
def _alpha_at_one(items, idx):
    """α with g(θ[α]) = 1 (items whose path crosses γ = 1), Newton started from the tangent at α = 0."""
    if not idx.size:
        return np.zeros(0)
    x0 = None
    inside = (items.alpha_lo[idx] < 0) & (items.alpha_hi[idx] > 0)
    if inside.all():
        with np.errstate(divide="ignore", invalid="ignore"):
            v, dv, _ = items.log_g(np.zeros(idx.size), idx, derivative=True)
            x0 = -v / dv
        x0 = np.where(np.isfinite(x0), x0, 0.0)
    return items.alpha_of_log_g(np.zeros(idx.size), idx, x0=x0)


def pair_critical_alphas(items: PathItems, include_instance: bool):
    """(sup_{g<=1} L / sup L, sup_{g>=1} L / sup L) of every item (the two dominance levels)."""
    lg_lo, ll_lo = items.ends("lo")
    lg_hi, ll_hi = items.ends("hi")
    a_lo, a_hi = items.alpha_lo, items.alpha_hi
    K = len(items)
    low, high = lg_lo >= 0, lg_hi <= 0               # the whole path at g >= 1, or at g <= 1
    cross = np.flatnonzero(~low & ~high & ~items.flat)
    alpha0 = np.full(K, np.nan)
    alpha0[cross] = _alpha_at_one(items, cross)
    with np.errstate(invalid="ignore"):
        # log L at γ = 1 on the power pieces: log(1+1)·[instance] + α_end·log g_end + log lik_end
        end_lo = np.where(a_lo == 0, 0.0, np.where(np.isfinite(a_lo), a_lo * lg_lo, -np.inf)) + ll_lo
        end_hi = np.where(a_hi == 0, 0.0, np.where(np.isfinite(a_hi), a_hi * lg_hi, -np.inf)) + ll_hi
    if not include_instance:
        at_one = np.zeros(K)
        at_one[cross] = np.minimum(items.log_lik(alpha0[cross], cross), 0.0)
        at_one[low] = end_lo[low]
        at_one[high] = end_hi[high]
        left = np.where(low | (alpha0 < 0), at_one, 0.0)      # the MLE lies at g > 1: sup_{g<=1} = lik(1)
        right = np.where(high | (alpha0 > 0), at_one, 0.0)
        left = np.where(items.flat, 0.0, left)
        right = np.where(items.flat, 0.0, right)
        return _levels(left, right)
    # with the instance: maxima of F = logaddexp(A, B) on α ∈ [0, 1]
    segs_left = (np.zeros(K), np.where(np.isnan(alpha0), 1.0, np.clip(alpha0, 0, 1)))
    segs_right = (np.where(np.isnan(alpha0), 0.0, np.clip(alpha0, 0, 1)), np.ones(K))
    left = _max_on(items, *segs_left)
    right = _max_on(items, *segs_right)
    f0 = np.full(K, -np.inf)
    if cross.size:
        f0[cross] = _LOG2 + np.minimum(items.log_lik(alpha0[cross], cross), 0.0)   # F at g = 1
    left = np.where(alpha0 <= 0, f0, left)
    right = np.where(alpha0 >= 1, f0, right)
    left = np.where(low, _LOG2 + end_lo, left)
    right = np.where(high, _LOG2 + end_hi, right)
    return _levels(left, right)


def _levels(left, right):
    """exp(side - max) of both sides; a difference within TIE of 0 is a tie (level 1): sums of logs
    taken along different routes differ in the last bits, and a tie must not become a dominance."""
    top = np.maximum(left, right)
    out = []
    for side in (left, right):
        rel = np.minimum(side - top, 0.0)
        out.append(np.exp(np.where(rel > -TIE, 0.0, rel)))
    return out[0], out[1]


def _end_kind(items):
    """(whole path at g >= 1, whole path at g <= 1, log L at γ = 1 beyond each end) with the instance;
    :meth:`PathItems.ends` only for the items whose g is not 0 / +inf at the ends."""
    K = len(items)
    low, high = np.zeros(K, bool), np.zeros(K, bool)
    end_lo, end_hi = np.full(K, -np.inf), np.full(K, -np.inf)
    with np.errstate(invalid="ignore"):
        moving = items.qe != 0
        zero_lo = (moving & (items.q > 0) & (items.d + items.alpha_lo[:, None] * items.q == 0)).any(axis=1)
        inf_hi = (moving & (items.q < 0) & (items.d + items.alpha_hi[:, None] * items.q == 0)).any(axis=1)
    check = np.flatnonzero(~zero_lo | ~inf_hi)
    if check.size:
        sub = items.take(check)
        for side, flag, end, alpha in (("lo", low, end_lo, sub.alpha_lo), ("hi", high, end_hi, sub.alpha_hi)):
            lg, ll = sub.ends(side)
            flag[check] = lg >= 0 if side == "lo" else lg <= 0
            with np.errstate(invalid="ignore"):
                end[check] = _LOG2 + np.where(alpha == 0, 0.0, alpha * lg) + ll
    return low, high, end_lo, end_hi


def _side_bounds(xl, Al, Bl, xh, Ah, Bh, A0, B0, A1, B1):
    """Bounds of the two sides' sups from a bracket ``xl <= α0 <= xh`` of g = 1 that has 0 and 1 outside
    its interior, with A, B at its ends and at α = 0, 1 (A increases on α <= 1, B decreases on α >= 0
    and increases on α <= 0; F = logaddexp(A, B) with F(α0) = log 2 + B(α0))."""
    F0, F1 = np.logaddexp(A0, B0), np.logaddexp(A1, B1)
    Fl, Fh = np.logaddexp(Al, Bl), np.logaddexp(Ah, Bh)
    # left: sup over α <= α0 (g <= 1)
    point = xh <= 0
    lb_l = np.where(point, _LOG2 + Bl, np.maximum(F0, np.where(xl <= 1, Fl, F1)))
    ub_l = np.where(point, _LOG2 + Bh, np.logaddexp(np.where(xh <= 1, Ah, A1), B0))
    # right: sup over α >= α0 (g >= 1)
    point = xl >= 1
    lb_r = np.where(point, _LOG2 + Bh, np.maximum(F1, np.where(xh >= 0, Fh, F0)))
    ub_r = np.where(point, _LOG2 + Bl, np.logaddexp(A1, np.where(xl >= 0, Bl, B0)))
    return lb_l, ub_l, lb_r, ub_r


def pair_dominance(items: PathItems, alpha: float, steps: int = 6):
    """(a dominates b, b dominates a) of every item at level ``alpha``, with the instance: the verdicts
    of ``alpha > critical level`` (:func:`pair_critical_alphas`).

    Each side's sup is bounded (:func:`_side_bounds`) from a bracket of the root α0 of g = 1, narrowed
    by a few safeguarded secant steps on log g while the verdicts stay open; a dominance is decided
    when ``ub(side) < log α + lb(other side)`` and refused when ``lb(side) >= log α + ub(other)``.  The
    items still open take the exact route."""
    K = len(items)
    log_a = np.log(alpha) if alpha > 0 else -np.inf
    idx = np.arange(K)
    low, high, end_lo, end_hi = _end_kind(items)
    A0, B0 = _F(items, np.zeros(K), idx)
    A1, B1 = _F(items, np.ones(K), idx)
    with np.errstate(invalid="ignore"):
        lg0, lg1 = A0 - B0, A1 - B1
    ab, ba = np.zeros(K, bool), np.zeros(K, bool)
    open_ = np.ones(K, bool)
    # whole path on one side of g = 1: one side's sup is a number, the other the max over [0, 1]
    for mask, fixed_left in ((low, True), (high, False)):
        rows = np.flatnonzero(mask)
        if rows.size:
            seg_lb = np.maximum(np.logaddexp(A0[rows], B0[rows]), np.logaddexp(A1[rows], B1[rows]))
            seg_ub = np.logaddexp(A1[rows], B0[rows])
            point = (end_lo if fixed_left else end_hi)[rows]
            lb_l, ub_l, lb_r, ub_r = ((point, point, seg_lb, seg_ub) if fixed_left
                                      else (seg_lb, seg_ub, point, point))
            _decide(rows, lb_l, ub_l, lb_r, ub_r, log_a, ab, ba, open_)
    rows = np.flatnonzero(~low & ~high)
    # the bracket: [α_lo, 0], [0, 1] or [1, α_hi] by the signs of log g at 0 and 1
    xl = np.where(lg0[rows] >= 0, items.alpha_lo[rows], np.where(lg1[rows] >= 0, 0.0, 1.0))
    xh = np.where(lg0[rows] >= 0, 0.0, np.where(lg1[rows] >= 0, 1.0, items.alpha_hi[rows]))
    Al, Bl = np.where(xl == 0, A0[rows], A1[rows]), np.where(xl == 0, B0[rows], B1[rows])
    Ah, Bh = np.where(xh == 0, A0[rows], A1[rows]), np.where(xh == 0, B0[rows], B1[rows])
    for end, A_, B_ in ((xl, Al, Bl), (xh, Ah, Bh)):      # α_lo or α_hi: the only new values
        far = np.flatnonzero((end != 0) & (end != 1))
        if far.size:
            A_[far], B_[far] = _F(items, end[far], rows[far])
    for step in range(steps + 1):
        bounds = _side_bounds(xl, Al, Bl, xh, Ah, Bh, A0[rows], B0[rows], A1[rows], B1[rows])
        still = _decide(rows, *bounds, log_a, ab, ba, open_)
        if step == steps or not still.any():
            break
        rows, xl, Al, Bl, xh, Ah, Bh = (v[still] for v in (rows, xl, Al, Bl, xh, Ah, Bh))
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            gl, gh = Al - Bl, Ah - Bh
            x = xl + (xh - xl) * (-gl) / (gh - gl)               # secant on log g
            bisect = ~np.isfinite(x) | (x <= xl) | (x >= xh) | (step % 2 == 1)
        x = np.where(bisect, 0.5 * (xl + xh), x)
        Am, Bm = _F(items, x, rows)
        with np.errstate(invalid="ignore"):
            up = (Am - Bm) >= 0
        xh, Ah, Bh = np.where(up, x, xh), np.where(up, Am, Ah), np.where(up, Bm, Bh)
        xl, Al, Bl = np.where(up, xl, x), np.where(up, Al, Am), np.where(up, Bl, Bm)
    rest = np.flatnonzero(open_)
    if rest.size:
        c_ab, c_ba = pair_critical_alphas(items.take(rest), True)
        ab[rest], ba[rest] = alpha > c_ab, alpha > c_ba
    return ab, ba


def _decide(rows, lb_l, ub_l, lb_r, ub_r, log_a, ab, ba, open_):
    """Record the verdicts the bounds settle; returns which of ``rows`` stay open."""
    with np.errstate(invalid="ignore"):
        # a dominates b iff d = sup_left - sup_right <= -TIE and d < log α (as :func:`_levels`)
        hi_ab, lo_ab = ub_l - lb_r, lb_l - ub_r
        ab_yes, ab_no = (hi_ab <= -TIE) & (hi_ab < log_a), (lo_ab > -TIE) | (lo_ab >= log_a)
        hi_ba, lo_ba = ub_r - lb_l, lb_r - ub_l
        ba_yes, ba_no = (hi_ba <= -TIE) & (hi_ba < log_a), (lo_ba > -TIE) | (lo_ba >= log_a)
    done = (ab_yes | ab_no) & (ba_yes | ba_no)
    ab[rows[done]] = ab_yes[done]
    ba[rows[done]] = ba_yes[done]
    open_[rows[done]] = False
    return ~done


def _F(items, x, idx):
    """(A, B) at α = ``x`` of items ``idx`` (all items when ``idx`` is ``arange(len(items))``)."""
    if idx.size == len(items) and (idx.size == 0 or (idx[0] == 0 and np.all(np.diff(idx) == 1))):
        return items.log_lik_pair(x)
    return items.log_lik_pair(x, idx)


def _max_on(items, lo, hi, rounds: int = 60, tol: float = 1e-12, cap: int = 16, where=None):
    """max over α ∈ [lo, hi] ⊂ [0, 1] of F = logaddexp(A, B), per item.

    Branch and bound on cells [x1, x2]: F <= logaddexp(A(x2), B(x1)) (A increases, B decreases on
    [0, 1]); a cell where φ = g/(1+g) - α keeps one sign is monotone (its max is an end, already a
    candidate); a cell with φ(x1) > 0 > φ(x2) holds a local maximum, found by a bracketed root of φ;
    other cells are bisected.  The ends and the roots are the candidates.  At most ``cap`` cells per
    item are kept (those of largest bound): on a plateau of F (every γ equally likely) bisection
    would otherwise double the cells each round; any value on a plateau is its maximum.
    ``where`` (K,), if given, receives an α attaining each maximum.
    """
    K = lo.size
    idx = np.arange(K)
    A1, B1 = _F(items, lo, idx)
    A2, B2 = _F(items, hi, idx)
    F1, F2 = np.logaddexp(A1, B1), np.logaddexp(A2, B2)
    best = np.maximum(F1, F2)
    if where is not None:
        where[:] = np.where(F2 > F1, hi, lo)
    own, x1, x2 = idx, lo.copy(), hi.copy()
    peaks = []
    for _ in range(rounds):
        s1, s2 = _sigmoid(A1 - B1), _sigmoid(A2 - B2)
        with np.errstate(invalid="ignore"):
            ub = np.logaddexp(A2, B1)
        keep = (x2 > x1) & ~(s1 > x2) & ~(s2 < x1) & (ub > best[own] + tol * (1 + np.abs(best[own])))
        peak = keep & (s1 > x1) & (s2 < x2)
        if peak.any():
            peaks.append((own[peak], x1[peak], x2[peak]))
        keep &= ~peak
        keep &= (x2 - x1) > 4 * np.finfo(float).eps * np.maximum(np.abs(x1), np.abs(x2))
        if not keep.any():
            break
        keep = np.flatnonzero(keep)
        if keep.size > cap * K or np.bincount(own[keep], minlength=K).max() > cap:
            keep = _beam(keep, own[keep], ub[keep], cap)
        own, x1, x2, A1, B1, A2, B2 = (v[keep] for v in (own, x1, x2, A1, B1, A2, B2))
        mid = 0.5 * (x1 + x2)
        Am, Bm = _F(items, mid, own)
        _raise(best, where, own, np.logaddexp(Am, Bm), mid)
        own = np.concatenate([own, own])
        x1, x2 = np.concatenate([x1, mid]), np.concatenate([mid, x2])
        A1, B1 = np.concatenate([A1, Am]), np.concatenate([B1, Bm])
        A2, B2 = np.concatenate([Am, A2]), np.concatenate([Bm, B2])
    if peaks:
        own, x1, x2 = (np.concatenate(v) for v in zip(*peaks))

        def minus_phi(x, ii):
            lg, dlg, _ = items.log_g(x, own[ii], derivative=True)
            sg = _sigmoid(lg)
            return x - sg, 1.0 - sg * (1 - sg) * dlg, 1.0

        root = increasing_root(minus_phi, x1, x2)
        Ar, Br = _F(items, root, own)
        _raise(best, where, own, np.logaddexp(Ar, Br), root)
    return best


def _raise(best, where, own, values, xs):
    """best[i] = max(best[i], values of item i) (``own`` may repeat items); ``where`` (if not None)
    follows with the α of each new maximum."""
    if where is None:
        np.maximum.at(best, own, values)
        return
    up = np.flatnonzero(values > best[own])
    if up.size:
        order = up[np.lexsort((values[up], own[up]))]          # by item, then value: each item's max last
        last = np.append(own[order][1:] != own[order][:-1], True)
        pick = order[last]
        best[own[pick]] = values[pick]
        where[own[pick]] = xs[pick]


def _beam(keep, own, ub, cap):
    """The ``cap`` cells of largest bound of each item (positions into ``keep``)."""
    order = np.lexsort((-ub, own))
    first = np.searchsorted(own[order], own[order], side="left")
    rank = np.arange(order.size) - first
    return np.sort(keep[order[rank < cap]])


def _sigmoid(z):
    with np.errstate(over="ignore"):
        return np.where(z >= 0, 1 / (1 + np.exp(-np.abs(z))), np.exp(-np.abs(z)) / (1 + np.exp(-np.abs(z))))

