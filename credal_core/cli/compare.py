"""``python -m credal_core compare FILE...``: the Compare page's protocol on any number of CSV / ARFF files.

Each file is read, its columns chosen and its classifiers cross-validated exactly as on the app's page
(:func:`credal_core.data.csv_loader.read_csv_bytes`, :func:`credal_core.data.dataset.choose_columns`,
:func:`credal_core.experiments.compare.compare_classifiers`).  A file that cannot be used (unreadable,
no such class column, other classes than ``--classes``, refused settings) is reported by name on
stderr and left out; the others' results are kept (exit status 1 then, 0 when every file ran).
"""
from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

DESCRIPTION = """\
Cross-validate classifiers on CSV / ARFF files exactly as the app's Compare page does: the same loader
and column rules, numeric columns discretised inside each training fold, the same engine and indicators.
A file that cannot be used is reported by name and left out; the others' results are kept (exit
status 1 then)."""

EXAMPLES = """\
examples:
  python -m credal_core compare iris weather monks2            # shipped data sets by name
  python -m credal_core compare a.csv b.arff --class-column class --out folds.csv
  python -m credal_core compare *.csv --classifiers nbc,ncc,ncc-eps:0.1,lncc:alpha=0.3,comp-aode* \\
      --folds 10 --repeats 5 --seed 1 --tests --markdown table.md --latex table.tex
  python -m credal_core compare data.csv --discretiser equal_frequency --bins 4 \\
      --missing conservative --non-mar income,age
  python -m credal_core compare data.csv --scheduler tcp://127.0.0.1:8786
  python -m credal_core compare iris wine monks2 -c ncc,cdt,cma,comp-aode* --figures figs/
  python -m credal_core compare --list-classifiers

A FILE that does not exist but names a shipped data set (credal_core.datasets.list_datasets())
is that data set.  Give FILEs before --classifiers (which takes several values), or end it with --.
Indicators are means over folds (± their standard deviation, ddof 1).
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from ..data.discretise import DISCRETISERS
    from ..data.preparation import MISSING_CHOICES
    from .report import INDICATORS

    parser.add_argument("files", nargs="*", metavar="FILE",
                        help="CSV or ARFF files (or shipped data set names)")
    what = parser.add_argument_group("classifiers")
    what.add_argument("--classifiers", "-c", nargs="+", default=None, metavar="SPEC",
                      help="aliases, comma or space separated: nbc, ncc, ncc-eps:0.05, lncc:alpha=0.3, aode, "
                           "bma-aode, comp-aode, bma-aode*, comp-aode*, selector, conformal-nbc, ... "
                           "(default: the Compare page's twelve)")
    what.add_argument("--list-classifiers", action="store_true", help="list the aliases and exit")
    what.add_argument("--s", type=float, default=None,
                      help="IDM strength s of nbc, ncc, ncc-eps, cma, bma-naive, cdt, tree (default 1)")
    what.add_argument("--epsilon", type=float, default=None, help="ε of ncc-eps (default 0.05)")
    what.add_argument("--alpha", type=float, default=None, help="α of lncc and ltanc (default 0.75)")
    data = parser.add_argument_group("data")
    data.add_argument("--class-column", default=None,
                      help="the class column of every file (default: a column named class/target/label/…, "
                           "else the last; ARFF: the last attribute)")
    data.add_argument("--classes", default=None, help="comma-separated class set every file must have "
                      "(a file with other classes is reported and left out)")
    data.add_argument("--numeric", default="auto", help="columns to discretise inside each training fold: "
                      "'auto' (the number columns the loader finds), 'none', or a comma-separated list")
    data.add_argument("--keep-id-columns", action="store_true",
                      help="keep ID-like columns (a different value on every row) as features")
    data.add_argument("--discretiser", default="mdl", choices=sorted(DISCRETISERS),
                      help="discretiser of numeric columns (default mdl)")
    data.add_argument("--bins", type=int, default=None, help="bins of equal_frequency (default 5)")
    data.add_argument("--missing", default="impute", choices=list(MISSING_CHOICES),
                      help="missing values: " + "; ".join(MISSING_CHOICES.values()))
    data.add_argument("--non-mar", default=None, help="with --missing conservative: comma-separated columns "
                      "not missing at random (NCC2's treatment in the NCC)")
    protocol = parser.add_argument_group("protocol")
    protocol.add_argument("--folds", type=int, default=5, help="folds of each repetition (default 5)")
    protocol.add_argument("--repeats", type=int, default=2,
                          help="repetitions of the k-fold split (default 2)")
    protocol.add_argument("--seed", type=int, default=0, help="seed of the splits (default 0)")
    protocol.add_argument("--jobs", type=int, default=None,
                          help="local worker processes (default: all cores)")
    protocol.add_argument("--scheduler", default=None, help="address of a running Dask scheduler, "
                          "tcp://host:8786 (the folds run there)")
    out = parser.add_argument_group("output")
    out.add_argument("--out", default=None, help="tidy CSV: one row per data set × classifier × fold")
    out.add_argument("--indicator", default="u65", choices=list(INDICATORS),
                     help="indicator of the tables and tests (higher is better; default u65)")
    out.add_argument("--tests", action="store_true", help="Friedman + Nemenyi, Wilcoxon and Bayesian tests "
                     "across the data sets (Bayesian correlated t-test per data set too)")
    out.add_argument("--rope", type=float, default=None,
                     help="with --tests: region of practical equivalence, in units of the indicator "
                          "(default 0.01, one point of u65)")
    out.add_argument("--markdown", default=None, metavar="PATH", help="write a Markdown table (mean ± sd, "
                     "best per data set in bold); - for stdout")
    out.add_argument("--latex", default=None, metavar="PATH",
                     help="write a LaTeX table likewise; - for stdout")
    out.add_argument("--figures", default=None, metavar="DIR",
                     help="write paper 001's Figs. 5-7 (Corani & Antonucci 2012) into DIR as standalone HTML "
                          "(opens offline) and their points as CSV; needs plotly")


@dataclass
class Loaded:
    name: str
    path: str
    X: pd.DataFrame
    y: pd.Series
    numeric: list
    non_mar: list
    warnings: list


class FileProblem(ValueError):
    """A file that cannot be compared, with the reason."""


def _csv_list(text) -> list[str]:
    return [c.strip() for c in str(text).split(",") if c.strip()] if text else []


def _file_bytes(argument: str) -> tuple[bytes, str]:
    from .. import datasets

    path = Path(argument)
    if not path.exists() and argument in datasets.DATASETS:
        path = datasets.dataset_path(argument)
    try:
        return path.read_bytes(), path.name
    except OSError as exc:
        raise FileProblem(f"cannot read it ({exc.strerror or exc})") from None


def load(argument: str, args) -> Loaded:
    """One file as a data set to compare on, or :class:`FileProblem` saying why not."""
    from ..data.column_checks import many_valued_integer_columns, many_valued_integer_message
    from ..data.csv_loader import CsvProblem, default_class_column, read_csv_bytes
    from ..data.dataset import choose_columns

    data, filename = _file_bytes(argument)
    try:
        table = read_csv_bytes(data, name=filename)
        column = args.class_column or default_class_column(table)
        choice = choose_columns(table, column, drop_id_like=not args.keep_id_columns)
    except CsvProblem as exc:
        raise FileProblem(str(exc)) from None
    if args.classes:
        wanted = set(_csv_list(args.classes))
        have = {str(c) for c in choice.y.dropna().unique()}
        if have != wanted:
            raise FileProblem(f"its classes {sorted(have)} differ from --classes {sorted(wanted)}")
    if args.numeric == "auto":
        numeric = list(choice.numeric)
    elif args.numeric == "none":
        numeric = []
    else:
        numeric = _csv_list(args.numeric)
        wrong = [c for c in numeric if c not in choice.number_like]
        if wrong:
            raise FileProblem(f"--numeric names columns that are not number features of this file: {wrong} "
                              f"(number features: {choice.number_like})")
    non_mar = _csv_list(args.non_mar)
    missing = [c for c in non_mar if c not in choice.X.columns]
    if missing:
        raise FileProblem(f"--non-mar names columns that are not features of this file: {missing}")
    notes = list(choice.notes)
    notes += [many_valued_integer_message(name, n)
              for name, n in many_valued_integer_columns(choice.X, exclude=numeric).items()]
    return Loaded(Path(argument).stem if Path(argument).suffix else argument, argument, choice.X, choice.y,
                  numeric, non_mar, notes)


def _check_options(parser, args) -> dict:
    """Refuse options that would be ignored; returns the overrides of the classifiers."""
    if args.bins is not None and args.discretiser != "equal_frequency":
        parser.error(f"--bins is used by --discretiser equal_frequency only (got --discretiser "
                     f"{args.discretiser})")
    if args.non_mar and args.missing != "conservative":
        parser.error("--non-mar is used by --missing conservative only")
    if args.scheduler and args.jobs is not None:
        parser.error("--jobs is ignored when --scheduler runs the folds; give one of them")
    if args.rope is not None and not args.tests:
        parser.error("--rope is used by --tests only")
    if args.rope is not None and not 0 <= args.rope < 1:
        parser.error(f"--rope must be in [0, 1); got {args.rope}")
    if args.folds < 2 or args.repeats < 1:
        parser.error("--folds must be at least 2 and --repeats at least 1")
    if args.seed < 0:
        parser.error(f"--seed must be a non-negative integer; got {args.seed}")
    for option in ("out", "markdown", "latex"):
        target = getattr(args, option)
        if target and target != "-":
            folder = Path(target).expanduser().resolve().parent
            if not folder.is_dir() or not os.access(folder, os.W_OK):
                parser.error(f"--{option}: cannot write into {folder} (checked before the run)")
    if args.figures:
        from .figures import plotly_problem

        if plotly_problem():
            parser.error(plotly_problem())
        folder = Path(args.figures).expanduser().resolve()
        parent = folder if folder.exists() else folder.parent
        if (folder.exists() and not folder.is_dir()) or not parent.is_dir() or not os.access(parent, os.W_OK):
            parser.error(f"--figures: cannot write into {folder} (checked before the run)")
    return {"s": args.s, "epsilon": args.epsilon, "alpha": args.alpha}


def run(parser: argparse.ArgumentParser, args) -> int:
    from ..experiments.__main__ import _bar
    from ..experiments.compare import compare_classifiers
    from .classifiers import DEFAULT_ALIASES, classifier_table, parse_classifiers
    from .report import print_summary, print_tests, write_table

    if args.list_classifiers:
        if args.files:
            parser.error("--list-classifiers takes no FILE")
        print(classifier_table())
        return 0
    if not args.files:
        parser.error("give at least one FILE (CSV, ARFF or a shipped data set name)")
    overrides = _check_options(parser, args)
    try:
        specs = parse_classifiers(args.classifiers or list(DEFAULT_ALIASES), overrides)
    except ValueError as exc:
        parser.error(str(exc))
    if args.non_mar and not any(spec.estimator == "NCC" for spec in specs):
        parser.error("--non-mar is used by the NCCs only (ncc, ncc-eps); none is chosen")
    names = [Path(f).stem if Path(f).suffix else f for f in args.files]
    if len(set(names)) < len(names):
        names = list(args.files)                    # same stem twice: name the data sets by their paths
    folds, failed = {}, []
    for name, argument in zip(names, args.files):
        try:
            data = load(argument, args)
            for note in data.warnings:
                print(f"{name}: note: {note}", file=sys.stderr)
            result = compare_classifiers(
                data.X, data.y, numeric=data.numeric, specs=specs, n_splits=args.folds,
                n_repeats=args.repeats, discretiser=args.discretiser, n_bins=args.bins or 5,
                missing=args.missing, non_mar=data.non_mar, seed=args.seed,
                n_jobs=-1 if args.jobs is None else args.jobs, scheduler=args.scheduler,
                progress=_bar(sys.stderr))
        except (FileProblem, ValueError) as exc:
            print(f"error: {argument}: {exc}; left out", file=sys.stderr)
            failed.append(argument)
            continue
        except (OSError, TimeoutError) as exc:       # e.g. no Dask scheduler at that address
            parser.error(f"could not run on the scheduler {args.scheduler!r}: {exc}")
        folds[name] = result
    if not folds:
        print("error: no file could be compared", file=sys.stderr)
        return 1
    tidy = pd.concat([f.assign(dataset=name) for name, f in folds.items()], ignore_index=True)
    tidy = tidy[["dataset"] + [c for c in tidy.columns if c != "dataset"]]
    if args.out:
        tidy.to_csv(args.out, index=False)
        print(f"wrote {len(tidy)} rows (data set × classifier × fold) to {args.out}")
    print_summary(tidy, args.indicator, coverage=any("conformal" in spec.estimator for spec in specs))
    if args.tests:
        print_tests(tidy, args.indicator, rope=0.01 if args.rope is None else args.rope, folds=args.folds)
    for kind in ("markdown", "latex"):
        if getattr(args, kind):
            write_table(tidy, args.indicator, kind, getattr(args, kind))
    if args.figures:
        from .figures import write_figures

        written, notes = write_figures(tidy, args.figures)
        for note in notes:
            print(f"note: {note}", file=sys.stderr)
        print(f"wrote {len(written)} files of 001's Figs. 5-7 into {args.figures}: "
              + ", ".join(p.name for p in written))
    if failed:
        print(f"error: {len(failed)} of {len(args.files)} files left out: {', '.join(failed)}",
              file=sys.stderr)
        return 1
    return 0
