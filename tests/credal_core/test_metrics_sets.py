"""The set indicators added for conformal sets (coverage, mean set size, empty-set rate): by hand, against a
per-instance loop on random sets with empty rows, and the old keys unchanged."""
from __future__ import annotations

import math

import numpy as np
import pytest

from credal_core.metrics import credal_scores, precise_accuracy_split
from tests._depth import cases

CLASSES = ["a", "b", "c"]


def test_set_indicators_by_hand():
    y = ["a", "b", "c", "a"]
    sets = np.array([[1, 0, 0], [0, 0, 0], [1, 1, 1], [0, 1, 1]], bool)
    s = credal_scores(y, sets, CLASSES, allow_empty=True)
    assert s["coverage"] == pytest.approx(2 / 4) and s["mean_set_size"] == pytest.approx(6 / 4)
    assert s["empty_set_rate"] == pytest.approx(1 / 4)
    assert s["determinacy"] == pytest.approx(1 / 4) and s["set_accuracy"] == pytest.approx(1 / 2)
    assert s["discounted_accuracy"] == pytest.approx((1 + 0 + 1 / 3 + 0) / 4)
    with pytest.raises(ValueError, match="allow_empty=True"):
        credal_scores(y, sets, CLASSES)


def _by_loop(y, sets, weights):
    rows = []
    for truth, row in zip(y, sets):
        size = int(row.sum())
        hit = bool(row[CLASSES.index(truth)])
        x = hit / size if size else 0.0
        rows.append({"size": size, "hit": hit, "x": x})
    w = np.asarray(weights, float)

    def mean(values, keep):
        total = sum(wi for wi, k in zip(w, keep) if k)
        return sum(float(v) * wi for v, wi, k in zip(values, w, keep) if k) / total if total else math.nan

    every = [True] * len(rows)
    several = [r["size"] >= 2 for r in rows]
    return {"determinacy": mean([r["size"] == 1 for r in rows], every),
            "single_accuracy": mean([r["hit"] for r in rows], [r["size"] == 1 for r in rows]),
            "set_accuracy": mean([r["hit"] for r in rows], several),
            "indeterminate_size": mean([r["size"] for r in rows], several),
            "discounted_accuracy": mean([r["x"] for r in rows], every),
            "u65": mean([-0.6 * r["x"] ** 2 + 1.6 * r["x"] for r in rows], every),
            "u80": mean([-1.2 * r["x"] ** 2 + 2.2 * r["x"] for r in rows], every),
            "coverage": mean([r["hit"] for r in rows], every),
            "mean_set_size": mean([r["size"] for r in rows], every),
            "empty_set_rate": mean([r["size"] == 0 for r in rows], every)}


def test_every_indicator_equals_a_per_instance_loop_on_random_sets_with_empty_rows():
    rng = np.random.default_rng(21)
    for _ in range(cases(200)):
        n = int(rng.integers(1, 15))
        sets = rng.random((n, 3)) < rng.random()
        y = list(rng.choice(CLASSES, n))
        weights = rng.integers(1, 4, n)
        got = credal_scores(y, sets, CLASSES, allow_empty=True, sample_weight=weights)
        want = _by_loop(y, sets, weights)
        assert got.keys() == want.keys()
        for key in want:
            assert got[key] == pytest.approx(want[key], nan_ok=True, abs=1e-12), key


def test_the_old_keys_keep_their_values_on_credal_sets():
    rng = np.random.default_rng(4)
    for _ in range(cases(50)):
        n = int(rng.integers(1, 12))
        sets = rng.random((n, 3)) < 0.5
        sets[np.arange(n), rng.integers(0, 3, n)] = True                 # never empty
        y = list(rng.choice(CLASSES, n))
        strict, loose = credal_scores(y, sets, CLASSES), credal_scores(y, sets, CLASSES, allow_empty=True)
        assert strict == pytest.approx(loose, nan_ok=True)
        assert strict["coverage"] == pytest.approx(
            np.nan_to_num(strict["determinacy"] * strict["single_accuracy"])
            + (1 - strict["determinacy"]) * np.nan_to_num(strict["set_accuracy"]))
        precise = list(rng.choice(CLASSES, n))
        assert precise_accuracy_split(y, precise, sets, CLASSES) == pytest.approx(
            precise_accuracy_split(y, precise, sets, CLASSES, allow_empty=True), nan_ok=True)


def test_an_empty_set_is_in_neither_group_of_the_precise_split():
    out = precise_accuracy_split(["a", "b"], ["a", "a"], np.array([[0, 0, 0], [1, 1, 0]], bool), CLASSES,
                                 allow_empty=True)
    assert out == {"accuracy": 0.5, "accuracy_determinate": pytest.approx(math.nan, nan_ok=True),
                   "accuracy_indeterminate": 0.0}
