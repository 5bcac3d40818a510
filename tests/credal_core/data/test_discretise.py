"""Discretisers: hand-worked MDL cases, a textbook brute force, JNCC2's cut points, the binning rule."""
import csv
import math
import re
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credal_core.data.discretise import (
    apply_cut_points,
    bin_labels,
    equal_frequency_cut_points,
    mdl_cut_points,
    median_cut_point,
)
from credal_core.data.preparation import MISSING_CATEGORY, Preparation
from tests.credal_core._helpers import reference_data

JNCC2 = reference_data("jncc2")    # may be absent


def test_hand_worked_accepted_split():
    # 10 values, classes aaaaabbbbb: Ent(S) = 1 bit, the cut 5.5 leaves two pure halves (gain 1).
    # Δ = log2(3^2 - 2) - (2·1 - 1·0 - 1·0) = log2 7 - 2; threshold = (log2 9 + Δ) / 10 ≈ 0.398 < 1.
    threshold = (math.log2(9) + math.log2(7) - 2) / 10
    assert threshold == pytest.approx(0.3977, abs=1e-4)
    assert mdl_cut_points(np.arange(1, 11), list("aaaaabbbbb")).tolist() == [5.5]


def test_hand_worked_rejected_split():
    # abab: best cut 1.5 (leftmost of two ties): E = 3/4·H(1/3) = 0.689, gain 0.311;
    # Δ = log2 7 - (2·1 - 0 - 2·H(1/3)) = 2.643; threshold = (log2 3 + 2.643)/4 = 1.057 > 0.311.
    h = -(1 / 3 * math.log2(1 / 3) + 2 / 3 * math.log2(2 / 3))
    gain = 1 - 0.75 * h
    threshold = (math.log2(3) + math.log2(7) - (2 - 2 * h)) / 4
    assert gain < threshold
    assert mdl_cut_points([1, 2, 3, 4], list("abab")).size == 0


def test_recursive_split_into_three_intervals():
    values = np.repeat([1.0, 2.0, 3.0], 20)
    labels = np.repeat(["a", "b", "c"], 20)
    assert mdl_cut_points(values, labels).tolist() == [1.5, 2.5]


def test_missing_values_are_ignored_and_constant_feature_has_no_cut():
    with_missing = mdl_cut_points([1, np.nan, 2, 3, np.nan], ["a", "b", "b", "b", "a"])
    assert with_missing.tolist() == mdl_cut_points([1, 2, 3], ["a", "b", "b"]).tolist() == [1.5]
    assert mdl_cut_points([3.0] * 10, list("ababababab")).size == 0
    assert mdl_cut_points([], []).size == 0


def _entropy(labels):
    n = len(labels)
    return -sum(c / n * math.log2(c / n) for c in Counter(labels).values()) if n else 0.0


def textbook_mdl(values, labels):
    """Fayyad & Irani (1993), written out with plain loops over every midpoint."""
    pairs = sorted(zip(values, labels))
    cuts = []

    def split(part):
        n = len(part)
        if n < 2:
            return
        best = None
        for i in range(1, n):
            if part[i - 1][0] == part[i][0]:
                continue
            left = [lab for _, lab in part[:i]]
            right = [lab for _, lab in part[i:]]
            e = (len(left) * _entropy(left) + len(right) * _entropy(right)) / n
            if best is None or e < best[0] - 1e-12:
                best = (e, i, left, right)
        if best is None:
            return
        e, i, left, right = best
        labels_all = [lab for _, lab in part]
        ent = _entropy(labels_all)
        k, k1, k2 = len(set(labels_all)), len(set(left)), len(set(right))
        delta = math.log2(3 ** k - 2) - (k * ent - k1 * _entropy(left) - k2 * _entropy(right))
        if ent - e > (math.log2(n - 1) + delta) / n:
            cuts.append((part[i - 1][0] + part[i][0]) / 2)
            split(part[:i])
            split(part[i:])

    split(pairs)
    return sorted(cuts)


@settings(max_examples=300, deadline=None)
@given(data=st.lists(st.tuples(st.integers(0, 12), st.sampled_from("abc")), min_size=2, max_size=60))
def test_mdl_equals_the_textbook_brute_force(data):
    values = [float(v) for v, _ in data]
    labels = [lab for _, lab in data]
    assert mdl_cut_points(values, labels).tolist() == pytest.approx(textbook_mdl(values, labels))


def _read_arff(path):
    names, kinds, rows, data = [], [], [], False
    for line in path.read_text(encoding="latin-1").splitlines():
        s = line.strip()
        if not s or s.startswith("%"):
            continue
        if data:
            rows.append(next(csv.reader([s], quotechar="'", skipinitialspace=True)))
        elif s.lower().startswith("@attribute"):
            m = re.match(r"@attribute\s+('[^']*'|\S+)\s+(.*)", s, re.I)
            names.append(m.group(1).strip("'"))
            kinds.append(m.group(2).strip().lower() in ("numeric", "real", "integer"))
        elif s.lower().startswith("@data"):
            data = True
    return names, kinds, rows


@pytest.mark.parametrize("example", ["iris", "glass", "hepatitis", "labor"])
def test_jncc2_cut_points_are_reproduced(example):
    folder = JNCC2 / example
    if not folder.exists():
        pytest.skip("../shared/reference/jncc2 is not available")
    names, numeric, rows = _read_arff(folder / f"{example}.training.arff")
    table = folder / "generated" / f"{example}_cutpoints.csv"
    reference = {r["feature"]: r for r in csv.DictReader(table.open())}
    labels = [r[-1] for r in rows]
    checked = 0
    for j, (name, is_numeric) in enumerate(zip(names[:-1], numeric[:-1])):
        if not is_numeric:
            continue
        values = np.array([float(r[j]) if r[j] != "?" else np.nan for r in rows])
        want = [float(t) for t in reference[name]["cut_points(semicolon-separated)"].split(";") if t]
        got = mdl_cut_points(values, labels, jncc2_quirk=True)
        assert got.tolist() == pytest.approx(want), name
        assert (reference[name]["used"] == "true") == bool(want)   # JNCC2 drops features without a cut
        checked += 1
    assert checked >= 4


def _java_log(v):
    """Java's Math.log: -inf at 0 and NaN below (Python's math.log raises there)."""
    return math.log(v) if v > 0 else (-math.inf if v == 0 else math.nan)


def jncc2_reference_mdl(values, codes, n_classes):
    """JNCC2 1.11's MdlDiscretizer as its source reads, with plain loops and inclusive indices.

    Global candidate list (class boundaries between consecutive distinct values); per interval
    [lower, upper] the candidates whose index idx (last value on the left) has lower <= idx <= upper - 2,
    or else candidate 0 whatever its place (out of the interval its entropies come out NaN); the accepted
    cut is the first of the highest gain among candidates with gain > own threshold and gain > MIN_VALUE;
    the left part is split again unless the cut is candidate 0, the right part unless it is the last.
    """
    pairs = sorted(zip(values, codes), key=lambda p: p[0])
    n = len(pairs)

    def class_list(i):
        found = [pairs[i][1]]
        j = i + 1
        while j < n and pairs[j][0] == pairs[i][0]:
            if pairs[j][1] not in found:
                found.append(pairs[j][1])
            j += 1
        return found

    possible, possible_idx = [], []
    if n:
        previous_value, previous_set = pairs[0][0], class_list(0)
        for i in range(1, n):
            if pairs[i][0] == previous_value:
                continue
            current = class_list(i)
            if len(previous_set) > 1 or len(current) > 1 or previous_set[0] != current[0]:
                possible.append((pairs[i][0] + previous_value) / 2)
                possible_idx.append(i - 1)
            previous_set, previous_value = current, pairs[i][0]

    def entropy(lower, upper):
        freq = [0] * n_classes
        for i in range(lower, upper + 1):
            freq[pairs[i][1]] += 1
        size = float(upper - lower + 1)
        info = size * _java_log(size) if size > 0 else (math.nan if size < 0 else 0.0 * -math.inf)
        present = 0
        for f in freq:
            if f != 0:
                info -= f * math.log(f)
                present += 1
        return info / (size * math.log(2)) if size != 0 else math.nan, float(present)

    cuts = []

    def recurse(lower, upper):
        inside = [j for j, idx in enumerate(possible_idx) if lower < idx + 1 < upper]
        scan = inside or [0]
        best_cut, best_info = None, 5e-324
        for j in scan:
            limit = possible_idx[j]
            length = upper - lower + 1
            whole, left, right = entropy(lower, upper), entropy(lower, limit), entropy(limit + 1, upper)
            trial = (left[0] * (limit + 1 - lower) + right[0] * (upper - limit)) / length
            gain = whole[0] - trial
            threshold = _java_log(length - 1) / math.log(2) + _java_log(3.0 ** whole[1] - 2) / math.log(2)
            threshold -= whole[0] * whole[1]
            threshold += left[0] * left[1] + right[0] * right[1]
            threshold /= length
            if gain > threshold and gain > best_info:
                best_cut, best_info = j, gain
        if best_cut is None:
            return
        cuts.append(possible[best_cut])
        split = possible_idx[best_cut]
        if best_cut > 0:
            recurse(lower, split)
        if best_cut < len(possible) - 1:
            recurse(split + 1, upper)

    if possible:
        recurse(0, n - 1)
    return sorted(cuts)


@settings(max_examples=600, deadline=None)
@given(data=st.lists(st.tuples(st.integers(0, 9), st.integers(0, 2)), min_size=2, max_size=40))
def test_jncc2_quirk_equals_a_line_by_line_reference_of_jncc2(data):
    values = [float(v) for v, _ in data]
    codes = [c for _, c in data]
    want = jncc2_reference_mdl(values, np.unique(codes, return_inverse=True)[1].tolist(), 3)
    assert mdl_cut_points(values, codes, jncc2_quirk=True).tolist() == want


def test_jncc2_quirk_on_many_seeded_cases_including_larger_ones():
    rng = np.random.default_rng(7)
    for _ in range(300):
        n = int(rng.integers(2, 120))
        values = rng.integers(0, int(rng.integers(2, 40)), n).astype(float)
        codes = rng.integers(0, int(rng.integers(2, 5)), n)
        # class structure along the values, so that splits are often accepted
        structured = values * len(set(codes.tolist())) // (values.max() + 1)
        codes = np.where(rng.random(n) < 0.6, structured, codes)
        codes = np.unique(codes, return_inverse=True)[1]
        want = jncc2_reference_mdl(values.tolist(), codes.tolist(), int(codes.max()) + 1)
        assert mdl_cut_points(values, codes, jncc2_quirk=True).tolist() == want


def test_jncc2_quirk_tries_its_first_candidate_when_none_lies_inside():
    # the only class boundary is before the last value: no candidate has two values on its right, yet
    # JNCC2 still tries its first candidate (3.5) on the whole column and accepts it: gain H(1/4) = 0.811
    # > threshold (log2 3 + log2 7 - 2 H(1/4)) / 4 = 0.692
    values, labels = [1, 2, 3, 4], list("aaab")
    assert jncc2_reference_mdl(values, [0, 0, 0, 1], 2) == [3.5]
    assert mdl_cut_points(values, labels, jncc2_quirk=True).tolist() == [3.5]
    # ... but not in a right-hand interval, where that candidate lies outside
    values, labels = [1, 2, 3, 4, 5, 6, 7, 8], list("aaaabbbc")
    assert mdl_cut_points(values, labels, jncc2_quirk=True).tolist() == jncc2_reference_mdl(
        values, [0, 0, 0, 0, 1, 1, 1, 2], 3)


def test_textbook_and_jncc2_differ_only_by_the_last_value_rule():
    # glass K in JNCC2's example: the textbook rule also isolates the largest value (a 'containers' glass)
    values = [0.0, 0.0, 0.1, 0.2, 1.4, 1.7, 2.7, 6.2]
    labels = ["x", "x", "x", "x", "h", "h", "h", "c"]
    assert 4.45 in mdl_cut_points(values, labels).round(2).tolist()
    assert 4.45 not in mdl_cut_points(values, labels, jncc2_quirk=True).round(2).tolist()


def test_binning_rule_equal_to_a_cut_goes_down():
    cuts = [2.0, 5.0]
    assert apply_cut_points([1, 2, 2.0001, 5, 6, np.nan], cuts)[:5].tolist() == [0, 0, 1, 1, 2]
    assert np.isnan(apply_cut_points([np.nan], cuts)[0])
    assert bin_labels(cuts) == ["(-inf, 2]", "(2, 5]", "(5, inf)"]


def test_equal_frequency_and_median():
    x = np.arange(100.0)
    cuts = equal_frequency_cut_points(x, 4)
    assert cuts.tolist() == [24.5, 49.5, 74.5]
    assert np.bincount(apply_cut_points(x, cuts).astype(int)).tolist() == [25, 25, 25, 25]
    assert equal_frequency_cut_points([1, 1, 1, 1, 2], 4).tolist() == [1.5]     # ties merge bins
    assert median_cut_point([1, 2, 3, 10]).tolist() == [2.5]
    assert median_cut_point([4, 4, 4]).size == 0
    with pytest.raises(ValueError, match="n_bins"):
        equal_frequency_cut_points(x, 1)


def test_preparation_learns_from_training_rows_only():
    rng = np.random.default_rng(0)
    values = rng.normal(size=80)
    labels = np.where(values > 0.3, "b", "a")
    frame = pd.DataFrame({"x": [f"{v:.4f}" for v in values], "c": rng.choice(["u", "v"], 80).astype(object)})
    train, test = np.arange(60), np.arange(60, 80)
    prep = Preparation(numeric=["x"]).fit(frame.iloc[train], labels[train])
    poisoned = frame.copy()
    poisoned.loc[test, "x"] = "1000"                       # the test fold cannot move the cuts
    again = Preparation(numeric=["x"]).fit(poisoned.iloc[train], labels[train])
    assert np.array_equal(prep.cuts_["x"], again.cuts_["x"])
    assert prep.cuts_["x"].tolist() == mdl_cut_points(values[train].round(4), labels[train]).tolist()
    out = prep.transform(poisoned.iloc[test])
    assert set(out["x"]) == {bin_labels(prep.cuts_["x"])[-1]}


def test_preparation_missing_values_impute_or_category():
    frame = pd.DataFrame({"x": ["1", "2", "3", None, "100", "101"], "c": ["u", "u", "v", None, "v", "v"]})
    y = ["a", "a", "a", "b", "b", "b"]
    imputed = Preparation(numeric=["x"], discretiser="median", missing="impute").fit(frame.iloc[:5], y[:5])
    assert imputed.fill_ == {"x": 2.5, "c": "u"}           # mode ties → first in sorted order
    out = imputed.transform(frame)
    assert out.loc[3, "x"] == "(-inf, 2.5]" and out.loc[3, "c"] == "u"
    kept = Preparation(numeric=["x"], discretiser="median", missing="category").fit_transform(frame, y)
    assert kept.loc[3, "x"] == MISSING_CATEGORY and kept.loc[3, "c"] == MISSING_CATEGORY
    assert not kept.isna().any().any()
    with pytest.raises(ValueError, match="discretiser"):
        Preparation(discretiser="kmeans").fit(frame, y)
    with pytest.raises(ValueError, match="numeric columns not in the table"):
        Preparation(numeric=["nope"]).fit(frame, y)


def test_bin_labels_stay_distinct_for_close_large_cuts():
    cuts = [1.7e12 + 0.5, 1.7e12 + 1.5, 1.7e12 + 2.5]
    labels = bin_labels(cuts)
    assert len(set(labels)) == 4 and labels[1] == "(1700000000000.5, 1700000000001.5]"
    values = np.array([1.7e12 + i for i in range(4)])
    frame = pd.DataFrame({"t": values.astype(str)})
    prep = Preparation(numeric=["t"], discretiser="median").fit(frame, list("aabb"))
    prep.cuts_["t"] = np.array(cuts)
    assert prep.transform(frame)["t"].nunique() == 4
