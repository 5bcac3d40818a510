"""Loading the data sets shipped with the package (``credal_core.datasets``: the files ``sample_data/``
links to; no streamlit here; pages add caching).

One rule for every file: a sample is read by the core loader that reads an upload on the Compare page
(:func:`credal_core.data.csv_loader.read_csv_bytes`: cells stripped, the missing-value tokens ``?``,
``NA``, empty … read as missing), so every page sees the same frame of the same file.  The shipped
categorical samples have no missing cell: their values are their text, exactly as in the file (a test
checks this against a plain ``pandas.read_csv(dtype=str, keep_default_na=False)`` of every one).
"""

from __future__ import annotations

import pandas as pd

from credal_core.data.csv_loader import read_csv_bytes
from credal_core.datasets import DATASETS, dataset_path

# name -> (file, class column), in the order the pages offer them: the package's own table
SAMPLES: dict[str, tuple[str, str]] = {
    name: DATASETS[name]
    for name in ("synthetic_nb", "weather", "balloons", "tic_tac_toe", "monks1", "monks2", "monks3")
}
# Numeric features: only for pages that discretise (they would be nonsense read as categories).
NUMERIC_SAMPLES: dict[str, tuple[str, str]] = {
    name: DATASETS[name] for name in ("iris", "wine", "breast_cancer")
}


ALL_SAMPLES = {**SAMPLES, **NUMERIC_SAMPLES}


def sample_names(*, include_numeric: bool = False) -> list[str]:
    """The categorical samples (and, with ``include_numeric``, those with numeric features too)."""
    return list(SAMPLES) + (list(NUMERIC_SAMPLES) if include_numeric else [])


def load_sample(name: str) -> tuple[pd.DataFrame, pd.Series]:
    """Return ``(X, y)`` for a shipped sample: X holds the feature columns as text, y the class (the
    core loader's frame of the file, as an upload of it on the Compare page)."""
    try:
        filename, target = SAMPLES[name]
    except KeyError:
        raise ValueError(f"unknown sample data set {name!r}; choose one of {sample_names()}") from None
    frame = read_csv_bytes(sample_bytes(name), name=filename).frame
    y = frame.pop(target)
    return frame, y


def sample_bytes(name: str) -> bytes:
    """The raw bytes of a shipped sample's CSV (to go through the same loader as an upload)."""
    if name not in ALL_SAMPLES:
        raise ValueError(f"unknown sample data set {name!r}; choose one of {list(ALL_SAMPLES)}")
    return dataset_path(name).read_bytes()


def sample_class_column(name: str) -> str:
    return ALL_SAMPLES[name][1]
