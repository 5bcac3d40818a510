r"""Indicators for credal and precise classifiers (paper 000 §5, paper 001 §3).

A credal prediction is a boolean row over ``classes`` (the predicted set).  Per instance the
*discounted accuracy* is :math:`x = 1/|\text{set}|` if the set contains the true class, else 0, and
the utilities are the quadratics through :math:`u(0)=0, u(1/2)=0.65 \text{ or } 0.80, u(1)=1`
(paper 001 §3.3; its footnote prints the two formulas swapped):

.. math:: u_{65}(x) = -0.6x^2 + 1.6x, \qquad u_{80}(x) = -1.2x^2 + 2.2x .

Indicators that average over an empty group (e.g. single accuracy when no prediction is
determinate) are ``nan``: undefined, not zero.
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


def _check_sets(sets, n, n_classes) -> np.ndarray:
    sets = np.asarray(sets)
    if sets.dtype != bool or sets.shape != (n, n_classes):
        raise ValueError(f"sets must be a boolean array of shape ({n}, {n_classes}); got "
                         f"{sets.dtype} {sets.shape}")
    if not sets.any(axis=1).all():
        raise ValueError("a predicted set is empty; credal classifiers never return empty sets")
    return sets


def _mean(values, mask) -> float:
    return float(np.mean(values[mask])) if mask.any() else float("nan")


def credal_scores(y_true, sets, classes) -> dict:
    """The indicators of a credal classifier on labelled instances.

    Parameters
    ----------
    y_true : array-like of shape (n,)
    sets : bool array of shape (n, C)
        Predicted sets in ``classes`` order (e.g. ``predict_set``).
    classes : array-like of shape (C,)

    Returns
    -------
    dict
        ``determinacy`` (share of single-class predictions), ``single_accuracy`` (accuracy on
        them), ``set_accuracy`` (share of indeterminate sets containing the truth),
        ``indeterminate_size`` (mean size of indeterminate sets), ``discounted_accuracy``,
        ``u65``, ``u80`` (means over all instances).

    Examples
    --------
    >>> import numpy as np
    >>> sets = np.array([[True, False], [True, True], [False, True]])
    >>> s = credal_scores(["no", "yes", "no"], sets, ["no", "yes"])
    >>> round(s["determinacy"], 3), round(s["discounted_accuracy"], 3), round(s["u65"], 3)
    (0.667, 0.5, 0.55)
    """
    truth = _true_index(y_true, classes)
    sets = _check_sets(sets, truth.size, len(classes))
    size = sets.sum(axis=1)
    hit = sets[np.arange(truth.size), truth]
    single = size == 1
    x = np.where(hit, 1.0 / size, 0.0)
    return {
        "determinacy": float(single.mean()),
        "single_accuracy": _mean(hit, single),
        "set_accuracy": _mean(hit, ~single),
        "indeterminate_size": _mean(size.astype(float), ~single),
        "discounted_accuracy": float(x.mean()),
        "u65": float(u65(x).mean()),
        "u80": float(u80(x).mean()),
    }


def precise_accuracy_split(y_true, y_precise, sets, classes) -> dict:
    """Accuracy of the precise counterpart where the credal classifier is determinate / not.

    ``accuracy_indeterminate`` is NBC-I of paper 000 §5 when ``y_precise`` are the NBC's labels:
    a large drop from ``accuracy_determinate`` means the credal classifier isolates the instances
    that are hard for the precise one.
    """
    truth = _true_index(y_true, classes)
    sets = _check_sets(sets, truth.size, len(classes))
    correct = _true_index(y_precise, classes) == truth
    single = sets.sum(axis=1) == 1
    return {"accuracy": float(correct.mean()),
            "accuracy_determinate": _mean(correct, single),
            "accuracy_indeterminate": _mean(correct, ~single)}


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
