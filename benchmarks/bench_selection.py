"""ThresholdSelector (paper 004) fit + predict as the Compare page runs it, against CategoricalNB.

    .venv/bin/python benchmarks/bench_selection.py [--data nursery pendigits] [--every-classifier]

For each data set (UCI copies in /work/shared/reference/uci; a missing one is skipped with a
note): one stratified 5-fold partition (seed 0), each fold prepared as the Compare page prepares it
(:class:`~credal_core.data.preparation.Preparation`, numeric columns discretised by MDL on the
training rows, not timed), then ``ThresholdSelector()`` (SFS over the features, k = 3)
``.fit(X_train, y_train, classes=...)`` + ``.predict(X_test)``, and the baseline on the same folds:
scikit-learn's ``OrdinalEncoder`` + ``CategoricalNB`` fit + predict.  Seconds (wall-clock, and
CPU seconds of this process, steadier when other work shares the machine) are summed over the
folds; the ratios are against the baseline measured in this run.  ``--every-classifier`` also times every
classifier of the Compare page (5-fold × 1, the same prepared folds) on the first data set: fit,
predict and predict_proba / predict_set, as the comparison scores them; each classifier's seconds
and the total.
"""
from __future__ import annotations

import inspect
import json
import time
from pathlib import Path

import numpy as np
import pandas as pd
from _common import parser
from sklearn.naive_bayes import CategoricalNB
from sklearn.preprocessing import OrdinalEncoder

from credal_core.data.preparation import Preparation
from credal_core.resampling import repeated_stratified_kfold
from credal_core.selection import ThresholdSelector

UCI = Path("/work/shared/reference/uci")


def load(name: str):
    """Raw features as text (None where missing), labels, and the numeric columns (schema.json)."""
    frame = pd.read_csv(UCI / f"{name}.csv", dtype=str, keep_default_na=False, na_values=[""])
    frame = frame.astype(object).where(frame.notna(), None)
    y = frame.pop("class").to_numpy(dtype=str)
    schema = json.loads((UCI / "schema.json").read_text())[name]["columns"]
    numeric = [c for c in frame.columns if schema.get(c, {}).get("type") == "numeric"]
    return frame, y, numeric


def prepared_folds(frame, y, numeric):
    folds = []
    for train, test in repeated_stratified_kfold(y, n_splits=5, n_repeats=1, seed=0):
        prep = Preparation(numeric=numeric)
        X_train = prep.fit_transform(frame.iloc[train], y[train])
        folds.append((X_train, y[train], prep.transform(frame.iloc[test]), y[test]))
    return folds


def selector(X_train, y_train, X_test, classes):
    # an older ThresholdSelector (for a before/after run on an older checkout) has no classes=
    takes_classes = "classes" in inspect.signature(ThresholdSelector.fit).parameters
    declared = {"classes": classes} if takes_classes else {}
    return ThresholdSelector().fit(X_train, y_train, **declared).predict(X_test)


def baseline(X_train, y_train, X_test, classes):
    encoder = OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=-1,
                             encoded_missing_value=-1).fit(X_train.astype(str))
    train, test = (encoder.transform(X.astype(str)) + 1 for X in (X_train, X_test))   # 0: unseen/missing
    sizes = [len(c) + 1 for c in encoder.categories_]
    return CategoricalNB(min_categories=sizes).fit(train, y_train).predict(test)


def timed(fn, folds, classes):
    """Wall-clock and CPU seconds (the CPU time of this process: steadier on a shared machine) and
    the accuracy over the folds."""
    wall, cpu = time.perf_counter(), time.process_time()
    right = sum(int(np.sum(fn(Xtr, ytr, Xte, classes) == yte)) for Xtr, ytr, Xte, yte in folds)
    return time.perf_counter() - wall, time.process_time() - cpu, right / sum(len(f[3]) for f in folds)


def every_classifier(folds, classes):
    """Every classifier of the Compare page on the same prepared folds: fit, predict, and
    predict_proba / predict_set where the estimator has them (what the comparison scores)."""
    from credal_core.experiments.compare import DEFAULT_CLASSIFIERS, available_classifiers

    total_wall = total_cpu = 0.0
    for spec in available_classifiers(DEFAULT_CLASSIFIERS):
        wall, cpu = time.perf_counter(), time.process_time()
        for X_train, y_train, X_test, _ in folds:
            model = spec.make().fit(X_train, y_train, classes=classes)
            model.predict(X_test)
            for method in ("predict_proba", "predict_set"):
                if hasattr(model, method):
                    getattr(model, method)(X_test)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        total_wall, total_cpu = total_wall + wall, total_cpu + cpu
        print(f"  {spec.label:<22}{wall:>9.2f}{cpu:>9.2f}")
    print(f"  {'total':<22}{total_wall:>9.2f}{total_cpu:>9.2f}")


def main(argv=None):
    command = parser(__doc__, data=["nursery", "pendigits"])
    command.add_argument("--every-classifier", action="store_true")
    args = command.parse_args(argv)
    print(f"{'':<19}{'-- wall-clock seconds --':^32}{'----- CPU seconds -----':^32}")
    print(f"{'data set':<12}{'rows':>7}{'baseline':>11}{'selector':>11}{'ratio':>10}"
          f"{'baseline':>11}{'selector':>11}{'ratio':>10}{'acc. base':>11}{'acc. sel.':>11}")
    first = None                     # the first data set's prepared folds and classes
    for name in args.data:
        if not (UCI / f"{name}.csv").exists():
            print(f"{name:<12} not found in {UCI}: skipped")
            continue
        frame, y, numeric = load(name)
        classes = np.unique(y)
        folds = prepared_folds(frame, y, numeric)
        first = first or (folds, classes)
        timed(baseline, folds[:1], classes)                        # warm-up (imports, caches)
        base, base_cpu, acc_base = timed(baseline, folds, classes)
        sel, sel_cpu, acc_sel = timed(selector, folds, classes)
        print(f"{name:<12}{len(y):>7}{base:>11.2f}{sel:>11.2f}{sel / base:>10.1f}"
              f"{base_cpu:>11.2f}{sel_cpu:>11.2f}{sel_cpu / base_cpu:>10.1f}"
              f"{acc_base:>11.4f}{acc_sel:>11.4f}")
    if args.every_classifier and first is not None:
        print(f"\nevery classifier of the Compare page, 5-fold x 1, on {args.data[0]} "
              f"(wall-clock and CPU seconds, preparation not included):")
        every_classifier(*first)


if __name__ == "__main__":
    main()
