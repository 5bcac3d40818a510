"""Reproduce paper 000 §5.1 from the command line.

    python -m credal_core.experiments table1 [--jobs 2] [--scheduler tcp://host:8786] [--csv out.csv]
    python -m credal_core.experiments fig5   [...]

    python -m credal_core.experiments compare data.csv [--class-column play] [--folds 5 --repeats 2]
                                               [--classifiers NBC,NCC] [--csv out.csv]

``table1`` prints 000 Table 1 with our values beside the printed ones, then every (ε, α) pair of
close determinacy; ``fig5`` prints determinacy against the sample size d for every setting.
Smaller runs: ``--n-theta 4 --n-train 5 --n-test 2000``.  ``compare`` cross-validates every
classifier on a CSV or ARFF file exactly as the app's Compare page does (same column rules, same
engine, same summary: mean ± sd over folds) and writes the summary to ``--csv``; ``python -m credal_core
compare FILE...`` is the full command (many files, every protocol option, tests, paper tables), and
``python -m credal_core table1`` / ``fig5`` run the same code as here.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from .evaluate import ClassifierGrid
from .paper_000 import closest_pairs, determinacy_by_d, table1
from .sweeps import artificial_experiment


def _bar(stream):
    start = time.perf_counter()

    def progress(done: int, total: int) -> None:
        width = 30
        filled = width * done // total
        elapsed = time.perf_counter() - start
        stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} tasks  {elapsed:5.1f} s")
        if done == total:
            stream.write("\n")
        stream.flush()
    return progress


def _floats(text: str) -> tuple:
    return tuple(float(v) for v in text.split(",") if v.strip())


def _ints(text: str) -> tuple:
    return tuple(int(v) for v in text.split(",") if v.strip())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m credal_core.experiments", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["table1", "fig5", "compare"])
    parser.add_argument("file", nargs="?", help="compare: the CSV or ARFF file")
    parser.add_argument("--class-column", default=None, help="compare: the class column (default: "
                        "the loader's guess, the last column)")
    parser.add_argument("--folds", type=int, default=5, help="compare: folds of each repetition")
    parser.add_argument("--repeats", type=int, default=2, help="compare: repetitions of the k-fold split")
    parser.add_argument("--classifiers", default=None,
                        help="compare: labels or aliases, e.g. NBC,ncc-eps:0.1 (default: all)")
    parser.add_argument("--n-theta", type=int, default=20, help="θ draws (paper: 20)")
    parser.add_argument("--n-train", type=int, default=30, help="training sets per (θ, d) (paper: 30)")
    parser.add_argument("--n-test", type=int, default=10_000, help="test instances (paper: 10,000)")
    parser.add_argument("--sizes", type=_ints, default=(25, 50, 100), help="sample sizes d, e.g. 25,50,100")
    parser.add_argument("--epsilons", type=_floats, default=(0.05, 0.15, 0.25, 0.35))
    parser.add_argument("--alphas", type=_floats, default=(0.35, 0.55, 0.75, 0.95))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=-1, help="local worker processes (-1: all cores)")
    parser.add_argument("--scheduler", default=None, help="address of a running Dask scheduler")
    parser.add_argument("--csv", default=None, help="also write every run's indicators to this CSV")
    args = parser.parse_args(argv)
    if args.seed < 0:
        parser.error(f"--seed must be a non-negative integer; got {args.seed}")
    if args.csv:
        folder = Path(args.csv).expanduser().resolve().parent
        if not folder.is_dir() or not os.access(folder, os.W_OK):
            parser.error(f"--csv: cannot write into {folder} (checked before the run, so no result is lost)")
    if args.what == "compare":
        return _compare(parser, args)
    try:
        grid = ClassifierGrid(epsilons=args.epsilons, alphas=args.alphas)
        start = time.perf_counter()
        results = artificial_experiment(sample_sizes=args.sizes, n_theta=args.n_theta, n_train=args.n_train,
                                        n_test=args.n_test, grid=grid, seed=args.seed, n_jobs=args.jobs,
                                        scheduler=args.scheduler, progress=_bar(sys.stderr))
    except ValueError as exc:
        parser.error(str(exc))
    except (OSError, TimeoutError) as exc:           # e.g. no Dask scheduler at that address
        parser.error(f"could not run on the scheduler {args.scheduler!r}: {exc}")
    seconds = time.perf_counter() - start
    runs = args.n_theta * args.n_train
    print(f"paper 000 §5.1: {args.n_theta} θ × {args.n_train} training sets = {runs} experiments per d, "
          f"{args.n_test} test instances; {seconds:.1f} s")
    one_decimal = "{:.1f}".format
    if args.what == "table1":
        rows = table1(results)
        print("\nTable 1 (%): ours | paper")
        if rows.empty:
            print("(none of the paper's rows — NCC_ε=0.25/0.05 and LNCC_α=0.75/0.95 at d = 25, 50, 100 — "
                  "is in this run; see the pairs below and `fig5`)")
        else:
            print(rows.to_string(index=False, float_format=one_decimal))
        print("\n(ε, α) pairs with determinacies within 1 point "
              "(closest first; the closest is always shown):")
        print(closest_pairs(results).to_string(index=False, float_format=one_decimal,
                                               formatters={"epsilon": "{:g}".format, "alpha": "{:g}".format}))
    else:
        print("\nFig. 5: determinacy (%) against the sample size d")
        print(determinacy_by_d(results).to_string(float_format=one_decimal))
    if args.csv:
        results.to_csv(args.csv, index=False)
        print(f"\nwrote {len(results)} rows to {args.csv}")
    return 0


def _compare(parser, args) -> int:
    from ..cli.classifiers import parse_classifiers
    from ..data.csv_loader import CsvProblem, default_class_column, read_csv_bytes
    from ..data.dataset import choose_columns
    from .compare import available_classifiers, compare_classifiers, summarise_comparison

    if not args.file:
        parser.error("compare needs a file: python -m credal_core.experiments compare data.csv")
    try:
        table = read_csv_bytes(Path(args.file).read_bytes())
        choice = choose_columns(table, args.class_column or default_class_column(table))
    except OSError as exc:
        parser.error(f"cannot read {args.file}: {exc}")
    except CsvProblem as exc:
        parser.error(f"{args.file} cannot be used: {exc}")
    specs = available_classifiers()
    if args.classifiers:                    # labels (NCC_ε=0.05) or the command line's aliases (ncc-eps:0.05)
        try:
            specs = parse_classifiers(args.classifiers)
        except ValueError as exc:
            parser.error(str(exc))
    for note in choice.notes:
        print(f"note: {note}")
    try:
        results = compare_classifiers(choice.X, choice.y, numeric=choice.numeric, specs=specs,
                                      n_splits=args.folds, n_repeats=args.repeats, seed=args.seed,
                                      n_jobs=args.jobs, scheduler=args.scheduler, progress=_bar(sys.stderr))
    except ValueError as exc:
        parser.error(str(exc))
    summary = summarise_comparison(results)
    print(summary.to_string(index=False, float_format="{:.4f}".format))
    if args.csv:
        summary.to_csv(args.csv, index=False)
        print(f"\nwrote {len(summary)} rows to {args.csv}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
