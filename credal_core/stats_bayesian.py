r"""Bayesian comparison of two classifiers (Benavoli, Corani, Demšar & Zaffalon, JMLR 18 (2017) 1-36,
"Time for a change"), computed by their package ``baycomp`` (extra ``[bayes]``).

Instead of a p-value, each test gives the posterior probabilities that the first classifier *a* is
practically better (``p_left``), that the two are practically equivalent (``p_rope``: the difference
lies in the region of practical equivalence :math:`[-r, r]`), or that the second classifier *b* is
better (``p_right``).  The rope :math:`r` is in units of the indicator: the default 0.01 is one point
of u65 (or of accuracy).  A decision is usually taken when one probability exceeds 0.95.

* **Across data sets** — the Bayesian signed-rank test (Benavoli et al., ICML 2014): a Dirichlet
  process on the differences :math:`z_i = \text{score}_b - \text{score}_a` of the N data sets (one mean
  over folds each) with a pseudo-observation :math:`z_0 = 0` of weight ``prior``; for a draw of weights
  :math:`w \sim \text{Dir}(\text{prior}, 1, \dots, 1)`,

  .. math:: \theta_{\text{left}} = \sum_{i,j} w_i w_j [z_i + z_j < -2r],\qquad
            \theta_{\text{right}} = \sum_{i,j} w_i w_j [z_i + z_j > 2r],

  ties with the bounds counting one half, and :math:`\theta_{\text{rope}} = 1 - \theta_{\text{left}} -
  \theta_{\text{right}}`; ``p_left`` is the share of ``nsamples`` draws in which
  :math:`\theta_{\text{left}}` is the largest (Monte Carlo: standard error at most
  :math:`0.5/\sqrt{\text{nsamples}}`, 0.005 for the default 10,000).  The draws are seeded.

* **On one data set** — the Bayesian correlated t-test (Corani & Benavoli, Machine Learning 2015): the
  n = k·r differences of the folds of r repetitions of k-fold cross-validation are correlated (the
  training sets overlap); with correlation :math:`\rho = 1/k` (Nadeau & Bengio) the posterior of the
  mean difference is a Student t with n − 1 degrees of freedom, location :math:`\bar z` and scale
  :math:`\sqrt{(1/n + \rho/(1-\rho))\, s^2}`, where :math:`s^2` is the sample variance (ddof 1) of the
  differences.  The probabilities are exact (the t distribution's CDF).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

__all__ = ["DEFAULT_ROPE", "BayesianResult", "signed_rank_test", "correlated_t_test", "signed_rank_tests",
           "correlated_t_tests", "decision"]

DEFAULT_ROPE = 0.01
DEFAULT_SAMPLES = 10_000


def _baycomp():
    try:
        import baycomp
    except ImportError:
        raise ImportError("the Bayesian tests need the package baycomp: pip install 'credal-core[bayes]' "
                          "(or pip install baycomp)") from None
    return baycomp


@dataclass(frozen=True)
class BayesianResult:
    """Posterior probabilities that *a* is better (left), that both are equivalent (rope), that *b* is
    better (right); ``sample`` holds the signed-rank test's posterior draws (nsamples × 3, columns
    left, rope, right) for the simplex plot, None for the correlated t-test."""

    p_left: float
    p_rope: float
    p_right: float
    rope: float
    sample: np.ndarray | None = field(default=None, compare=False, repr=False)


def _pair(x, y, name: str) -> tuple[np.ndarray, np.ndarray]:
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if x.ndim != 1 or x.shape != y.shape:
        raise ValueError(f"{name}: a and b must be 1-d arrays of the same length; got {x.shape} and "
                         f"{y.shape}")
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise ValueError(f"{name}: scores must be finite numbers (no NaN)")
    return x, y


def _check_rope(rope) -> float:
    if not isinstance(rope, (int, float, np.integer, np.floating)) or not 0 <= rope < 1:
        raise ValueError(f"rope must be a number in [0, 1); got {rope!r}")
    return float(rope)


def signed_rank_test(a, b, *, rope: float = DEFAULT_ROPE, prior: float = 0.5, nsamples: int = DEFAULT_SAMPLES,
                     seed: int = 0) -> BayesianResult:
    """Bayesian signed-rank test of classifier *a* against *b* on N data sets (one score each, higher
    is better); see the module's description.  With ``rope=0`` ``p_rope`` is 0."""
    a, b = _pair(a, b, "signed_rank_test")
    rope = _check_rope(rope)
    if a.size < 2:
        raise ValueError(f"signed_rank_test needs at least 2 data sets; got {a.size}")
    posterior = _baycomp().SignedRankTest(a, b, rope, prior=prior, nsamples=int(nsamples), random_state=seed)
    sample = posterior.sample
    winners = np.bincount(np.argmax(sample, axis=1), minlength=3) / sample.shape[0]
    if rope == 0:                        # baycomp's draws have no rope column then (it is 0)
        winners = np.array([winners[0], 0.0, winners[2]])
    return BayesianResult(float(winners[0]), float(winners[1]), float(winners[2]), rope, sample)


def correlated_t_test(a, b, *, n_folds: int, rope: float = DEFAULT_ROPE) -> BayesianResult:
    """Bayesian correlated t-test of *a* against *b* on the per-fold scores of r repetitions of
    ``n_folds``-fold cross-validation on one data set (same folds for both, in the same order);
    correlation :math:`\\rho = 1/k`."""
    a, b = _pair(a, b, "correlated_t_test")
    rope = _check_rope(rope)
    if not isinstance(n_folds, (int, np.integer)) or n_folds < 2:
        raise ValueError(f"n_folds must be an integer >= 2; got {n_folds!r}")
    if a.size < 2 or a.size % n_folds:
        raise ValueError(f"correlated_t_test: {a.size} scores are not whole repetitions of {n_folds} folds")
    probs = _baycomp().CorrelatedTTest.probs(a, b, rope, runs=a.size // n_folds)
    if rope == 0:
        left, right = probs
        return BayesianResult(float(left), 0.0, float(right), rope)
    left, middle, right = probs
    return BayesianResult(float(left), float(middle), float(right), rope)


def decision(result: BayesianResult, names=("a", "b"), threshold: float = 0.95) -> str:
    """In words: which probability exceeds ``threshold``, or "undecided"."""
    if result.p_left > threshold:
        return f"{names[0]} better"
    if result.p_right > threshold:
        return f"{names[1]} better"
    if result.p_rope > threshold:
        return "equivalent"
    return "undecided"


def signed_rank_tests(scores: pd.DataFrame, *, rope: float = DEFAULT_ROPE, nsamples: int = DEFAULT_SAMPLES,
                      seed: int = 0) -> pd.DataFrame:
    """The signed-rank test for every pair of columns of ``scores`` (data sets × classifiers, e.g.
    :attr:`credal_core.stats.AcrossDatasets.scores`): one row per pair (a before b in column order)
    with ``p_left`` (a better), ``p_rope``, ``p_right`` (b better) and ``decision``."""
    names = [str(c) for c in scores.columns]
    values = scores.to_numpy(dtype=float)
    rows = []
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            result = signed_rank_test(values[:, i], values[:, j], rope=rope, nsamples=nsamples, seed=seed)
            rows.append({"classifier_a": names[i], "classifier_b": names[j], "p_left": result.p_left,
                         "p_rope": result.p_rope, "p_right": result.p_right,
                         "decision": decision(result, (names[i], names[j]))})
    return pd.DataFrame(rows, columns=["classifier_a", "classifier_b", "p_left", "p_rope", "p_right",
                                       "decision"])


def correlated_t_tests(tidy: pd.DataFrame, indicator: str, *, n_folds: int, rope: float = DEFAULT_ROPE
                       ) -> pd.DataFrame:
    """The correlated t-test for every pair of classifiers on every data set of a per-fold table
    (columns ``dataset`` (optional), ``classifier``, ``repeat``, ``fold`` and ``indicator``; the
    engine's rows).  A pair with an undefined score on some fold is skipped (``decision`` says so)."""
    frame = tidy if "dataset" in tidy.columns else tidy.assign(dataset="")
    rows = []
    for dataset, part in frame.groupby("dataset", sort=False):
        wide = part.pivot_table(index=["repeat", "fold"], columns="classifier", values=indicator,
                                aggfunc="first", dropna=False)
        names = [c for c in dict.fromkeys(part["classifier"]) if c in wide.columns]
        for i in range(len(names)):
            for j in range(i + 1, len(names)):
                a, b = wide[names[i]].to_numpy(float), wide[names[j]].to_numpy(float)
                row = {"dataset": dataset, "classifier_a": names[i], "classifier_b": names[j]}
                if not (np.isfinite(a).all() and np.isfinite(b).all()):
                    rows.append({**row, "p_left": np.nan, "p_rope": np.nan, "p_right": np.nan,
                                 "decision": "skipped: undefined on some fold"})
                    continue
                result = correlated_t_test(a, b, n_folds=n_folds, rope=rope)
                rows.append({**row, "p_left": result.p_left, "p_rope": result.p_rope,
                             "p_right": result.p_right, "decision": decision(result, (names[i], names[j]))})
    out = pd.DataFrame(rows, columns=["dataset", "classifier_a", "classifier_b", "p_left", "p_rope",
                                      "p_right", "decision"])
    return out if "dataset" in tidy.columns else out.drop(columns="dataset")
