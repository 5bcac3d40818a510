"""predict_set of NCC / LNCC vs scikit-learn's CategoricalNB, on easy and hard data, in one run.

    .venv/bin/python benchmarks/bench_predict_set.py [--n 100000] [--m 20] [--classes 3] [--repeat 3]
                                                     [--train 300 10000] [--data informative uninformative]
                                                     [--input integer text] [--missing 0.1]

Data: a naive-Bayes distribution with 4 values per feature.  ``informative``: Dirichlet(1)
conditionals per class.  ``uninformative``: one Dirichlet(1) distribution per feature shared by
every class (features independent of the class), so most class pairs are close calls and the
credal classifiers' exact fall-back paths do most of the work.  Every model is fitted on
``--train`` rows and predicts ``--n`` fresh rows of the same distribution.

Input: ``integer`` codes (a NumPy int matrix; the baseline is ``CategoricalNB.predict_proba`` on
the same matrix, its native input) or ``text`` categories (a DataFrame of strings; the baseline
is ``OrdinalEncoder.transform`` followed by ``CategoricalNB.predict_proba``).  Our estimators take
the raw input and validate and encode it themselves.  Each timing is the best of ``--repeat``
runs after one warm-up, in CPU time of this process; every ratio is against the baseline of its
own cell measured in this run.
The target of issue 14 is every credal cell at most 5x its baseline.

``--missing p`` (a hard case beyond issue 14's grid: a researcher's messy table) blanks each value of
the training and test rows with probability p (missing at random: NaN in the integer matrix, None in
the text table).  CategoricalNB takes no missing values, so the baseline is what a user of it would
run: ``SimpleImputer(strategy="most_frequent")`` (after the ``OrdinalEncoder`` for text) and then
``CategoricalNB.predict_proba``; our estimators leave a missing value out of the likelihood.

With numba installed (the default; ``CREDAL_NUMBA=0`` switches it off) the LNCC's verdicts come
from compiled kernels (``credal_core/naive/_lncc_kernels.py``, and ``top_cycle`` in
``credal_core/_base.py``).  The first call in a fresh install compiles them (~13 s of CPU here;
the machine code is then cached in ``__pycache__`` and later processes load it in well under a
second; ``scripts/warm_kernels.py`` does it ahead); the warm-up call of each timing absorbs that once.
"""
from __future__ import annotations

import numpy as np
from _common import N_VALUES, as_text, best_time, load_average, parser, split_data
from sklearn.impute import SimpleImputer
from sklearn.naive_bayes import CategoricalNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OrdinalEncoder

from credal_core import LNCC, NCC, NaiveBayes

TARGET = 5.0


RUNS = [("NaiveBayes.predict_proba", lambda: NaiveBayes(), "predict_proba"),
        ("NCC(s=1).predict_set", lambda: NCC(s=1.0), "predict_set"),
        ("NCC(s=1, epsilon=0.1).predict_set", lambda: NCC(s=1.0, epsilon=0.1), "predict_set"),
        ("LNCC(alpha=0.75).predict_set", lambda: LNCC(alpha=0.75), "predict_set"),
        ("LNCC(alpha=0.75, no instance).predict_set", lambda: LNCC(alpha=0.75, include_instance=False),
         "predict_set")]


def run_cell(X_fit, y_fit, X_test, kind, repeat):
    """Seconds and ratios of every estimator for one input kind; returns rows of the table."""
    missing = X_fit.dtype.kind == "f"
    if kind == "text":
        fit_in, test_in = as_text(X_fit), as_text(X_test)
        if missing:
            # every column's values declared (as min_categories does for the integer codes): a value
            # that no training row shows is still a category; the one value left, None, becomes NaN
            values = [f"v{v}" for v in range(N_VALUES)]
            steps = [OrdinalEncoder(categories=[values] * X_fit.shape[1], handle_unknown="use_encoded_value",
                                    unknown_value=np.nan)]
        else:
            steps = [OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=-1)]
    else:
        fit_in, test_in = X_fit, X_test
        steps = []
    if missing:
        steps.append(SimpleImputer(strategy="most_frequent"))
    if steps:
        baseline = make_pipeline(*steps, CategoricalNB(min_categories=N_VALUES)).fit(fit_in, y_fit)
    else:
        baseline = CategoricalNB(min_categories=N_VALUES).fit(fit_in, y_fit)
    base = best_time(lambda: baseline.predict_proba(test_in), repeat)
    rows = {"baseline": (base, 1.0, "")}
    for label, make, method in RUNS:
        model = make().fit(fit_in, y_fit)
        fn = getattr(model, method)
        seconds = best_time(lambda: fn(test_in), repeat)
        out = fn(test_in)
        indet = f"{(out.sum(axis=1) > 1).mean():.1%}" if out.dtype == bool else ""
        rows[label] = (seconds, seconds / base, indet)
    seconds = best_time(lambda: model._encode(test_in), repeat)
    rows["  of which validation + encoding"] = (seconds, seconds / base, "")
    return rows


def main(argv=None):
    command = parser(__doc__, n=100_000, m=20, classes=3, repeat=3, train=[300, 10_000], missing=0.0)
    command.add_argument("--data", nargs="+", default=["informative", "uninformative"],
                         choices=["informative", "uninformative"])
    command.add_argument("--input", nargs="+", default=["integer", "text"], choices=["integer", "text"])
    args = command.parse_args(argv)
    if args.missing:
        print(f"values missing at random with probability {args.missing:g} (baseline: most-frequent "
              "imputation + CategoricalNB)")
    print(f"{args.n:,} test rows x {args.m} features x {args.classes} classes; seconds (best of "
          f"{args.repeat}) and ratio to the baseline of the same cell; load average {load_average()}")
    worst = {}
    for data in args.data:
        for n_train in args.train:
            X_fit, y_fit, X_test = split_data(data, n_train, args.n, args.m, args.classes, args.missing)
            cells = {kind: run_cell(X_fit, y_fit, X_test, kind, args.repeat) for kind in args.input}
            print(f"\n{data} data, trained on {n_train:,} rows")
            head = "".join(f"{kind + ' s':>11}{'ratio':>7}" for kind in args.input)
            print(f"{'estimator':<44}{head}{'indeterminate':>15}")
            for label in cells[args.input[0]]:
                line = "".join(f"{cells[k][label][0]:>11.3f}{cells[k][label][1]:>7.1f}" for k in args.input)
                print(f"{label:<44}{line}{cells[args.input[0]][label][2]:>15}")
                if "predict_set" in label:
                    worst[(label, data, n_train)] = max(cells[k][label][1] for k in args.input)
    print(f"\nload average at the end: {load_average()}")
    label, data, n_train = max(worst, key=worst.get)
    print(f"\nworst credal cell: {label} on {data} data, {n_train:,} training rows: "
          f"{worst[(label, data, n_train)]:.1f}x (target <= {TARGET:g}x): "
          f"{'met' if max(worst.values()) <= TARGET else 'NOT met'}")


if __name__ == "__main__":
    main()
