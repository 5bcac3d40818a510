"""Missing values at random (JNCC2's convention): counts per feature over the rows where it is
present, missing test values left out of the product.  Cross-checked against references that
count the raw rows themselves (tests/credal_core/brute_force.py)."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credal_core import LNCC, NCC, CountTables, NaiveBayes
from credal_core.data.counts import MISSING, lookup_sum
from tests._depth import cases, examples
from tests.credal_core._helpers import Verdicts, assert_same_verdicts, class_pairs, quiet_fit, train_and_test
from tests.credal_core.brute_force import (
    _NCCSpace,
    encode_instance_missing,
    laplace_scores_exact,
    ncc_log_joint,
    ncc_min_ratio_matrix,
    perturbation_threshold,
    random_case,
    with_missing,
)

TIE = 1e-6


def frame_with_holes(seed, n=80, m=3):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({f"f{j}": rng.choice(["u", "v", "w"], n).astype(object) for j in range(m)})
    holes = [np.nan, None, pd.NA]
    for j in range(m):
        for i in rng.choice(n, 12, replace=False):
            X.iat[i, j] = holes[i % 3]
    return X, rng.choice(["a", "b", "c"], n)


def test_counts_per_feature_over_present_rows():
    X, y = frame_with_holes(0)
    tables = CountTables.from_data(X, y)
    np.testing.assert_array_equal(tables.class_counts, pd.Series(y).value_counts().sort_index().values)
    for j, name in enumerate(X.columns):
        present = X[name].notna().to_numpy()
        expected = pd.crosstab(pd.Series(y[present], name="y"), X[name][present].to_numpy()).reindex(
            index=tables.classes, columns=tables.categories[j], fill_value=0)
        np.testing.assert_array_equal(tables.feature_counts[j], expected.values)
        n_j = pd.Series(y[present]).value_counts().reindex(tables.classes, fill_value=0).values
        np.testing.assert_array_equal(tables.present_counts()[j], n_j)
        np.testing.assert_array_equal(tables.missing_counts()[j], tables.class_counts - n_j)
    assert [list(c) for c in tables.categories] == [["u", "v", "w"]] * 3


def test_encode_gives_missing_and_unseen_codes():
    X, y = frame_with_holes(1)
    tables = CountTables.from_data(X, y)
    new = pd.DataFrame({"f0": ["u", None, "zz", np.nan], "f1": [pd.NA, "w", "v", "u"],
                        "f2": ["v", "v", None, "zz"]})
    codes = tables.encode(new)
    assert codes.tolist() == [[0, MISSING, 1], [MISSING, 2, 1], [-1, 1, MISSING], [MISSING, 0, -1]]
    with pytest.raises(ValueError, match="non-finite"):
        CountTables.from_data(pd.DataFrame({"x": [1.0, np.inf, np.nan, 2.0]}), ["a", "b", "a", "b"])
    with pytest.raises(ValueError, match="continuous"):
        CountTables.from_data(pd.DataFrame({"x": [1.0, 0.5, np.nan, 2.0]}), ["a", "b", "a", "b"])


def test_value_matching_is_the_same_on_every_input_path():
    # 1 == 1.0 == True match one category, "1" is another value: Index.get_indexer's equality, on
    # the integer fast path, the float path and the object path alike
    X = np.array([[1, 2], [2, 1], [1, 3], [3, 3]])
    tables = CountTables.from_data(X, ["a", "b", "a", "b"])
    test = np.array([[1, 2], [3, 7], [0, 1]])
    ref = tables.encode(test)
    np.testing.assert_array_equal(tables.encode(test.astype(float)), ref)
    np.testing.assert_array_equal(tables.encode(test.astype(object)), ref)
    obj = pd.DataFrame({0: [True, "1", 1.0], 1: ["2", 2, None]})
    assert tables.encode(obj).tolist() == [[0, -1], [-1, 1], [0, MISSING]]


def test_from_codes_with_missing_equals_counting_the_data():
    rng = np.random.default_rng(2)
    X = rng.integers(0, 3, size=(120, 4))
    y = rng.integers(0, 2, size=120)
    holes = rng.random(X.shape) < 0.2
    coded = np.where(holes, MISSING, X)
    fast = CountTables.from_codes(coded, y, [3, 3, 3, 3], 2)
    slow = CountTables.from_data(pd.DataFrame(np.where(holes, np.nan, X)), y)
    np.testing.assert_array_equal(fast.class_counts, slow.class_counts)
    for a, b in zip(fast.feature_counts, slow.feature_counts):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(ValueError, match="outside its declared range"):
        CountTables.from_codes(np.array([[-1]]), [0], [2], 2)


@pytest.mark.parametrize("cls", [NaiveBayes, NCC, LNCC])
def test_chunked_learning_with_missing_equals_one_pass(cls):
    X, y = frame_with_holes(3, n=150)
    whole = cls().fit(X, y)
    chunked = cls()
    for start in range(0, 150, 41):
        chunked.partial_fit(X.iloc[start:start + 41], y[start:start + 41])
    X_new, _ = frame_with_holes(4, n=40)
    assert_same_verdicts(chunked, whole, X_new)


def test_gather_leaves_missing_features_out():
    rng = np.random.default_rng(5)
    tables = [rng.random((3, 4)) for _ in range(3)]           # (C, values + unseen column)
    codes = np.array([[0, MISSING, 2], [MISSING, MISSING, -1], [1, 2, MISSING]])
    out = lookup_sum(codes, tables)
    for i, row in enumerate(codes):
        want = sum(tables[j][:, -1 if v == -1 else v] for j, v in enumerate(row) if v != MISSING)
        np.testing.assert_allclose(out[:, i], want + np.zeros(3))


def test_missing_labels_name_their_rows():
    X = pd.DataFrame({"x": list("uvvuvu")})
    with pytest.raises(ValueError, match=r"2 missing label\(s\) \(rows 1, 4"):
        NCC().fit(X, ["a", None, "b", "a", np.nan, "b"])


@pytest.mark.parametrize("cls", [NaiveBayes, NCC])
def test_a_column_missing_everywhere_is_left_out_with_a_warning(cls):
    X, y = frame_with_holes(6)
    X_all = X.assign(empty=[None] * len(X))
    with pytest.warns(UserWarning, match="'empty'.*missing in every training row"):
        model = cls().fit(X_all, y)
    plain = cls().fit(X, y)
    X_new, _ = frame_with_holes(7, n=30)
    X_new_all = X_new.assign(empty=["u", "v", None] * 10)
    if cls is NaiveBayes:
        np.testing.assert_allclose(model.predict_proba(X_new_all), plain.predict_proba(X_new), rtol=1e-12)
    else:
        np.testing.assert_array_equal(model.predict_set(X_new_all), plain.predict_set(X_new))


# --- the NBCs against the raw-row references -------------------------------------------------------
def holey_case(seed, train_missing=0.25, **kw):
    """``random_case(seed, **kw)`` with values missing at random (the holes drawn from the same seed)."""
    rng = np.random.default_rng(seed)
    X, y, _, X_test = random_case(seed, **kw)
    return with_missing(X, rng, train_missing), y, with_missing(X_test, rng, 0.3, keep_one=False)


def encoded_rows(model, X, y, X_test):
    """Each test row's index and counts as the raw-row references take them."""
    for row in range(len(X_test)):
        yield row, encode_instance_missing(X, y, list(model.classes_), list(X_test.iloc[row]))


def test_laplace_nbc_with_missing_values_matches_exact_fractions():
    for seed in range(40):
        X, y, X_test = holey_case(seed, n_test=3, n_classes=3)
        model = NaiveBayes(prior="laplace").fit(X, y)
        p = model.predict_proba(X_test)
        for row, (n_c, n_cf, n_jc, inst, n_values) in encoded_rows(model, X, y, X_test):
            scores = laplace_scores_exact(n_c, n_cf, inst, n_values, n_jc=n_jc)
            want = np.array([float(v / sum(scores)) for v in scores])
            np.testing.assert_allclose(p[row], want, rtol=1e-12)


def test_perks_nbc_with_missing_values_matches_the_definition():
    for seed in range(40):
        X, y, X_test = holey_case(100 + seed, n_test=3, unseen=seed % 2 == 0)
        s = [0.5, 1.0, 3.0][seed % 3]
        model = NaiveBayes(s=s).fit(X, y)
        p = model.predict_proba(X_test)
        for row, (n_c, n_cf, n_jc, inst, n_values) in encoded_rows(model, X, y, X_test):
            space = _NCCSpace(len(n_c), [t.shape[1] for t in n_cf])
            u = space.project(np.ones(space.dim))
            # epsilon = 1: t is Perks' prior whatever u is
            logs = np.array([ncc_log_joint(u, space, n_c, n_cf, inst, s, 1.0, n_values, c, n_jc)[0]
                             for c in range(len(n_c))])
            want = np.exp(logs - logs.max())
            np.testing.assert_allclose(p[row], want / want.sum(), rtol=1e-10)


def test_perturbation_threshold_with_missing_values_matches_bisection_on_vertices():
    compared = 0
    for seed in range(30):
        X, y, X_test = holey_case(200 + seed, n_test=2, unseen=seed % 3 == 0)
        model = NaiveBayes(prior="laplace").fit(X, y)
        got = model.perturbation_threshold(X_test)
        for row, (n_c, n_cf, n_jc, inst, n_values) in encoded_rows(model, X, y, X_test):
            want = perturbation_threshold(n_c, n_cf, inst, n_values, n_jc=n_jc)
            np.testing.assert_allclose(got[row], want, rtol=1e-7, atol=1e-9, err_msg=f"seed {200 + seed}")
            compared += want > 0
    assert compared >= 20


# --- the NCC against the SLSQP brute force ------------------------------------------------------
@pytest.mark.parametrize("part", range(3))
def test_ncc_dominance_with_missing_values_matches_brute_force(part):
    verdicts = Verdicts(TIE)
    for i in range(cases(15)):
        seed = 50_000 + 1_000 * part + i
        X, y, X_test = holey_case(seed, train_missing=0.3, n_test=2, unseen=i % 5 == 0)
        s, eps = [1.0, 2.0, 0.5][i % 3], [0.0, 0.0, 0.1, 0.5][i % 4]
        model = NCC(s=s, epsilon=eps).fit(X, y)
        dom = model.dominance(X_test)
        order = list(model.classes_)
        for row, (n_c, n_cf, n_jc, inst, n_values) in encoded_rows(model, X, y, X_test):
            brute = ncc_min_ratio_matrix(n_c, n_cf, inst, s=s, epsilon=eps, n_values=n_values, n_jc=n_jc,
                                         seed=seed, stop_below=1 - TIE)
            for a, b in class_pairs(len(order)):
                verdicts.check(bool(dom[row, a, b]), brute[a, b],
                               f"seed={seed} s={s} eps={eps} row={row} {a} vs {b}")
    verdicts.assert_sound()


# --- properties -------------------------------------------------------------------------------
def holey(max_classes=3):
    """Training and test rows with values missing anywhere (None); a test value may be unseen."""
    return train_and_test(rows=(3, 20), features=(2, 4), levels=(2, 3), max_classes=max_classes, max_test=5,
                          missing=True)


SETTINGS = settings(max_examples=examples(50), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(data=holey(), s=st.floats(0.05, 10), eps=st.floats(0, 1))
def test_ncc_set_contains_the_perks_nbc_label_with_missing_values(data, s, eps):
    X, y, X_test = data
    ncc, nbc = quiet_fit(NCC(s=s, epsilon=eps), X, y), quiet_fit(NaiveBayes(s=s), X, y)
    sets = ncc.predict_set(X_test)
    jll = nbc._joint_log_likelihood(ncc.tables_.encode(X_test))
    top = jll >= jll.max(axis=0, keepdims=True) - 1e-12 * np.abs(jll.max(axis=0, keepdims=True))
    assert np.all(sets | ~top.T)


@SETTINGS
@given(data=holey(), s=st.floats(0.05, 10), eps=st.floats(0, 1), j=st.integers(0, 3))
def test_a_missing_test_value_equals_the_model_without_that_feature(data, s, eps, j):
    # Under MAR the other features' counts do not depend on column j, and a missing value leaves
    # its factor out: the verdicts are those of the model that never had column j (any n_j(c)).
    X, y, X_test = data
    j = j % X.shape[1]
    name = X.columns[j]
    full, without = (quiet_fit(NCC(s=s, epsilon=eps), table, y) for table in (X, X.drop(columns=name)))
    nb_full, nb_without = (quiet_fit(NaiveBayes(s=s), table, y) for table in (X, X.drop(columns=name)))
    holed = X_test.copy()
    holed[name] = None
    np.testing.assert_array_equal(full.dominance(holed), without.dominance(X_test.drop(columns=name)))
    np.testing.assert_allclose(nb_full.predict_proba(holed),
                               nb_without.predict_proba(X_test.drop(columns=name)), rtol=1e-9, atol=1e-300)


@SETTINGS
@given(data=holey(), s=st.floats(0.05, 10), eps=st.floats(0, 1))
def test_ncc_dominance_with_missing_values_is_a_strict_partial_order(data, s, eps):
    X, y, X_test = data
    dom = quiet_fit(NCC(s=s, epsilon=eps), X, y).dominance(X_test)
    assert not (dom & np.swapaxes(dom, 1, 2)).any()
    chained = np.einsum("iab,ibc->iac", dom.astype(int), dom.astype(int)) > 0
    assert not (chained & ~dom).any()
