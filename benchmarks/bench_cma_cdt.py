"""CMA and the credal decision tree against their baselines, as ratios measured in one run (issue 26 item 5).

    .venv/bin/python benchmarks/bench_cma_cdt.py [--n 100000] [--m 20] [--classes 3] [--repeat 3]

Cells (targets: every ratio at most 5):

* CMA ``predict_set`` / NCC ``predict_set`` (both fitted on the same rows, predicting the same rows);
* CredalDecisionTree ``fit`` / scikit-learn ``DecisionTreeClassifier`` ``fit`` (entropy criterion,
  fully grown) on the same integer codes;
* CredalDecisionTree ``predict_set`` / the precise tree's (``InfoGainTree``) ``predict``.

Data: nursery (``/work/shared/reference/uci/nursery.csv``; skipped if absent: the 12,960 rows, each
model fitted on all of them and predicting all of them) and a synthetic naive-Bayes distribution of
``--n`` rows, ``--m`` features with 4 values and ``--classes`` classes (Dirichlet(1) conditionals),
fitted on and predicting all rows.  Every input is an integer matrix.  Each timing is the best of
``--repeat`` runs after one warm-up, in CPU time of this process.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from _common import best_time, naive_bayes_data, parser
from sklearn.tree import DecisionTreeClassifier

from credal_core.model_averaging import CMA
from credal_core.naive.ncc import NCC
from credal_core.tree import CredalDecisionTree, InfoGainTree

NURSERY = Path("/work/shared/reference/uci/nursery.csv")
TARGET = 5.0


def nursery():
    frame = pd.read_csv(NURSERY, dtype=str)
    codes = np.column_stack([pd.factorize(frame[c])[0] for c in frame.columns[:-1]]).astype(np.int64)
    return codes, pd.factorize(frame.iloc[:, -1])[0]


def run(name: str, X, y, repeat: int) -> list[dict]:
    rows = []
    ncc, cma = NCC().fit(X, y), CMA().fit(X, y)
    base = best_time(lambda: ncc.predict_set(X), repeat)
    mine = best_time(lambda: cma.predict_set(X), repeat)
    rows.append({"data": name, "cell": "CMA predict_set / NCC predict_set", "ours s": mine,
                 "baseline s": base})
    base = best_time(lambda: DecisionTreeClassifier(criterion="entropy", random_state=0).fit(X, y), repeat)
    mine = best_time(lambda: CredalDecisionTree().fit(X, y), repeat)
    rows.append({"data": name, "cell": "CDT fit / sklearn DecisionTreeClassifier fit", "ours s": mine,
                 "baseline s": base})
    cdt, precise = CredalDecisionTree().fit(X, y), InfoGainTree().fit(X, y)
    base = best_time(lambda: precise.predict(X), repeat)
    mine = best_time(lambda: cdt.predict_set(X), repeat)
    rows.append({"data": name, "cell": "CDT predict_set / InfoGainTree predict", "ours s": mine,
                 "baseline s": base, "note": f"{cdt.tree_.n_nodes} nodes"})
    return rows


def main(argv=None) -> int:
    args = parser(__doc__, n=100_000, m=20, classes=3, repeat=3).parse_args(argv)
    rows = []
    if NURSERY.exists():
        rows += run("nursery", *nursery(), args.repeat)
    else:
        print(f"({NURSERY} absent: nursery skipped)")
    synthetic = naive_bayes_data(args.n, args.m, args.classes)
    rows += run(f"synthetic {args.n} x {args.m} x {args.classes}", *synthetic, args.repeat)
    table = pd.DataFrame(rows)
    table["ratio"] = table["ours s"] / table["baseline s"]
    with pd.option_context("display.width", 160, "display.max_columns", 10):
        print(table.to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    worst = table["ratio"].max()
    print(f"worst ratio {worst:.2f} (target <= {TARGET:g})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
