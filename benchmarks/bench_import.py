"""Import time of credal_core (issue 14 item 4), as fresh processes on a warm disk.

Targets: ``import credal_core`` alone ≤ 0.3 s; ``credal_core.NCC`` at most 0.2 s more than scikit-learn's
own ``import sklearn.base`` measured in the same run (the estimators follow scikit-learn's conventions,
so its base module is the floor).  Each figure is the best of ``--repeat`` fresh interpreters, minus an
empty interpreter's start-up.

    .venv/bin/python benchmarks/bench_import.py [--repeat 7]
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASES = {
    "import credal_core": "import credal_core",
    "import sklearn.base": "import sklearn.base",
    "credal_core.NCC": "import credal_core; credal_core.NCC",
    "credal_core.LNCC": "import credal_core; credal_core.LNCC",
    "credal_core.experiments": "import credal_core.experiments",
}


def best_of(code: str, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
        best = min(best, time.perf_counter() - start)
    return best


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)
    start_up = best_of("pass", args.repeat)
    seconds = {name: best_of(code, args.repeat) - start_up for name, code in CASES.items()}
    for name, value in seconds.items():
        print(f"{name:28s} {value:6.3f} s")
    extra = seconds["credal_core.NCC"] - seconds["import sklearn.base"]
    print(f"\ncredal_core.NCC beyond sklearn.base: {extra:+.3f} s (target ≤ 0.2 s); "
          f"import credal_core: {seconds['import credal_core']:.3f} s (target ≤ 0.3 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
