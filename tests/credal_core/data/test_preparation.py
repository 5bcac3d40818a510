"""Preparation: the four missing-value options, non-MAR declarations, notes, declared categories."""
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credal_core.data.discretise import bin_labels, mdl_cut_points
from credal_core.data.preparation import MISSING_CATEGORY, MISSING_CHOICES, Preparation

MODES = list(MISSING_CHOICES)


def _frame():
    X = pd.DataFrame({
        "x": ["1", "2", "3", None, "100", "101", "102", None],
        "c": ["u", "u", "v", None, "v", "v", None, "u"],
        "gone": [None] * 8,
        "d": pd.Categorical(["p", None, "p", "q", "q", "p", "q", None], categories=["p", "q", "r"]),
    })
    return X, np.array(list("aaabbbba"))


def test_ignore_and_conservative_leave_missing_cells_missing():
    X, y = _frame()
    for mode in ("ignore", "conservative"):
        out = Preparation(numeric=["x"], discretiser="median", missing=mode).fit_transform(X, y)
        assert out.isna().to_numpy().tolist() == X[["x", "c", "d"]].isna().to_numpy().tolist()
        assert out.loc[0, "x"] == "(-inf, 51.5]" and out.loc[4, "x"] == "(51.5, inf)"
    imputed = Preparation(numeric=["x"], discretiser="median", missing="impute").fit_transform(X, y)
    assert not imputed.isna().any().any() and imputed.loc[3, "x"] == "(-inf, 51.5]"   # the median itself
    kept = Preparation(numeric=["x"], discretiser="median", missing="category").fit_transform(X, y)
    assert (kept.loc[[3, 7], "x"] == MISSING_CATEGORY).all() and kept.loc[6, "c"] == MISSING_CATEGORY


def test_an_entirely_missing_column_is_left_out_with_a_note_in_every_mode():
    X, y = _frame()
    for mode in MODES:
        prep = Preparation(numeric=["x"], missing=mode).fit(X, y)
        assert "gone" not in prep.columns_ and "gone" not in prep.transform(X).columns
        assert prep.notes_ == ["column 'gone' has no value in the training rows; it is left out"]
    # missing in the training rows only: still left out (the test rows cannot teach anything)
    X.loc[7, "gone"] = "w"
    prep = Preparation(missing="ignore").fit(X.iloc[:6], y[:6])
    assert "gone" not in prep.transform(X).columns


def test_conservative_exposes_the_non_mar_columns_for_the_ncc():
    X, y = _frame()
    prep = Preparation(numeric=["x"], missing="conservative", non_mar=["c"], non_mar_training=["x"],
                       non_mar_testing=["d", "c"]).fit(X, y)
    assert prep.non_mar_training_ == ["c", "x"] and prep.non_mar_testing_ == ["c", "d"]
    assert prep.ncc_params() == {"non_mar_training": ["c", "x"], "non_mar_testing": ["c", "d"]}
    assert Preparation(missing="ignore").fit(X, y).ncc_params() == {"non_mar_training": [],
                                                                     "non_mar_testing": []}
    # a declaration on a column that is left out has no effect, and says so
    prep = Preparation(missing="conservative", non_mar=["gone", "c"]).fit(X, y)
    assert prep.ncc_params()["non_mar_training"] == ["c"]
    assert any("declaration of 'gone' has no effect" in note for note in prep.notes_)


def test_bad_non_mar_declarations_are_refused():
    X, y = _frame()
    with pytest.raises(ValueError, match=r"non-MAR columns not in the table: \['nope'\]"):
        Preparation(missing="conservative", non_mar_testing=["nope"]).fit(X, y)
    with pytest.raises(ValueError, match="used by missing='conservative' only"):
        Preparation(missing="ignore", non_mar=["c"]).fit(X, y)
    with pytest.raises(ValueError, match="missing must be one of"):
        Preparation(missing="drop").fit(X, y)
    # the settings check on zero rows (as compare_classifiers does) raises the same errors, no note
    with pytest.raises(ValueError, match="not in the table"):
        Preparation(missing="conservative", non_mar=["nope"]).fit(X.iloc[:0], y[:0])
    assert Preparation(missing="conservative", non_mar=["c"]).fit(X.iloc[:0], y[:0]).notes_ == []


def test_declared_categories_are_kept_and_bins_are_declared():
    X, y = _frame()
    for mode in MODES:
        out = Preparation(numeric=["x"], discretiser="median", missing=mode).fit_transform(X.iloc[:6], y[:6])
        extra = [MISSING_CATEGORY] if mode == "category" else []
        assert list(out["d"].cat.categories) == ["p", "q", "r"] + extra       # r: declared, never seen
        assert list(out["x"].cat.categories) == bin_labels([3.0]) + extra
    assert Preparation(missing="impute").fit_transform(X, y)["d"].isna().sum() == 0


def test_drop_single_valued_columns_like_jncc2():
    X = pd.DataFrame({"flat": ["1", "2", "1", "2"], "one": pd.Categorical(["k"] * 4, categories=["k"]),
                      "two": pd.Categorical(["k"] * 4, categories=["k", "m"]), "seen": ["s"] * 4,
                      "x": ["1", "2", "10", "11"]})
    y = list("aabb")
    prep = Preparation(numeric=["flat", "x"], discretiser="median", drop_single_valued=True,
                       jncc2_quirk=True).fit(X, y)
    assert prep.columns_ == ["flat", "two", "x"]       # the median of flat gives a cut; "seen": one value
    assert any("'one' has a single value" in note for note in prep.notes_)
    mdl = Preparation(numeric=["flat", "x"], drop_single_valued=True, jncc2_quirk=True).fit(X, y)
    assert "flat" not in mdl.columns_ and mdl.cuts_["flat"].size == 0
    assert Preparation(numeric=["flat", "x"]).fit(X, y).columns_ == list(X.columns)


def test_mdl_cuts_use_the_present_training_values_only():
    X, y = _frame()
    prep = Preparation(numeric=["x"], missing="ignore", jncc2_quirk=True).fit(X, y)
    values = pd.to_numeric(X["x"]).to_numpy(float)
    present = np.isfinite(values)
    assert prep.cuts_["x"].tolist() == mdl_cut_points(values[present], y[present], jncc2_quirk=True).tolist()


@st.composite
def tables(draw):
    n = draw(st.integers(2, 25))
    numbers = draw(st.lists(st.one_of(st.none(), st.integers(0, 9).map(str)), min_size=n, max_size=n))
    words = draw(st.lists(st.sampled_from([None, "u", "v", "w"]), min_size=n, max_size=n))
    labels = draw(st.lists(st.sampled_from("ab"), min_size=n, max_size=n))
    return pd.DataFrame({"x": numbers, "c": words}, dtype=object), np.array(labels)


@settings(max_examples=120, deadline=None)
@given(data=tables(), mode=st.sampled_from(MODES), discretiser=st.sampled_from(["mdl", "median",
                                                                                 "equal_frequency"]))
def test_modes_differ_only_on_missing_cells_and_rows_are_prepared_independently(data, mode, discretiser):
    X, y = data
    half = max(1, len(X) // 2)
    prep = Preparation(numeric=["x"], discretiser=discretiser, n_bins=3, missing=mode).fit(X.iloc[:half],
                                                                                           y[:half])
    reference = Preparation(numeric=["x"], discretiser=discretiser, n_bins=3, missing="ignore").fit(
        X.iloc[:half], y[:half])
    out, ref = prep.transform(X), reference.transform(X)
    assert list(out.columns) == list(ref.columns) == [c for c in ("x", "c") if X[c].iloc[:half].notna().any()]
    for name in out.columns:
        present = X[name].notna().to_numpy()
        assert out[name].to_numpy(object)[present].tolist() == ref[name].to_numpy(object)[present].tolist()
        if mode in ("ignore", "conservative"):
            assert pd.isna(out[name].to_numpy(object)[~present]).all()
        else:
            assert not pd.isna(out[name].to_numpy(object)).any()
    def cells(frame):
        return [["<NA>" if pd.isna(v) else v for v in row] for row in frame.to_numpy(object).tolist()]

    for i in {0, half, len(X) - 1}:                # a row's preparation depends on that row only
        assert cells(prep.transform(X.iloc[[i]])) == cells(out.iloc[[i]])
