"""Write ``iris.csv``, ``wine.csv`` and ``breast_cancer.csv`` from the copies bundled with scikit-learn.

The three UCI data sets ship inside scikit-learn (``sklearn.datasets.load_iris``, ``load_wine``,
``load_breast_cancer`` read CSV files from the installed package, no network).  This script writes
them in the app's layout: the numeric features as numbers (the app discretises them), column names
made plain (lower case, runs of other characters turned into ``_``: ``sepal length (cm)`` becomes
``sepal_length_cm``), and the class as its text name in a last column ``class``.  Numbers are written
in their shortest round-trip form, without a trailing ``.0`` (``127``, ``5.1``, ``0.07871``).

Caveat for iris: scikit-learn bundles the corrected values of Fisher's paper; the UCI ``iris.data``
file differs in two rows (35 and 38, the UCI errata), so scikit-learn's iris is not byte-identical to
UCI's.  Run from the repository root (byte-identical output for a given scikit-learn version)::

    .venv/bin/python sample_data/make_sklearn_datasets.py
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import numpy as np
from sklearn import datasets

HERE = Path(__file__).resolve().parent
LOADERS = {
    "iris.csv": datasets.load_iris,
    "wine.csv": datasets.load_wine,
    "breast_cancer.csv": datasets.load_breast_cancer,
}


def plain_name(name: str) -> str:
    """``'mean radius'`` -> ``'mean_radius'``; ``'od280/od315_of_diluted_wines'`` -> ``'od280_od315_...'``."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def number_text(value: float) -> str:
    """Shortest text that reads back as the same float; integral values without ``.0``."""
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


def table(loader) -> tuple[list[str], list[list[str]]]:
    """Header and rows (features as number text, then the class name) of one bundled data set."""
    bunch = loader()
    data = np.asarray(bunch.data, dtype=float)
    if not np.isfinite(data).all():
        raise ValueError(f"{loader.__name__}: the bundled data contain missing or infinite values")
    header = [plain_name(n) for n in bunch.feature_names] + ["class"]
    if len(set(header)) != len(header):
        raise ValueError(f"{loader.__name__}: column names collide after simplification: {header}")
    rows = [[number_text(v) for v in row] + [str(bunch.target_names[t])]
            for row, t in zip(data, bunch.target)]
    return header, rows


def main(folder: Path = HERE) -> None:
    """Write the three files into ``folder`` (default: this script's folder)."""
    for file_name, loader in LOADERS.items():
        header, rows = table(loader)
        with (Path(folder) / file_name).open("w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle, lineterminator="\n")
            writer.writerow(header)
            writer.writerows(rows)


if __name__ == "__main__":
    main()
