"""The LNCC's two verdict paths: compiled certificates + exact route (numba) vs the exact route alone.

    .venv/bin/python benchmarks/bench_lncc_paths.py [--n 20000] [--m 20] [--classes 3] [--repeat 2]
                                                    [--train 300 10000] [--missing 0.0]

Data as in ``bench_predict_set.py`` (informative and uninformative naive-Bayes data, integer codes).
For each cell: ``LNCC.predict_set`` with and without the instance, timed with numba (the default)
and with ``CREDAL_NUMBA=0`` (what a user without the ``[fast]`` extra gets: the exact route of
``credal_core.likelihood.pairwise.dominance_verdicts`` for every distinct row), in CPU seconds
(best of ``--repeat`` after one warm-up call), the slowdown factor of the exact route alone, and a
check that both paths return the same sets.  The factor is the figure of the warning
``credal_core.naive.lncc`` gives once without numba.
"""
from __future__ import annotations

import os
import warnings

import numpy as np
from _common import best_time, load_average, parser, split_data

from credal_core import LNCC


def main(argv=None):
    command = parser(__doc__, n=20_000, m=20, classes=3, repeat=2, train=[300, 10_000], missing=0.0)
    args = command.parse_args(argv)
    warnings.simplefilter("ignore", RuntimeWarning)          # the once-only warning of the slow path
    print(f"{args.n:,} test rows x {args.m} features x {args.classes} classes, missing {args.missing:g}; "
          f"CPU seconds (best of {args.repeat}); load average {load_average()}")
    print(f"{'data':<14}{'train':>7}  {'estimator':<34}{'numba s':>9}{'exact s':>9}{'slower':>8}  same sets")
    factors = []
    for data in ("informative", "uninformative"):
        for n_train in args.train:
            X_fit, y_fit, X_test = split_data(data, n_train, args.n, args.m, args.classes, args.missing)
            for include in (True, False):
                model = LNCC(alpha=0.75, include_instance=include).fit(X_fit, y_fit)
                seconds, sets = {}, {}
                for flag in ("1", "0"):
                    os.environ["CREDAL_NUMBA"] = flag
                    seconds[flag] = best_time(lambda: model.predict_set(X_test), args.repeat)
                    sets[flag] = model.predict_set(X_test)
                os.environ.pop("CREDAL_NUMBA")
                factor = seconds["0"] / seconds["1"]
                factors.append(factor)
                label = f"LNCC(alpha=0.75{'' if include else ', no instance'})"
                print(f"{data:<14}{n_train:>7}  {label:<34}{seconds['1']:>9.3f}{seconds['0']:>9.3f}"
                      f"{factor:>7.1f}x  {np.array_equal(sets['1'], sets['0'])}")
    print(f"\nexact route alone: {min(factors):.1f}x to {max(factors):.1f}x slower; load average at the end "
          f"{load_average()}")


if __name__ == "__main__":
    main()
