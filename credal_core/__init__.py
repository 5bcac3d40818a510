"""credal_core — exact credal classifiers (NBC, NCC, NCC_ε, LNCC, the AODE family, threshold selection).

Module map (every module, grouped; models never import the experiments)::

    credal_core
    ├── _base               estimator machinery; the one credal decision path (maximal_set)
    ├── _checks             argument checks (no heavy imports)
    ├── _compiled           optional numba kernels, numpy fallback (numba loads lazily)
    ├── _roots              bracketed monotone root finding (safeguarded Newton)
    ├── data/
    │   ├── validation      feature tables and labels checked; the class rule (declared_classes)
    │   ├── encoding        integer codes (UNSEEN, MISSING), category order, the fast coders
    │   ├── tables          CountTables: additive count tables
    │   ├── lookup          Gather, lookup, lookup_sum: tables read at many coded rows
    │   ├── counts          the four above re-exported (old imports)
    │   ├── _kernels        compiled integer coding (numba)
    │   ├── arff            Weka's ARFF format → plain rows
    │   ├── csv_loader      a user's CSV / ARFF, read safely
    │   ├── dataset         a loaded table → a data set to compare on (Compare page, CLI)
    │   ├── discretise      MDL, equal frequency, median split
    │   └── preparation     categorical features learned from the training fold only
    ├── naive/
    │   ├── naive_bayes     NaiveBayes and its critical perturbation threshold
    │   ├── ncc             NCC, NCC_ε
    │   ├── ncc_explain     the counts behind one NCC verdict (teaching)
    │   ├── lncc            LNCC
    │   └── _lncc_kernels   compiled certificates of the LNCC's verdicts (numba)
    ├── likelihood/
    │   ├── intervals       multinomial profile likelihoods and intervals (paper 003)
    │   ├── pairwise        exact pairwise profile likelihoods (the LNCC's engine)
    │   ├── profile         PairProfile: one instance, two classes (teaching)
    │   └── pair_input      a two-class problem for PairProfile as whole-number counts
    ├── aode/               paper 001: aode, bma, compression, credal (the * versions), summary
    │                       (display views); _spode, _ensemble, _dominance, _kernels (numba)
    ├── selection/          paper 004: threshold (ThresholdSelector), plane, encoded, sfs
    ├── resampling          seeded repeated stratified k-fold and hold-out
    ├── metrics, stats      credal indicators (discounted accuracy, u65, …); Friedman, Nemenyi, Wilcoxon
    └── experiments/        engine (splits, fold runs, the one aggregation rule: summarise), runner
                            (joblib / Dask), evaluate, sweeps, generator, compare, determinacy,
                            holdout_example, paper_000 (Table 1), paper_004 (Fig. 3, Table 2), __main__

The estimators and :func:`maximal_set` are imported lazily (PEP 562): ``import credal_core``,
``credal_core.likelihood`` or ``credal_core.metrics`` does not pay for scikit-learn (nor numba),
which keeps the app's first render fast.
"""
from importlib import import_module

__all__ = ["AODE", "BMAAODE", "CompAODE", "CountTables", "CredalBMAAODE", "CredalCompAODE", "LNCC", "NCC",
           "NaiveBayes", "ThresholdSelector", "maximal_set"]
__version__ = "0.2.0"

_WHERE = {"CountTables": ".data.counts", "LNCC": ".naive.lncc", "NCC": ".naive.ncc",
          "NaiveBayes": ".naive.naive_bayes", "ThresholdSelector": ".selection.threshold",
          "AODE": ".aode", "BMAAODE": ".aode", "CompAODE": ".aode", "CredalBMAAODE": ".aode",
          "CredalCompAODE": ".aode", "maximal_set": "._base"}


def __getattr__(name):
    if name in _WHERE:
        value = getattr(import_module(_WHERE[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'credal_core' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
