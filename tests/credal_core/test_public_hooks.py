"""The public ``*_codes`` / ``encode`` methods give exactly what the private hooks give (issue 12).

Other modules (the evaluation engine, the threshold selector) call the public methods; the
subclasses keep filling the private hooks.  These tests pin the delegation bit for bit on fitted
models (complete data, missing values, several classes, ``fit_counts``), and a source scan keeps
``credal_core``, ``app_support`` and ``pages`` free of calls to another object's private method.
"""
from __future__ import annotations

import ast
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import NotFittedError

from credal_core import LNCC, NCC, CountTables, NaiveBayes
from credal_core.aode import AODE, BMAAODE, CompAODE, CredalBMAAODE, CredalCompAODE
from credal_core.data.counts import MISSING, UNSEEN

ROOT = Path(__file__).resolve().parents[2]


def _data(seed: int, n: int = 60, m: int = 4, n_classes: int = 3, holes: float = 0.0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({f"f{j}": rng.choice(list("uvw"), n).astype(object) for j in range(m)})
    if holes:
        X = X.mask(rng.random(X.shape) < holes)
    y = rng.choice([f"c{k}" for k in range(n_classes)], n)
    y[:n_classes] = [f"c{k}" for k in range(n_classes)]
    test = pd.DataFrame({f"f{j}": rng.choice(list("uvwz"), 40).astype(object) for j in range(m)})
    if holes:
        test = test.mask(rng.random(test.shape) < holes)
    return X, y, test


CASES = [dict(seed=0), dict(seed=1, n_classes=2), dict(seed=2, holes=0.15), dict(seed=3, n=25, m=6)]


def _fitted(make, case):
    X, y, test = _data(**case)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return make().fit(X, y), test


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("make", [lambda: NaiveBayes(s=1.0), lambda: NaiveBayes(s=2.5),
                                  lambda: NaiveBayes(prior="laplace"), lambda: NCC(s=1.0, epsilon=0.1),
                                  lambda: LNCC(alpha=0.6), lambda: AODE(), lambda: AODE(combine="joint"),
                                  lambda: BMAAODE(), lambda: CompAODE(), lambda: CredalCompAODE()])
def test_encode_and_joint_log_likelihood_codes_equal_the_hooks(make, case):
    model, test = _fitted(make, case)
    codes = model.encode(test)
    assert np.array_equal(codes, model._encode(test))
    assert np.array_equal(codes, model.tables_.encode(test))
    # the test frame holds an unseen value ("z"); with holes, missing ones too
    assert (codes == UNSEEN).any()
    assert (codes == MISSING).any() == bool(case.get("holes"))
    jll = model.joint_log_likelihood_codes(codes)
    assert jll.shape == (len(model.classes_), len(test))
    assert np.array_equal(jll, model._joint_log_likelihood(codes))
    assert np.array_equal(model.classes_[np.argmax(jll, axis=0)], model.predict(test))


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("make", [lambda: NCC(s=1.0), lambda: NCC(s=2.0, epsilon=0.2),
                                  lambda: NCC(s=1.0, non_mar_testing=["f0"]), lambda: LNCC(alpha=0.4),
                                  lambda: LNCC(alpha=0.9, include_instance=False),
                                  lambda: CredalBMAAODE(epsilon=0.01), lambda: CredalCompAODE(epsilon=0.01)])
def test_dominance_codes_equals_the_hook(make, case):
    model, test = _fitted(make, case)
    codes = model.encode(test)
    dom = model.dominance_codes(codes)
    assert dom.dtype == bool and dom.shape == (len(test),) + (len(model.classes_),) * 2
    assert np.array_equal(dom, model._dominance(codes))
    assert np.array_equal(dom, model.dominance(test))
    assert dom.any()                       # some dominance, so the comparison has something to see


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("include_instance", [True, False])
def test_critical_alpha_codes_equals_the_hook(case, include_instance):
    model, test = _fitted(lambda: LNCC(include_instance=include_instance), case)
    codes = model.encode(test)
    crit = model.critical_alpha_codes(codes)
    assert np.array_equal(crit, model._critical_alpha(codes))
    assert np.array_equal(crit, model.critical_alpha(test))
    assert (crit < 1).any()


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("prior", ["laplace", "perks"])
def test_threshold_and_best_codes_equals_the_hook(case, prior):
    model, test = _fitted(lambda: NaiveBayes(prior=prior), case)
    codes = model.encode(test)
    threshold, best = model.threshold_and_best_codes(codes)
    want_threshold, want_best = model._threshold_and_best(codes)
    assert np.array_equal(threshold, want_threshold) and np.array_equal(best, want_best)
    assert np.array_equal(threshold, model.perturbation_threshold(test))
    laplace = NaiveBayes(prior="laplace").fit_counts(model.tables_)
    assert np.array_equal(model.classes_[best], laplace.predict(test))
    assert (threshold > 0).any()


def test_the_codes_methods_work_on_models_fitted_from_coded_counts():
    """What the evaluation engine does: counts of integer codes, codes in, no DataFrame."""
    rng = np.random.default_rng(7)
    X, y = rng.integers(0, 3, (50, 4)), rng.integers(0, 3, 50)
    X_test = rng.integers(0, 3, (30, 4))
    tables = CountTables.from_codes(X, y, np.full(4, 3), 3)
    nbc, ncc, lncc = (m.fit_counts(tables) for m in (NaiveBayes(s=1.0), NCC(s=1.0, epsilon=0.1), LNCC()))
    assert np.array_equal(nbc.joint_log_likelihood_codes(X_test), nbc._joint_log_likelihood(X_test))
    assert np.array_equal(ncc.dominance_codes(X_test), ncc._dominance(X_test))
    assert np.array_equal(lncc.critical_alpha_codes(X_test), lncc._critical_alpha(X_test))


@pytest.mark.parametrize("call", [lambda m: m.joint_log_likelihood_codes(np.zeros((1, 2), int)),
                                  lambda m: m.dominance_codes(np.zeros((1, 2), int)),
                                  lambda m: m.encode(pd.DataFrame({"a": ["x"], "b": ["y"]}))])
def test_public_methods_refuse_an_unfitted_model(call):
    with pytest.raises(NotFittedError):
        call(NCC())


def test_critical_alpha_and_threshold_codes_refuse_an_unfitted_model():
    with pytest.raises(NotFittedError):
        LNCC().critical_alpha_codes(np.zeros((1, 2), int))
    with pytest.raises(NotFittedError):
        NaiveBayes().threshold_and_best_codes(np.zeros((1, 2), int))


# --- no calls to another object's private method -------------------------------------------------

def _private_calls(source: str) -> list[tuple[int, str]]:
    """``<obj>._name(...)`` calls whose object is not ``self`` / ``cls`` / ``super()``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        name, owner = node.func.attr, node.func.value
        if not name.startswith("_") or name.startswith("__"):
            continue
        if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
            continue
        if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super":
            continue
        found.append((node.lineno, name))
    return found


def test_the_scan_finds_what_it_looks_for():
    source = "a._hook(x)\nself._own(x)\nsuper()._own(x)\nNB()._set_tables(t)\nb.public(x)\nc.__len__()\n"
    assert _private_calls(source) == [(1, "_hook"), (4, "_set_tables")]


def test_no_module_calls_another_objects_private_method():
    files = [p for d in ("credal_core", "app_support", "pages") for p in sorted((ROOT / d).rglob("*.py"))]
    files.append(ROOT / "app.py")
    assert len(files) > 20
    offenders = [f"{p.relative_to(ROOT)}:{line}: .{name}(" for p in files if p.exists()
                 for line, name in _private_calls(p.read_text(encoding="utf-8"))]
    assert offenders == []
