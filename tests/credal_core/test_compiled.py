"""The optional compiled-kernel wrapper: numba on or off gives the same results; numba loads lazily."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from credal_core._compiled import compiled_kernel, numba_enabled


@compiled_kernel
def _running_max(values):
    out = np.empty_like(values)
    best = -np.inf
    for i in range(values.shape[0]):
        if values[i] > best:
            best = values[i]
        out[i] = best
    return out


@compiled_kernel
def _clipped(value, bound):
    return min(max(value, -bound), bound)


@compiled_kernel
def _clipped_sum(values, bound):
    acc = 0.0
    for i in range(values.shape[0]):
        acc += _clipped(values[i], bound)                   # a kernel calling a kernel
    return acc


def test_compiled_and_python_paths_agree(monkeypatch):
    values = np.random.default_rng(0).normal(size=1000)
    expected = np.maximum.accumulate(values)                  # numpy's own, independent of the kernel
    monkeypatch.setenv("CREDAL_NUMBA", "0")
    assert not numba_enabled()
    np.testing.assert_array_equal(_running_max(values), expected)
    monkeypatch.setenv("CREDAL_NUMBA", "1")
    if not numba_enabled():
        pytest.skip("numba is not installed: only the numpy path exists")
    np.testing.assert_array_equal(_running_max(values), expected)


def test_importing_the_package_does_not_import_numba():
    code = "import sys, credal_core; credal_core.NCC; credal_core.LNCC; print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_kernel_calls_another_kernel_on_both_paths(monkeypatch):
    values = np.random.default_rng(1).normal(size=1000)
    expected = float(np.clip(values, -0.5, 0.5).sum())       # numpy's own
    monkeypatch.setenv("CREDAL_NUMBA", "0")
    assert _clipped_sum(values, 0.5) == pytest.approx(expected, rel=1e-12)
    monkeypatch.setenv("CREDAL_NUMBA", "1")
    if not numba_enabled():
        pytest.skip("numba is not installed: only the numpy path exists")
    assert _clipped_sum(values, 0.5) == pytest.approx(expected, rel=1e-12)
    # the compiled caller names the callee's own dispatcher (compiled once, called, not inlined)
    assert _clipped_sum.dispatcher().py_func.__globals__["_clipped"] is _clipped.dispatcher()
    assert _clipped_sum.dispatcher().py_func.__code__ is _clipped_sum.__wrapped__.__code__


def test_a_numba_that_fails_to_import_falls_back_to_numpy(tmp_path):
    # e.g. numba installed, then numpy upgraded past what it supports: its import raises
    fake = tmp_path / "numba"
    fake.mkdir()
    (fake / "__init__.py").write_text('raise ImportError("Numba needs NumPy 2.3 or less")\n')
    code = ("import warnings, numpy as np\n"
            "from credal_core import LNCC, NCC\n"
            "from credal_core.aode import AODE\n"
            "X = np.random.default_rng(0).integers(0, 3, (60, 4)); y = X[:, 0] % 2\n"
            "with warnings.catch_warnings(record=True) as caught:\n"
            "    warnings.simplefilter('always')\n"
            "    sets = NCC().fit(X, y).predict_set(X), LNCC().fit(X, y).predict_set(X)\n"
            "    AODE().fit(X, y).predict_proba(X)\n"
            "from credal_core._compiled import numba_enabled\n"
            "assert not numba_enabled() and all(s.any(axis=1).all() for s in sets)\n"
            "print(sum('cannot be imported' in str(w.message) for w in caught))\n")
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{root}"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "1"                    # said once, not on every call
