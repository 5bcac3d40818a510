r"""Conformal prediction sets over the NBC's and the AODE's probabilities: the set-valued baseline.

Split (inductive) conformal prediction (Vovk, Gammerman & Shafer 2005; Papadopoulos et al. 2002): the
training rows are split into a *proper training* part, on which the base classifier (naive Bayes or
AODE) is fitted, and a *calibration* part of :math:`q` rows with non-conformity scores
:math:`\alpha_i = 1 - \hat P(y_i \mid x_i)` (the hinge score).  A test instance gets, for every class
:math:`c`, the p-value

.. math:: p_c = \frac{\#\{i : \alpha_i \ge \alpha_c\} + 1}{q + 1}, \qquad
          \alpha_c = 1 - \hat P(c \mid x),

and the prediction set at significance :math:`\varepsilon` is :math:`\Gamma^\varepsilon = \{c : p_c \ge
\varepsilon\}`.  If the rows are exchangeable, :math:`P(y \in \Gamma^\varepsilon) \ge 1 - \varepsilon`
**on average over instances** (marginal coverage) — not for each instance, nor for each class.  The
*Mondrian* (class-conditional) version compares :math:`\alpha_c` with the calibration scores of class
:math:`c` only, which gives :math:`P(y \in \Gamma^\varepsilon \mid y = c) \ge 1 - \varepsilon` for every
class (Vovk et al. 2005, §4.5).  Sets may be empty (every class non-conforming) or hold every class.

A credal classifier promises something else: its set holds every class that no other class dominates
under *every* prior of its set of priors (robustness to the prior, instance by instance); it has no
coverage guarantee.  Comparing them at equal determinacy (``match=``) shows which spends its
indeterminacy on the instances that need it.

The p-values are computed by ``crepes`` (Boström 2022; :class:`crepes.ConformalClassifier`, hinge
scores from :func:`crepes.extras.hinge`).

``match``: *matched determinacy* — the significance is chosen inside ``fit`` (so inside each training
fold of a comparison) so that the conformal sets' determinacy on the calibration rows is as close as
possible to that of a chosen credal classifier fitted on the same proper training rows (ties: the
smallest significance, the most cautious).  The coverage guarantee then no longer holds exactly (the
significance depends on the calibration rows); the chosen value is ``significance_``.
"""
from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.model_selection import train_test_split
from sklearn.utils._param_validation import Interval

from ._base import CheckedParameters

__all__ = ["ConformalClassifier", "conformal_p_values", "prediction_sets"]


def _crepes():
    try:
        import crepes
        from crepes.extras import hinge
    except ImportError:
        raise ImportError("conformal prediction sets need the package crepes: pip install "
                          "'credal-core[conformal]' (or pip install crepes)") from None
    return crepes, hinge


def conformal_p_values(proba_cal, y_cal, proba_test, *, mondrian: bool = False, smoothing: bool = False,
                       seed: int = 0) -> np.ndarray:
    """p-values (n_test, C) of every class from calibration probabilities ``proba_cal`` (q, C) with their
    true class positions ``y_cal`` (q,) and test probabilities ``proba_test`` (n, C), through crepes."""
    crepes, hinge = _crepes()
    proba_cal, proba_test = np.asarray(proba_cal, float), np.asarray(proba_test, float)
    y_cal = np.asarray(y_cal, dtype=int)
    n_classes = proba_test.shape[1]
    alphas_cal = hinge(proba_cal, np.arange(n_classes), y_cal)
    alphas_test = hinge(proba_test)
    if not mondrian:
        cc = crepes.ConformalClassifier().fit(alphas_cal, seed=seed)
        return cc.predict_p(alphas_test, smoothing=smoothing, seed=seed)
    cc = crepes.ConformalClassifier().fit(alphas_cal, bins=y_cal, seed=seed)
    n = proba_test.shape[0]
    columns = [cc.predict_p(alphas_test, bins=np.full(n, c), smoothing=smoothing, seed=seed)[:, c]
               for c in range(n_classes)]
    return np.column_stack(columns)


def prediction_sets(p_values, significance: float) -> np.ndarray:
    """:math:`\\{c : p_c \\ge \\varepsilon\\}` as a boolean array (crepes' rule)."""
    return np.asarray(p_values) >= significance


def _determinacy(sets: np.ndarray) -> float:
    return float(np.mean(sets.sum(axis=1) == 1)) if len(sets) else float("nan")


def _base_estimator(base):
    if isinstance(base, str):
        import credal_core

        if base == "nbc":
            return credal_core.NaiveBayes(s=1.0)
        if base == "aode":
            return credal_core.AODE()
        raise ValueError(f"base must be 'nbc', 'aode' or an estimator with predict_proba; got {base!r}")
    if not hasattr(base, "predict_proba"):
        raise ValueError(f"base must have predict_proba; got {type(base).__name__}")
    return clone(base)


def _credal_estimator(match):
    if isinstance(match, str):
        from .cli.classifiers import parse_classifiers  # the command line's aliases: "ncc", "lncc:0.3"

        (spec,) = parse_classifiers(match)
        model = spec.make()
    else:
        model = clone(match)
    if not hasattr(model, "predict_set"):
        raise ValueError(f"match must name a set-valued (credal) classifier; {match!r} has no predict_set")
    return model


class ConformalClassifier(CheckedParameters, ClassifierMixin, BaseEstimator):
    """Split or Mondrian conformal prediction sets over a base classifier's probabilities.

    Parameters
    ----------
    base : {"nbc", "aode"} or estimator, default="nbc"
        The base classifier: naive Bayes (s = 1), the AODE, or any estimator with ``predict_proba``.
    mondrian : bool, default=False
        Class-conditional (Mondrian) calibration: coverage at least :math:`1 - \\varepsilon` in every class.
    significance : float in (0, 1), default=0.1
        :math:`\\varepsilon`; the sets cover the true class with probability at least
        :math:`1 - \\varepsilon`.
    calibration_size : float in (0, 1), default=0.25
        Share of the training rows held out for calibration (stratified by class when possible).
    match : str or credal estimator, optional
        Matched determinacy: choose the significance so that the determinacy on the calibration rows
        equals that of this credal classifier (an alias such as ``"ncc"`` or ``"lncc:alpha=0.3"``).
    smoothing : bool, default=False
        Smoothed p-values (exact coverage, randomised by ``random_state``); off, the sets are
        deterministic and conservative.
    random_state : int, default=0
        Seed of the calibration split (and of the smoothing).

    Attributes
    ----------
    base_ : estimator
        The base classifier fitted on the proper training rows.
    classes_ : ndarray
    significance_ : float
        The significance used (``significance``, or the matched one).
    target_determinacy_, calibration_determinacy_ : float
        With ``match``: the credal classifier's determinacy on the calibration rows and the
        conformal sets' at ``significance_`` (NaN without ``match``).
    n_calibration_ : int

    Examples
    --------
    >>> from credal_core.conformal import ConformalClassifier
    >>> from credal_core.datasets import load_tic_tac_toe
    >>> X, y = load_tic_tac_toe(return_X_y=True)
    >>> model = ConformalClassifier(base="nbc", significance=0.1).fit(X[::2], y[::2])
    >>> sets = model.predict_set(X[1::2])
    >>> bool(sets[range(len(sets)), [list(model.classes_).index(c) for c in y[1::2]]].mean() >= 0.85)
    True
    """

    _may_return_empty_sets = True            # the comparison engine scores empty sets (coverage, ...)
    _parameter_constraints = {
        "mondrian": ["boolean"],
        "significance": [Interval(Real, 0, 1, closed="neither")],
        "calibration_size": [Interval(Real, 0, 1, closed="neither")],
        "smoothing": ["boolean"],
        "random_state": [Interval(Integral, 0, None, closed="left")],
    }

    def __init__(self, *, base="nbc", mondrian: bool = False, significance: float = 0.1,
                 calibration_size: float = 0.25, match=None, smoothing: bool = False, random_state: int = 0):
        self.base = base
        self.mondrian = mondrian
        self.significance = significance
        self.calibration_size = calibration_size
        self.match = match
        self.smoothing = smoothing
        self.random_state = random_state

    def _check_params(self):
        _base_estimator(self.base)
        if self.match is not None:
            _credal_estimator(self.match)

    def _split(self, n: int, y: np.ndarray):
        rows = np.arange(n)
        _, counts = np.unique(y, return_counts=True)
        stratify = y if counts.min() >= 2 else None
        try:
            return train_test_split(rows, test_size=self.calibration_size, random_state=self.random_state,
                                    stratify=stratify)
        except ValueError:                   # too few rows of a class for a stratified split
            return train_test_split(rows, test_size=self.calibration_size, random_state=self.random_state)

    def fit(self, X, y, classes=None):
        """Fit the base on the proper training rows, calibrate on the others (``classes`` declares the
        classes, as every classifier of the package)."""
        self.check_parameters()
        y = np.asarray(y, dtype=object)
        if len(y) < 4:
            raise ValueError(f"conformal prediction needs at least 4 training rows (fit + calibration); got "
                             f"{len(y)}")
        proper, calibration = self._split(len(y), y.astype(str))
        rows = (lambda idx: X.iloc[idx]) if hasattr(X, "iloc") else (lambda idx: np.asarray(X)[idx])
        self.base_ = _base_estimator(self.base)
        self.base_.fit(rows(proper), y[proper], **({"classes": classes} if classes is not None else {}))
        self.classes_ = np.asarray(self.base_.classes_)
        position = {c: i for i, c in enumerate(self.classes_.tolist())}
        y_cal = np.array([position[v] for v in y[calibration].tolist()], dtype=int)
        self._proba_cal = np.asarray(self.base_.predict_proba(rows(calibration)), float)
        self._y_cal = y_cal
        self.n_calibration_ = int(len(calibration))
        self.significance_ = float(self.significance)
        self.target_determinacy_ = self.calibration_determinacy_ = float("nan")
        if self.match is not None:
            credal = _credal_estimator(self.match)
            credal.fit(rows(proper), y[proper], **({"classes": classes} if classes is not None else {}))
            self.target_determinacy_ = _determinacy(np.asarray(credal.predict_set(rows(calibration))))
            p_cal = self._p_values(self._proba_cal)
            self.significance_, self.calibration_determinacy_ = _matched_significance(
                p_cal, self.target_determinacy_)
        return self

    def _p_values(self, proba) -> np.ndarray:
        return conformal_p_values(self._proba_cal, self._y_cal, proba, mondrian=self.mondrian,
                                  smoothing=self.smoothing, seed=self.random_state)

    def predict_p(self, X) -> np.ndarray:
        """The p-value of every class (n, C), columns in ``classes_`` order."""
        return self._p_values(np.asarray(self.base_.predict_proba(X), float))

    def predict_set(self, X) -> np.ndarray:
        """Prediction sets at ``significance_`` as a boolean (n, C) array (may hold empty rows)."""
        return prediction_sets(self.predict_p(X), self.significance_)

    def predict(self, X):
        """The base classifier's most probable class."""
        return self.base_.predict(X)

    def predict_proba(self, X):
        return self.base_.predict_proba(X)


def _matched_significance(p_values: np.ndarray, target: float) -> tuple[float, float]:
    """The significance whose sets' determinacy is closest to ``target`` (ties: the smallest), among
    every value at which a set changes (the distinct p-values, and a value above them all)."""
    candidates = np.unique(np.concatenate([p_values.ravel(), [1.0]]))
    candidates = candidates[(candidates > 0) & (candidates <= 1)]
    best, best_gap, best_det = None, np.inf, float("nan")
    for eps in candidates:                   # a set changes only where eps passes a p-value
        det = _determinacy(prediction_sets(p_values, eps))
        gap = abs(det - target)
        if gap < best_gap - 1e-12:
            best, best_gap, best_det = float(eps), gap, det
    return min(best, 1.0 - 1e-12), best_det
