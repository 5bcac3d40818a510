"""JNCC2 1.11 parity on its examples: the project's loader, discretiser, NBC and NCC against JNCC2's outputs.

``../shared/reference/jncc2`` (skipped when absent) holds JNCC2's training / testing ARFF files, its
``CheckResults/ResultsTable.csv`` and, in ``generated/``, what JNCC2's own code computed on them: the
discretised data, the full-precision NBC posteriors, NBC classes and NCC2 sets per test instance
(README there).  Here the same pipeline runs on the project's pieces: ARFF through ``read_csv_bytes``,
MDL with ``jncc2_quirk`` on the training file inside :class:`Preparation` (single-bin features left out,
as JNCC2 does), the missing values left as they are with hepatitis' and labor's ``NonMar.txt``
declarations, ``NaiveBayes(prior="laplace")`` and ``NCC(s=1)`` with the declared classes and categories.
"""
import csv
import functools
from pathlib import Path

import numpy as np
import pytest

from credal_core import NCC, NaiveBayes
from credal_core.data.csv_loader import read_csv_bytes
from credal_core.data.preparation import Preparation
from tests.credal_core._helpers import reference_data

# outside reference data beside the project (../shared) or at its usual place; may be absent
JNCC2 = reference_data("jncc2")
COMPLETE = ["contact-lenses", "iris", "glass"]
MISSING = ["hepatitis", "labor"]
EXAMPLES = COMPLETE + MISSING


def _non_mar(path: Path, names: list) -> tuple[list, list]:
    """JNCC2's NonMar.txt: ``name`` (training and testing), ``training name``, ``testing name``, or the
    single word ``nonmar`` (every feature); names matched case-insensitively."""
    if not path.exists():
        return [], []
    by_lower = {n.lower(): n for n in names}
    training, testing = [], []
    for line in path.read_text(encoding="latin-1").splitlines():
        words = line.split()
        if not words:
            continue
        if len(words) == 1 and words[0].lower() == "nonmar":
            return list(names), list(names)
        where, name = (words[0].lower(), words[1]) if len(words) == 2 else ("both", words[0])
        name = by_lower[name.lower()]
        if where in ("both", "training"):
            training.append(name)
        if where in ("both", "testing"):
            testing.append(name)
    return training, testing


def _csv_rows(path: Path) -> list:
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


@functools.lru_cache(maxsize=None)
def run(example: str) -> dict:
    """The project's pipeline on one example, and JNCC2's reference outputs beside it."""
    folder = JNCC2 / example
    if not folder.exists():
        pytest.skip("../shared/reference/jncc2 is not available")
    train = read_csv_bytes((folder / f"{example}.training.arff").read_bytes())
    test = read_csv_bytes((folder / f"{example}.testing.arff").read_bytes())
    target = train.frame.columns[-1]
    classes = list(train.frame[target].cat.categories)
    features = list(train.frame.columns[:-1])
    training, testing = _non_mar(folder / "NonMar.txt", features)
    prep = Preparation(numeric=train.numeric, discretiser="mdl", jncc2_quirk=True, missing="conservative",
                       non_mar_training=training, non_mar_testing=testing, drop_single_valued=True)
    # class codes in declaration order: the MDL entropy sums then run in JNCC2's class order
    prep.fit(train.frame[features], train.frame[target].cat.codes.to_numpy())
    X_train, X_test = prep.transform(train.frame[features]), prep.transform(test.frame[features])
    y_train = train.frame[target].astype(object).to_numpy()
    nbc = NaiveBayes(prior="laplace", categories="declared").fit(X_train, y_train, classes=classes)
    ncc = NCC(s=1.0, categories="declared", **prep.ncc_params()).fit(X_train, y_train, classes=classes)
    generated = folder / "generated"
    # the models' class order may differ from the declaration: columns re-ordered to JNCC2's indices
    order = [list(nbc.classes_).index(c) for c in classes]
    assert [list(ncc.classes_).index(c) for c in classes] == order
    return {"order": order, "prep": prep, "X_train": X_train, "X_test": X_test, "classes": classes,
            "nbc": nbc, "ncc": ncc,
            "truth": test.frame[target].cat.codes.to_numpy(), "train_table": train,
            "reference": _csv_rows(generated / f"{example}_predictions.csv"),
            "discretised": {part: _csv_rows(generated / f"{example}_{part}_discretised.csv")
                            for part in ("train", "test")},
            "cutpoints": _csv_rows(generated / f"{example}_cutpoints.csv")}


@pytest.mark.parametrize("example", EXAMPLES)
def test_features_used_and_discretised_data_equal_jncc2(example):
    r = run(example)
    used = [row["feature"] for row in r["cutpoints"] if row["used"] == "true"]
    assert r["prep"].columns_ == used
    for part, X in (("train", r["X_train"]), ("test", r["X_test"])):
        rows = r["discretised"][part]
        assert len(rows) == len(X)
        for name in used:
            want = np.array([-1 if row[name] == "?" else int(row[name]) for row in rows])
            assert np.array_equal(X[name].cat.codes.to_numpy(), want), (part, name)
            assert len(X[name].cat.categories) == int(
                next(row for row in r["cutpoints"] if row["feature"] == name)["n_bins_or_categories"])


def _mismatches(got, want) -> list:
    return [i for i, (a, b) in enumerate(zip(got, want)) if a != b]


@pytest.mark.parametrize("example", EXAMPLES)
def test_nbc_posteriors_and_classes_equal_jncc2(example):
    r = run(example)
    assert sorted(r["nbc"].classes_) == sorted(r["classes"])          # empty declared classes kept
    proba = r["nbc"].predict_proba(r["X_test"])[:, r["order"]]
    want = np.array([[float(row[f"nbc_p{k}"]) for k in range(len(r["classes"]))] for row in r["reference"]])
    close = np.isclose(proba, want, rtol=1e-9, atol=1e-12).all(axis=1)
    assert close.all(), (f"{example} NBC posteriors {close.sum()}/{close.size} equal; differ at "
                         f"{np.flatnonzero(~close)}")
    got = [r["classes"].index(c) for c in r["nbc"].predict(r["X_test"])]
    bad = _mismatches(got, [int(row["nbc_pred_idx"]) for row in r["reference"]])
    assert not bad, f"{example} NBC classes {len(got) - len(bad)}/{len(got)} equal; differ at {bad}"


@pytest.mark.parametrize("example", EXAMPLES)
def test_ncc2_sets_equal_jncc2(example):
    r = run(example)
    sets = r["ncc"].predict_set(r["X_test"])[:, r["order"]]
    got = [tuple(np.flatnonzero(s)) for s in sets]
    want = [tuple(int(k) for k in row["ncc2_set_idx"].split(";")) for row in r["reference"]]
    bad = _mismatches(got, want)
    assert not bad, (f"{example} NCC2 sets {len(got) - len(bad)}/{len(got)} equal; differ at "
                     f"{[(i, got[i], want[i]) for i in bad[:8]]}")


def _results_row(example: str, relation: str) -> dict:
    rows = _csv_rows(JNCC2 / example / "CheckResults" / "ResultsTable.csv")
    # the complete-data examples share one file; contact-lenses' row carries a longer WEKA name
    return next(row for row in rows
                if row["Dataset"] == relation or row["Dataset"].startswith(relation + "-"))


@pytest.mark.parametrize("example", EXAMPLES)
def test_results_table_is_reproduced(example):
    """Every indicator of JNCC2's ResultsTable.csv row, from the project's predictions, printed as JNCC2
    prints them (percentages with two decimals, the indeterminate output size with one)."""
    r = run(example)
    truth = r["truth"]
    nbc = np.array([r["classes"].index(c) for c in r["nbc"].predict(r["X_test"])])
    sets = r["ncc"].predict_set(r["X_test"])[:, r["order"]]
    size = sets.sum(axis=1)
    det, indet = size == 1, size > 1
    contains = sets[np.arange(len(truth)), truth]
    table = r["train_table"]
    row = _results_row(example, table.relation)

    def pct(num, den):
        return f"{100 * num / den:.2f}%"

    assert int(row["Instances"]) == len(table.frame)
    assert int(row["Features"]) == table.frame.shape[1] - 1
    assert int(row["Classes"]) == len(r["classes"])
    assert row["NbcAcc"] == pct((nbc == truth).sum(), len(truth))
    assert row["NccDeterm"] == pct(det.sum(), len(truth))
    assert row["NccSingleAcc"] == pct((det & contains).sum(), det.sum())
    assert row["NccSetAcc"] == pct((indet & contains).sum(), indet.sum())
    assert row["NccIndetOutSize"] == f"{size[indet].mean():.1f}"
    assert row["Nbc(Ncc-P)"] == pct((det & (nbc == truth)).sum(), det.sum())
    assert row["Nbc(Ncc-I)"] == pct((indet & (nbc == truth)).sum(), indet.sum())


def test_the_non_mar_declarations_read_as_jncc2_applies_them():
    # README: hepatitis ANOREXIA both, LIVER_BIG training, SPIDERS testing; labor's duration and
    # statutory-holidays are dropped by the discretiser, so only "testing wage-increase-first-year" acts
    assert run("hepatitis")["prep"].ncc_params() == {"non_mar_training": ["ANOREXIA", "LIVER_BIG"],
                                                     "non_mar_testing": ["ANOREXIA", "SPIDERS"]}
    assert run("labor")["prep"].ncc_params() == {"non_mar_training": [],
                                                 "non_mar_testing": ["wage-increase-first-year"]}
    for example in COMPLETE:
        assert run(example)["prep"].ncc_params() == {"non_mar_training": [], "non_mar_testing": []}


@pytest.mark.parametrize("example", ["iris", "glass"])
def test_unknown_classes_output_equals_jncc2(example):
    """JNCC2's own per-instance file (unknown-classes mode): 2-decimal NBC posteriors, NBC class and NCC2
    set by name.  glass' test file starts with a spurious row 0,1,…,8, classified like any other
    (its NCC2 set holds the declared class without training rows)."""
    r = run(example)
    folder = JNCC2 / example / "unkClasses"
    table = read_csv_bytes((folder / f"{example}.testingUnkClasses.arff").read_bytes())
    X = r["prep"].transform(table.frame)
    lines = (folder / "CheckResults" / f"Predictions-Testing-{example}.testingUnkClasses.csv").read_text(
        encoding="latin-1").splitlines()
    start = lines.index("INSTANCES AND PREDICTIONS")
    rows = [row for row in csv.reader(lines[start + 1:], quotechar="'") if row]
    header, names, rows = rows[0], rows[1], rows[2:]
    used, n_classes = len(r["prep"].columns_), len(r["classes"])
    assert header[:used] == r["prep"].columns_ and names[used:used + n_classes] == r["classes"]
    assert len(rows) == len(X)
    proba = r["nbc"].predict_proba(X)[:, r["order"]]
    printed = np.array([[float(v) for v in row[used:used + n_classes]] for row in rows])
    assert np.all(np.abs(proba - printed) <= 0.005 + 1e-12)
    assert list(r["nbc"].predict(X)) == [row[used + n_classes] for row in rows]
    sets = r["ncc"].predict_set(X)[:, r["order"]]
    got = [[r["classes"][k] for k in np.flatnonzero(s)] for s in sets]
    want = [[v for v in row[used + n_classes + 1:] if v not in ("-", "")] for row in rows]
    bad = _mismatches(got, want)
    assert not bad, f"{example} unknown-classes NCC2 sets {len(got) - len(bad)}/{len(got)} equal; at {bad}"
