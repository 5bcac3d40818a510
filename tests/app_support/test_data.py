"""The shipped samples go through the core loader (the Compare page's), and that changes nothing:
for every categorical sample the frame is the file's text, cell for cell, with no missing cell."""
from __future__ import annotations

import pandas as pd
import pytest

from app_support.data import SAMPLES, load_sample, sample_bytes, sample_names
from credal_core.data.csv_loader import read_csv_bytes
from credal_core.datasets import dataset_path


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_every_sample_is_the_files_text_through_the_core_loader(name):
    filename, target = SAMPLES[name]
    X, y = load_sample(name)
    plain = pd.read_csv(dataset_path(name), dtype=str, keep_default_na=False)     # the former reader
    want_y = plain.pop(target)
    assert list(X.columns) == list(plain.columns) and target not in X.columns
    assert not X.isna().any().any() and not y.isna().any()
    pd.testing.assert_frame_equal(X.astype(object), plain.astype(object))
    pd.testing.assert_series_equal(y.astype(object), want_y.astype(object))
    table = read_csv_bytes(sample_bytes(name), name=filename)
    assert table.numeric == [] and sum(table.missing.values()) == 0
    pd.testing.assert_frame_equal(X, table.frame.drop(columns=target))


def test_unknown_sample():
    with pytest.raises(ValueError, match="unknown sample"):
        load_sample("iris")                 # numeric: only through sample_bytes (pages that discretise)
    assert "iris" in sample_names(include_numeric=True) and "iris" not in sample_names()
