"""The AODE family against Weka 3.6's AODE: fit, predict and predict_set times, in one run.

    .venv/bin/python benchmarks/bench_aode_weka.py [--repeat 7] [--warm 5] [--folds 5] [--n 100000]
                                                   [--train 10000] [--accuracy] [--only nursery]

Weka runs when ``/usr/share/java/weka.jar`` exists (Debian package ``weka``, 3.6) and a ``javac`` is
on the path: a small timing class is compiled into a temporary folder and runs in one warm JVM
(``--warm`` untimed rounds, then the best of ``--repeat``, timed with ``System.nanoTime`` inside the
JVM, so JVM start-up and ARFF parsing are not counted).  Without Weka the script says so and prints
our times only.

Data, the same splits for both sides (each split's training and test part written as ARFF files
whose headers declare every value of the whole data set):

* **nursery** (12,960 rows, 8 features, 5 classes; ``../shared/reference/uci/nursery.csv``, skipped
  when absent): ``--folds``-fold stratified cross-validation, times summed over the folds;
* **synthetic**: ``--n`` rows × 20 features (4 values each) × 3 classes drawn from a naive-Bayes
  distribution; fit on the first ``--train`` rows, predict all ``--n`` rows.

Our estimators get nursery as a pandas table of its text values as read, and as a numpy array of
integer codes (each column's sorted values numbered; synthetic too), and encode them themselves,
validation included; Weka gets its parsed ``Instances``.  Times are wall-clock and CPU seconds
(this process / Weka's thread): on a shared machine the CPU ratio is the steadier one.  Ratios are ours /
Weka's, per cell: fit against Weka's ``buildClassifier``, predict and predict_set against Weka's
``distributionForInstance`` over the test rows.  Each of our cells is the best of ``--repeat`` after
one warm-up; every fit counts its own SPODE tables (models share tables only when a caller passes them,
``SpodeTables.from_data`` + ``fit_spodes``, which the benchmark does not).

Fairness (checked for issue 14): Weka's CPU times are those of its timing thread; the JVM's process
CPU time (GC and JIT threads included, 10 ms resolution) matched it where it resolves anything (100,000
predictions: 0.34 s vs 0.336 s), so no background work is left out of Weka's side.  Ours are numpy
calls on one thread (no BLAS product on these paths), timed with ``process_time``.  The work per call
differs on purpose and in Weka's favour: our fit validates and encodes the raw table and our predict
encodes the test table, while Weka starts from parsed ``Instances``; BMA-AODE and COMP-AODE also
evaluate every SPODE on every training row (their weights are in-sample conditional likelihoods, a
pass Weka's AODE does not make), so their fit costs about an AODE fit plus a prediction on the
training rows.  Weka's row "train rows" times that pass in Weka (``distributionForInstance`` on each
split's own training rows), and the last column gives those fits against Weka's fit + that pass; the
script ends with the cells over 2x Weka.

Repeats, the same on both sides: Weka's times vary by 30-40 % from one run to the next (JIT, GC,
other jobs on the machine), so each side's cell is its best of ``--repeat`` runs (default 7) after
warm-up (Weka: ``--warm`` untimed rounds in the same JVM; ours: one untimed call).

Compiled kernels: with numba installed (``requirements.txt``) the AODE family counts, evaluates the
SPODEs and tests dominance in compiled loops (``credal_core/aode/_kernels.py``; ``CREDAL_NUMBA=0``
runs the numpy path).  The first call in a fresh install compiles them (about 7 s of CPU for the
whole family, once; the machine code is cached in ``__pycache__``, later processes load it in
milliseconds): the warm-up call keeps that out of the timings, as Weka's warm-up rounds keep its
JIT compilation out.  The script prints which path ran.

``--accuracy`` instead runs 10-fold cross-validation on seven all-nominal UCI sets and prints
Weka's AODE accuracy beside ours in Weka's form (``AODE(combine="joint", estimator="laplace",
frequency_limit=1)``, declared categories) and in the paper's default form.
"""
from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
from _common import ROOT, kernels_line, naive_bayes_data, parser

from credal_core.aode import AODE, BMAAODE, CompAODE, CredalBMAAODE, CredalCompAODE
from credal_core.resampling import repeated_stratified_kfold

WEKA_JAR = Path("/usr/share/java/weka.jar")
UCI = ROOT.parent / "shared" / "reference" / "uci"
if not UCI.is_dir():
    UCI = Path("/work/shared/reference/uci")
ACCURACY_SETS = ["monks1", "monks2", "monks3", "tic_tac_toe", "kr_vs_kp", "nursery", "solarflare2"]

JAVA_SOURCE = r"""
import java.io.*;
import java.lang.management.*;
import weka.core.*;
import weka.classifiers.bayes.AODE;

/** args: options warm repeat (train.arff test.arff probs.csv|-)+ ; per split prints the best wall
 *  seconds of fit and predict, then the best CPU seconds of this thread for both. */
public class WekaAodeTiming {
  public static void main(String[] args) throws Exception {
    String options = args[0];
    int warm = Integer.parseInt(args[1]), repeat = Integer.parseInt(args[2]);
    int splits = (args.length - 3) / 3;
    Instances[] train = new Instances[splits], test = new Instances[splits];
    for (int s = 0; s < splits; s++) {
      train[s] = new Instances(new BufferedReader(new FileReader(args[3 + 3 * s])));
      test[s] = new Instances(new BufferedReader(new FileReader(args[4 + 3 * s])));
      train[s].setClassIndex(train[s].numAttributes() - 1);
      test[s].setClassIndex(test[s].numAttributes() - 1);
    }
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    for (int s = 0; s < splits; s++) {
      double bestFit = Double.MAX_VALUE, bestPredict = Double.MAX_VALUE;
      double cpuFit = Double.MAX_VALUE, cpuPredict = Double.MAX_VALUE;
      double[][] probs = new double[test[s].numInstances()][];
      for (int r = 0; r < warm + repeat; r++) {
        long c0 = cpu.getCurrentThreadCpuTime(), t0 = System.nanoTime();
        AODE model = new AODE();
        model.setOptions(Utils.splitOptions(options));
        model.buildClassifier(train[s]);
        long c1 = cpu.getCurrentThreadCpuTime(), t1 = System.nanoTime();
        for (int i = 0; i < probs.length; i++) probs[i] = model.distributionForInstance(test[s].instance(i));
        long c2 = cpu.getCurrentThreadCpuTime(), t2 = System.nanoTime();
        if (r >= warm) {
          bestFit = Math.min(bestFit, (t1 - t0) * 1e-9);
          bestPredict = Math.min(bestPredict, (t2 - t1) * 1e-9);
          cpuFit = Math.min(cpuFit, (c1 - c0) * 1e-9);
          cpuPredict = Math.min(cpuPredict, (c2 - c1) * 1e-9);
        }
      }
      String out = args[5 + 3 * s];
      if (!out.equals("-")) {
        try (PrintWriter w = new PrintWriter(new BufferedWriter(new FileWriter(out)))) {
          for (double[] p : probs) {
            StringBuilder b = new StringBuilder();
            for (int c = 0; c < p.length; c++) { if (c > 0) b.append(','); b.append(Double.toString(p[c])); }
            w.println(b);
          }
        }
      }
      System.out.println(bestFit + " " + bestPredict + " " + cpuFit + " " + cpuPredict);
    }
  }
}
"""


# ---------------------------------------------------------------------------------------------- Weka
def weka_available() -> str | None:
    """None if Weka can run here, else the reason it cannot."""
    if not WEKA_JAR.is_file():
        return f"{WEKA_JAR} not found (apt-get install weka)"
    if shutil.which("javac") is None or shutil.which("java") is None:
        return "java / javac not on the path"
    return None


def _arff_value(v) -> str:
    if v is None or (isinstance(v, float) and np.isnan(v)) or v is pd.NA:
        return "?"
    text = str(v)
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def write_arff(path: Path, X: pd.DataFrame, y, levels: list, class_levels) -> None:
    """ARFF with every attribute nominal over ``levels[j]`` (declared values), class last; NaN -> ?."""
    lines = ["@relation data"]
    for name, lv in zip(X.columns, levels):
        lines.append(f"@attribute {_arff_value(name)} {{{','.join(_arff_value(v) for v in lv)}}}")
    lines.append(f"@attribute class {{{','.join(_arff_value(v) for v in class_levels)}}}")
    lines.append("@data")
    cols = [X[c].to_numpy(dtype=object) for c in X.columns]
    y = np.asarray(y, dtype=object)
    for i in range(len(y)):
        lines.append(",".join([_arff_value(col[i]) for col in cols] + [_arff_value(y[i])]))
    path.write_text("\n".join(lines) + "\n")


class Weka:
    """Compiles the timing class once; runs Weka's AODE on given splits in one JVM per call."""

    def __init__(self, workdir: Path):
        self.dir = workdir
        (workdir / "WekaAodeTiming.java").write_text(JAVA_SOURCE)
        source = str(workdir / "WekaAodeTiming.java")
        subprocess.run(["javac", "-cp", str(WEKA_JAR), "-d", str(workdir), source], check=True,
                       capture_output=True)

    def run(self, X, y, splits, *, options="", warm=0, repeat=1, probabilities=False, tag="d"):
        """Per split ((fit, predict) wall seconds, (fit, predict) CPU seconds, probabilities or None)."""
        levels = [_levels(X[c]) for c in X.columns]
        class_levels = _levels(pd.Series(y))
        args = []
        for s, (train, test) in enumerate(splits):
            tr, te = self.dir / f"{tag}{s}_train.arff", self.dir / f"{tag}{s}_test.arff"
            write_arff(tr, X.iloc[train], np.asarray(y)[train], levels, class_levels)
            write_arff(te, X.iloc[test], np.asarray(y)[test], levels, class_levels)
            args += [str(tr), str(te), str(self.dir / f"{tag}{s}_probs.csv") if probabilities else "-"]
        out = subprocess.run(["java", "-Xmx2g", "-cp", f"{WEKA_JAR}:{self.dir}", "WekaAodeTiming", options,
                              str(warm), str(repeat), *args], check=True, capture_output=True, text=True)
        rows = []
        for s, line in enumerate(out.stdout.strip().splitlines()):
            fit, predict, cpu_fit, cpu_predict = map(float, line.split())
            probs = (np.loadtxt(self.dir / f"{tag}{s}_probs.csv", delimiter=",", ndmin=2)
                     if probabilities else None)
            rows.append(((fit, predict), (cpu_fit, cpu_predict), probs))
        return rows, class_levels


def _levels(col: pd.Series) -> list:
    values = pd.unique(col.dropna())
    try:
        return sorted(values)
    except TypeError:
        return list(values)


# ---------------------------------------------------------------------------------------------- data
def nursery():
    path = UCI / "nursery.csv"
    if not path.is_file():
        return None
    data = pd.read_csv(path, dtype=str, keep_default_na=False)
    return data.drop(columns="class"), data["class"].to_numpy()


def synthetic(n, m=20, n_classes=3):
    X, y = naive_bayes_data(n, m, n_classes)           # 4 values, Dirichlet(1) conditionals per class
    return pd.DataFrame(X, columns=[f"f{j}" for j in range(m)]), y


def best_time(fn, repeat):
    """(best wall seconds, best CPU seconds of this process) over ``repeat`` runs after a warm-up."""
    fn()
    wall, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return np.array([min(wall), min(cpu)])


def weka_form():
    """Our AODE in Weka's form, if this version of credal_core has it (else None)."""
    try:
        return AODE(combine="joint", estimator="laplace", frequency_limit=1)
    except TypeError:
        return None


MODELS = [("AODE", AODE, ("predict",)), ("AODE (Weka's form)", None, ("predict",)),
          ("BMA-AODE", BMAAODE, ("predict",)), ("COMP-AODE", CompAODE, ("predict",)),
          ("BMA-AODE*", CredalBMAAODE, ("predict", "predict_set")),
          ("COMP-AODE*", CredalCompAODE, ("predict", "predict_set"))]


def time_ours(X, y, splits, repeat, as_array=False):
    """{(model, op): (wall, CPU) seconds summed over the splits}; ``as_array``: feed integer arrays."""
    out = {}
    for name, cls, ops in MODELS:
        make = weka_form if cls is None else cls
        if make() is None:
            continue
        fit = {op: np.zeros(2) for op in ("fit",) + ops}
        for train, test in splits:
            Xtr, ytr, Xte = X.iloc[train], y[train], X.iloc[test]
            if as_array:
                Xtr, Xte = Xtr.to_numpy(), Xte.to_numpy()
            fit["fit"] += best_time(lambda: make().fit(Xtr, ytr), repeat)
            model = make().fit(Xtr, ytr)
            for op in ops:
                fit[op] += best_time(lambda: getattr(model, op)(Xte), repeat)
        for op, seconds in fit.items():
            out[(name, op)] = seconds
    return out


def speed(args, weka):
    """Every case's table; then the cells over 2x Weka's CPU time (issue 14's target)."""
    summary = []
    _speed_cases(args, weka, summary)
    if not summary:
        return
    over = [(t, n, op, r) for t, n, op, r in summary if r > 2.0]
    print(f"\ncells over 2x Weka (CPU): {len(over)} of {len(summary)}")
    for title, name, op, ratio in over:
        print(f"  {ratio:5.2f}  {name} {op}  [{title}]")


def _speed_cases(args, weka, summary):
    cases = []
    data = nursery()
    if data is None:
        print(f"nursery: {UCI / 'nursery.csv'} not found, skipped")
    elif args.only in (None, "nursery"):
        X, y = data
        folds = list(repeated_stratified_kfold(y, n_splits=args.folds, n_repeats=1, seed=0))
        cases.append((f"nursery ({len(y):,} rows, {args.folds}-fold CV), text table", X, y, folds, False))
        codes = X.apply(lambda col: pd.factorize(col, sort=True)[0])
        cases.append((f"nursery ({len(y):,} rows, {args.folds}-fold CV), integer-code array", codes, y, folds,
                      True))
    if args.only in (None, "synthetic"):
        X, y = synthetic(args.n)
        cases.append((f"synthetic {args.n:,} x 20 x 3 (fit on {args.train:,}, predict all), integer-code "
                      "array", X, y, [(np.arange(args.train), np.arange(args.n))], True))
    for title, X, y, splits, as_array in cases:
        print(f"\n== {title}")
        ours = time_ours(X, y, splits, args.repeat, as_array)
        ref = None
        if weka is not None:
            rows, _ = weka.run(X, y, splits, warm=args.warm, repeat=args.repeat, tag="t")
            wall = np.sum([r[0] for r in rows], axis=0)
            cpu = np.sum([r[1] for r in rows], axis=0)
            # Weka's predict on each split's own training rows: the in-sample pass the BMA / COMP
            # weights need (LL_j), at Weka's speed
            rows_in, _ = weka.run(X, y, [(train, train) for train, _ in splits], warm=args.warm,
                                  repeat=args.repeat, tag="i")
            cpu_in = np.sum([r[1] for r in rows_in], axis=0)[1]
            ref = {"fit": (wall[0], cpu[0]), "predict": (wall[1], cpu[1]), "pass": cpu_in}
            print(f"{'Weka AODE (-F 1)':<22}{'fit':<13}{wall[0]:>9.4f}{cpu[0]:>9.4f}")
            print(f"{'':<22}{'predict':<13}{wall[1]:>9.4f}{cpu[1]:>9.4f}")
            print(f"{'':<22}{'train rows':<13}{'':>9}{cpu_in:>9.4f}  (predict on the training rows: "
                  f"{cpu_in / cpu[0]:.2f}x Weka's fit)")
        print(f"{'ours':<22}{'op':<13}{'wall s':>9}{'CPU s':>9}  {'wall / Weka':>11}{'CPU / Weka':>11}"
              f"{'CPU / (fit + train rows)':>26}")
        for (name, op), (wall_s, cpu_s) in ours.items():
            if ref is None:
                ratios = f"{'-':>11}{'-':>11}"
            else:
                w_ref, c_ref = ref["fit" if op == "fit" else "predict"]
                ratios = f"{wall_s / w_ref:>11.2f}{cpu_s / c_ref:>11.2f}"
                if op == "fit" and name.startswith(("BMA", "COMP")):
                    ratios += f"{cpu_s / (ref['fit'][1] + ref['pass']):>26.2f}"
                summary.append((title, name, op, cpu_s / c_ref))
            print(f"{name:<22}{op:<13}{wall_s:>9.4f}{cpu_s:>9.4f}  {ratios}")


def accuracy(weka):
    print(f"{'data set':<14}{'Weka AODE':>10}{'ours, Weka form':>17}{'diff':>8}{'ours, paper form':>18}"
          f"{'max |dp|':>10}")
    for name in ACCURACY_SETS:
        path = UCI / f"{name}.csv"
        if not path.is_file():
            print(f"{name:<14} not found, skipped")
            continue
        data = pd.read_csv(path, dtype=str)
        X, y = data.drop(columns="class"), data["class"].to_numpy()
        splits = list(repeated_stratified_kfold(y, n_splits=10, n_repeats=1, seed=0))
        rows, class_levels = weka.run(X, y, splits, probabilities=True, tag=name)
        declared = [_levels(X[c]) for c in X.columns]
        hits = {"weka": 0, "joint": 0, "paper": 0}
        max_dp = 0.0
        for (train, test), (_, _, probs) in zip(splits, rows):
            truth = y[test]
            hits["weka"] += int(np.sum(np.asarray(class_levels, dtype=object)[probs.argmax(axis=1)] == truth))
            joint = AODE(combine="joint", estimator="laplace", frequency_limit=1, categories=declared)
            joint.fit(X.iloc[train], y[train], classes=class_levels)
            p = joint.predict_proba(X.iloc[test])
            max_dp = max(max_dp, float(np.abs(p - probs).max()))
            hits["joint"] += int(np.sum(joint.predict(X.iloc[test]) == truth))
            hits["paper"] += int(np.sum(AODE().fit(X.iloc[train], y[train]).predict(X.iloc[test]) == truth))
        acc = {k: v / len(y) for k, v in hits.items()}
        print(f"{name:<14}{acc['weka']:>10.4f}{acc['joint']:>17.4f}{acc['joint'] - acc['weka']:>+8.4f}"
              f"{acc['paper']:>18.4f}{max_dp:>10.1e}")


def main(argv=None):
    command = parser(__doc__, repeat=7, warm=5, folds=5, n=100_000, train=10_000)
    command.add_argument("--only", choices=["nursery", "synthetic"])
    command.add_argument("--accuracy", action="store_true")
    args = command.parse_args(argv)
    missing = weka_available()
    print(kernels_line())
    with tempfile.TemporaryDirectory() as tmp:
        weka = None
        if missing:
            print(f"Weka NOT run: {missing}; our times only, no ratios")
        else:
            weka = Weka(Path(tmp))
            print(f"Weka run: {WEKA_JAR.resolve()} (warm JVM, {args.warm} untimed rounds, best of "
                  f"{args.repeat}, timed inside the JVM)")
        if args.accuracy:
            if weka is None:
                print("--accuracy needs Weka")
                return
            accuracy(weka)
        else:
            speed(args, weka)


if __name__ == "__main__":
    main()
