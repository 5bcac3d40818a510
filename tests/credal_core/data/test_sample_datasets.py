"""The rule-defined and scikit-learn sample data sets: counts, rules on every row, determinism, UCI copies.

The rules are re-implemented here independently of the generators (tic-tac-toe by a static
characterisation of end boards over all 3^9 boards instead of a game-tree walk; MONK's rules as
vectorised pandas expressions).  Copies of the UCI files under /work/shared/reference/uci are outside
data that may be absent: those tests skip cleanly.
"""

from __future__ import annotations

import importlib.util
import itertools
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn import datasets

ROOT = Path(__file__).resolve().parents[3]
DATA = ROOT / "sample_data"
REFERENCE = Path("/work/shared/reference/uci")     # outside reference data; may be absent

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
MONKS_DOMAINS = {"a1": 3, "a2": 3, "a3": 2, "a4": 3, "a5": 4, "a6": 2}


def _load_script(name: str):
    spec = importlib.util.spec_from_file_location(name, DATA / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _read(name: str) -> pd.DataFrame:
    return pd.read_csv(DATA / name, dtype=str, keep_default_na=False)


def _reference(name: str) -> pd.DataFrame:
    path = REFERENCE / name
    if not path.exists():
        pytest.skip(f"no reference copy {path} on this machine")
    return pd.read_csv(path, dtype=str, keep_default_na=False)


# ---------------------------------------------------------------- determinism
@pytest.mark.parametrize("script, files", [
    ("make_rule_datasets", ["tic_tac_toe.csv", "monks1.csv", "monks2.csv", "monks3.csv"]),
    ("make_sklearn_datasets", ["iris.csv", "wine.csv", "breast_cancer.csv"]),
])
def test_generators_reproduce_the_shipped_files_byte_for_byte(tmp_path, script, files):
    _load_script(script).main(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(files)
    for name in files:
        assert (tmp_path / name).read_bytes() == (DATA / name).read_bytes(), name


# ---------------------------------------------------------------- tic-tac-toe
def _wins(board, player) -> bool:
    return any(all(board[i] == player for i in line) for line in LINES)


def _is_end_board(board) -> bool:
    """Static characterisation, no game tree: legal counts, game over, and some piece of the last mover
    whose removal leaves a board with no three in a row (any such board with legal counts is reachable,
    since its pieces can be placed in any alternating order without a line ever completing)."""
    nx, no = board.count("x"), board.count("o")
    if nx not in (no, no + 1):
        return False
    if not (_wins(board, "x") or _wins(board, "o") or "b" not in board):
        return False
    last = "x" if nx == no + 1 else "o"
    for square, value in enumerate(board):
        if value == last:
            before = board[:square] + ("b",) + board[square + 1:]
            if not _wins(before, "x") and not _wins(before, "o"):
                return True
    return False


def test_tic_tac_toe_is_exactly_the_set_of_end_boards():
    frame = _read("tic_tac_toe.csv")
    assert list(frame.columns) == ["top_left", "top_middle", "top_right", "middle_left", "middle_middle",
                                   "middle_right", "bottom_left", "bottom_middle", "bottom_right", "class"]
    assert frame.shape == (958, 10)                       # UCI: 958 instances
    assert frame["class"].value_counts().to_dict() == {"positive": 626, "negative": 332}
    boards = [tuple(row) for row in frame.iloc[:, :9].itertuples(index=False)]
    assert len(set(boards)) == 958                        # no duplicates
    expected = {b for b in itertools.product("xob", repeat=9) if _is_end_board(b)}
    assert set(boards) == expected
    labels = ["positive" if _wins(b, "x") else "negative" for b in boards]
    assert frame["class"].tolist() == labels
    o_wins = sum(_wins(b, "o") for b in boards)
    assert (o_wins, 332 - o_wins) == (316, 16)            # negatives: o won or draw


def test_tic_tac_toe_matches_the_uci_file():
    ours, theirs = _read("tic_tac_toe.csv"), _reference("tic_tac_toe.csv")
    assert len(theirs) == 958
    # same multiset of rows (and in fact the same order)
    assert sorted(map(tuple, ours.values.tolist())) == sorted(map(tuple, theirs.values.tolist()))
    assert ours.values.tolist() == theirs.values.tolist()


# ---------------------------------------------------------------- MONK's problems
def _monks_rule(problem: int, f: pd.DataFrame) -> pd.Series:
    a = {c: f[c].astype(int) for c in MONKS_DOMAINS}
    if problem == 1:
        return (a["a1"] == a["a2"]) | (a["a5"] == 1)
    if problem == 2:
        return sum((a[c] == 1).astype(int) for c in MONKS_DOMAINS) == 2
    return ((a["a5"] == 3) & (a["a4"] == 1)) | ((a["a5"] != 4) & (a["a2"] != 3))


@pytest.mark.parametrize("problem, n_positive", [(1, 216), (2, 142), (3, 228)])
def test_monks_cover_the_attribute_space_and_follow_their_rule(problem, n_positive):
    frame = _read(f"monks{problem}.csv")
    assert list(frame.columns) == [*MONKS_DOMAINS, "class"]
    assert frame.shape == (432, 7)
    points = set(frame.iloc[:, :6].itertuples(index=False, name=None))
    space = set(itertools.product(*(tuple(str(v) for v in range(1, k + 1)) for k in MONKS_DOMAINS.values())))
    assert len(space) == 432 and points == space
    assert frame["class"].isin(["0", "1"]).all()
    assert ((frame["class"] == "1") == _monks_rule(problem, frame)).all()
    assert frame["class"].value_counts().to_dict() == {"1": n_positive, "0": 432 - n_positive}


@pytest.mark.parametrize("problem, n_train, n_noisy", [(1, 124, 0), (2, 169, 0), (3, 122, 6)])
def test_monks_match_the_uci_test_files_and_the_training_noise(problem, n_train, n_noisy):
    ours, theirs = _read(f"monks{problem}.csv"), _reference(f"monks{problem}.csv")
    assert len(theirs) == n_train + 432                   # reference = train + test union
    test_part, train_part = theirs.iloc[n_train:], theirs.iloc[:n_train]
    assert sorted(map(tuple, ours.values.tolist())) == sorted(map(tuple, test_part.values.tolist()))
    # the training sample of monks-3 carries 5 % label noise (6 of 122 rows); the others none
    contradicting = (train_part["class"] == "1") != _monks_rule(problem, train_part)
    assert int(contradicting.sum()) == n_noisy


# ---------------------------------------------------------------- scikit-learn copies
SKLEARN = {
    "iris.csv": (datasets.load_iris, {"setosa": 50, "versicolor": 50, "virginica": 50}, 4),
    "wine.csv": (datasets.load_wine, {"class_0": 59, "class_1": 71, "class_2": 48}, 13),
    "breast_cancer.csv": (datasets.load_breast_cancer, {"benign": 357, "malignant": 212}, 30),
}


@pytest.mark.parametrize("name", SKLEARN)
def test_sklearn_files_hold_the_bundled_values_exactly(name):
    loader, class_counts, n_features = SKLEARN[name]
    frame = pd.read_csv(DATA / name)
    bunch = loader()
    assert frame.shape == (len(bunch.target), n_features + 1)
    assert frame.columns[-1] == "class"
    assert frame["class"].value_counts().to_dict() == class_counts
    features = frame.iloc[:, :-1]
    assert all(pd.api.types.is_numeric_dtype(t) for t in features.dtypes)
    np.testing.assert_array_equal(features.to_numpy(float), bunch.data)     # exact round trip
    assert frame["class"].tolist() == [bunch.target_names[t] for t in bunch.target]
    assert all(c == c.lower() and " " not in c for c in frame.columns)


def test_wine_matches_the_uci_file_and_iris_differs_only_by_the_uci_errata():
    wine_ref, iris_ref = _reference("wine.csv"), _reference("iris.csv")
    wine = pd.read_csv(DATA / "wine.csv")
    np.testing.assert_allclose(wine.iloc[:, :-1].to_numpy(float), wine_ref.iloc[:, :-1].to_numpy(float),
                               rtol=0, atol=1e-12)
    assert wine["class"].tolist() == [f"class_{int(c) - 1}" for c in wine_ref["class"]]
    iris = pd.read_csv(DATA / "iris.csv")
    differ = ~np.isclose(iris.iloc[:, :-1].to_numpy(float), iris_ref.iloc[:, :-1].to_numpy(float)).all(axis=1)
    assert (np.flatnonzero(differ) + 1).tolist() == [35, 38]                 # UCI iris errata rows
    assert iris["class"].tolist() == [c.removeprefix("Iris-") for c in iris_ref["class"]]
