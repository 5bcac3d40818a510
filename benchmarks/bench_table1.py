"""Paper 000 Table 1 in full (20 θ × 30 training sets × 3 sample sizes, 10,000 test instances,
4 NCC_ε + 4 LNCC_α + the NBC), with a precise baseline on the same protocol, in one run.

    .venv/bin/python benchmarks/bench_table1.py [--jobs -1] [--n-theta 20] [--n-train 30]

Target (issue 4): the full table in ≤ 60 s on a 2-core machine.  Baseline: scikit-learn's
CategoricalNB fitted on each of the same 1,800 training sets and predicting its 10,000 test
instances (one process), timed in the same run, so the ratio says what the nine credal and
precise settings cost relative to one precise classifier run the plain way.
"""
from __future__ import annotations

import time

import numpy as np
from _common import parser
from sklearn.naive_bayes import CategoricalNB

from credal_core.experiments.generator import draw_chances, sample_naive
from credal_core.experiments.sweeps import artificial_experiment


def baseline_seconds(n_theta, n_train, n_test, sizes, seed):
    start = time.perf_counter()
    for d in sizes:
        for t in range(n_theta):
            theta = draw_chances(np.random.default_rng([seed, t]))
            rng = np.random.default_rng([seed, t, d])
            X_test, _ = sample_naive(rng, theta, n_test)
            for _ in range(n_train):
                X, y = sample_naive(rng, theta, d)
                CategoricalNB(min_categories=2).fit(X, y).predict_proba(X_test)
    return time.perf_counter() - start


def main(argv=None):
    args = parser(__doc__, jobs=-1, n_theta=20, n_train=30, n_test=10_000).parse_args(argv)
    sizes = (25, 50, 100)
    start = time.perf_counter()
    results = artificial_experiment(sample_sizes=sizes, n_theta=args.n_theta, n_train=args.n_train,
                                    n_test=args.n_test, n_jobs=args.jobs)
    ours = time.perf_counter() - start
    base = baseline_seconds(args.n_theta, args.n_train, args.n_test, sizes, seed=0)
    runs = len(sizes) * args.n_theta * args.n_train
    print(f"{runs} training/test experiments, {results['setting'].nunique()} settings each")
    print(f"credal_core (n_jobs={args.jobs}):          {ours:7.1f} s   (target <= 60 s)")
    print(f"CategoricalNB fit + predict_proba, 1 proc: {base:7.1f} s")
    print(f"ratio ours / baseline:                     {ours / base:7.2f}x")


if __name__ == "__main__":
    main()
