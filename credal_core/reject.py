r"""Credal classification against a precise classifier with a reject option (paper 001 §3.5).

A rejection costs ``d`` (0 < d < 1/2), a wrong label 1, a right one 0.  The precise classifier
rejects when its top posterior :math:`p^*` is below :math:`1 - d` (Herbei & Wegkamp 2006: then the
expected cost :math:`1 - p^*` of answering exceeds d).  The credal classifier made aware of ``d``
rejects the prior-dependent instances (more than one class in its set) and those whose *lower*
probability of its one class, :math:`\underline p^*`, is below :math:`1 - d`; on the others it
answers with its class.  :func:`reject_costs` gives both mean costs over a grid of d as a tidy frame.

Exact lower posteriors (:func:`lower_top_posterior`):

* **NCC** (Zaffalon's IDM, optionally ε-contaminated, features MAR), two classes (more: below).  For class c
  against rival r, with class masses :math:`t(c) = u`, :math:`t(r) = 1-u`, the least favourable
  feature masses put nothing on c's values and all of r's mass on r's values (each joint is
  monotone in them), leaving :math:`\underline P(c\mid\mathbf x) = 1/(1 + \max_u \psi(u))`,

  .. math::
      \psi(u) = \frac{N_r + \sigma v}{N_c + \sigma u}\prod_{j}
          \frac{N(r,x_j) + \sigma v}{N_j(r) + \sigma v}\cdot\frac{N_j(c) + \sigma u}{N(c, x_j)},
          \quad v = 1 - u,

  over the active features (present, not single-valued; see :class:`~credal_core.NCC`), with the
  ε-shifted counts N and :math:`\sigma = s(1-\epsilon)`.  :math:`\log\psi` is concave in u (every
  term :math:`\log(a+x) - \log(b+x)` with :math:`a \le b` is concave, and
  :math:`\sum_j\log(N_j(c)+\sigma u) - \log(N_c+\sigma u)` is concave once a feature is active, as
  :math:`N_j(c) \le N_c`), so the maximiser is an end point or the root of its derivative, found by
  bracketed Newton (:func:`~credal_core._roots.increasing_root`).  No active feature: ψ decreases,
  u = 0.  A zero count :math:`N(c, x_j)` gives 0.  With more than two classes the rival masses
  interact (the sum of the rivals' terms is not log-concave); that case is
  handled by :func:`credal_core._ncc_lower.ncc_lower_posterior_multiclass`: the same feature masses,
  then all the rivals' share on one rival when their terms are convex in their masses (proved when
  their counts are complete, certified otherwise) with a certified branch and bound over u; when a
  rival with missing training values fails the certificate (splitting the share may then beat every
  vertex), an exact branch and bound over the rivals' masses (:mod:`credal_core._ncc_lower_split`,
  certified to a relative 1e-9).  Never NaN.
* **CMA**: exact, :func:`credal_core.model_averaging.cma.cma_lower_posterior`.
* **BMA-AODE*** (credal set eq. 4 over the kept SPODEs an instance can evaluate): the posterior is
  linear-fractional in the prior, so its minimum is at a vertex of the set (one SPODE at
  :math:`1-(\tilde k-1)\epsilon`, the others at ε): exact, O(k̃) per instance.
* **COMP-AODE***: eq. 15 with the class summed out of the denominator, :math:`\min_Y
  \sum_j P_j(c)\pi_j / \sum_j \pi_j`, by Dinkelbach's method with the exact inner problem
  (:func:`~credal_core.aode._dominance.comp_min_ratio`); it needs :math:`\sum_j \pi_j > 0` on the set,
  guaranteed when every kept SPODE's lower compression coefficient is positive (otherwise NaN).  A
  SPODE whose parent is missing leaves the pool and its prior stays free in the set, as in the
  dominance test; with no usable SPODE, NaN.
* **CredalDecisionTree**: the IDM lower probability :math:`n_c/(N+s)` at the node reached.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ._ncc_lower import ncc_lower_posterior_multiclass, shifted_counts
from ._roots import increasing_root
from .data.counts import MISSING, Gather

__all__ = ["precise_rejects", "credal_rejects", "reject_costs", "reject_costs_of", "lower_top_posterior",
           "ncc_lower_posterior", "bma_aode_lower_posterior"]


def _check_d(d) -> np.ndarray:
    d = np.atleast_1d(np.asarray(d, dtype=float))
    if d.ndim != 1 or not np.all((d > 0) & (d < 0.5)):
        raise ValueError(f"every rejection cost d must lie in (0, 1/2); got {d.tolist()}")
    return d


def _precise_rejects(proba: np.ndarray, d: np.ndarray) -> np.ndarray:
    """Bool (len(d), n): the precise classifier rejects at each cost of ``d`` (checked)."""
    return proba.max(axis=1)[None, :] < 1.0 - d[:, None]


def _credal_rejects(sets: np.ndarray, lower: np.ndarray, d: np.ndarray) -> np.ndarray:
    """Bool (len(d), n): the credal classifier rejects at each cost of ``d`` (checked)."""
    single = sets.sum(axis=1) == 1
    if np.isnan(lower[single]).any():
        raise ValueError("lower probabilities are missing (NaN) on determinate instances")
    return ~single[None, :] | (np.where(single, lower, 1.0)[None, :] < 1.0 - d[:, None])


def precise_rejects(proba, d: float) -> np.ndarray:
    """Bool (n,): the precise classifier rejects, i.e. its top posterior is below ``1 - d``."""
    return _precise_rejects(np.asarray(proba, dtype=float), _check_d(d)[:1])[0]


def credal_rejects(sets, lower_top, d: float) -> np.ndarray:
    """Bool (n,): the credal classifier rejects — a set of more than one class, or a lower
    probability of its one class below ``1 - d`` (NaN lower probabilities raise)."""
    sets, lower = np.asarray(sets, dtype=bool), np.asarray(lower_top, dtype=float)
    return _credal_rejects(sets, lower, _check_d(d)[:1])[0]


def reject_costs(y_true, proba, sets, lower_top, d_values, classes) -> pd.DataFrame:
    """Mean cost per instance (0 right, 1 wrong, d rejected) of both classifiers over a grid of d.

    Parameters
    ----------
    y_true : array-like (n,) — true labels.
    proba : array (n, C) — the precise classifier's posteriors (``classes`` order).
    sets : bool array (n, C) — the credal classifier's sets.
    lower_top : array (n,) — lower probability of the class of each determinate set
        (:func:`lower_top_posterior`; ignored on indeterminate rows).
    d_values : array-like of costs in (0, 1/2).
    classes : array-like (C,).

    Returns
    -------
    DataFrame with one row per (d, classifier): ``d``, ``classifier`` ("precise" / "credal"),
    ``cost`` (mean), ``rejected`` (share rejected), ``error`` (share answered wrongly).
    """
    classes = np.asarray(classes)
    lookup = {c: i for i, c in enumerate(classes.tolist())}
    try:
        truth = np.array([lookup[v] for v in np.asarray(y_true).tolist()])
    except KeyError as err:
        raise ValueError(f"y_true holds a label outside classes: {err.args[0]!r}") from None
    proba = np.asarray(proba, dtype=float)
    sets = np.asarray(sets, dtype=bool)
    if proba.shape != (truth.size, classes.size) or sets.shape != proba.shape:
        raise ValueError("proba and sets must both have shape (n, C) with n = len(y_true), C = len(classes)")
    precise_wrong = np.argmax(proba, axis=1) != truth
    credal_wrong = np.argmax(sets, axis=1) != truth
    d = _check_d(d_values)
    # every d at once, (len(d), n) per classifier; rows d by d, precise then credal
    rejected = {"precise": _precise_rejects(proba, d),
                "credal": _credal_rejects(sets, np.asarray(lower_top, dtype=float), d)}
    wrong = {"precise": precise_wrong, "credal": credal_wrong}
    measures = {name: {"cost": np.where(rejected[name], d[:, None], wrong[name][None, :]).mean(axis=1),
                       "rejected": rejected[name].mean(axis=1),
                       "error": (wrong[name][None, :] & ~rejected[name]).mean(axis=1)}
                for name in ("precise", "credal")}
    return pd.DataFrame({"d": np.repeat(d, 2),
                         "classifier": np.tile(np.array(["precise", "credal"], dtype=object), d.size),
                         **{m: np.column_stack([measures["precise"][m], measures["credal"][m]]).ravel()
                            for m in ("cost", "rejected", "error")}})


# --- lower posteriors -----------------------------------------------------------------------------
def ncc_lower_posterior(model, codes: np.ndarray, target: np.ndarray) -> np.ndarray:
    """Exact lower posterior of class ``target[i]`` under a fitted NCC (n,).

    See the module docstring for the derivation; more than two classes:
    :func:`~credal_core._ncc_lower.ncc_lower_posterior_multiclass` (exact with missing values too)."""
    tables = model.tables_
    n_classes = len(tables.classes)
    if n_classes != 2:
        return ncc_lower_posterior_multiclass(model, codes, target)
    out = np.full(codes.shape[0], np.nan)
    sigma, n_values, big_n, cell, den = shifted_counts(model)          # N(c), N(c, v), N_j(c) (m, C)
    act = (codes != MISSING) & ~((n_values == 1)[None, :] & (codes >= 0))
    cnt = Gather(codes, n_values).take(cell, missing=1.0)                              # (C, m, n)
    w = act.T.astype(float)                                                            # (m, n)
    target = np.asarray(target)
    c_idx, r_idx = target, 1 - target
    cols = np.arange(codes.shape[0])
    n_c, n_r = big_n[c_idx], big_n[r_idx]                                              # (n,)
    a_c, a_r = cnt[c_idx, :, cols].T, cnt[r_idx, :, cols].T                            # (m, n)
    d_c, d_r = den[:, c_idx], den[:, r_idx]                                            # (m, n)
    blocked = ((a_c <= 0) & (w > 0)).any(axis=0)
    has_act = w.sum(axis=0) > 0
    # the rival's factor (N(r,x_j) + σv)/(N_j(r) + σv) is 1 when its count is its total (e.g. no row
    # of r has feature j): left out, so that 0/0 never appears at v = 0
    w_r = (w > 0) & (a_r < d_r)

    def log_psi(u):
        v = 1 - u
        with np.errstate(divide="ignore", invalid="ignore"):
            rival = np.log(a_r + sigma * v) - np.log(d_r + sigma * v)
            own = np.log(d_c + sigma * u) - np.log(np.maximum(a_c, 1e-300))
            return (np.log(n_r + sigma * v) - np.log(n_c + sigma * u)
                    + np.where(w_r, rival, 0.0).sum(axis=0) + np.where(w > 0, own, 0.0).sum(axis=0))

    def minus_slope(u, rows):
        v = 1 - u
        on, on_r = w[:, rows] > 0, w_r[:, rows]
        with np.errstate(divide="ignore", invalid="ignore"):
            br, bd = a_r[:, rows] + sigma * v, d_r[:, rows] + sigma * v
            bc = d_c[:, rows] + sigma * u
            er, ec = n_r[rows] + sigma * v, n_c[rows] + sigma * u
            value = (1 / er + np.where(on_r, 1 / br - 1 / bd, 0.0).sum(axis=0)
                     + 1 / ec - np.where(on, 1 / bc, 0.0).sum(axis=0))
            slope = (1 / er ** 2 + np.where(on_r, 1 / br ** 2 - 1 / bd ** 2, 0.0).sum(axis=0)
                     - 1 / ec ** 2 + np.where(on, 1 / bc ** 2, 0.0).sum(axis=0))
        return sigma * value, sigma ** 2 * slope          # -(log psi)' and its derivative (>= 0)

    u = np.zeros(codes.shape[0])
    if sigma > 0:
        live = np.flatnonzero(has_act & ~blocked)
        if live.size:
            g0, _ = minus_slope(np.zeros(live.size), live)
            g1, _ = minus_slope(np.ones(live.size), live)
            u[live[g1 <= 0]] = 1.0
            inner = live[(g0 < 0) & (g1 > 0)]
            if inner.size:
                u[inner] = increasing_root(lambda x, idx: minus_slope(x, inner[idx]),
                                           np.zeros(inner.size), np.ones(inner.size))
    out = np.exp(-np.logaddexp(0.0, log_psi(u)))
    out[blocked] = 0.0
    return out


def bma_aode_lower_posterior(model, X, target) -> np.ndarray:
    """Exact lower posterior of class ``target[i]`` under BMA-AODE*'s credal set (eq. 4) (n,)."""
    post = model.spode_posteriors(X)[:, model.kept_, :]                 # (n, k, C), NaN unusable
    w = model.weights_[model.kept_]
    eps = float(model.epsilon)
    usable = ~np.isnan(post[:, :, 0])
    p = np.take_along_axis(np.nan_to_num(post), np.asarray(target)[:, None, None], axis=2)[:, :, 0]
    ww = np.where(usable, w[None, :], 0.0)
    k = usable.sum(axis=1, keepdims=True)
    num = eps * (ww * p).sum(axis=1, keepdims=True) + (1 - k * eps) * ww * p      # vertex i: (n, k)
    den = eps * ww.sum(axis=1, keepdims=True) + (1 - k * eps) * ww
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = np.where(usable & (den > 0), num / den, np.inf)
    out = ratio.min(axis=1)
    out[~np.isfinite(out)] = np.nan
    return out


def _comp_aode_lower_posterior(model, X, target) -> np.ndarray:
    from .aode._dominance import comp_min_ratio

    keep, base, total, equality = model.comp_problem()
    out = np.full(len(target), np.nan)
    if not keep.any() or not np.all(model.compression_interval_[keep, 0] > 0):
        return out
    post = model.spode_posteriors(X)[:, keep, :]
    usable = ~np.isnan(post[:, :, 0])              # parent present: in the pool; else its prior is free
    ok = usable.any(axis=1)
    if ok.any():
        rows = np.asarray(target)[ok, None, None]
        alpha = np.take_along_axis(np.nan_to_num(post[ok]), rows, axis=2)[:, :, 0]
        lam, _ = comp_min_ratio(alpha, usable[ok].astype(float), base, float(model.epsilon), total, equality)
        out[ok] = lam
    return out


def lower_top_posterior(model, X, target=None) -> np.ndarray:
    """Exact lower posterior probability (n,) of one class per instance under a fitted credal model.

    ``target``: class positions in ``classes_`` (default: the class of a one-class set — the class the
    credal classifier answers with — else the model's ``predict``).  Supported: NCC, CMA,
    CredalBMAAODE, CredalCompAODE (see the module doc for when NaN), CredalDecisionTree.  NaN where
    the lower posterior is not available.
    """
    from .aode import CredalBMAAODE, CredalCompAODE
    from .model_averaging import CMA
    from .naive.ncc import NCC
    from .tree import CredalDecisionTree

    if not isinstance(model, (CMA, NCC, CredalBMAAODE, CredalCompAODE, CredalDecisionTree)):
        raise TypeError(f"no lower posterior for {type(model).__name__}")
    if target is None:                  # the class of a one-class set, else the precise label
        position = {c: i for i, c in enumerate(model.classes_.tolist())}
        label = np.array([position[v] for v in model.predict(X).tolist()], dtype=np.int64)
        sets = np.asarray(model.predict_set(X), dtype=bool)
        target = np.where(sets.sum(axis=1) == 1, np.argmax(sets, axis=1), label)
    target = np.asarray(target, dtype=np.int64)
    if isinstance(model, CMA):
        return model.lower_posterior(X, target)
    if isinstance(model, NCC):
        return ncc_lower_posterior(model, model.encode(X), target)
    if isinstance(model, CredalBMAAODE):
        return bma_aode_lower_posterior(model, X, target)
    if isinstance(model, CredalCompAODE):
        return _comp_aode_lower_posterior(model, X, target)
    if isinstance(model, CredalDecisionTree):
        lower, _ = model.intervals(X)
        return lower[np.arange(len(target)), target]
    raise TypeError(f"no lower posterior for {type(model).__name__}")


def _take_rows(X, rows: np.ndarray):
    """Rows ``rows`` of a table given as a DataFrame, an array or a list of rows."""
    if hasattr(X, "iloc"):
        return X.iloc[rows]
    return X[rows] if isinstance(X, np.ndarray) else np.asarray(X, dtype=object)[rows]


def reject_costs_of(model, X, y, d_values) -> pd.DataFrame:
    """:func:`reject_costs` of a fitted credal model against its own precise counterpart.

    Every credal estimator here carries its precise counterpart's posterior as ``predict_proba``
    (NCC: the Perks NBC; CMA: BMA over feature subsets; BMA-AODE* / COMP-AODE*: BMA-AODE / COMP-AODE;
    CDT: the same tree's leaf frequencies), so one fitted model gives both rows of every d.
    """
    sets = np.asarray(model.predict_set(X), dtype=bool)
    # the lower probability matters only where the set is one class (reject_costs ignores it elsewhere):
    # computed for those rows alone, of that class
    single = np.flatnonzero(sets.sum(axis=1) == 1)
    lower = np.full(len(sets), np.nan)
    if single.size:
        lower[single] = lower_top_posterior(model, _take_rows(X, single), np.argmax(sets[single], axis=1))
    return reject_costs(y, model.predict_proba(X), sets, lower, d_values, model.classes_)
