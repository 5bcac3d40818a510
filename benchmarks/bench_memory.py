"""predict_set on 1,000,000 rows in bounded memory (issue 14 item 5): peak memory ≤ 2× the input.

    .venv/bin/python benchmarks/bench_memory.py [--n 1000000] [--m 20]

Fits NCC, NCC_ε and LNCC (with and without the instance) on 10,000 rows of uninformative data (the
hard case: most class pairs are close calls and go to the exact routes), then measures with
``tracemalloc`` the peak memory allocated *during* ``predict_set`` on ``--n`` fresh rows, as integer
codes (int64 matrix) and as text (a DataFrame of strings), against the size of that input
(``X.nbytes``; for text, pandas' deep memory usage).  ``predict_set`` works in blocks of rows
(``credal_core._base.chunked``), so the peak does not grow with n beyond the output (n × C bools).
numba's first compilation is done before tracing starts (one warm-up call on a few rows).
"""
from __future__ import annotations

import tracemalloc

from _common import as_text, naive_bayes_data, parser

from credal_core import LNCC, NCC

MODELS = [("NCC(s=1)", lambda: NCC(s=1.0)), ("NCC(s=1, epsilon=0.1)", lambda: NCC(s=1.0, epsilon=0.1)),
          ("LNCC(alpha=0.75)", lambda: LNCC(alpha=0.75)),
          ("LNCC(alpha=0.75, no instance)", lambda: LNCC(alpha=0.75, include_instance=False))]


def peak_during(fn) -> int:
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def main(argv=None):
    args = parser(__doc__, n=1_000_000, m=20).parse_args(argv)
    X, y = naive_bayes_data(10_000 + args.n, args.m, 3, informative=False)
    X_fit, y_fit, X_test = X[:10_000], y[:10_000], X[10_000:]
    inputs = {"integer": (X_fit, X_test, X_test.nbytes)}
    text_test = as_text(X_test)
    inputs["text"] = (as_text(X_fit), text_test, int(text_test.memory_usage(deep=True).sum()))
    print(f"predict_set on {args.n:,} rows x {args.m} features x 3 classes (uninformative data); peak memory "
          "allocated during the call (tracemalloc) / the input's size")
    worst = 0.0
    for kind, (fit_in, test_in, size) in inputs.items():
        print(f"\n{kind} input: {size / 2**20:,.0f} MiB")
        for label, make in MODELS:
            model = make().fit(fit_in, y_fit)
            model.predict_set(test_in[:100] if kind == "integer" else test_in.iloc[:100])   # compile / warm
            peak = peak_during(lambda: model.predict_set(test_in))
            worst = max(worst, peak / size)
            print(f"  {label:<32}{peak / 2**20:>9,.1f} MiB{peak / size:>8.2f}x")
    print(f"\nworst: {worst:.2f}x the input (target <= 2x): {'met' if worst <= 2 else 'NOT met'}")


if __name__ == "__main__":
    main()
