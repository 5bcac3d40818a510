"""The one estimator base (issue 23): what every family inherits, checked on small stand-in families."""
from __future__ import annotations

import warnings
from numbers import Real

import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import NotFittedError
from sklearn.utils._param_validation import Interval, StrOptions

from credal_core import NCC, NaiveBayes
from credal_core._base import (
    CATEGORIES_CONSTRAINT,
    CategoricalClassifier,
    NaiveCountsClassifier,
    perks_log_joint,
    plain_parameter_message,
)


class TinyNB(CategoricalClassifier):
    """The module docstring's example family."""

    _parameter_constraints = {"s": [Interval(Real, 0, None, closed="left")],
                              "mode": [StrOptions({"a", "b"})], "categories": CATEGORIES_CONSTRAINT}

    def __init__(self, *, s=1.0, mode="a", categories="seen"):
        self.s = s
        self.mode = mode
        self.categories = categories

    def _joint_log_likelihood(self, codes):
        return perks_log_joint(self.tables_, codes, float(self.s))


class RowsSeen(TinyNB):
    """A family that needs the training rows; it keeps what the base hands it."""

    _needs_training_codes = True

    def _fit_tables(self, tables, codes=None, y_codes=None):
        self.seen_ = (tables, codes, y_codes)


class Refuses(TinyNB):
    def _fit_tables(self, tables, codes=None, y_codes=None):
        raise ValueError("no thanks")


class NoProbabilities(TinyNB):
    _has_joint_log_likelihood = False


class Unconstrained(NaiveCountsClassifier):
    """Like a subclass written before the base (no ``_parameter_constraints``, LNCC's state)."""

    def __init__(self, *, anything=None):
        self.anything = anything

    def _joint_log_likelihood(self, codes):
        return perks_log_joint(self.tables_, codes, 1.0)


def _data(seed=0, n=40):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"a": rng.choice(list("xyz"), n), "b": rng.choice(list("pq"), n)})
    y = rng.choice(["u", "v", "w"], n)
    return X, y


def test_the_docstring_family_equals_naive_bayes():
    X, y = _data()
    mine, nb = TinyNB(s=2.0).fit(X, y), NaiveBayes(s=2.0).fit(X, y)
    np.testing.assert_array_equal(mine.predict_proba(X), nb.predict_proba(X))
    np.testing.assert_array_equal(mine.predict(X), nb.predict(X))
    assert list(mine.feature_names_in_) == ["a", "b"] and mine.n_features_in_ == 2
    assert mine.__sklearn_tags__().input_tags.categorical


@pytest.mark.parametrize("params, message", [
    ({"s": -1.0}, r"s must be a float in the range \[0.0, inf\); got -1.0 \(a parameter of TinyNB\)"),
    ({"s": True}, "s must be a number, not a bool"),
    ({"s": np.inf}, r"s must be a float in the range \[0.0, inf\); got inf"),
    ({"s": float("nan")}, "s must be a float"),
    ({"mode": "c"}, "mode must be a str among"),
    ({"categories": "all"}, "categories must be"),
    ({"categories": 3}, "categories must be"),
])
def test_parameters_are_checked_by_the_constraints(params, message):
    X, y = _data()
    with pytest.raises(ValueError, match=message):
        TinyNB(**params).fit(X, y)
    with pytest.raises(ValueError, match=message):
        TinyNB(**params).check_parameters()


def test_an_infinite_bound_admits_infinity():
    class Wide(TinyNB):
        _parameter_constraints = {**TinyNB._parameter_constraints,
                                  "s": [Interval(Real, 0, np.inf, closed="both")]}
    X, y = _data()
    Wide(s=np.inf).check_parameters()
    with pytest.raises(ValueError, match="s must be a float in the range"):
        Wide(s=-np.inf).check_parameters()


def test_plain_message_rewords_scikit_learns_and_keeps_others():
    sklearn_says = "The 'k' parameter of Sel must be an int in the range [1, inf). Got 0 instead."
    got = plain_parameter_message(sklearn_says)
    assert got == "k must be an int in the range [1, inf); got 0 (a parameter of Sel)"
    assert plain_parameter_message("something else") == "something else"


def test_a_subclass_without_constraints_still_fits():
    X, y = _data()
    model = Unconstrained(anything=object()).fit(X, y)
    np.testing.assert_array_equal(model.predict(X), NaiveBayes(s=1.0).fit(X, y).predict(X))


def test_training_codes_are_the_tables_encoding_of_x():
    X, y = _data(3)
    model = RowsSeen().fit(X, y)
    tables, codes, y_codes = model.seen_
    assert tables is model.tables_
    np.testing.assert_array_equal(codes, tables.encode(X))
    np.testing.assert_array_equal(model.classes_[y_codes], y)


def test_the_class_rule_and_the_single_class_error():
    X, y = _data(1)
    declared = TinyNB().fit(X, y, classes=["u", "v", "w", "zz"])
    assert list(declared.classes_) == ["u", "v", "w", "zz"]
    categorical = TinyNB().fit(X, pd.Categorical(y, categories=["w", "v", "u", "extra"]))
    assert "extra" in list(categorical.classes_)
    with pytest.raises(ValueError, match="only one class"):
        TinyNB().fit(X, np.full(len(y), "u"))


def test_a_feature_missing_everywhere_is_warned_about():
    X, y = _data(2)
    X["b"] = None
    with pytest.warns(UserWarning, match=r"\['b'\] are missing in every training row"):
        TinyNB().fit(X, y)


def test_a_failing_hook_leaves_the_estimator_unfitted():
    X, y = _data()
    model = Refuses()
    with pytest.raises(ValueError, match="no thanks"):
        model.fit(X, y)
    assert not any(n.endswith("_") and not n.startswith("_") for n in vars(model))
    with pytest.raises(NotFittedError):
        model.predict(X)


def test_a_family_without_probabilities_has_no_probability_methods():
    X, y = _data()
    model = NoProbabilities().fit(X, y)
    for name in ("predict_proba", "predict_log_proba", "joint_log_likelihood_codes"):
        assert not hasattr(model, name)
        assert hasattr(TinyNB().fit(X, y), name)


def test_naive_models_keep_partial_fit_and_fit_counts():
    X, y = _data(4)
    whole = NCC(s=1.0).fit(X, y)
    parts = NCC(s=1.0).partial_fit(X.iloc[:20], y[:20], classes=np.unique(y)).partial_fit(X.iloc[20:], y[20:])
    np.testing.assert_array_equal(parts.predict_set(X), whole.predict_set(X))
    np.testing.assert_array_equal(NCC(s=1.0).fit_counts(whole.tables_).dominance(X), whole.dominance(X))
    assert isinstance(whole, CategoricalClassifier)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        NaiveBayes().check_parameters()
