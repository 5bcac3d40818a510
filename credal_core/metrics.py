r"""Indicators for credal and precise classifiers (paper 000 §5, paper 001 §3).

A credal prediction is a boolean row over ``classes`` (the predicted set).  Per instance the
*discounted accuracy* is :math:`x = 1/|\text{set}|` if the set contains the true class, else 0, and
the utilities are the quadratics through :math:`u(0)=0, u(1/2)=0.65 \text{ or } 0.80, u(1)=1`
(paper 001 §3.3; its footnote prints the two formulas swapped):

.. math:: u_{65}(x) = -0.6x^2 + 1.6x, \qquad u_{80}(x) = -1.2x^2 + 2.2x .

Indicators that average over an empty group (e.g. single accuracy when no prediction is
determinate) are ``nan``: undefined, not zero.

Set-valued predictions of any kind — credal sets, and conformal prediction sets, which may be empty —
are also described by their *coverage* (share of sets containing the true class: what a conformal
predictor guarantees on average, at least :math:`1 - \varepsilon`), *mean set size* and *empty-set
rate*.  Credal sets are never empty; an empty set is refused unless ``allow_empty=True``.
"""
from __future__ import annotations

import numpy as np

__all__ = ["credal_scores", "brier_loss", "precise_accuracy_split", "u65", "u80"]


def u65(x):
    """Utility with u(0)=0, u(1/2)=0.65, u(1)=1."""
    x = np.asarray(x, float)
    return -0.6 * x ** 2 + 1.6 * x


def u80(x):
    """Utility with u(0)=0, u(1/2)=0.80, u(1)=1."""
    x = np.asarray(x, float)
    return -1.2 * x ** 2 + 2.2 * x


def _true_index(y_true, classes) -> np.ndarray:
    classes = np.asarray(classes, dtype=object)
    lookup = {c: i for i, c in enumerate(classes.tolist())}
    y = np.asarray(y_true, dtype=object)
    try:
        return np.array([lookup[v] for v in y.tolist()], dtype=int)
    except KeyError as exc:
        raise ValueError(f"y_true holds a label not among classes: {exc.args[0]!r}") from None


def _check_sets(sets, n, n_classes, allow_empty: bool = False) -> np.ndarray:
    sets = np.asarray(sets)
    if sets.dtype != bool or sets.shape != (n, n_classes):
        raise ValueError(f"sets must be a boolean array of shape ({n}, {n_classes}); got "
                         f"{sets.dtype} {sets.shape}")
    if not allow_empty and not sets.any(axis=1).all():
        raise ValueError("a predicted set is empty; credal classifiers never return empty sets "
                         "(conformal sets may be: pass allow_empty=True)")
    return sets


def _mean(values, mask, weight=None) -> float:
    """Weighted mean of ``values`` over ``mask``; nan for an empty (or zero-weight) group."""
    w = np.ones(values.shape[0]) if weight is None else weight
    total = w[mask].sum()
    return float(np.dot(values[mask], w[mask]) / total) if mask.any() and total > 0 else float("nan")


def _check_weight(sample_weight, n) -> np.ndarray | None:
    if sample_weight is None:
        return None
    w = np.asarray(sample_weight, float)
    if w.shape != (n,) or not np.all(np.isfinite(w)) or np.any(w < 0) or w.sum() <= 0:
        raise ValueError(f"sample_weight must be {n} finite non-negative numbers with a positive sum")
    return w


def credal_scores(y_true, sets, classes, *, sample_weight=None, allow_empty: bool = False) -> dict:
    """The indicators of a set-valued (credal or conformal) classifier on labelled instances.

    Parameters
    ----------
    y_true : array-like of shape (n,)
    sets : bool array of shape (n, C)
        Predicted sets in ``classes`` order (e.g. ``predict_set``).
    classes : array-like of shape (C,)
    sample_weight : array-like of shape (n,), optional
        Instance weights, e.g. multiplicities of distinct test instances (the experiment engine
        evaluates each distinct instance once); the result equals that on the repeated instances.
    allow_empty : bool, default=False
        Accept empty sets (conformal prediction sets): they count as wrong (discounted accuracy,
        u65, u80 of 0), as neither determinate nor indeterminate.

    Returns
    -------
    dict
        ``determinacy`` (share of single-class predictions), ``single_accuracy`` (accuracy on
        them), ``set_accuracy`` (share of indeterminate sets — two classes or more — containing the
        truth), ``indeterminate_size`` (mean size of indeterminate sets), ``discounted_accuracy``,
        ``u65``, ``u80`` (means over all instances), ``coverage`` (share of sets containing the
        truth), ``mean_set_size`` (mean size of all sets) and ``empty_set_rate`` (share of empty sets).

    Examples
    --------
    >>> import numpy as np
    >>> sets = np.array([[True, False], [True, True], [False, True]])
    >>> s = credal_scores(["no", "yes", "no"], sets, ["no", "yes"])
    >>> round(s["determinacy"], 3), round(s["discounted_accuracy"], 3), round(s["u65"], 3)
    (0.667, 0.5, 0.55)
    """
    truth = _true_index(y_true, classes)
    sets = _check_sets(sets, truth.size, len(classes), allow_empty)
    w = _check_weight(sample_weight, truth.size)
    size = sets.sum(axis=1)
    hit = sets[np.arange(truth.size), truth].astype(float)
    single = size == 1
    several = size >= 2
    x = np.where(hit > 0, 1.0 / np.maximum(size, 1), 0.0)
    everyone = np.ones(truth.size, dtype=bool)
    return {
        "determinacy": _mean(single.astype(float), everyone, w),
        "single_accuracy": _mean(hit, single, w),
        "set_accuracy": _mean(hit, several, w),
        "indeterminate_size": _mean(size.astype(float), several, w),
        "discounted_accuracy": _mean(x, everyone, w),
        "u65": _mean(u65(x), everyone, w),
        "u80": _mean(u80(x), everyone, w),
        "coverage": _mean(hit, everyone, w),
        "mean_set_size": _mean(size.astype(float), everyone, w),
        "empty_set_rate": _mean((size == 0).astype(float), everyone, w),
    }


def precise_accuracy_split(y_true, y_precise, sets, classes, *, sample_weight=None,
                           allow_empty: bool = False) -> dict:
    """Accuracy of the precise counterpart where the credal classifier is determinate / not.

    ``accuracy_indeterminate`` is NBC-I of paper 000 §5 when ``y_precise`` are the NBC's labels:
    a large drop from ``accuracy_determinate`` means the credal classifier isolates the instances
    that are hard for the precise one.  With ``allow_empty`` an empty set is in neither group.
    """
    truth = _true_index(y_true, classes)
    sets = _check_sets(sets, truth.size, len(classes), allow_empty)
    w = _check_weight(sample_weight, truth.size)
    correct = (_true_index(y_precise, classes) == truth).astype(float)
    single = sets.sum(axis=1) == 1
    return {"accuracy": _mean(correct, np.ones(truth.size, dtype=bool), w),
            "accuracy_determinate": _mean(correct, single, w),
            "accuracy_indeterminate": _mean(correct, sets.sum(axis=1) >= 2, w)}


def brier_loss(y_true, proba, classes, *, kind: str = "true_class") -> float:
    r"""Brier loss of probabilistic predictions.

    ``kind="true_class"`` (paper 001 §3.1): :math:`\frac1n\sum_i (1 - P(c^{(i)}|a^{(i)}))^2`.
    ``kind="multiclass"``: :math:`\frac1n\sum_i\sum_c (P(c|a^{(i)}) - [c = c^{(i)}])^2`.
    """
    truth = _true_index(y_true, classes)
    proba = np.asarray(proba, float)
    if proba.shape != (truth.size, len(classes)):
        raise ValueError(f"proba must have shape ({truth.size}, {len(classes)}); got {proba.shape}")
    if not np.all(np.isfinite(proba)):
        raise ValueError("proba holds non-finite values")
    p_true = proba[np.arange(truth.size), truth]
    if kind == "true_class":
        return float(np.mean((1 - p_true) ** 2))
    if kind == "multiclass":
        onehot = np.zeros_like(proba)
        onehot[np.arange(truth.size), truth] = 1.0
        return float(np.mean(((proba - onehot) ** 2).sum(axis=1)))
    raise ValueError(f"kind must be 'true_class' or 'multiclass'; got {kind!r}")
