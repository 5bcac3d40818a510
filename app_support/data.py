"""Loading the data sets shipped in ``sample_data/`` (no streamlit here; pages add caching)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

SAMPLE_DIR = Path(__file__).resolve().parent.parent / "sample_data"

# name -> (file, class column)
SAMPLES: dict[str, tuple[str, str]] = {
    "synthetic_nb": ("synthetic_nb.csv", "class"),
    "weather": ("weather.csv", "play"),
    "balloons": ("balloons.csv", "inflated"),
}


def sample_names() -> list[str]:
    return list(SAMPLES)


def load_sample(name: str) -> tuple[pd.DataFrame, pd.Series]:
    """Return ``(X, y)`` for a shipped sample: X holds the feature columns as text, y the class."""
    try:
        filename, target = SAMPLES[name]
    except KeyError:
        raise ValueError(f"unknown sample data set {name!r}; choose one of {sample_names()}") from None
    frame = pd.read_csv(SAMPLE_DIR / filename, dtype=str, keep_default_na=False)
    y = frame.pop(target)
    return frame, y


def sample_bytes(name: str) -> bytes:
    """The raw bytes of a shipped sample's CSV (to go through the same loader as an upload)."""
    try:
        filename, _ = SAMPLES[name]
    except KeyError:
        raise ValueError(f"unknown sample data set {name!r}; choose one of {sample_names()}") from None
    return (SAMPLE_DIR / filename).read_bytes()


def sample_class_column(name: str) -> str:
    return SAMPLES[name][1]
