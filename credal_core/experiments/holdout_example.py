"""One fixed hold-out split, NBC against NCC over a range of IDM strengths ``s`` (the Home page's
live example).

>>> import pandas as pd
>>> X = pd.DataFrame({"f": ["a", "a", "b", "b", "a", "b"]})
>>> y = pd.Series(["yes", "yes", "no", "no", "yes", "no"])
>>> views = holdout_example(X, y, n_train=4, s_values=(1.0,))
>>> views[1.0]["scores"]["determinacy"], views[1.0]["split"]["accuracy"]
(1.0, 1.0)
"""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from ..data.counts import declared_classes
from ..metrics import credal_scores, precise_accuracy_split
from ..naive.naive_bayes import NaiveBayes
from ..naive.ncc import NCC

__all__ = ["holdout_example"]


def holdout_example(X: pd.DataFrame, y, n_train: int, s_values: Iterable[float], *,
                    nbc_s: float = 1.0) -> dict[float, dict]:
    r"""NBC (prior strength ``nbc_s``) and NCC(s) for every ``s``, trained on the first ``n_train``
    rows and tested on the others.

    Both classifiers are fitted on the training rows' own values (their ``fit`` / ``predict_set``
    encoding: a test value unseen in training takes no part), the NCC once, its ``s`` then moved
    for each prediction.  On the test rows :math:`i = 1 \dots n`, with NCC set :math:`S_i` and truth
    :math:`c_i`,

    .. math::
        \text{determinacy} = \tfrac1n \sum_i [\,|S_i| = 1\,], \qquad
        \text{single accuracy} = \frac{\sum_i [\,S_i = \{c_i\}\,]}{\sum_i [\,|S_i| = 1\,]},

    and the NBC's accuracy on all rows, on the rows where the NCC is determinate and where it is not
    (NBC-I, paper 000 §5).

    Parameters
    ----------
    X : DataFrame of shape (N, m)
        Categorical features, in row order (the split is not shuffled).
    y : array-like of shape (N,)
        Class labels; a pandas Categorical declares its categories as classes (as ``fit``).
    n_train : int
        The first ``n_train`` rows train both classifiers; rows ``n_train`` … ``N - 1`` test them.
    s_values : iterable of float
        The NCC's IDM strengths.
    nbc_s : float, default 1.0
        The NBC's prior strength (Laplace for 1).

    Returns
    -------
    dict
        ``{s: view}``, each ``view`` holding ``sets`` (bool array (n, C): the NCC sets, columns in
        ``classes`` order), ``classes``, ``scores`` (:func:`~credal_core.metrics.credal_scores`),
        ``split`` (:func:`~credal_core.metrics.precise_accuracy_split` of the NBC's labels),
        ``indeterminate`` (number of sets with two or more classes) and ``contains_truth`` (bool
        array (n,): the set holds the true class).

    Raises
    ------
    ValueError
        If ``n_train`` leaves no training or no test row, the training rows hold one class, or a
        test row's class is not among the training rows' classes (nor declared by a Categorical
        ``y``).
    """
    X = pd.DataFrame(X).reset_index(drop=True)
    classes = declared_classes(y)                       # a Categorical y declares its classes
    y = pd.Series(np.asarray(y))
    if not 0 < n_train < len(X):
        raise ValueError(f"n_train must leave training and test rows: 0 < n_train < {len(X)}; got {n_train}")
    X_train, X_test = X.iloc[:n_train], X.iloc[n_train:]
    y_train, y_true = y.iloc[:n_train], y.to_numpy()[n_train:]
    nbc_pred = NaiveBayes(s=nbc_s).fit(X_train, y_train, classes=classes).predict(X_test)
    s_values = [float(s) for s in s_values]
    ncc = NCC(s=s_values[0] if s_values else 1.0).fit(X_train, y_train, classes=classes)
    column = {label: j for j, label in enumerate(ncc.classes_.tolist())}
    truth = np.array([column.get(label, -1) for label in y_true.tolist()])
    views = {}
    for s in s_values:
        sets = np.asarray(ncc.set_params(s=s).predict_set(X_test), dtype=bool)
        views[s] = {"sets": sets, "classes": ncc.classes_,
                    "scores": credal_scores(y_true, sets, ncc.classes_),
                    "split": precise_accuracy_split(y_true, nbc_pred, sets, ncc.classes_),
                    "indeterminate": int((sets.sum(axis=1) > 1).sum()),
                    "contains_truth": (truth >= 0) & sets[np.arange(len(truth)), np.maximum(truth, 0)]}
    return views
