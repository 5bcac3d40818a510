r"""The counts behind one NCC verdict, and the treatments of missing values side by side (for teaching).

:func:`explain_dominance` takes a fitted :class:`~credal_core.naive.ncc.NCC`, one instance and two
classes ``a``, ``b`` and lays out, feature by feature, the numbers behind the test "does ``a``
dominate ``b``": the counts each side uses, the value a missing feature declared not missing at
random is given in the least favourable completion, and each feature's factor of the smallest ratio
:math:`\inf_t P_t(a, \tilde f) / P_t(b, \tilde f)` (paper 000, eq. 5).  It recomputes that infimum on
its own, from the count tables and the formula of the :class:`NCC` docstring, one instance at a time
(no shortcut): its verdict agrees with ``NCC.dominance``, and the tests check both against the
enumeration of every completion.

:func:`treatment_sets` gives the credal set of one instance under each treatment of its missing
values: the NBC's label (MAR), the NCC under MAR, after imputing the training mode, and with the
features declared non-MAR one more at a time (NCC2's conservative rule), whose sets never shrink
while the instance's values were seen in training.
:func:`hide_cells` hides training cells at random or not at random, to show what each treatment
does when the mechanism is known.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .._base import maximal_set
from ..data.counts import MISSING, UNSEEN
from ..data.preparation import Preparation
from .naive_bayes import NaiveBayes
from .ncc import NCC

__all__ = ["DominanceExplanation", "Treatment", "explain_dominance", "hide_cells", "treatment_sets",
           "nonmar_order"]

_BISECTIONS = 200        # [0, 1] halved 200 times: far below one ulp of the minimiser


@dataclass(frozen=True)
class DominanceExplanation:
    """Why ``a`` does (or does not) dominate ``b`` on one instance.

    Attributes
    ----------
    a, b : object
        The two class labels.
    x_star : float
        The least favourable prior: the share :math:`t(b)` of the ``s`` hidden instances given to
        class ``b`` (the rest goes to ``a``; NaN when a zero count decides alone).
    log_ratio : float
        :math:`\\log \\inf` of :math:`P_t(a, \\tilde f) / P_t(b, \\tilde f)` over the priors and,
        for the non-MAR features, over every completion (``-inf`` for a zero count).
    dominates : bool
        The NCC's own verdict (``dominance``: a dominates b); the explanation's minimum tells
        the same, ``log_ratio > 0`` up to the package's tie tolerance.
    completion : dict
        Feature → the value the least favourable completion gives a missing non-MAR test value.
    class_factor : float
        The class part :math:`(N(a) + \\sigma(1-x^*)) / (N(b) + \\sigma x^*)` of the ratio.
    table : pandas.DataFrame
        One row per feature: its value, treatment, the counts of each side and its factor at the
        least favourable prior (1 for a feature left out); the factors times ``class_factor`` give
        ``exp(log_ratio)``.  ``n(a, v)``, ``n(b, v)``: the observed counts of the value used;
        ``n_j(a)``, ``n_j(b)``: the rows of each class that count for the feature (those where it is
        present; every row when it is not MAR in training); ``n(b, v) used``: ``n(b, v)`` plus, when
        the feature is not MAR in training, the missing cells ``m_j(b)`` (the top of the interval
        ``[n(b, v), n(b, v) + m_j(b)]``); counts before the ε-contamination.
    """

    a: object
    b: object
    x_star: float
    log_ratio: float
    dominates: bool
    completion: dict
    class_factor: float
    table: pd.DataFrame = field(repr=False)

    @property
    def ratio(self) -> float:
        return math.exp(self.log_ratio) if self.log_ratio < 700 else math.inf


class _Pair:
    """The counts of a test ``a`` vs ``b`` under the model's treatment of missing values.

    Side A: :math:`N(a, v)` over :math:`N_j(a)`; side B: :math:`N(b, v)` over :math:`N_j(b)`, except for
    a feature non-MAR in training, where B gets every missing cell of class ``b`` on the value
    (:math:`N(b, v) + m_j(b)`, over :math:`N(b)`) and A's denominator is :math:`N(a)`.
    """

    def __init__(self, model: NCC, a: int, b: int):
        tables = model.tables_
        n_classes = len(tables.classes)
        s, eps = float(model.s), float(model.epsilon)
        self.sigma = s * (1 - eps)
        self.n_a = tables.class_counts[a] + s * eps / n_classes
        self.n_b = tables.class_counts[b] + s * eps / n_classes
        self.n_values = [len(c) for c in tables.categories]
        self.non_mar_training = model.non_mar_training_
        present, missing = tables.present_counts(), tables.missing_counts()
        self.raw, self.qa, self.qb, self.da, self.db, self.miss = [], [], [], [], [], []
        for j, ext in enumerate(tables.extended_counts()):
            shift = s * eps / (n_classes * max(self.n_values[j], 1))
            qa, qb = ext[a] + shift, ext[b] + shift
            da, db = present[j, a] + s * eps / n_classes, present[j, b] + s * eps / n_classes
            if self.non_mar_training[j]:
                qb = qb.copy()
                qb[:-1] += missing[j, b]                 # every missing cell of b takes the value
                da, db = self.n_a, self.n_b
            self.raw.append((ext[a], ext[b]))
            self.qa.append(qa)
            self.qb.append(qb)
            self.da.append(da)
            self.db.append(db)
            self.miss.append((missing[j, a], missing[j, b]))

    def term(self, j: int, v: int, x: float) -> float:
        """Feature ``j``'s log-factor at value ``v`` and prior share ``x`` of ``b``."""
        sigma = self.sigma
        with np.errstate(divide="ignore"):
            a_part = float(np.log(self.qa[j][v]) - np.log(self.da[j] + sigma * (1 - x)))
            if self.qb[j][v] == self.db[j]:              # every b row has v (or none is present): 1
                return a_part
            return a_part - float(np.log(self.qb[j][v] + sigma * x) - np.log(self.db[j] + sigma * x))

    def slope(self, j: int, v: int, x: float) -> float:
        sigma = self.sigma
        with np.errstate(divide="ignore"):
            a_part = float(sigma / (self.da[j] + sigma * (1 - x)))
            if self.qb[j][v] == self.db[j]:
                return a_part
            return a_part - float(sigma / (self.qb[j][v] + sigma * x) - sigma / (self.db[j] + sigma * x))

    def class_term(self, x: float) -> float:
        with np.errstate(divide="ignore"):
            return float(np.log(self.n_a + self.sigma * (1 - x)) - np.log(self.n_b + self.sigma * x))

    def class_slope(self, x: float) -> float:
        with np.errstate(divide="ignore"):
            sigma = self.sigma
            return float(-sigma / (self.n_a + sigma * (1 - x)) - sigma / (self.n_b + sigma * x))

    def h(self, used: dict, x: float) -> float:
        return self.class_term(x) + sum(self.term(j, v, x) for j, v in used.items())

    def argmin(self, used: dict, lo: float, hi: float) -> float:
        """The minimiser of the convex ``h`` on ``[lo, hi]``: an end point, or where its slope
        changes sign (bisection: the slope is increasing)."""
        def slope(x):
            return self.class_slope(x) + sum(self.slope(j, v, x) for j, v in used.items())
        if self.sigma == 0 or slope(lo) >= 0:
            return lo
        if slope(hi) <= 0:
            return hi
        for _ in range(_BISECTIONS):
            mid = 0.5 * (lo + hi)
            if mid in (lo, hi):
                break
            if slope(mid) > 0:
                hi = mid
            else:
                lo = mid
        return min((lo, hi), key=lambda x: self.h(used, x))


def _crossings(qa: np.ndarray, qb: np.ndarray, sigma: float) -> list[float]:
    """The x in (0, 1) where two values' curves :math:`\\log q_a(v) - \\log(q_b(v) + \\sigma x)` meet."""
    out = []
    if sigma <= 0:
        return out
    for v in range(len(qa)):
        for w in range(v + 1, len(qa)):
            if qa[v] != qa[w]:
                x = (qa[w] * qb[v] - qa[v] * qb[w]) / (sigma * (qa[v] - qa[w]))
                if 0 < x < 1:
                    out.append(float(x))
    return out


def explain_dominance(model: NCC, instance, a, b) -> DominanceExplanation:
    r"""The numbers behind "``a`` dominates ``b``" for one instance, under ``model``'s treatment.

    With :math:`x = t(b)` the share of the prior on ``b``, the smallest ratio over the IDM's priors
    is :math:`\min_x e^{h(x)}` with (:class:`~credal_core.naive.ncc.NCC`)

    .. math:: h(x) = \log\frac{N(a)+\sigma(1-x)}{N(b)+\sigma x} + \sum_j \Big[\log\frac{N_A(a, v_j)}
              {N_j(a)+\sigma(1-x)} - \log\frac{N_B(b, v_j)+\sigma x}{N_j(b)+\sigma x}\Big],

    convex in ``x``.  A missing value declared non-MAR in testing may be any :math:`v_j`: between
    the points where two values' terms cross, the minimising values are fixed, so the minimum over
    completions and priors is the smallest of the convex minima on those intervals; its values are
    the least favourable completion.

    Parameters
    ----------
    model : NCC
        Fitted.
    instance : pandas.DataFrame (one row), dict or sequence
        The instance, one value per feature (NaN / None where missing).
    a, b : class labels of ``model.classes_``

    Returns
    -------
    DominanceExplanation
    """
    classes = list(model.classes_)
    if a not in classes or b not in classes or a == b:
        raise ValueError(f"a and b must be two different classes among {classes}; got {a!r}, {b!r}")
    names = [str(n) for n in model.tables_.feature_names]
    frame = _one_row(instance, names)
    codes = model.tables_.encode(frame)[0]
    ia, ib = classes.index(a), classes.index(b)
    pair = _Pair(model, ia, ib)
    absent = model.tables_.absent_features()
    used, hidden, single = {}, [], []
    for j, code in enumerate(codes):
        if code == MISSING:
            if model.non_mar_testing_[j] and pair.n_values[j] >= 2 and not absent[j]:
                hidden.append(j)
        elif pair.n_values[j] == 1 and code >= 0:
            single.append(j)                            # one value: factor 1 under every prior
        else:
            used[j] = pair.n_values[j] if code == UNSEEN else int(code)
    # the non-MAR test values: a zero count N_A(a, v) makes the ratio 0 by itself
    completion, blocked = {}, False
    for j in hidden:
        zero = np.flatnonzero(pair.qa[j][:pair.n_values[j]] <= 0)
        if zero.size:
            completion[j], blocked = int(zero[0]), True
    blocked = blocked or any(pair.qa[j][v] <= 0 for j, v in used.items())
    free = [j for j in hidden if j not in completion]
    points = sorted({0.0, 1.0, *[x for j in free for x in _crossings(pair.qa[j][:pair.n_values[j]],
                                                                      pair.qb[j][:pair.n_values[j]],
                                                                      pair.sigma)]})
    best = (math.inf, math.nan, {})
    for lo, hi in zip(points[:-1], points[1:]):
        mid = 0.5 * (lo + hi)
        choice = {j: int(np.argmin([pair.term(j, v, mid) for v in range(pair.n_values[j])])) for j in free}
        full = {**used, **completion, **choice}
        if blocked:
            best = (-math.inf, math.nan, choice)
            break
        x = pair.argmin(full, lo, hi)
        value = pair.h(full, x)
        if value < best[0]:
            best = (value, x, choice)
    log_ratio, x_star, choice = best
    completion.update(choice)
    full = {**used, **completion}
    rows = []
    for j, name in enumerate(names):
        cats = model.tables_.categories[j]
        code = codes[j]
        value = frame.iloc[0, j]
        if j in single:
            treatment = "one value in training (factor 1)"
        elif code == MISSING and j in completion:
            treatment = "missing, not MAR: worst value"
        elif code == MISSING:
            treatment = "never present in training" if absent[j] else "missing, MAR: left out"
        else:
            treatment = "observed"
        if pair.non_mar_training[j] and j not in single and not absent[j]:
            treatment += "; training not MAR"
        v = full.get(j)
        shown = cats[v] if v is not None and v < len(cats) else (value if v is not None else None)
        raw_a, raw_b = pair.raw[j]
        miss_a, miss_b = pair.miss[j]
        row = {"feature": name, "instance": "?" if pd.isna(value) else value, "treatment": treatment,
               "value used": "—" if shown is None else shown,
               "training missing": "not MAR" if pair.non_mar_training[j] else "MAR",
               "n(a, v)": np.nan, "n_j(a)": np.nan, "n(b, v)": np.nan, "n_j(b)": np.nan,
               "missing m_j(a)": float(miss_a), "missing m_j(b)": float(miss_b),
               "n(b, v) used": np.nan, "factor": 1.0}
        if v is not None:
            completed = pair.non_mar_training[j]         # every row counts; b's missing cells take v
            n_a, n_b = (model.tables_.class_counts[[ia, ib]] if completed
                        else (raw_a[:-1].sum(), raw_b[:-1].sum()))
            row.update({"n(a, v)": float(raw_a[v]), "n(b, v)": float(raw_b[v]),
                        "n_j(a)": float(n_a), "n_j(b)": float(n_b),
                        "n(b, v) used": float(raw_b[v] + (miss_b if completed and v < len(cats) else 0))})
            if blocked:                     # a zero count decides alone; the other factors do not matter
                row["factor"] = 0.0 if pair.qa[j][v] <= 0 else np.nan
            else:
                row["factor"] = math.exp(pair.term(j, v, x_star))
        rows.append(row)
    table = pd.DataFrame(rows)
    return DominanceExplanation(
        # the verdict is the classifier's own (the one decision path); the explanation's minimum
        # agrees with it (tests/credal_core/naive/test_ncc_explain.py)
        a=a, b=b, x_star=x_star, log_ratio=log_ratio,
        dominates=bool(model.dominance_codes(codes[None, :])[0, ia, ib]),
        completion={names[j]: model.tables_.categories[j][v] for j, v in completion.items()},
        class_factor=math.nan if blocked else math.exp(pair.class_term(x_star)), table=table)


def _one_row(instance, names: list[str]) -> pd.DataFrame:
    if isinstance(instance, pd.DataFrame):
        if len(instance) != 1:
            raise ValueError(f"instance must be one row; got {len(instance)}")
        frame = instance.copy()
        frame.columns = [str(c) for c in frame.columns]
        return frame[names].astype(object)
    if isinstance(instance, pd.Series):
        instance = instance.to_dict()
    if isinstance(instance, dict):
        return pd.DataFrame([[instance.get(n) for n in names]], columns=names, dtype=object)
    values = list(instance)
    if len(values) != len(names):
        raise ValueError(f"instance has {len(values)} values for {len(names)} features")
    return pd.DataFrame([values], columns=names, dtype=object)


# ---------------------------------------------------------------------------- the treatments side by side
@dataclass(frozen=True)
class Treatment:
    """One way of treating the missing values, and the credal set (or label) it gives."""

    name: str
    kind: str                  # "nbc", "mar", "impute" or "conservative"
    members: tuple             # the classes returned
    non_mar: tuple = ()        # the features declared non-MAR (conservative rows)
    model: object = field(default=None, repr=False, compare=False)
    instance: object = field(default=None, repr=False, compare=False)


def nonmar_order(X: pd.DataFrame, instance: pd.DataFrame) -> list[str]:
    """The order in which features are declared non-MAR: the instance's missing features first (in
    column order), then the other features with missing training cells."""
    cols = [str(c) for c in X.columns]
    row = instance.iloc[0]
    first = [c for c in cols if pd.isna(row[c])]
    then = [c for c in cols if c not in first and X[c].isna().any()]
    return first + then


def treatment_sets(X: pd.DataFrame, y, instance: pd.DataFrame, *, s: float = 1.0,
                   max_steps: int | None = None) -> list[Treatment]:
    """The instance's classes under each treatment of missing values, in teaching order.

    ``NBC (MAR)``: the Perks NBC with the same ``s`` (the NCC's precise counterpart, always in the
    MAR set); ``NCC, MAR``: missing values ignored; ``NCC, imputed``: every missing cell (training
    and instance) replaced by the training mode (paper 001; :class:`Preparation` ``"impute"``);
    then NCC2's conservative rule with the features of :func:`nonmar_order` declared not missing
    at random (training and testing) one more at a time — sets that never shrink while the
    instance's values were seen in training (at most
    ``max_steps`` of them: the first features of the order).
    """
    X = X.copy()
    X.columns = [str(c) for c in X.columns]
    instance = _one_row(instance, list(X.columns))
    y = np.asarray(y)
    out = []
    nbc = NaiveBayes(s=s).fit(X, y)
    out.append(Treatment("NBC (MAR)", "nbc", (nbc.predict(instance).tolist()[0],), model=nbc,
                         instance=instance))
    mar = NCC(s=s).fit(X, y)
    out.append(Treatment("NCC, MAR (ignore)", "mar", _members(mar, instance), model=mar, instance=instance))
    prep = Preparation(missing="impute").fit(X, y)
    filled = prep.transform(instance)
    imputed = NCC(s=s).fit(prep.transform(X), y)
    out.append(Treatment("NCC, imputed (mode)", "impute", _members(imputed, filled), model=imputed,
                         instance=filled))
    declared = []
    for name in nonmar_order(X, instance)[:max_steps]:
        declared.append(name)
        model = NCC(s=s, non_mar_training=list(declared), non_mar_testing=list(declared)).fit(X, y)
        out.append(Treatment(f"NCC, not MAR: {', '.join(declared)}", "conservative",
                             _members(model, instance), non_mar=tuple(declared), model=model,
                             instance=instance))
    return out


def _members(model: NCC, instance: pd.DataFrame) -> tuple:
    keep = maximal_set(model.dominance(instance))[0]
    return tuple(model.classes_[keep].tolist())


# ---------------------------------------------------------------------------- hiding training cells
def hide_cells(X: pd.DataFrame, feature: str, fraction: float, *, mechanism: str = "mcar", value=None,
               seed: int = 0, protect: int | None = None) -> pd.DataFrame:
    """A copy of ``X`` with cells of ``feature`` hidden (NaN), for a class to see a mechanism at work.

    ``mechanism="mcar"``: each cell is hidden with probability ``fraction`` (missing completely at
    random); ``"mnar"``: each cell *equal to* ``value`` is hidden with probability ``fraction`` (not
    missing at random: whether a cell is missing depends on its value).  Seeded; row ``protect``
    (a position) is left as it is.
    """
    if mechanism not in ("mcar", "mnar"):
        raise ValueError(f"mechanism must be 'mcar' or 'mnar'; got {mechanism!r}")
    if not 0 <= fraction <= 1:
        raise ValueError(f"fraction must be in [0, 1]; got {fraction!r}")
    out = X.astype(object).copy()
    column = out[feature]
    draw = np.random.default_rng(seed).random(len(out)) < fraction
    hide = draw if mechanism == "mcar" else draw & (column.astype(str) == str(value)).to_numpy()
    hide &= column.notna().to_numpy()
    if protect is not None:
        hide[protect] = False
    out.loc[hide, feature] = np.nan
    return out
