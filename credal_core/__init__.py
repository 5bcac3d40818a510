"""credal_core — exact credal classifiers (NBC, NCC, NCC_ε, LNCC, the AODE family, threshold selection).

Module map (one concept per subpackage; models never import the experiments)::

    credal_core
    ├── _base, _checks, _roots   shared: the public predict / credal decision path, argument checks,
    │                            bracketed monotone root finding
    ├── data/                    data preparation: counts (validation, codes, CountTables), csv_loader,
    │                            discretise (MDL, equal frequency, median), preparation (per fold)
    ├── naive/                   naive_bayes (NaiveBayes), ncc (NCC, NCC_ε), lncc (LNCC)
    ├── likelihood/              intervals (paper 003), pairwise (exact LNCC profile engine),
    │                            profile (PairProfile: one class pair, for teaching)
    ├── aode/                    AODE, BMA-AODE, COMP-AODE and their credal versions (paper 001)
    ├── selection/               ThresholdSelector (paper 004)
    ├── resampling               seeded repeated stratified k-fold and hold-out (below models and
    │                            experiments)
    ├── metrics, stats           credal indicators (discounted accuracy, u65, …); Friedman, Nemenyi,
    │                            Wilcoxon
    └── experiments/             the evaluation engine, runners (joblib / Dask), sweeps, and one module
                                 per paper's protocol: paper_000 (Table 1), paper_004 (Fig. 3, Table 2)

The estimators are imported lazily (PEP 562): ``import credal_core.likelihood`` or
``credal_core.metrics`` does not pay for scikit-learn, which keeps the app's first render fast.
"""
from importlib import import_module

__all__ = ["AODE", "BMAAODE", "CompAODE", "CountTables", "CredalBMAAODE", "CredalCompAODE", "LNCC", "NCC",
           "NaiveBayes", "ThresholdSelector"]
__version__ = "0.2.0"

_WHERE = {"CountTables": ".data.counts", "LNCC": ".naive.lncc", "NCC": ".naive.ncc",
          "NaiveBayes": ".naive.naive_bayes", "ThresholdSelector": ".selection.threshold",
          "AODE": ".aode", "BMAAODE": ".aode", "CompAODE": ".aode", "CredalBMAAODE": ".aode",
          "CredalCompAODE": ".aode"}


def __getattr__(name):
    if name in _WHERE:
        value = getattr(import_module(_WHERE[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'credal_core' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
