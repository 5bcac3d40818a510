"""``encode_dataset`` goes through the estimators' encoding (``CountTables.count_and_encode``):
the same codes as the text-sorting encoder it replaced on plain tables, and the one class rule
(a Categorical class column's categories are classes) shared with the Compare page."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from app_support.data import load_sample, sample_names
from credal_core.data.counts import MISSING
from credal_core.experiments.compare import ClassifierSpec, compare_classifiers
from credal_core.experiments.evaluate import ClassifierGrid
from credal_core.experiments.sweeps import dataset_experiment, encode_dataset


def _text_sorting_encoder(X, y):
    """The encoder before the consolidation (values and labels sorted as text; missing cells
    MISSING), kept here as an independent reference."""
    classes, y_codes = np.unique(pd.Series(np.asarray(y, dtype=object)).astype(str), return_inverse=True)
    codes = np.empty(X.shape, dtype=np.int64)
    n_values = []
    for j, name in enumerate(X.columns):
        column = X[name]
        missing = column.isna().to_numpy()
        cats, inverse = np.unique(column[~missing].astype(str).to_numpy(), return_inverse=True)
        codes[~missing, j] = inverse
        codes[missing, j] = MISSING
        n_values.append(len(cats))
    return codes, y_codes, np.asarray(n_values), classes


@pytest.mark.parametrize("name", sample_names())
def test_codes_equal_the_text_sorting_encoder_on_every_sample(name):
    X, y = load_sample(name)
    X = X.copy()
    rng = np.random.default_rng(0)
    X = X.mask(rng.random(X.shape) < 0.1)                    # missing cells too
    data = encode_dataset(X, y)
    codes, y_codes, n_values, classes = _text_sorting_encoder(X, y)
    np.testing.assert_array_equal(data.X, codes)
    np.testing.assert_array_equal(data.y, y_codes)
    np.testing.assert_array_equal(data.n_values, n_values)
    assert data.classes.tolist() == classes.tolist()


def test_numbers_and_mixed_values_are_coded_as_text():
    X = pd.DataFrame({"n": [1, 2, 10, None, 2], "m": ["a", 1, "1", "b", None]})
    y = [3, 10, 3, 10, 3]
    data = encode_dataset(X, y)
    codes, y_codes, n_values, classes = _text_sorting_encoder(X, y)
    np.testing.assert_array_equal(data.X, codes)
    np.testing.assert_array_equal(data.y, y_codes)
    assert data.classes.tolist() == ["10", "3"] == classes.tolist()


def test_a_categorical_class_column_declares_its_classes():
    X, y = load_sample("weather")
    declared = pd.Series(pd.Categorical(y, categories=sorted(set(y)) + ["maybe"]))
    data = encode_dataset(X, declared)
    assert data.classes.tolist() == ["maybe", "no", "yes"]
    assert np.bincount(data.y, minlength=3)[0] == 0


def test_declared_feature_categories_count_in_f_j_only_under_declared():
    X, y = load_sample("weather")
    X = X.copy()
    X["outlook"] = pd.Categorical(X["outlook"], categories=sorted(set(X["outlook"])) + ["snow"])
    seen, declared = encode_dataset(X, y), encode_dataset(X, y, "declared")
    j = list(X.columns).index("outlook")
    assert declared.n_values[j] == seen.n_values[j] + 1
    np.testing.assert_array_equal(np.delete(declared.n_values, j), np.delete(seen.n_values, j))


def test_compare_and_the_sweep_agree_with_an_empty_declared_class():
    """The disagreement this rule removed (Compare declared the empty class, the sweep dropped it):
    per fold, the NCC's determinacy through both paths; the empty class lowers it."""
    X, y = load_sample("monks1")
    declared = pd.Series(pd.Categorical(y, categories=sorted(set(y)) + ["never"]))
    spec = [ClassifierSpec("NCC", "NCC", {"s": 1.0})]
    grid = ClassifierGrid(epsilons=(0.0,), alphas=(), s_values=(1.0,))
    compare = compare_classifiers(X, declared, specs=spec, n_splits=3, n_repeats=1, missing="ignore")
    sweep = dataset_experiment(X, declared, n_splits=3, n_repeats=1, grid=grid)
    ncc = sweep[sweep["setting"] == "NCC_ε=0"].reset_index(drop=True)
    np.testing.assert_allclose(compare["determinacy"].to_numpy(float), ncc["determinacy"].to_numpy(float),
                               rtol=0, atol=1e-12)
    plain = compare_classifiers(X, y, specs=spec, n_splits=3, n_repeats=1, missing="ignore")
    assert (plain["determinacy"].to_numpy() > compare["determinacy"].to_numpy()).all()
