"""From a loaded table to a data set to compare on: the Compare page's and the command line's rules.

One place decides, for a table read by :mod:`.csv_loader` (CSV or ARFF) and a chosen class column,
which columns are features and which rows are kept:

* the class column must hold at least two classes (:func:`.csv_loader.check_class_column`);
* rows without a class are left out (they cannot be scored), and so are the rows of classes seen
  fewer than ``min_per_class`` times (stratified k-fold cannot place them);
* ID-like columns (a different value on every row) are left out unless ``drop_id_like`` is false;
  so are columns with more than ``max_levels`` categories, and columns missing on every row;
* number-like columns may be discretised; those the loader found numeric are proposed by default.

Every decision is returned as a note in words, so the page and the command line say the same thing.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from .csv_loader import CsvProblem, LoadedTable, check_class_column

__all__ = ["DatasetChoice", "choose_columns"]


@dataclass(frozen=True)
class DatasetChoice:
    """The features and labels taken from a table, and why the rest was left out."""

    X: pd.DataFrame                     # feature columns, rows kept
    y: pd.Series                        # class labels, rows kept
    number_like: list                   # features that may be discretised
    numeric: list                       # of those, the ones proposed by default (read as numbers)
    id_like: list                       # ID-like features (dropped when drop_id_like)
    notes: list = field(default_factory=list)
    class_counts: dict = field(default_factory=dict)


def choose_columns(table: LoadedTable, class_column: str, *, drop_id_like: bool = True, max_levels: int = 200,
                   min_per_class: int = 2) -> DatasetChoice:
    """Apply the rules of this module; raises :class:`~.csv_loader.CsvProblem` with the reason when
    nothing usable is left (fewer than two classes, no feature column)."""
    info = check_class_column(table, class_column, min_per_class=min_per_class)
    frame = table.frame
    columns = [c for c in frame.columns if c != class_column]
    notes = []
    id_like = [c for c in table.id_like if c != class_column]
    drop = list(id_like) if drop_id_like else []
    if drop:
        notes.append(f"ID-like columns left out (a different value on every row): {', '.join(drop)}")
    too_many = [c for c in columns if c not in table.numeric and c not in drop
                and frame[c].nunique() > max_levels]
    if too_many:
        notes.append(f"left out (more than {max_levels} categories): {', '.join(too_many)}")
    empty = [c for c in columns if frame[c].isna().all() and c not in drop]
    if empty:
        notes.append(f"left out (missing on every row): {', '.join(empty)}")
    drop += too_many + empty
    features = [c for c in columns if c not in drop]
    if not features:
        hint = " (keep the ID-like columns to use them)" if id_like and drop_id_like else ""
        raise CsvProblem(f"no feature column is left{hint}")
    keep = frame[class_column].notna()
    if info["missing_rows"]:
        notes.append(f"{info['missing_rows']} rows without a class are left out")
    if info["rare"]:
        notes.append(f"classes seen once only cannot be cross-validated; their rows are left out: "
                     f"{', '.join(map(str, info['rare'][:5]))}")
        keep &= ~frame[class_column].isin(info["rare"])
    labels = frame.loc[keep, class_column]
    if labels.nunique() < 2:
        raise CsvProblem("fewer than two classes remain after leaving out rare classes")
    number_like = [c for c in features if c in table.number_like]
    return DatasetChoice(frame.loc[keep, features], labels, number_like,
                         [c for c in table.numeric if c in number_like], id_like, notes,
                         labels.value_counts().to_dict())
