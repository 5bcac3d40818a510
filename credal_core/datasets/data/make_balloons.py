"""Generate ``balloons.csv``: the 76-row union of the four UCI *Balloons* files, from their rules.

The UCI Balloons data (M. Pazzani, 1994, UCI Machine Learning Repository) come from an experiment
in cognitive psychology; its four files share the features colour (YELLOW, PURPLE), size (SMALL,
LARGE), act (STRETCH, DIP) and age (ADULT, CHILD), and each labels a balloon ``inflated`` (T/F) by
one rule (the UCI names, whose "+" is the *and* of the two conditions and "-" the *or*):

=============================  =====  ===================================================
file                           rows   inflated is T iff
=============================  =====  ===================================================
adult+stretch.data             20     age = ADULT and act = STRETCH
adult-stretch.data             20     age = ADULT or act = STRETCH
yellow-small.data              20     colour = YELLOW and size = SMALL
yellow-small+adult-stretch     16     (colour = YELLOW and size = SMALL) or
                                      (age = ADULT and act = STRETCH)
=============================  =====  ===================================================

Each file lists the 16 combinations of the four features in the order colour > size > act > age
(values in the order above).  The three 20-row files make their four extra rows by writing the
four rows of the minority class twice: each run of consecutive minority-class rows is repeated
right after itself (a single row in the first two files, the four YELLOW-SMALL rows as a block in
the third).  The union concatenates the files in the order above (the order of the UCI download).
This reproduces the original files row for row; ``tests/credal_core/test_balloons.py`` compares
with a copy of the UCI download when one is available.

Run ``.venv/bin/python sample_data/make_balloons.py`` from the repository root (byte-identical
output).
"""
from __future__ import annotations

import csv
import itertools
from pathlib import Path

COLUMNS = ("color", "size", "act", "age", "inflated")
VALUES = {"color": ("YELLOW", "PURPLE"), "size": ("SMALL", "LARGE"),
          "act": ("STRETCH", "DIP"), "age": ("ADULT", "CHILD")}


def _adult_and_stretch(r):
    return r["age"] == "ADULT" and r["act"] == "STRETCH"


def _adult_or_stretch(r):
    return r["age"] == "ADULT" or r["act"] == "STRETCH"


def _yellow_small(r):
    return r["color"] == "YELLOW" and r["size"] == "SMALL"


def _yellow_small_or_adult_stretch(r):
    return _yellow_small(r) or _adult_and_stretch(r)


# (UCI file name, rule, whether the minority-class rows are written twice)
FILES = (
    ("adult+stretch.data", _adult_and_stretch, True),
    ("adult-stretch.data", _adult_or_stretch, True),
    ("yellow-small.data", _yellow_small, True),
    ("yellow-small+adult-stretch.data", _yellow_small_or_adult_stretch, False),
)


def balloons_file(rule, repeat_minority: bool) -> list[tuple[str, ...]]:
    """The rows (colour, size, act, age, T/F) of one Balloons file."""
    combos = [dict(zip(VALUES, values)) for values in itertools.product(*VALUES.values())]
    rows = [tuple(c.values()) + ("T" if rule(c) else "F",) for c in combos]
    if not repeat_minority:
        return rows
    labels = [r[-1] for r in rows]
    minority = min("TF", key=labels.count)
    out, run = [], []
    for row in rows + [None]:                      # None flushes the last run
        if row is not None and row[-1] == minority:
            run.append(row)
            continue
        out += run + run                           # a run of minority rows, written twice
        run = []
        if row is not None:
            out.append(row)
    return out


def balloons_rows() -> list[tuple[str, ...]]:
    """The 76 rows of the union, in the order of the UCI download."""
    return [row for _, rule, repeat in FILES for row in balloons_file(rule, repeat)]


def main(path: Path = Path(__file__).resolve().parent / "balloons.csv") -> None:
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(COLUMNS)
        writer.writerows(balloons_rows())


if __name__ == "__main__":
    main()
