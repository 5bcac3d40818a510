"""Declared schemas: classes declared at fit, the |F_j| policy (values seen, declared pandas
categories, explicit lists), and count tables of whole-file codes restricted to a fold."""
import numpy as np
import pandas as pd
import pytest

from credal_core import LNCC, NCC, CountTables, NaiveBayes


def small():
    X = pd.DataFrame({"colour": list("rrgbgbrg"), "size": list("sslslsll")})
    y = np.array(["yes", "no", "yes", "no", "no", "yes", "yes", "no"])
    return X, y


@pytest.mark.parametrize("cls", [NaiveBayes, NCC, LNCC])
def test_declared_classes_without_rows_stay_classes(cls):
    X, y = small()
    model = cls().fit(X, y, classes=["maybe", "no", "yes"])
    assert list(model.classes_) == ["maybe", "no", "yes"]
    assert model.class_count_.tolist() == [0, 4, 4]
    out = model.predict_proba(X) if cls is NaiveBayes else model.predict_set(X)
    assert out.shape == (8, 3)
    with pytest.raises(ValueError, match="not among the declared classes"):
        cls().fit(X, y, classes=["no"])


def test_an_empty_declared_class_changes_the_perks_prior_as_its_formula_says():
    X, y = small()
    model = NaiveBayes(s=1.0).fit(X, y, classes=["maybe", "no", "yes"])
    row = pd.DataFrame({"colour": ["r"], "size": ["s"]})
    # by hand: |C| = 3, |F| = 3 colours and 2 sizes; n(no) = n(yes) = 4, n(maybe) = 0
    def joint(n_c, n_r, n_s):
        den = n_c + 1 / 3
        return (den / 9) * (n_r + 1 / 9) / den * (n_s + 1 / 6) / den
    want = np.array([joint(0, 0, 0), joint(4, 1, 2), joint(4, 2, 2)])
    np.testing.assert_allclose(model.predict_proba(row)[0], want / want.sum(), rtol=1e-12)


def test_declared_categories_count_in_f_j():
    X, y = small()
    declared = X.assign(colour=pd.Categorical(X["colour"], categories=["r", "g", "b", "purple"]))
    seen = NaiveBayes(s=2.0).fit(declared, y)
    wide = NaiveBayes(s=2.0, categories="declared").fit(declared, y)
    listed = NaiveBayes(s=2.0, categories=[["r", "g", "b", "purple"], ["s", "l"]]).fit(X, y)
    assert [list(c) for c in seen.tables_.categories] == [["b", "g", "r"], ["l", "s"]]
    assert sorted(wide.tables_.categories[0]) == ["b", "g", "purple", "r"]
    assert wide.feature_count_[0].sum(axis=0)[list(wide.tables_.categories[0]).index("purple")] == 0
    row = pd.DataFrame({"colour": ["r"], "size": ["s"]})
    np.testing.assert_allclose(wide.predict_proba(row), listed.predict_proba(row), rtol=1e-14)
    # by hand, |F_colour| = 4: theta = (n(c, r) + s/(2*4)) / (n(c) + s/2)
    n_r = {"no": 1, "yes": 2}
    n_s = {"no": 2, "yes": 2}
    want = np.array([(n_r[c] + 0.25) / 5 * (n_s[c] + 0.5) / 5 for c in ("no", "yes")])
    np.testing.assert_allclose(wide.predict_proba(row)[0], want / want.sum(), rtol=1e-12)
    assert not np.allclose(seen.predict_proba(row), wide.predict_proba(row))
    # a declared value never seen is a value like any other at predict time
    assert wide.tables_.encode(pd.DataFrame({"colour": ["purple"], "size": ["s"]}))[0, 0] >= 0


@pytest.mark.parametrize("policy, message", [
    ("everything", "categories must be"),
    ([["r", "g"], ["s", "l"]], "holds 'b', which is not among its declared categories"),
    ([["r", "g", "b"]], "lists 1 features but X has 2"),
    (5, "categories must be"),
])
def test_bad_category_policies(policy, message):
    X, y = small()
    with pytest.raises(ValueError, match=message):
        NCC(categories=policy).fit(X, y)


def test_restrict_to_seen_equals_fitting_the_fold():
    # The experiment engine counts whole-file codes (every value declared) and restricts them to the
    # values seen in the training fold: the same NCC as fitting the fold's rows.
    for seed in range(25):
        rng = np.random.default_rng(seed)
        n, m = int(rng.integers(10, 60)), int(rng.integers(1, 5))
        levels = rng.integers(2, 6, size=m)
        values = [np.array([f"v{k}" for k in range(lv)], dtype=object) for lv in levels]
        codes = np.column_stack([rng.integers(0, lv, n) for lv in levels])
        codes = np.where(rng.random(codes.shape) < 0.15, -2, codes)           # missing cells
        y = rng.integers(0, 3, n)
        y[:3] = [0, 1, 2]
        X = pd.DataFrame({f"x{j}": np.where(codes[:, j] >= 0, values[j][np.maximum(codes[:, j], 0)], None)
                          for j in range(m)})
        fold = rng.random(n) < 0.6
        fold[:3] = True
        s, eps = [1.0, 2.0][seed % 2], [0.0, 0.2][seed % 2]
        direct = NCC(s=s, epsilon=eps).fit(X[fold], y[fold], classes=[0, 1, 2])
        tables = CountTables.from_codes(codes[fold], y[fold], levels, 3, feature_names=list(X.columns))
        engine = NCC(s=s, epsilon=eps).fit_counts(tables.restrict_to_seen())
        test = ~fold
        if not test.any():
            continue
        # through the public API an integer -2 would be a value: missing cells are NaN there
        coded = np.where(codes[test] >= 0, codes[test], np.nan)
        np.testing.assert_array_equal(engine.predict_set(coded), direct.predict_set(X[test]))
        np.testing.assert_array_equal(engine.dominance(coded), direct.dominance(X[test]))
        nb_direct = NaiveBayes(s=s).fit(X[fold], y[fold], classes=[0, 1, 2])
        nb_engine = NaiveBayes(s=s).fit_counts(tables.restrict_to_seen())
        np.testing.assert_allclose(nb_engine.predict_proba(coded), nb_direct.predict_proba(X[test]),
                                   rtol=1e-12)


@pytest.mark.parametrize("include_instance", [True, False])
def test_lncc_declared_categories_set_its_perks_label_and_leave_its_critical_alpha(include_instance):
    """A declared value with no training row: ``predict`` is the Perks NBC (s = 1) over the declared
    values, and the critical α is the brute force's over the raw parameters with that extra, empty
    value — the same as with the values seen only (mass on an empty value only costs likelihood)."""
    from tests.credal_core.brute_force_lncc import lncc_critical_alpha_observed

    X, y = small()
    values = ["r", "g", "b", "purple"]
    declared = X.assign(colour=pd.Categorical(X["colour"], categories=values))
    rows = pd.DataFrame({"colour": ["r", "purple", "b", "g"], "size": ["s", "l", "l", "s"]})
    wide = LNCC(include_instance=include_instance, categories="declared").fit(declared, y)
    seen = LNCC(include_instance=include_instance).fit(declared, y)
    listed = LNCC(include_instance=include_instance, categories=[values, ["s", "l"]]).fit(X, y)
    assert sorted(wide.tables_.categories[0]) == sorted(values)
    perks = NaiveBayes(s=1.0, categories="declared").fit(declared, y)
    np.testing.assert_allclose(wide.predict_proba(rows), perks.predict_proba(rows), rtol=1e-13)
    assert not np.allclose(wide.predict_proba(rows), seen.predict_proba(rows))

    crit = wide.critical_alpha(rows)
    np.testing.assert_allclose(crit, listed.critical_alpha(rows), rtol=1e-13)
    np.testing.assert_allclose(crit, seen.critical_alpha(rows), rtol=1e-9, atol=1e-12)
    classes = list(wide.classes_)
    n_c = np.array([np.sum(y == c) for c in classes])
    levels = [values, ["s", "l"]]
    n_cf = [np.array([[np.sum((y == c) & (X[name] == v).to_numpy()) for v in vals] for c in classes])
            for name, vals in zip(X.columns, levels)]
    for i in range(len(rows)):
        inst = tuple(vals.index(rows.iloc[i][name]) for name, vals in zip(X.columns, levels))
        for a, b in ((0, 1), (1, 0)):
            want = lncc_critical_alpha_observed(n_c, n_cf, inst, a, b, include_instance=include_instance,
                                                n_random=10)
            assert crit[i, a, b] == pytest.approx(want, abs=1e-4), (i, a, b)


@pytest.mark.parametrize("include_instance", [True, False])
def test_lncc_sets_do_not_depend_on_declared_categories_on_every_stage(include_instance):
    """Many rows and several α, so that every stage of the LNCC's dominance test runs (compiled or numpy
    certificates, probes, Taylor stage, exact search) on tables with declared empty values: the same
    verdicts as with the values seen only."""
    rng = np.random.default_rng(11)
    n, m = 300, 5
    seen_values = [[f"v{k}" for k in range(int(rng.integers(2, 4)))] for _ in range(m)]
    declared_values = [vals + ["empty1", "empty2"] for vals in seen_values]
    X = pd.DataFrame({f"x{j}": pd.Categorical(rng.choice(seen_values[j], n), categories=declared_values[j])
                      for j in range(m)})
    y = np.where(rng.random(n) < 0.5, "a", np.where(rng.random(n) < 0.5, "b", "c"))
    test = pd.DataFrame({f"x{j}": rng.choice(declared_values[j], 2000) for j in range(m)})
    wide = LNCC(include_instance=include_instance, categories="declared").fit(X, y)
    seen = LNCC(include_instance=include_instance).fit(X, y)
    for alpha in (0.05, 0.3, 0.6, 0.9, 0.99):
        wide.set_params(alpha=alpha)
        seen.set_params(alpha=alpha)
        np.testing.assert_array_equal(wide.dominance(test), seen.dominance(test))
        np.testing.assert_array_equal(wide.predict_set(test), seen.predict_set(test))
