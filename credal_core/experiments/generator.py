r"""The artificial data of paper 000 §5.1: a naive model with a uniform class and binary features.

The conditional chances :math:`\theta_{f_j|c} = P(F_j = 1 \mid c)` are drawn uniformly on
:math:`[0, 1]^{|C|}` per feature, subject to

.. math:: |\theta_{f_j|c'} - \theta_{f_j|c''}| \ge \delta \quad (c' \ne c'', \ \delta = 0.1),

which "forced each feature to be truly dependent on the class".  Drawing by rejection (redraw the
features that break the constraint) gives exactly the uniform distribution on the constrained set.
"""
from __future__ import annotations

import numpy as np

from .._checks import check_integer

__all__ = ["draw_chances", "sample_naive"]


def draw_chances(rng: np.random.Generator, *, n_features: int = 10, n_classes: int = 2,
                 min_gap: float = 0.1) -> np.ndarray:
    """Chances ``theta[c, j] = P(F_j = 1 | c)`` of shape (n_classes, n_features).

    Parameters
    ----------
    rng : numpy Generator
    n_features : int, default=10
        Number of binary features ``m`` (000 §5.1 uses 10).
    n_classes : int, default=2
        Number of classes (000 §5.1 uses 2); the class is uniform.
    min_gap : float, default=0.1
        Smallest allowed difference between two classes' chances of the same feature.

    Examples
    --------
    >>> theta = draw_chances(np.random.default_rng(0))
    >>> theta.shape, bool(np.all(np.abs(theta[0] - theta[1]) >= 0.1))
    ((2, 10), True)
    """
    check_integer("n_features", n_features, 1)
    check_integer("n_classes", n_classes, 2)
    if not (0 <= min_gap and (n_classes - 1) * min_gap < 1):
        raise ValueError(f"min_gap={min_gap!r} cannot separate {n_classes} classes inside [0, 1]: "
                         f"it needs (n_classes - 1) * min_gap < 1")
    if (1 - (n_classes - 1) * min_gap) ** n_classes < 1e-3:
        raise ValueError(f"min_gap={min_gap!r} with {n_classes} classes leaves too small a region to "
                         "draw from; lower min_gap or the number of classes")
    theta = rng.uniform(size=(n_classes, n_features))
    while True:
        ordered = np.sort(theta, axis=0)
        bad = np.flatnonzero((np.diff(ordered, axis=0) < min_gap).any(axis=0))
        if bad.size == 0:
            return theta
        theta[:, bad] = rng.uniform(size=(n_classes, bad.size))


def sample_naive(rng: np.random.Generator, theta: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Draw ``n`` instances: class uniform, then each feature independently given the class.

    Returns integer codes ``X`` (n, m) with values in {0, 1} and ``y`` (n,) in ``range(n_classes)``.
    """
    check_integer("the number of instances", n, 1)
    y = rng.integers(0, theta.shape[0], size=n)
    X = (rng.uniform(size=(n, theta.shape[1])) < theta[y]).astype(np.int64)
    return X, y
