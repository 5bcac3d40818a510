"""Runs Weka 3.6's AODE (``/usr/share/java/weka.jar``, Debian package ``weka``) for cross-checks.

``weka_aode_proba`` writes the data as ARFF (every attribute nominal over the declared values,
``?`` for a missing cell), compiles a tiny Java class printing ``distributionForInstance`` at full
precision, and returns the probabilities; the class is compiled once per session and
``weka_aode_proba_many`` runs several jobs in one JVM.  ``weka_or_skip`` skips the calling test when Weka or a
JDK is not installed.
"""
from __future__ import annotations

import atexit
import fcntl
import functools
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pytest

WEKA_JAR = Path("/usr/share/java/weka.jar")

JAVA = r"""
import java.io.*;
import weka.core.*;
import weka.classifiers.bayes.AODE;

/** args: (options train.arff test.arff)+ ; per job its test probabilities, then a line "#". */
public class WekaAodeProba {
  public static void main(String[] args) throws Exception {
    for (int job = 0; job + 2 < args.length; job += 3) {
      Instances train = new Instances(new BufferedReader(new FileReader(args[job + 1])));
      Instances test = new Instances(new BufferedReader(new FileReader(args[job + 2])));
      train.setClassIndex(train.numAttributes() - 1);
      test.setClassIndex(test.numAttributes() - 1);
      AODE model = new AODE();
      model.setOptions(Utils.splitOptions(args[job]));
      model.buildClassifier(train);
      for (int i = 0; i < test.numInstances(); i++) {
        double[] p = model.distributionForInstance(test.instance(i));
        StringBuilder b = new StringBuilder();
        for (int c = 0; c < p.length; c++) { if (c > 0) b.append(','); b.append(Double.toString(p[c])); }
        System.out.println(b);
      }
      System.out.println("#");
    }
  }
}
"""


def weka_or_skip():
    if not WEKA_JAR.is_file() or shutil.which("javac") is None:
        pytest.skip("Weka 3.6 (apt-get install weka) or a JDK is not installed")


def _value(v) -> str:
    if v is None or (isinstance(v, float) and np.isnan(v)):
        return "?"
    return "'" + str(v).replace("\\", "\\\\").replace("'", "\\'") + "'"


def _arff(rows, labels, values, classes) -> str:
    lines = ["@relation r"]
    lines += [f"@attribute a{j} {{{','.join(_value(v) for v in vals)}}}" for j, vals in enumerate(values)]
    lines.append(f"@attribute class {{{','.join(_value(c) for c in classes)}}}")
    lines.append("@data")
    lines += [",".join([_value(v) for v in row] + [_value(c)]) for row, c in zip(rows, labels)]
    return "\n".join(lines) + "\n"


@functools.lru_cache(maxsize=None)
def _compiled() -> str:
    """Folder holding the compiled class: javac runs once per test run (it takes seconds of CPU) — in the
    run's shared directory when tests/conftest.py made one (the xdist workers take turns under a lock),
    else in a folder of this process."""
    shared = os.environ.get("CREDAL_TEST_SHARED")
    if not shared:
        folder = tempfile.mkdtemp(prefix="weka_aode_")
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        _javac(Path(folder))
        return folder
    folder = Path(shared) / "weka_aode"
    with (Path(shared) / "weka_aode.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / "WekaAodeProba.class").is_file():
            folder.mkdir(exist_ok=True)
            _javac(folder)
    return str(folder)


def _javac(folder: Path) -> None:
    source = folder / "WekaAodeProba.java"
    source.write_text(JAVA)
    subprocess.run(["javac", "-cp", str(WEKA_JAR), "-d", str(folder), str(source)], check=True,
                   capture_output=True)


def weka_aode_proba_many(jobs) -> list:
    """Weka's AODE probabilities for several jobs ``(X_train, y_train, X_test, values, classes,
    options)`` in one JVM: a list of arrays (n_test, C) in each job's ``classes`` order."""
    weka_or_skip()
    folder = _compiled()
    with tempfile.TemporaryDirectory() as tmp:
        d, args = Path(tmp), []
        for i, (X_train, y_train, X_test, values, classes, options) in enumerate(jobs):
            (d / f"train{i}.arff").write_text(_arff(X_train, y_train, values, classes))
            (d / f"test{i}.arff").write_text(_arff(X_test, [classes[0]] * len(X_test), values, classes))
            args += [options, str(d / f"train{i}.arff"), str(d / f"test{i}.arff")]
        out = subprocess.run(["java", "-cp", f"{WEKA_JAR}:{folder}", "WekaAodeProba", *args],
                             check=True, capture_output=True, text=True)
    blocks = out.stdout.split("#")[:len(jobs)]
    assert len(blocks) == len(jobs)
    return [np.array([[float(v) for v in line.split(",")] for line in block.split()]) for block in blocks]


def weka_aode_proba(X_train, y_train, X_test, values, classes, options: str = "") -> np.ndarray:
    """Weka's AODE probabilities (n_test, C) in ``classes`` order; missing cells None / NaN."""
    return weka_aode_proba_many([(X_train, y_train, X_test, values, classes, options)])[0]
