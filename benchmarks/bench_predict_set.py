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

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.impute import SimpleImputer
from sklearn.naive_bayes import CategoricalNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OrdinalEncoder

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from credal_core import LNCC, NCC, NaiveBayes  # noqa: E402

N_VALUES = 4
TARGET = 5.0


def naive_bayes_data(n, m, n_classes, informative=True, seed=0):
    """(X, y): ``n`` rows of a naive-Bayes distribution (integer codes 0..3)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    if informative:
        cond = rng.dirichlet(np.ones(N_VALUES), size=(n_classes, m))
    else:
        cond = np.broadcast_to(rng.dirichlet(np.ones(N_VALUES), size=m), (n_classes, m, N_VALUES))
    X = np.empty((n, m), dtype=np.int64)
    for c in range(n_classes):
        rows = np.flatnonzero(y == c)
        for j in range(m):
            X[rows, j] = rng.choice(N_VALUES, rows.size, p=cond[c, j])
    return X, y


def as_text(X):
    """The same data as a DataFrame of string categories ("v0".."v3"; None where X is NaN)."""
    names = np.array([f"v{v}" for v in range(N_VALUES)] + [None], dtype=object)
    codes = np.where(np.isnan(X), N_VALUES, X).astype(np.int64) if X.dtype.kind == "f" else X
    return pd.DataFrame({f"f{j}": names[codes[:, j]] for j in range(X.shape[1])})


def with_missing(X, p, seed=1):
    """``X`` as floats with each value NaN with probability ``p`` (missing at random)."""
    if p <= 0:
        return X
    rng = np.random.default_rng(seed)
    return np.where(rng.random(X.shape) < p, np.nan, X.astype(float))


def best_time(fn, repeat):
    """Best CPU time of ``fn`` (process time: on a shared machine, wall time also counts the
    other processes; every computation timed here is single-threaded)."""
    fn()
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return min(times)


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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--m", type=int, default=20)
    parser.add_argument("--classes", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--train", type=int, nargs="+", default=[300, 10_000])
    parser.add_argument("--data", nargs="+", default=["informative", "uninformative"],
                        choices=["informative", "uninformative"])
    parser.add_argument("--input", nargs="+", default=["integer", "text"], choices=["integer", "text"])
    parser.add_argument("--missing", type=float, default=0.0,
                        help="probability that a value is missing (training and test rows)")
    args = parser.parse_args(argv)
    if args.missing:
        print(f"values missing at random with probability {args.missing:g} (baseline: most-frequent "
              "imputation + CategoricalNB)")
    print(f"{args.n:,} test rows x {args.m} features x {args.classes} classes; seconds (best of "
          f"{args.repeat}) and ratio to the baseline of the same cell; load average "
          f"{' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    worst = {}
    for data in args.data:
        for n_train in args.train:
            X, y = naive_bayes_data(n_train + args.n, args.m, args.classes, data == "informative")
            X = with_missing(X, args.missing)
            X_fit, y_fit, X_test = X[:n_train], y[:n_train], X[n_train:]
            cells = {kind: run_cell(X_fit, y_fit, X_test, kind, args.repeat) for kind in args.input}
            print(f"\n{data} data, trained on {n_train:,} rows")
            head = "".join(f"{kind + ' s':>11}{'ratio':>7}" for kind in args.input)
            print(f"{'estimator':<44}{head}{'indeterminate':>15}")
            for label in cells[args.input[0]]:
                line = "".join(f"{cells[k][label][0]:>11.3f}{cells[k][label][1]:>7.1f}" for k in args.input)
                print(f"{label:<44}{line}{cells[args.input[0]][label][2]:>15}")
                if "predict_set" in label:
                    worst[(label, data, n_train)] = max(cells[k][label][1] for k in args.input)
    print(f"\nload average at the end: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    label, data, n_train = max(worst, key=worst.get)
    print(f"\nworst credal cell: {label} on {data} data, {n_train:,} training rows: "
          f"{worst[(label, data, n_train)]:.1f}x (target <= {TARGET:g}x): "
          f"{'met' if max(worst.values()) <= TARGET else 'NOT met'}")


if __name__ == "__main__":
    main()
