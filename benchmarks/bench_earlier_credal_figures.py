"""The reject and tree figures of the page "Credal model averaging, trees and the reject option": CPU per
call of the current builders against the previous ones (pandas filters per line / per node), in one run.

    .venv/bin/python benchmarks/bench_earlier_credal_figures.py [--s 1.0] [--d 0.2] [--depth 3] [--repeat 50]

Baseline: ``app_support/earlier_credal/figures.py`` as of commit ``BASELINE`` (read with ``git show`` into
a temporary module; the benchmark stops with a message when the git history is absent).  For every
shipped sample: ``reject_figure(reject_view(name, s, 0.01), d)`` and ``tree_figure(tree_view(name, s),
max_depth=depth, path=<row 0's path>)``, each the best of ``--repeat`` batches of 20 calls after a
warm-up, in CPU time of this process; the ratio is baseline / current (target: at least 3), and each
row says whether both builders return the very same figure dict.
"""
from __future__ import annotations

import importlib.util
import logging
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

from _common import ROOT, best_time, load_average, parser

BASELINE = "3fce2bf"          # the commit before the builders' rewrite
FIGURES = "app_support/earlier_credal/figures.py"
TARGET = 3.0
BATCH = 20


def baseline_module():
    try:
        source = subprocess.run(["git", "-C", str(ROOT), "show", f"{BASELINE}:{FIGURES}"], check=True,
                                capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        sys.exit(f"no baseline: git show {BASELINE} failed ({error})")
    path = Path(tempfile.mkdtemp()) / "baseline_earlier_credal_figures.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("baseline_earlier_credal_figures", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv=None) -> None:
    args = parser(__doc__, s=1.0, d=0.2, depth=3, repeat=50).parse_args(argv)
    warnings.filterwarnings("ignore")                 # streamlit's "no runtime" notes on the cached views
    logging.disable(logging.WARNING)
    from app_support.data import sample_names
    from app_support.earlier_credal import figures as current
    from app_support.earlier_credal import model

    old = baseline_module()
    print(f"load average {load_average()}; best of {args.repeat} x {BATCH} calls; s = {args.s}, "
          f"d = {args.d}, depth = {args.depth}; ratio = baseline ({BASELINE}) / current, target {TARGET:g}")
    print(f"{'sample':<14}{'figure':<8}{'baseline ms':>12}{'current ms':>12}{'ratio':>8}  same dict")
    worst = float("inf")
    for name in sample_names():
        frame = model.reject_view(name, args.s, 0.01)
        tree = model.tree_view(name, args.s)
        path = model.instance_view(name, args.s, 0)["path"]
        cases = {"reject": lambda f, fr=frame: f.reject_figure(fr, args.d),
                 "tree": lambda f, t=tree, p=path: f.tree_figure(t, max_depth=args.depth, path=p)}
        for figure, call in cases.items():
            times = [best_time(lambda f=f: [call(f) for _ in range(BATCH)], args.repeat) / BATCH
                     for f in (old, current)]
            same = call(old).to_dict() == call(current).to_dict()
            worst = min(worst, times[0] / times[1])
            print(f"{name:<14}{figure:<8}{1e3 * times[0]:>12.3f}{1e3 * times[1]:>12.3f}"
                  f"{times[0] / times[1]:>8.1f}  {'yes' if same else 'NO'}")
    print(f"smallest ratio {worst:.1f} ({'meets' if worst >= TARGET else 'misses'} the target {TARGET:g})")


if __name__ == "__main__":
    main()
