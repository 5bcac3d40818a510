"""Profile likelihood in a network (issue 27 item 4): a ratio's full curve on a learned TAN, and the
LTANC's predict_set against the LNCC's, in one run.

    .venv/bin/python benchmarks/bench_network.py [--n 10000] [--m 20] [--test 2000] [--repeat 5]

Data: ``--n`` rows of a TAN-like distribution (3 classes, 3 values per feature, each feature copies
its predecessor with probability 0.4, otherwise drawn from its class's Dirichlet(1) conditional), as
text.  Each timing is the best of ``--repeat`` runs after one warm-up, in CPU time of this process.

1. **Curve**: ``NetworkLikelihood(parents=the LTANC's Chow-Liu TAN).fit(data)``, then
   ``profile_ratio`` of two classes for one instance and the profile at 200 values of γ (the ratio
   from 1e-3 to 1e3 and the MLE).  Target <= 50 ms.  Baseline in the same run: the LNCC's
   ``critical_alpha`` of that one row (the naive graph's exact profile test).
2. **predict_set**: LTANC vs LNCC (both fitted on the same rows, both ``alpha=0.75``) on ``--test``
   fresh rows.  Target: the LTANC at most 10x the LNCC.

``--cv`` instead prints, for every shipped sample data set, determinacy, u65 and u80 of the LTANC
and the LNCC (alpha 0.75, with the instance) under 10-fold stratified cross-validation
(``credal_core.experiments.compare_classifiers``: numeric columns discretised inside each fold,
seed 0) — the README's table.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from credal_core import LNCC  # noqa: E402
from credal_core.likelihood.network import NetworkLikelihood  # noqa: E402
from credal_core.likelihood.tan import LTANC  # noqa: E402


def tan_data(n, m, n_classes=3, k=3, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    cond = rng.dirichlet(np.ones(k), size=(n_classes, m))
    X = np.empty((n, m), dtype=int)
    for j in range(m):
        u = rng.random(n)[:, None] > np.cumsum(cond[y, j], axis=1)
        X[:, j] = u.sum(axis=1)
        if j:
            copy = rng.random(n) < 0.4
            X[copy, j] = X[copy, j - 1]
    frame = pd.DataFrame({f"f{j}": np.array(list("abc"))[X[:, j]] for j in range(m)})
    return frame, np.array([f"class{c}" for c in y])


def best_time(fn, repeat):
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return min(times)


def cross_validation(names=("weather", "synthetic_nb", "tic_tac_toe", "monks1", "monks2", "monks3",
                             "balloons", "iris", "wine", "breast_cancer")):
    import credal_core
    from credal_core.data.csv_loader import default_class_column, read_csv_bytes
    from credal_core.experiments.compare import ClassifierSpec, compare_classifiers, summarise_comparison

    credal_core.LTANC = LTANC          # the comparison resolves estimators by name in credal_core
    specs = [ClassifierSpec("LNCC", "LNCC", {"alpha": 0.75}),
             ClassifierSpec("LTANC", "LTANC", {"alpha": 0.75})]
    root = Path(__file__).resolve().parents[1] / "sample_data"
    rows = []
    for name in names:
        table = read_csv_bytes((root / f"{name}.csv").read_bytes(), name=name)
        target = default_class_column(table)
        X = table.frame.drop(columns=[target])
        y = table.frame[target]
        numeric = [c for c in table.numeric if c != target]
        res = compare_classifiers(X, y, numeric=numeric, specs=specs, n_splits=10, n_repeats=1, seed=0)
        summary = summarise_comparison(res).set_index("classifier")
        for clf in ("LNCC", "LTANC"):
            r = summary.loc[clf]
            rows.append({"data": name, "classifier": clf, "determinacy": r["determinacy_mean"],
                         "u65": r["u65_mean"], "u80": r["u80_mean"], "folds": r["folds"]})
    out = pd.DataFrame(rows).pivot(index="data", columns="classifier", values=["determinacy", "u65", "u80"])
    print(out.round(3).to_string())


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--m", type=int, default=20)
    ap.add_argument("--test", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--cv", action="store_true", help="the sample data table (determinacy, u65, u80)")
    args = ap.parse_args(argv)
    if args.cv:
        return cross_validation()
    X, y = tan_data(args.n + args.test, args.m)
    Xtr, ytr, Xte = X.iloc[:args.n], y[:args.n], X.iloc[args.n:]
    tan = LTANC().fit(Xtr, ytr)
    lncc = LNCC().fit(Xtr, ytr)
    graph = tan.graph("C")
    net = NetworkLikelihood(parents=graph).fit(Xtr.assign(C=ytr))
    row = Xte.iloc[0]
    evidence = row.to_dict()
    gammas = np.geomspace(1e-3, 1e3, 199)

    def curve():
        p = net.profile_ratio("C", "class0", "class1", evidence)
        return p(np.append(gammas, p.mle))

    t_curve = best_time(curve, args.repeat)
    t_base = best_time(lambda: lncc.critical_alpha(Xte.iloc[[0]]), args.repeat)
    t_fit = best_time(lambda: NetworkLikelihood(parents=graph).fit(Xtr.assign(C=ytr)), 1)
    print(f"data: {args.n} training rows, {args.m} features, 3 classes; {args.test} test rows")
    print(f"1. profile_ratio + 200-point curve on the TAN: {1e3 * t_curve:.1f} ms (target <= 50 ms); "
          f"baseline LNCC critical_alpha of one row {1e3 * t_base:.1f} ms; ratio {t_curve / t_base:.1f}x "
          f"(NetworkLikelihood.fit on the {args.n} rows: {1e3 * t_fit:.0f} ms, once)")
    t_tan = best_time(lambda: tan.predict_set(Xte), args.repeat)
    t_lncc = best_time(lambda: lncc.predict_set(Xte), args.repeat)
    same = float(np.mean((tan.predict_set(Xte) == lncc.predict_set(Xte)).all(axis=1)))
    print(f"2. predict_set on {args.test} rows: LTANC {1e3 * t_tan:.0f} ms, LNCC {1e3 * t_lncc:.0f} ms, "
          f"ratio {t_tan / t_lncc:.1f}x (target <= 10x); rows with the same set: {same:.0%}")
    print(f"   determinacy: LTANC {np.mean(tan.predict_set(Xte).sum(axis=1) == 1):.3f}, "
          f"LNCC {np.mean(lncc.predict_set(Xte).sum(axis=1) == 1):.3f}")


if __name__ == "__main__":
    main()
