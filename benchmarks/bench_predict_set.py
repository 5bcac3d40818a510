"""predict_set of NCC / LNCC vs scikit-learn's CategoricalNB.predict_proba, in one run.

    .venv/bin/python benchmarks/bench_predict_set.py [--n 100000] [--m 20] [--classes 3] [--repeat 3]
                                                     [--train N]

Data: a naive-Bayes distribution (4 values per feature, Dirichlet(1) conditionals), the same
integer-coded matrix for training and prediction for every estimator.  Each timing is the best
of ``--repeat`` runs after one warm-up; ratios are against CategoricalNB measured in this run.
Our estimators take the raw matrix and encode it themselves (validation included); CategoricalNB
gets the same integer matrix, which is already its native input.  ``--train N`` fits every model
on the first N rows only (default: all): small training sets make many instances hard, which
exercises the exact fall-back paths.  The last row is the time every one of our estimators
spends validating and encoding ``X`` (included in its row).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from sklearn.naive_bayes import CategoricalNB

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from credal_core import LNCC, NCC, NaiveBayes  # noqa: E402


def naive_bayes_data(n, m, n_classes, n_values=4, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    cond = rng.dirichlet(np.ones(n_values), size=(n_classes, m))
    X = np.empty((n, m), dtype=np.int64)
    for c in range(n_classes):
        rows = np.flatnonzero(y == c)
        for j in range(m):
            X[rows, j] = rng.choice(n_values, rows.size, p=cond[c, j])
    return X, y


def best_time(fn, repeat):
    fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--m", type=int, default=20)
    parser.add_argument("--classes", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--train", type=int, default=None)
    args = parser.parse_args(argv)
    X, y = naive_bayes_data(args.n, args.m, args.classes)
    X_fit, y_fit = X[: args.train], y[: args.train]
    baseline = CategoricalNB(min_categories=4).fit(X_fit, y_fit)
    base = best_time(lambda: baseline.predict_proba(X), args.repeat)
    print(f"{args.n:,} instances x {args.m} features x {args.classes} classes; "
          f"trained on {len(y_fit):,} rows")
    print(f"{'estimator':<44}{'seconds':>9}{'ratio':>8}{'indeterminate':>15}")
    print(f"{'CategoricalNB.predict_proba (baseline)':<44}{base:>9.3f}{1:>8.1f}")
    runs = [("NaiveBayes.predict_proba", NaiveBayes(), "predict_proba"),
            ("NCC(s=1).predict_set", NCC(s=1.0), "predict_set"),
            ("NCC(s=1, epsilon=0.1).predict_set", NCC(s=1.0, epsilon=0.1), "predict_set"),
            ("LNCC(alpha=0.75).predict_set", LNCC(alpha=0.75), "predict_set"),
            ("LNCC(alpha=0.75, no instance).predict_set", LNCC(alpha=0.75, include_instance=False),
             "predict_set")]
    for label, model, method in runs:
        model.fit(X_fit, y_fit)
        fn = getattr(model, method)
        seconds = best_time(lambda: fn(X), args.repeat)
        out = fn(X)
        indet = f"{(out.sum(axis=1) > 1).mean():.4%}" if out.dtype == bool else ""
        print(f"{label:<44}{seconds:>9.3f}{seconds / base:>8.1f}{indet:>15}")
    # the share of every row above spent validating and encoding X (CountTables.encode)
    seconds = best_time(lambda: model._encode(X), args.repeat)
    print(f"{'  of which input validation + encoding':<44}{seconds:>9.3f}{seconds / base:>8.1f}")


if __name__ == "__main__":
    main()
