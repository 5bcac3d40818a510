"""The credal decision tree and its precise counterpart against slow references (reference_tree)."""
import warnings

import numpy as np
import pandas as pd
import pytest

from credal_core.tree import CredalDecisionTree, InfoGainTree
from credal_core.tree._entropy import max_entropy_distribution, shannon_entropy, upper_entropy
from tests._depth import cases
from tests.credal_core._helpers import checked_sets, class_with_noise
from tests.credal_core._sklearn_checks import assert_passes_sklearn_checks
from tests.credal_core.tree import reference_tree as ref


def test_upper_entropy_equals_the_optimiser_over_the_credal_set():
    rng = np.random.default_rng(0)
    for _ in range(cases(80)):
        k = rng.integers(2, 6)
        counts = rng.integers(0, 8, k) * rng.integers(0, 2, k) + rng.random(k) * rng.integers(0, 2)
        s = float(rng.choice([0.3, 1.0, 2.0, 5.0]))
        p = max_entropy_distribution(counts, s)
        t = (p * (counts.sum() + s) - counts) / s                 # the prior behind p
        assert t.min() >= -1e-12 and t.sum() == pytest.approx(1.0)
        assert upper_entropy(counts, s) == pytest.approx(ref.upper_entropy_by_optimiser(counts, s), abs=1e-7)
        assert upper_entropy(counts, s) >= ref.upper_entropy_by_optimiser(counts, s) - 1e-12


def test_upper_entropy_equals_the_plugins_levelling_with_integer_counts_and_s_1():
    rng = np.random.default_rng(1)
    for _ in range(cases(200)):
        counts = rng.integers(0, 6, rng.integers(2, 6))
        want = ref.weka_upper_entropy(list(counts), 1.0)
        assert upper_entropy(counts, 1.0) == pytest.approx(want, abs=1e-12)


def test_vectorised_rows_and_shannon():
    counts = np.array([[3, 0, 1], [0, 0, 0], [2, 2, 2]])
    assert np.allclose(upper_entropy(counts, 1.0), [upper_entropy(r, 1.0) for r in counts])
    assert shannon_entropy(counts)[1] == 0.0 and shannon_entropy(counts)[2] == pytest.approx(np.log2(3))
    assert upper_entropy([0, 0, 0], 1.0) == pytest.approx(np.log2(3))


def random_data(rng, missing):
    n, m, n_classes = rng.integers(5, 40), rng.integers(1, 5), rng.integers(2, 4)
    y = rng.integers(0, n_classes, n)
    X = np.column_stack([(y * rng.integers(0, 2) + rng.integers(0, 3, n)) % rng.integers(2, 4)
                         for _ in range(m)])
    if missing:
        X = np.where(rng.random(X.shape) < missing, -1, X)
    X = np.column_stack([np.where(col < 0, -1, np.unique(col[col >= 0], return_inverse=True)[1][
        np.cumsum(col >= 0) - 1]) if (col >= 0).any() else col for col in X.T])
    n_values = [int(X[:, j].max() + 1) if (X[:, j] >= 0).any() else 0 for j in range(m)]
    return X, y, n_values, int(n_classes)


def flat_preorder(tree, node=0):
    """(feature, depth, counts) of the flat tree's nodes, parent first, children in value order."""
    out = [(int(tree.feature[node]), int(tree.depth[node]), tuple(tree.counts[node].astype(int)))]
    for child in tree.children[node]:
        if child >= 0 and tree.feature[node] >= 0:
            out.extend(flat_preorder(tree, int(child)))
    return out


def frame(X):
    return pd.DataFrame(np.where(X < 0, np.nan, X), columns=[f"f{j}" for j in range(X.shape[1])])


@pytest.mark.parametrize("criterion", ["upper", "shannon"])
@pytest.mark.parametrize("missing", [0.0, 0.15])
def test_tree_equals_the_recursive_reference(criterion, missing):
    rng = np.random.default_rng(7 + int(missing * 100) + (criterion == "shannon"))
    entropy = (lambda c: ref.weka_upper_entropy(c, 1.0)) if criterion == "upper" else ref.shannon_bits
    compared = 0
    for _ in range(cases(60)):
        X, y, n_values, C = random_data(rng, missing)
        try:
            want = ref.grow(X, y, list(range(len(y))), n_values, C, entropy)
        except ValueError:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = InfoGainTree(criterion=criterion).fit(frame(X), y, classes=list(range(C)))
        tree = model.tree_
        got = flat_preorder(tree)
        assert got == ref.preorder(want)
        tests = np.column_stack([rng.integers(-1, v + 1, 30) for v in n_values])
        tests = np.where(tests == np.array(n_values), 99, tests)      # 99: a value unseen in training
        counts = [ref.reach(want, [v if v != 99 else 10 ** 6 for v in row]) for row in tests]
        test_frame = pd.DataFrame(np.where(tests < 0, np.nan, tests), columns=frame(X).columns)
        if criterion == "upper":
            cdt = CredalDecisionTree().fit(frame(X), y, classes=list(range(C)))
            sets = cdt.predict_set(test_frame)
            assert sets.tolist() == [ref.weka_non_dominated(c, 1.0) for c, _ in counts]
        compared += 1
    assert compared >= cases(60) // 2


def test_dominance_rule_is_the_plugins_boundary_included():
    X = pd.DataFrame({"a": ["x", "x", "x", "y"]})
    cdt = CredalDecisionTree().fit(X, [0, 0, 1, 1])
    lower, upper = cdt.intervals(X)
    assert np.allclose(lower + 1 / 5, upper)
    one = CredalDecisionTree().fit(pd.DataFrame({"a": ["x", "y"]}), [0, 1])
    assert one.tree_.n_nodes == 1                      # upper-entropy gain of splitting two rows < 0
    assert one.predict_set(pd.DataFrame({"a": ["x"]})).tolist() == [[True, True]]
    pure = CredalDecisionTree().fit(pd.DataFrame({"a": ["x", "x", "y", "y"]}), [0, 1, 1, 1])
    assert pure.tree_.counts[0].tolist() == [1, 3]      # the root: one row of class 0, three of class 1
    assert pure.predict_set(pd.DataFrame({"a": ["y"]})).tolist() == [[False, True]]   # 3 >= 1 + s


def test_sets_predict_missing_and_empty_branches():
    X, y = class_with_noise(300, 5)
    cdt = CredalDecisionTree().fit(X, y)
    sets = checked_sets(cdt, X)
    labels = InfoGainTree().fit(X, y).predict(X)
    assert np.array_equal(labels, cdt.predict(X))
    assert sets[np.arange(len(X)), labels].all()
    assert (sets.sum(axis=1) == 1).any()
    gap = X.astype(float).copy()
    gap.iloc[:, int(cdt.tree_.feature[0])] = np.nan     # root feature missing: the root's counts speak
    root = cdt.tree_.counts[0]
    want = ~(root[:, None] >= root[None, :] + 1).any(axis=0)      # [a, b]: a dominates b
    assert (cdt.predict_set(gap) == want).all()
    unseen = X.copy()
    unseen.iloc[:, int(cdt.tree_.feature[0])] = 7       # unseen value at the root: every class
    assert cdt.predict_set(unseen).all()


@pytest.mark.parametrize("params", [{"s": 0.0}, {"s": -1}, {"s": True}])
def test_bad_parameters(params):
    with pytest.raises(ValueError, match="s must"):
        CredalDecisionTree(**params).fit(pd.DataFrame({"a": ["x", "y"]}), [0, 1])
    with pytest.raises(ValueError, match="criterion"):
        InfoGainTree(criterion="gini").fit(pd.DataFrame({"a": ["x", "y"]}), [0, 1])


@pytest.mark.parametrize("estimator", [InfoGainTree(), InfoGainTree(criterion="shannon"),
                                       CredalDecisionTree()], ids=repr)
def test_sklearn_estimator_checks(estimator):
    assert_passes_sklearn_checks(estimator)
