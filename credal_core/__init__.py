"""credal_core — exact credal classifiers (NBC, NCC, NCC_ε, LNCC, the AODE family, CMA, the credal decision
tree, threshold selection), profile likelihoods in Bayesian networks, and the experiments around them.

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
    │   ├── pairs           pair counts n(c, x_j, x_k) (the SPODEs' tables)
    │   ├── discretise      MDL, equal frequency, median split
    │   ├── preparation     categorical features learned from the training fold only
    │   ├── column_checks   integer columns with more than 20 distinct values (warned by name)
    │   └── prepare         prepare(): the Compare page's preparation around any estimator
    ├── datasets/           the shipped data sets: load_<name>() as scikit-learn's loaders, list_datasets,
    │                       dataset_path; data/ holds the CSVs, their README and generators (make_balloons,
    │                       make_rule_datasets, make_sklearn_datasets, make_synthetic_nb)
    ├── naive/
    │   ├── naive_bayes     NaiveBayes and its critical perturbation threshold
    │   ├── ncc             NCC, NCC_ε
    │   ├── ncc_explain     the counts behind one NCC verdict (teaching)
    │   ├── lncc            LNCC
    │   ├── _lncc_constants the constants the LNCC's certificates share (compiled and Python)
    │   └── _lncc_kernels   compiled certificates of the LNCC's verdicts (numba)
    ├── likelihood/
    │   ├── intervals       multinomial profile likelihoods and intervals (paper 003)
    │   ├── pairwise        exact pairwise profile likelihoods (the LNCC's engine)
    │   ├── profile         PairProfile: one instance, two classes (teaching)
    │   ├── pair_input      a two-class problem for PairProfile as whole-number counts
    │   ├── network         NetworkLikelihood: paper 003's Theorem 1 on any DAG (joint, ratio profiles)
    │   ├── instance_ratio  a ratio profile with the instance in the likelihood (000 §4; two peaks)
    │   ├── tan             LTANC: the likelihood-based credal TAN (Chow-Liu tree given the class)
    │   └── _tan_kernels    compiled certificates of the LTANC's verdicts (numba)
    ├── aode/               paper 001: aode, bma, compression, credal (the * versions), summary
    │                       (display views); _spode, _ensemble, _dominance, _kernels (numba)
    ├── model_averaging/    Dash & Cooper's product form over naive feature subsets: bma_naive (BMANaive),
    │                       cma (CMA), _product_form
    ├── tree/               credal_decision_tree (CredalDecisionTree), info_gain_tree (InfoGainTree),
    │                       _grow (level-wise ID3), _entropy (IDM upper entropy)
    ├── reject              001 §3.5: reject option, exact lower posteriors, costs over d
    ├── _ncc_lower          the NCC's exact lower posterior with more than two classes (branch and bound)
    ├── _ncc_lower_split    …where the rivals' share splits (missing training values; boxes of their masses)
    ├── reject_cv           the reject option's cross-validation fold (run by the experiments' engine)
    ├── conformal           split and Mondrian conformal sets over the NBC's / AODE's probabilities (crepes)
    ├── selection/          paper 004: threshold (ThresholdSelector), plane, encoded, sfs
    ├── resampling          seeded repeated stratified k-fold and hold-out
    ├── metrics, stats      credal indicators (discounted accuracy, u65, …); Friedman, Nemenyi, Wilcoxon
    ├── stats_bayesian      Bayesian signed-rank and correlated t-tests (baycomp)
    ├── cli/                python -m credal_core compare: classifiers (aliases), compare, report, figures
    ├── plots/              plotly figure builders shared by the app and the CLI (the app extra): paper_001
    │                       (001 Figs. 5-7), critical_difference (Demšar's diagram)
    ├── __main__            the command line's entry point
    └── experiments/        engine (splits, fold runs, the one aggregation rule: summarise), runner
                            (joblib / Dask), evaluate, sweeps, generator, compare, determinacy,
                            holdout_example, paper_000 (Table 1), paper_004 (Fig. 3, Table 2), __main__

The estimators and :func:`maximal_set` are imported lazily (PEP 562): ``import credal_core``,
``credal_core.likelihood`` or ``credal_core.metrics`` does not pay for scikit-learn (nor numba),
which keeps the app's first render fast.
"""
from importlib import import_module

__all__ = ["AODE", "BMAAODE", "BMANaive", "CMA", "CompAODE", "CountTables", "CredalBMAAODE", "CredalCompAODE",
           "CredalDecisionTree", "InfoGainTree", "LNCC", "LTANC", "NCC", "NaiveBayes", "ThresholdSelector",
           "maximal_set", "prepare", "PreparedClassifier"]
__version__ = "0.2.0"

_WHERE = {"CountTables": ".data.counts", "LNCC": ".naive.lncc", "NCC": ".naive.ncc",
          "NaiveBayes": ".naive.naive_bayes", "ThresholdSelector": ".selection.threshold",
          "AODE": ".aode", "BMAAODE": ".aode", "CompAODE": ".aode", "CredalBMAAODE": ".aode",
          "CredalCompAODE": ".aode", "maximal_set": "._base", "BMANaive": ".model_averaging",
          "CMA": ".model_averaging", "CredalDecisionTree": ".tree", "InfoGainTree": ".tree",
          "LTANC": ".likelihood.tan", "prepare": ".data.prepare", "PreparedClassifier": ".data.prepare"}


def __getattr__(name):
    if name in _WHERE:
        value = getattr(import_module(_WHERE[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'credal_core' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
