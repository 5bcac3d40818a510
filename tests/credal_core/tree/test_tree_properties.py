"""Theory guarantees of the credal decision tree (hypothesis) and declared categories."""
import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from credal_core.tree import CredalDecisionTree, InfoGainTree
from tests._depth import examples
from tests.credal_core._helpers import coded_table


def data():
    return coded_table(rows=(2, 40), max_features=4)


@settings(max_examples=examples(50), deadline=None)
@given(data(), st.sampled_from([0.5, 1.0, 2.0]), st.randoms(use_true_random=False))
def test_sets_contain_the_precise_label_and_row_order_is_irrelevant(d, s, rnd):
    X, y = d
    if len(np.unique(y)) < 2:
        return
    cdt = CredalDecisionTree(s=s).fit(X, y)
    sets = cdt.predict_set(X)
    label = np.searchsorted(cdt.classes_, InfoGainTree(s=s).fit(X, y).predict(X))
    assert sets.any(axis=1).all() and sets[np.arange(len(X)), label].all()
    lower, upper = cdt.intervals(X)
    assert np.all(lower <= upper) and np.allclose(upper - lower, s / (cdt._leaf_counts(cdt.encode(X)).sum(1)
                                                                      + s)[:, None])
    order = list(range(len(y)))
    rnd.shuffle(order)
    shuffled = CredalDecisionTree(s=s).fit(X.iloc[order], y[order])
    assert np.array_equal(shuffled.predict_set(X), sets)
    assert shuffled.tree_.n_nodes == cdt.tree_.n_nodes


def test_declared_value_without_rows_gets_every_class():
    X = pd.DataFrame({"a": pd.Categorical(list("xxxxyyyy"), categories=list("xyz"))})
    y = [0, 0, 0, 0, 1, 1, 1, 1]
    cdt = CredalDecisionTree(categories="declared").fit(X, y)
    assert cdt.tree_.children.shape[1] == 3 and cdt.tree_.children[0, 2] == -1
    row = pd.DataFrame({"a": pd.Categorical(["z"], categories=list("xyz"))})
    assert cdt.predict_set(row).tolist() == [[True, True]]
    assert InfoGainTree(categories="declared").fit(X, y).predict_proba(row)[0].tolist() == [0.5, 0.5]
    frame = cdt.tree_frame()
    assert frame["split"].iloc[0] == "a" and frame["split"].iloc[1:].isna().all()
    assert frame["lower(0)"].iloc[1] == 4 / 5 and list(frame["value"].iloc[1:]) == ["a = x", "a = y"]
