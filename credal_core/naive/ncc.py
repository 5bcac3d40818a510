"""Naive credal classifier (Zaffalon's IDM, paper 000 §2.2) and its ε-contaminated version NCC_ε."""
from __future__ import annotations

from numbers import Real

import numpy as np
from sklearn.utils._param_validation import Interval

from .._base import CATEGORIES_CONSTRAINT, TIE, CredalClassifierMixin, NaiveCountsClassifier, perks_log_joint
from .._roots import increasing_root
from ..data.counts import MISSING, Gather

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

    **Missing values at random (default; Zaffalon's NCC2, JNCC2's convention).**  Under MAR the
    likelihood of the observed cells factorises, so the data on feature ``j`` given class ``c`` are
    the :math:`n_j(c)` class-``c`` rows where ``j`` is present, and the IDM's conditional of ``j``
    is :math:`\theta_{f_j|c} = (n(c, f_j) + s\,t(c, f_j)) / (n_j(c) + s\,t(c))`; a missing test
    value is summed out (factor 1).  With complete data :math:`n_j(c) = n(c)`.

    **Exact solution.** Write :math:`N(\cdot) = n(\cdot) + s\epsilon\,t_{\rm Perks}(\cdot)`,
    :math:`N_j(c) = n_j(c) + s\epsilon/|C|` and :math:`\sigma = s(1-\epsilon)`: NCC_ε is Zaffalon's
    IDM with strength σ on the counts N.  For any ``u``, the ratio grows with :math:`u(a, \tilde f_j)`
    and falls with :math:`u(b, \tilde f_j)`, so the infimum sets :math:`u(a, \tilde f_j) = 0` and
    :math:`u(b, \tilde f_j) = u(b) = x`; class ``a``'s part :math:`(N(a)+\sigma z)/\prod_j
    (N_j(a)+\sigma z)` then decreases in :math:`z = u(a)` (as :math:`N_j(a) \le N(a)`), so
    :math:`u(a) = 1 - x` when a feature takes part.  Over the active features ``j`` (present, and
    not single-valued: see below) this leaves

    .. math::
        \min_{x \in [0, 1]} h(x) = \log\frac{N(a) + \sigma(1-x)}{N(b) + \sigma x}
            + \sum_j \log\frac{N(a, \tilde f_j)}{N_j(a) + \sigma(1-x)}
            - \sum_j \log\frac{N(b, \tilde f_j) + \sigma x}{N_j(b) + \sigma x}

    (with complete data, :math:`(m-1)\log\frac{N(b)+\sigma x}{N(a)+\sigma(1-x)} + \sum_j \log
    N(a, \tilde f_j) - \sum_j \log(N(b, \tilde f_j) + \sigma x)`).  ``h`` is convex: its second
    derivative over :math:`\sigma^2` is :math:`\frac{1}{(N(b)+\sigma x)^2} - \frac{1}{(N(a)+\sigma
    (1-x))^2} + \sum_j \frac{1}{(N_j(a)+\sigma(1-x))^2} + \sum_j \big[\frac{1}{(N(b,\tilde f_j)+
    \sigma x)^2} - \frac{1}{(N_j(b)+\sigma x)^2}\big] \ge 0` because :math:`N_j(a) \le N(a)` and
    :math:`N(b, \tilde f_j) \le N_j(b)`; with no active feature ``h`` decreases and the infimum
    :math:`N(a)/(N(b)+\sigma)` is at x = 1.  So ``a`` dominates ``b`` iff ``min h > 0``, decided
    from the end points and tangents when possible, otherwise located by bracketed Newton
    iteration on ``h'`` to machine precision — no grid.  A zero count :math:`N(a, \tilde f_j) = 0`
    makes the infimum 0 (000 §2.2, zero-count issue (a)).  A feature with a single value in
    training cannot move prior mass off the instance's value, so it contributes the factor 1.

    **Features declared non-MAR (NCC2's conservative inference rule; Corani and Zaffalon, JMLR
    2008).**  A missing cell of such a feature may hide any value of :math:`F_j`; ``a`` dominates
    ``b`` iff it does for every completion, i.e. iff the infimum over completions and priors
    exceeds 1.  *Training* (``non_mar_training``): completing the data changes only feature ``j``'s
    counts, each completed row counts in :math:`n(c)`, and for every prior the ratio grows with
    :math:`n(a, \tilde f_j)` and falls with :math:`n(b, \tilde f_j)`; the least favourable
    completion (the same for every prior) gives ``a``'s missing cells other values and ``b``'s the
    instance's value: :math:`N(a, \tilde f_j)` as observed and :math:`N(b, \tilde f_j) + m_j(b)`,
    both over :math:`N_j(c) = N(c)` — the formula above with those counts, still convex.
    *Testing* (``non_mar_testing``): a missing value may be any :math:`v \in F_j`, shared by both
    classes; for fixed x its term is :math:`\min_v [\log N(a, v) - \log(N(b, v) + \sigma x)]`.  Two
    such curves cross at most once, so between consecutive crossing points (computed in closed
    form) the minimising values are fixed and ``h`` is the convex objective of one completed
    instance: the exact minimum is the smallest of the per-interval minima (JNCC2's "crossing
    points").  These are the rules JNCC2 implements; on its example files the sets agree instance
    by instance.

    Sets shrink as ``epsilon`` grows, and as ``s`` falls when ``epsilon = 0``; with ``epsilon > 0``
    they need not be nested in ``s``, because the Perks part :math:`s\epsilon` moves the centre of
    the prior set as well as its size.  They never shrink when a feature is declared non-MAR, provided
    the instance's value of that feature was seen in training (or is missing): the completions range over
    the seen values, and with an unseen test value they can all be worse for a class than ignoring the
    gaps (a pinned counterexample in tests/credal_core/naive/test_ncc2.py).

    Parameters
    ----------
    s : float, default=1.0
        Number of hidden instances of the IDM (> 0).
    epsilon : float, default=0.0
        Contamination with Perks' prior, in [0, 1].
    non_mar_training, non_mar_testing : list of str or int, default=()
        Features (names or column positions) whose missing values in the training data / in the
        instances to classify are not missing at random (JNCC2's ``NonMar.txt``).
    categories : {"seen", "declared"} or list of lists, default="seen"
        :math:`F_j`: values seen in training, a pandas Categorical column's declared categories, or
        explicit per-feature value lists (see :meth:`CountTables.from_data`).

    Examples
    --------
    >>> import pandas as pd
    >>> from credal_core import NCC
    >>> X = pd.DataFrame({"f": ["x"] * 6 + ["y"] * 2})
    >>> y = ["c", "c", "c", "c", "c", "d", "c", "d"]   # 000 Example 2's counts
    >>> NCC(s=1.0).fit(X, y).predict_set(pd.DataFrame({"f": ["x"]}))
    array([[ True, False]])
    """

    def __init__(self, *, s: float = 1.0, epsilon: float = 0.0, non_mar_training=(), non_mar_testing=(),
                 categories="seen"):
        self.s = s
        self.epsilon = epsilon
        self.non_mar_training = non_mar_training
        self.non_mar_testing = non_mar_testing
        self.categories = categories

    # non_mar_*: checked by _check_params (their message names the expected list)
    _parameter_constraints = {"s": [Interval(Real, 0, None, closed="neither")],
                              "epsilon": [Interval(Real, 0, 1, closed="both")],
                              "non_mar_training": "no_validation", "non_mar_testing": "no_validation",
                              "categories": CATEGORIES_CONSTRAINT}

    def _check_params(self):
        for name in ("non_mar_training", "non_mar_testing"):
            value = getattr(self, name)
            if isinstance(value, (str, bytes)) or not np.iterable(value):
                raise ValueError(f"{name} must be a list of feature names or column positions; got {value!r}")

    def _fit_tables(self, tables, codes=None, y_codes=None):
        names = tables.feature_names
        self.non_mar_training_ = _feature_mask(self.non_mar_training, names, "non_mar_training")
        self.non_mar_testing_ = _feature_mask(self.non_mar_testing, names, "non_mar_testing")

    def _joint_log_likelihood(self, codes):
        # The precise counterpart: the Perks NBC with the same s (it lies in every T_eps).
        return perks_log_joint(self.tables_, codes, float(self.s))

    def _dominance(self, codes):
        model = _Sides(self.tables_, float(self.s), float(self.epsilon), self.non_mar_training_)
        n_classes = len(self.tables_.classes)
        act = model.active(codes)
        dom = np.zeros((codes.shape[0], n_classes, n_classes), dtype=bool)
        for a in range(n_classes):
            for b in range(n_classes):
                if a != b:
                    dom[:, a, b] = model.dominates(codes, act, a, b)
        # Non-MAR testing (conservative inference rule): a missing value may hide any value of F_j.
        cir = (codes == MISSING) & (self.non_mar_testing_ & (model.n_values >= 2) & ~model.absent)[None, :]
        rows = np.flatnonzero(cir.any(axis=1))
        if rows.size:
            for a in range(n_classes):
                for b in range(n_classes):
                    if a != b:
                        dom[rows, a, b] = model.dominates_every_completion(codes[rows], cir[rows], a, b)
        return dom


def _feature_mask(names, feature_names, what) -> np.ndarray:
    """Bool (m,) of the features named (or given by position) in ``names``."""
    mask = np.zeros(len(feature_names), dtype=bool)
    by_name = {str(f): j for j, f in enumerate(feature_names)}
    for item in names:
        if isinstance(item, str):
            j = by_name.get(item)
            if j is None:
                raise ValueError(f"{what} names {item!r}, which is not a column of X (columns: "
                                 f"{list(by_name)})")
        elif isinstance(item, (int, np.integer)) and not isinstance(item, bool):
            j = int(item)
            if not 0 <= j < len(feature_names):
                raise ValueError(f"{what} gives column position {j}, but X has {len(feature_names)} columns")
        else:
            raise ValueError(f"{what} must hold feature names or column positions; got {item!r}")
        mask[j] = True
    return mask


class _Sides:
    r"""The counts of the two sides of a dominance test ``a`` vs ``b``, ε-contaminated.

    Side A (the class that should dominate) and side B (the one it should beat) differ only for
    features declared non-MAR in training, where the least favourable completion gives A the
    observed counts over :math:`n(a)` rows and B the observed counts plus its :math:`m_j(b)`
    missing cells over :math:`n(b)` rows (see :class:`NCC`).  Per feature ``j`` (tables (C, |F_j|+1),
    the last column for values unseen in training): ``A[j]``, ``B[j]`` the counts
    :math:`N(c, v)`, ``dA[j]``, ``dB[j]`` (C,) the denominators :math:`N_j(c)`.
    """

    def __init__(self, tables, s, eps, non_mar_training):
        n_classes = len(tables.classes)
        self.sigma = s * (1 - eps)
        self.n = tables.class_counts + s * eps / n_classes
        self.n_values = np.array([len(c) for c in tables.categories])
        self.absent = tables.absent_features()
        present, missing = tables.present_counts(), tables.missing_counts()
        self.A, self.B, self.dA, self.dB = [], [], [], []
        for j, ext in enumerate(tables.extended_counts()):
            counts = ext + s * eps / (n_classes * max(self.n_values[j], 1))
            den = present[j] + s * eps / n_classes
            self.A.append(counts)
            if non_mar_training[j]:
                upper = counts.copy()
                upper[:, :-1] += missing[j][:, None]          # every missing cell takes the value
                den = tables.class_counts + s * eps / n_classes
                self.B.append(upper)
            else:
                self.B.append(counts)
            self.dA.append(den)
            self.dB.append(den)
        self.dA, self.dB = np.array(self.dA).reshape(-1, n_classes), np.array(self.dB).reshape(-1, n_classes)
        self.same_sides = not np.any(non_mar_training)
        self._sums = None

    def active(self, codes) -> np.ndarray:
        """Bool (n, m): the features that enter an instance's product.  Missing values leave it, and
        so does a feature with a single value in training: its only conditional probability is 1
        under every prior (unless the instance's value is unseen, which makes a second value)."""
        return (codes != MISSING) & ~((self.n_values == 1)[None, :] & (codes >= 0))

    def _tables(self, codes, act):
        """Per-class sums over the active features of the tables behind ``h``, its ends and slopes."""
        sigma = self.sigma
        single = self.n_values == 1
        named = {}
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):   # tiny ε: 1/N overflows
            def per_value(counts, den, fn):
                out = []
                for j, (c, d) in enumerate(zip(counts, den)):
                    t = fn(c, d[:, None])
                    if single[j]:
                        t = t.copy()
                        t[:, :-1] = 0.0                # a seen value of a single-valued feature drops out
                    out.append(t)
                return out
            def log_ratio(c, d):
                return np.where(c > 0, np.log(c) - np.log(d), -np.inf)
            named["A"] = per_value(self.A, self.dA, log_ratio)
            if not self.same_sides:
                named["B0"] = per_value(self.B, self.dB, log_ratio)
            named["B1"] = per_value(self.B, self.dB, lambda c, d: np.log(c + sigma) - np.log(d + sigma))
            named["I0"] = per_value(self.B, self.dB, lambda c, d: np.where(c > 0, 1 / c - 1 / d, np.inf))
            named["I1"] = per_value(self.B, self.dB, lambda c, d: 1 / (c + sigma) - 1 / (d + sigma))
        with np.errstate(over="ignore", invalid="ignore"):    # 1/N near 0 sums to ±inf: handled below
            sums = Gather(codes, self.n_values).sum_many(named)
        if self.same_sides:
            sums["B0"] = sums["A"]
        # Class-side terms that depend only on which features are active: a (n, m) @ (m, C) product.
        with np.errstate(divide="ignore", over="ignore"):
            da = self.dA
            inv = np.where(da > 0, 1 / np.where(da > 0, da, 1), 0.0)
            per_feature = {"G": np.where(da > 0, np.log(da) - np.log(da + sigma), 0.0),
                           "S0": 1 / (da + sigma) if sigma > 0 else inv, "S1": inv}
        # (a class with N_j(a) = 0 on an active feature has a zero count there and cannot dominate:
        # the finite stand-ins above never decide a verdict)
        if act.all():
            for k, v in per_feature.items():
                sums[k] = np.repeat(v.sum(axis=0)[:, None], codes.shape[0], axis=1)
        else:
            weights = act.astype(float)
            big = np.finfo(float).max             # so that an inactive feature's 0 * inf stays 0
            with np.errstate(over="ignore", invalid="ignore"):
                for k, v in per_feature.items():
                    sums[k] = (weights @ np.minimum(v, big)).T
        return sums

    def dominates(self, codes, act, a, b) -> np.ndarray:
        """Bool (n,): ``a`` dominates ``b`` with every feature MAR in testing."""
        if self._sums is None or self._sums[0] is not codes:
            self._sums = (codes, self._tables(codes, act))
        t = self._sums[1]
        sigma, na, nb = self.sigma, self.n[a], self.n[b]
        can = np.isfinite(t["A"][a])                        # a zero N(a, f_j): inf h = 0
        zero_b = ~np.isfinite(t["B0"][b])                   # some N(b, f_j) = 0: h(0) = +inf
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            h1 = np.log(na) - np.log(nb + sigma) + t["A"][a] - t["B1"][b]
            h0 = np.where(zero_b, np.inf,
                          np.log(na + sigma) - np.log(nb) + t["A"][a] + t["G"][a] - t["B0"][b])
            d0 = np.where(zero_b, -np.inf, sigma * (-1 / (na + sigma) - 1 / nb + t["S0"][a] - t["I0"][b]))
            d1 = sigma * (-1 / na - 1 / (nb + sigma) + t["S1"][a] - t["I1"][b])
        if sigma == 0:                                      # epsilon = 1: h is constant
            return can & (h1 > TIE)
        result = can & (h0 > TIE) & (h1 > TIE)
        decided = ~result | (d0 >= 0) | (d1 <= 0)           # min at an end point
        # Convexity: h lies above both end tangents, hence above their crossing point.
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            xc = (h1 - d1 - h0) / (d0 - d1)
            lower = h0 + d0 * xc
        decided |= np.isfinite(lower) & (lower > TIE)
        todo = np.flatnonzero(~decided)
        if todo.size:
            hmin = self.interval_min(codes[todo], act[todo], a, b, np.zeros(todo.size), np.ones(todo.size))
            result[todo] = hmin > TIE
        return result

    def interval_min(self, codes, act, a, b, lo, hi) -> np.ndarray:
        """min of the convex ``h`` over ``[lo, hi]`` per row (end points, else the root of ``h'``)."""
        gather = Gather(codes, self.n_values)
        ga = gather.take([t[[a]] for t in self.A], missing=1.0)[0].T        # (k, m)
        gb = gather.take([t[[b]] for t in self.B], missing=1.0)[0].T
        w = act.astype(float)
        da, db = self.dA[:, a], self.dB[:, b]
        sigma, na, nb = self.sigma, self.n[a], self.n[b]
        with np.errstate(divide="ignore"):
            base_a = (w * np.where(act, np.log(np.where(act, ga, 1.0)), 0.0)).sum(axis=1)

        def h(x):
            with np.errstate(divide="ignore", invalid="ignore"):
                xs = x[:, None]
                return (np.log(na + sigma * (1 - x)) - np.log(nb + sigma * x) + base_a
                        - (w * (np.log(da + sigma * (1 - xs)) + np.log(gb + sigma * xs)
                                - np.log(db + sigma * xs))).sum(axis=1))

        def slope(x, idx=None):
            rows = slice(None) if idx is None else idx
            xs = x[:, None]
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                ia, ib = 1 / (na + sigma * (1 - x)), 1 / (nb + sigma * x)
                fa, fb, fd = 1 / (da + sigma * (1 - xs)), 1 / (gb[rows] + sigma * xs), 1 / (db + sigma * xs)
                ww = w[rows]
                value = -ia - ib + (ww * (fa - fb + fd)).sum(axis=1)
                curv = sigma * (-ia ** 2 + ib ** 2 + (ww * (fa ** 2 + fb ** 2 - fd ** 2)).sum(axis=1))
            return value, curv

        s_lo, s_hi = slope(lo)[0], slope(hi)[0]
        x = np.where(s_lo >= 0, lo, hi)
        inner = np.flatnonzero((s_lo < 0) & (s_hi > 0))
        if inner.size:
            x[inner] = increasing_root(lambda xx, idx: slope(xx, inner[idx]), lo[inner], hi[inner])
        out = h(x)
        out[~np.isfinite(base_a)] = -np.inf
        return out

    def dominates_every_completion(self, codes, cir, a, b) -> np.ndarray:
        r"""Bool (k,): ``a`` dominates ``b`` for every value the non-MAR missing cells ``cir`` may hide.

        For fixed x each hidden feature contributes :math:`\min_v [\log N_A(a, v) - \log(N_B(b, v)
        + \sigma x)]` (its denominators do not depend on v).  Two such curves cross at most once
        in x, so between consecutive crossing points the minimising values are fixed and ``h`` is
        the convex objective of one completed instance: the minimum over x is the smallest of the
        per-interval minima.  A value with :math:`N_A(a, v) = 0` makes the infimum 0.
        """
        sigma = self.sigma
        feats = np.flatnonzero(cir.any(axis=0))
        blocked = np.zeros(codes.shape[0], dtype=bool)
        points = [0.0, 1.0]
        curves = {}
        for j in feats:
            k = self.n_values[j]
            qa, qb = self.A[j][a, :k], self.B[j][b, :k]
            curves[j] = (qa, qb)
            if np.any(qa <= 0):
                blocked |= cir[:, j]
                continue
            if sigma > 0:
                num = qa[None, :] * qb[:, None] - qa[:, None] * qb[None, :]     # [v, w]
                den = sigma * (qa[:, None] - qa[None, :])
                with np.errstate(divide="ignore", invalid="ignore"):
                    cross = num / den
                points.extend(cross[np.isfinite(cross) & (cross > 0) & (cross < 1)].tolist())
        points = np.unique(points)
        # the minimising value of each hidden feature on each interval, merged when unchanged
        intervals = []
        for lo, hi in zip(points[:-1], points[1:]):
            mid = 0.5 * (lo + hi)
            with np.errstate(divide="ignore"):       # blocked features (a zero count) are never used
                best = tuple(int(np.argmin(np.log(qa) - np.log(qb + sigma * mid)))
                             for qa, qb in curves.values())
            if intervals and intervals[-1][2] == best:
                intervals[-1][1] = hi
            else:
                intervals.append([lo, hi, best])
        hmin = np.full(codes.shape[0], np.inf)
        live = np.flatnonzero(~blocked)
        base = codes[live]
        hidden = cir[live]
        for lo, hi, best in intervals:
            filled = base.copy()
            for j, v in zip(curves, best):
                filled[hidden[:, j], j] = v
            act = self.active(filled)
            k = live.size
            hmin[live] = np.minimum(hmin[live], self.interval_min(filled, act, a, b, np.full(k, lo),
                                                                   np.full(k, hi)))
        return ~blocked & (hmin > TIE)
