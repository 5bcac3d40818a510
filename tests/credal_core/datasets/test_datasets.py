"""credal_core.datasets: one loader per shipped CSV, the values of the file, sklearn's return shapes,
the descriptions of data/README.md, and sample_data/ as a relative link to the package's data."""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import credal_core.datasets as ds

ROOT = Path(__file__).resolve().parents[3]
DATA = ROOT / "credal_core" / "datasets" / "data"
NUMERIC = {"iris", "wine", "breast_cancer"}


def test_every_shipped_csv_has_a_loader_and_nothing_else():
    assert ds.list_datasets() == sorted(p.stem for p in DATA.glob("*.csv"))
    for name in ds.list_datasets():
        assert callable(getattr(ds, f"load_{name}")) and f"load_{name}" in ds.__all__
        assert ds.dataset_path(name) == DATA / f"{name}.csv"


@pytest.mark.parametrize("name", sorted(p.stem for p in DATA.glob("*.csv")))
def test_the_loader_gives_the_files_values(name):
    bunch = getattr(ds, f"load_{name}")()
    raw = pd.read_csv(DATA / f"{name}.csv", dtype=str, keep_default_na=False)
    target = raw.columns[-1]                        # every shipped file has its class last
    assert bunch.target_name == target and bunch.target.name == target
    assert bunch.feature_names == list(raw.columns[:-1]) == list(bunch.data.columns)
    assert list(bunch.frame.columns) == list(raw.columns)
    assert bunch.target.astype(str).tolist() == raw[target].tolist()
    for column in bunch.feature_names:
        if name in NUMERIC:
            assert bunch.data[column].dtype == float
            np.testing.assert_array_equal(bunch.data[column].to_numpy(), raw[column].astype(float).to_numpy())
        else:
            assert bunch.data[column].astype(str).tolist() == raw[column].tolist()
    assert bunch.numeric == (bunch.feature_names if name in NUMERIC else [])
    X, y = getattr(ds, f"load_{name}")(return_X_y=True)
    pd.testing.assert_frame_equal(X, bunch.data)
    pd.testing.assert_series_equal(y, bunch.target)


@pytest.mark.parametrize("name", ds.list_datasets())
def test_descr_comes_from_the_readme_row_and_states_the_row_count(name):
    descr = ds.load_dataset(name).DESCR
    row = next(line for line in (DATA / "README.md").read_text(encoding="utf-8").splitlines()
               if line.startswith(f"| `{name}.csv` |"))
    rows = row.split("|")[4].strip()
    assert descr.startswith(f"{name}.csv: {rows} rows") and "Licence:" in descr
    assert int(rows) == len(pd.read_csv(DATA / f"{name}.csv"))


def test_an_unknown_name_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown data set 'iriss'.*'iris'"):
        ds.load_dataset("iriss")
    with pytest.raises(ValueError, match="unknown data set"):
        ds.dataset_path("../pyproject")


def test_the_bunch_is_a_dict_with_attributes():
    bunch = ds.load_weather()
    assert bunch["data"] is bunch.data and "DESCR" in dir(bunch)
    with pytest.raises(AttributeError):
        bunch.nothing


def test_sample_data_is_a_relative_link_to_the_package_data():
    link = ROOT / "sample_data"
    assert link.is_symlink() and not os.path.isabs(os.readlink(link))
    assert link.resolve() == DATA.resolve()
    assert (link / "iris.csv").read_bytes() == ds.dataset_path("iris").read_bytes()
