"""Indicators of 000 §5 and 001 §3, on hand-computed cases."""
import math

import numpy as np
import pytest

from credal_core.metrics import brier_loss, credal_scores, precise_accuracy_split, u65, u80

CLASSES = ["a", "b", "c"]


def test_utilities_pass_through_their_anchor_points():
    # 001 §3.3 defines them by u(0)=0, u(1/2)=0.65 or 0.80, u(1)=1 (its footnote swaps the formulas)
    np.testing.assert_allclose(u65([0, 0.5, 1]), [0, 0.65, 1])
    np.testing.assert_allclose(u80([0, 0.5, 1]), [0, 0.80, 1])


def test_credal_scores_by_hand():
    y = ["a", "b", "c", "a", "b"]
    sets = np.array([[1, 0, 0],      # right, single
                     [0, 0, 1],      # wrong, single
                     [0, 1, 1],      # right, size 2
                     [0, 1, 1],      # wrong, size 2
                     [1, 1, 1]],     # right, size 3
                    dtype=bool)
    s = credal_scores(y, sets, CLASSES)
    assert s["determinacy"] == pytest.approx(2 / 5)
    assert s["single_accuracy"] == pytest.approx(1 / 2)
    assert s["set_accuracy"] == pytest.approx(2 / 3)
    assert s["indeterminate_size"] == pytest.approx(7 / 3)
    x = np.array([1, 0, 1 / 2, 0, 1 / 3])
    assert s["discounted_accuracy"] == pytest.approx(x.mean())
    assert s["u65"] == pytest.approx(np.mean(-0.6 * x ** 2 + 1.6 * x))
    assert s["u80"] == pytest.approx(np.mean(-1.2 * x ** 2 + 2.2 * x))


def test_undefined_groups_are_nan_not_zero():
    s = credal_scores(["a", "b"], np.array([[1, 0, 0], [0, 1, 0]], bool), CLASSES)
    assert s["determinacy"] == 1 and math.isnan(s["set_accuracy"]) and math.isnan(s["indeterminate_size"])
    s = credal_scores(["a"], np.array([[1, 1, 0]], bool), CLASSES)
    assert math.isnan(s["single_accuracy"]) and s["set_accuracy"] == 1


def test_precise_accuracy_split_is_nbc_i():
    y = ["a", "b", "c", "a"]
    nbc = ["a", "a", "c", "b"]
    sets = np.array([[1, 0, 0], [1, 1, 0], [0, 0, 1], [1, 1, 0]], bool)
    out = precise_accuracy_split(y, nbc, sets, CLASSES)
    assert out == {"accuracy": 0.5, "accuracy_determinate": 1.0, "accuracy_indeterminate": 0.0}


def test_brier_both_definitions_by_hand():
    proba = np.array([[0.7, 0.2, 0.1], [0.5, 0.25, 0.25]])
    y = ["a", "c"]
    # 001 §3.1: mean (1 - P(true class))^2
    assert brier_loss(y, proba, CLASSES) == pytest.approx(((1 - 0.7) ** 2 + (1 - 0.25) ** 2) / 2)
    multi = ((0.3 ** 2 + 0.2 ** 2 + 0.1 ** 2) + (0.5 ** 2 + 0.25 ** 2 + 0.75 ** 2)) / 2
    assert brier_loss(y, proba, CLASSES, kind="multiclass") == pytest.approx(multi)


@pytest.mark.parametrize("call, message", [
    (lambda: credal_scores(["z"], np.array([[1, 0, 0]], bool), CLASSES), "not among classes"),
    (lambda: credal_scores(["a"], np.array([[0, 0, 0]], bool), CLASSES), "empty"),
    (lambda: credal_scores(["a"], np.array([[1, 0]], bool), CLASSES), "shape"),
    (lambda: brier_loss(["a"], np.array([[np.nan, 0, 1]]), CLASSES), "non-finite"),
    (lambda: brier_loss(["a"], np.array([[1.0, 0, 0]]), CLASSES, kind="log"), "kind"),
])
def test_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_weights_equal_repeating_instances():
    rng = np.random.default_rng(12)
    for _ in range(50):
        n, c = rng.integers(1, 12), rng.integers(2, 5)
        sets = rng.random((n, c)) < 0.5
        sets[np.arange(n), rng.integers(0, c, n)] = True
        truth = rng.integers(0, c, n)
        precise = rng.integers(0, c, n)
        times = rng.integers(1, 5, n)
        classes = np.arange(c)
        weighted = credal_scores(truth, sets, classes, sample_weight=times)
        repeated = credal_scores(np.repeat(truth, times), np.repeat(sets, times, axis=0), classes)
        assert weighted == pytest.approx(repeated, nan_ok=True)
        split_w = precise_accuracy_split(truth, precise, sets, classes, sample_weight=times)
        split_r = precise_accuracy_split(np.repeat(truth, times), np.repeat(precise, times),
                                         np.repeat(sets, times, axis=0), classes)
        assert split_w == pytest.approx(split_r, nan_ok=True)


@pytest.mark.parametrize("weight", [[1, 2], [1, -1, 1], [0, 0, 0], [1, np.nan, 1]])
def test_bad_weights_are_refused(weight):
    with pytest.raises(ValueError, match="sample_weight"):
        credal_scores([0, 1, 0], np.eye(2, dtype=bool)[[0, 1, 1]], [0, 1], sample_weight=weight)
