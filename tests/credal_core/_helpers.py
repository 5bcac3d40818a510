"""Small helpers shared by the classifier tests: hypothesis strategies for random categorical tables and
the assertions several families repeat (chunked learning equals one pass, sets nested in a parameter)."""
from pathlib import Path

import numpy as np
import pandas as pd
from hypothesis import strategies as st


def reference_data(name: str = "") -> Path:
    """Outside reference data (never copied into the project; tests using it skip when it is absent):
    ``shared/reference/<name>`` beside the project, or at its usual place /work/shared/reference."""
    beside = Path(__file__).resolve().parents[3] / "shared" / "reference" / name
    return beside if beside.exists() else Path("/work/shared/reference") / name


@st.composite
def coded_table(draw, rows=(4, 30), max_features=5, n_classes=3, levels=3):
    """(X, y): a DataFrame of integer codes 0..levels-1 (columns 0..m-1) and labels 0..n_classes-1."""
    n = draw(st.integers(*rows))
    m = draw(st.integers(1, max_features))
    y = np.array(draw(st.lists(st.integers(0, n_classes - 1), min_size=n, max_size=n)))
    X = np.array(draw(st.lists(st.lists(st.integers(0, levels - 1), min_size=m, max_size=m), min_size=n,
                               max_size=n)))
    return pd.DataFrame(X), y


@st.composite
def train_and_test(draw, rows=(2, 25), features=(1, 5), levels=(2, 4), max_classes=4, max_test=6,
                   missing=False):
    """(X, y, X_test): training rows with at least two classes and 1..max_test test rows (columns f0..);
    a test value may be unseen (= the number of levels); with ``missing`` any value may be None."""
    n = draw(st.integers(*rows))
    m = draw(st.integers(*features))
    n_levels = draw(st.integers(*levels))
    n_classes = draw(st.integers(2, max_classes))

    def table(values, min_rows, max_rows):
        cell = st.one_of(values, st.none()) if missing else values
        cells = draw(st.lists(st.lists(cell, min_size=m, max_size=m), min_size=min_rows, max_size=max_rows))
        frame = pd.DataFrame(cells, dtype=object) if missing else pd.DataFrame(np.array(cells))
        return frame.add_prefix("f")

    X = table(st.integers(0, n_levels - 1), n, n)
    y = np.array(draw(st.lists(st.integers(0, n_classes - 1), min_size=n, max_size=n)))
    if len(set(y.tolist())) < 2:
        y[0], y[-1] = 0, 1
    return X, y, table(st.integers(0, n_levels), 1, max_test)


def assert_same_verdicts(model, reference, X) -> None:
    """``model`` predicts ``X`` as ``reference`` does, to the bit: probabilities for a precise model,
    dominance for a credal one."""
    method = "dominance" if hasattr(reference, "dominance") else "predict_proba"
    np.testing.assert_array_equal(getattr(model, method)(X), getattr(reference, method)(X))


def assert_sets_nested(make, low, high, X, y, X_test) -> None:
    """The sets of ``make(high)`` are inside those of ``make(low)`` (a parameter that only shrinks sets)."""
    wide = make(low).fit(X, y).predict_set(X_test)
    narrow = make(high).fit(X, y).predict_set(X_test)
    assert np.all(wide | ~narrow)


def class_with_noise(n, m, seed=3):
    """(X, y): 3 classes, each of the ``m`` features the class plus noise (mod 3): sets vary by row."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    return pd.DataFrame((y[:, None] + rng.integers(0, 2, (n, m)) * rng.integers(0, 3, (n, m))) % 3), y


def checked_sets(model, X):
    """``model.predict_set(X)``, asserted equal to the maximal set of ``model.dominance(X)``."""
    from credal_core._base import maximal_set

    sets = model.predict_set(X)
    assert np.array_equal(sets, maximal_set(model.dominance(X)))
    return sets


# --- the brute-force cross-checks (tests/credal_core/brute_force.py) -------------------------------
def the_package():
    """``credal_core``, or skip the module when only the namespace folder tests/credal_core/ imports
    under that name (the project root not on sys.path)."""
    import pytest

    core = pytest.importorskip("credal_core")
    if getattr(core, "__file__", None) is None:
        pytest.skip("credal_core is not importable", allow_module_level=True)
    return core


def fit_case(model, case_kw, X, y, classes):
    """``model`` fitted on a ``random_case``: every class declared (partial_fit) when one is absent."""
    if case_kw.get("absent_class"):
        return model.partial_fit(X, y, classes=classes)
    return model.fit(X, y)


def encoded_rows(encode, X, y, order, X_test):
    """Each test row's index and ``encode(X, y, order, row values)``: the counts a reference takes."""
    for row in range(len(X_test)):
        yield row, encode(X, y, order, list(X_test.iloc[row]))


def class_pairs(n_classes):
    """Every ordered pair (a, b) of two different classes."""
    return [(a, b) for a in range(n_classes) for b in range(n_classes) if a != b]


def assert_no_mismatch(failures) -> None:
    assert not failures, f"{len(failures)} mismatches:\n" + "\n".join(map(str, failures[:10]))


def table_or_clear_problem(data: bytes):
    """``read_csv_bytes(data)``: a table of at least two columns and one row whose numeric columns are
    finite, or ``None`` after a clear :class:`CsvProblem` (never a traceback)."""
    from credal_core.data.csv_loader import CsvProblem, read_csv_bytes

    try:
        table = read_csv_bytes(data)
    except CsvProblem as problem:
        assert str(problem) and "Traceback" not in str(problem)
        return None
    assert table.frame.shape[1] >= 2 and table.frame.shape[0] >= 1
    for name in table.numeric:
        assert np.all(np.isfinite(table.numeric_frame()[name].dropna().to_numpy(float)))
    return table


def counts_text(n_c, n_cf, inst) -> str:
    """A case's counts in a failure message (enough to replay it)."""
    return f"counts n_c={n_c.tolist()} n_cf={[t.tolist() for t in n_cf]} inst={inst}"


class Verdicts:
    """The package's dominance verdicts against a brute force's attained minimum ratios.

    An attained ratio is an upper bound on the infimum, so "a dominates b" needs a minimum above
    1 - 1e-9 (otherwise the brute force holds a prior under which a is not more probable), and "a does not
    dominate b" a minimum at most 1 + ``tie`` (otherwise the optimiser found no prior breaking
    dominance).  Minima within ``tie`` of 1 are ties: checked, not counted as compared verdicts."""

    def __init__(self, tie: float = 1e-6) -> None:
        self.tie = tie
        self.failures: list[str] = []
        self.counts = {True: 0, False: 0}
        self.ties = 0

    def check(self, says: bool, low: float, where: str) -> None:
        if not (low > 1 - 1e-9 if says else low <= 1 + self.tie):
            self.failures.append(f"{where}: package dominates={says}, brute-force min ratio={low:.12g}")
        if abs(low - 1) <= self.tie:
            self.ties += 1
        else:
            self.counts[says] += 1

    @property
    def compared(self) -> int:
        return self.counts[True] + self.counts[False]

    def assert_sound(self, both: bool = True) -> None:
        """No mismatch; with ``both``, each verdict seen at least once (not vacuous)."""
        assert_no_mismatch(self.failures)
        if both:
            assert self.counts[True] > 0 and self.counts[False] > 0


def quiet_fit(model, X, y):
    """``model.fit(X, y)`` with its warnings (a feature missing in every row, ...) silenced."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return model.fit(X, y)


def fitted_cases(make, n_sets, seed_base, case_kw, n_test=3):
    """``n_sets`` random cases (``brute_force.random_case``, seeds ``seed_base``, ``seed_base`` + 1, ...),
    each with ``make(i)`` fitted on it (:func:`fit_case`): yields (i, seed, X, y, classes, X_test, model)."""
    from tests.credal_core.brute_force import random_case

    for i in range(n_sets):
        seed = seed_base + i
        X, y, classes, X_test = random_case(seed, n_test=n_test, **case_kw)
        model = fit_case(make(i), case_kw, X, y, classes)
        yield i, seed, X, y, classes, X_test, model


def scenario(scenarios: dict, name: str, scaled: bool = True):
    """A cross-check scenario: (its seed base, its number of data sets — scaled by the test depth unless
    ``scaled`` is false —, its other entries).  Each scenario draws from seeds of its own."""
    from tests._depth import cases

    n_sets, *rest = scenarios[name]
    return 10_000 * (1 + list(scenarios).index(name)), cases(n_sets) if scaled else n_sets, rest
