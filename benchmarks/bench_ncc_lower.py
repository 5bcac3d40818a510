"""The NCC's exact lower posterior with more than two classes and missing values, per instance.

    .venv/bin/python benchmarks/bench_ncc_lower.py [--missing 0.1 0.2 0.4] [--seed 0] [--test 60]
                                                   [--classes 3 4 5 6]

Data: the shipped samples with more than two classes (iris, wine, synthetic_nb; numeric features cut at
their quartiles) and naive-Bayes data (``_common.naive_bayes_data``, 8 features, 200 training rows) with
3-6 classes; cells blanked with each probability of ``--missing`` (seeded), training and test rows
alike.  For each test row and each class (the reject option needs the top class; every class
exercises the split path more) its lower posterior
(:func:`credal_core._ncc_lower.ncc_lower_posterior_multiclass`, one (row, class) per call), in CPU
time: median, p95 and max per instance over all pairs and over the pairs that took the split path (a rival not
certified convex: :mod:`credal_core._ncc_lower_split`), each as a ratio against the NCC's own
``predict_set`` of one row (median over the same rows, same run).  Also: how many values are NaN (none
expected) and the most boxes one instance needed.
"""
from __future__ import annotations

import time
import warnings

import numpy as np
import pandas as pd
from _common import load_average, naive_bayes_data, parser, with_missing

import credal_core._ncc_lower as lower
from credal_core import NCC
from credal_core.datasets import load_dataset


def _quartiles(X: pd.DataFrame, numeric) -> pd.DataFrame:
    out = {}
    for col in X.columns:
        if col in numeric:
            out[col] = pd.qcut(X[col], 4, labels=False, duplicates="drop").astype(float)
        else:
            out[col] = X[col].astype("category").cat.codes.astype(float).where(X[col].notna())
    return pd.DataFrame(out)


def _samples(missing, seed, n_test, classes):
    rng = np.random.default_rng(seed)
    for name in ("iris", "wine", "synthetic_nb"):
        bunch = load_dataset(name)
        X = _quartiles(bunch.data, bunch.numeric)
        X = X.mask(rng.random(X.shape) < missing)
        y = pd.Series(pd.Categorical(bunch.target).codes)
        order = rng.permutation(len(X))
        test, fit = order[:n_test], order[n_test:]
        yield name, X.iloc[fit], y.iloc[fit].to_numpy(), X.iloc[test]
    for n_classes in classes:
        X, y = naive_bayes_data(200 + n_test, 8, n_classes, True)
        X = pd.DataFrame(with_missing(X, missing, seed=seed + n_classes)).astype(float)
        yield f"naive Bayes, {n_classes} classes", X[:200], y[:200], X[200:]


def _per_row(fn, rows) -> np.ndarray:
    times = []
    for i in rows:
        start = time.process_time()
        fn(i)
        times.append(time.process_time() - start)
    return np.array(times)


def main(argv=None):
    command = parser(__doc__, missing=[0.1, 0.2, 0.4], seed=0, test=60, classes=[3, 4, 5, 6])
    args = command.parse_args(argv)
    warnings.simplefilter("ignore")
    print(f"CPU ms per instance (ratio to NCC.predict_set of one row, same rows, same run); "
          f"load average {load_average()}")
    print(f"{'data':<26}{'miss':>5}{'rows':>5}{'split':>6}{'median':>15}{'p95':>15}{'max':>15}"
          f"{'split max':>16}{'boxes':>7}{'NaN':>5}")
    real = lower.split_log_ratio
    sgn = np.zeros((1, 3, 3))
    sgn[0, 1:, 0] = 1.0
    real(1.0, np.ones((1, 3, 3)), sgn, np.zeros((1, 3)), np.array([-np.inf]))   # load the compiled kernel
    worst = []
    for missing in args.missing:
        for name, X_fit, y_fit, X_test in _samples(missing, args.seed, args.test, args.classes):
            model = NCC(s=1.0).fit(X_fit, y_fit)
            codes = model.encode(X_test)
            n_classes = len(model.classes_)
            rows = np.repeat(np.arange(len(codes)), n_classes)           # every (row, class) pair
            codes, top = codes[rows], np.tile(np.arange(n_classes), len(X_test))
            lower.ncc_lower_posterior_multiclass(model, codes[:1], top[:1])       # warm-up (compiled kernels)
            record = {"split": False, "boxes": 0}

            def spy(*a, record=record, **k):
                out = real(*a, **k)
                record["split"], record["boxes"] = True, max(record["boxes"], int(out[2].max()))
                return out

            lower.split_log_ratio = spy
            split, values = np.zeros(len(codes), bool), np.zeros(len(codes))

            def one(i, split=split, values=values, record=record, codes=codes, top=top, model=model):
                record["split"] = False
                values[i] = lower.ncc_lower_posterior_multiclass(model, codes[i:i + 1], top[i:i + 1])[0]
                split[i] = record["split"]

            ours = _per_row(one, range(len(codes)))
            lower.split_log_ratio = real
            base = np.median(_per_row(lambda i, X_test=X_test, model=model:
                                      model.predict_set(X_test.iloc[i:i + 1]), range(len(X_test))))
            cell = [f"{1e3 * v:6.2f} ({v / base:5.2f}x)" for v in
                    (np.median(ours), np.quantile(ours, 0.95), ours.max())]
            top_split = ours[split].max() if split.any() else np.nan
            split_max = f"{1e3 * top_split:6.2f} ({top_split / base:5.1f}x)" if split.any() else "-"
            worst.append(ours.max())
            print(f"{name:<26}{missing:>5.2f}{len(codes):>5}{int(split.sum()):>6}{cell[0]:>15}{cell[1]:>15}"
                  f"{cell[2]:>15}{split_max:>16}{record['boxes']:>7}{int(np.isnan(values).sum()):>5}")
    print(f"\nworst instance: {1e3 * max(worst):.1f} ms CPU; load average at the end {load_average()}")


if __name__ == "__main__":
    main()
