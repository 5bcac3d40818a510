"""Compile credal_core's numba kernels once, before anything needs them.

numba keeps compiled kernels in ``__pycache__`` (``cache=True``); the first process to use a kernel in
a fresh checkout compiles it. Without this step that is the app's first student, or every test process
of a fresh clone at once. ``scripts/_venv.sh`` runs this file when the kernels' sources, numba or
Python changed (a stamp in ``credal_core/__pycache__``); without numba (or with ``CREDAL_NUMBA=0``) it
does nothing. It calls the estimators the way the app and the tests do, integer and text input, with
and without missing values, so each kernel is compiled for the argument types it meets.

``python scripts/warm_kernels.py lncc`` (or ``others``: NCC and the AODE family) compiles one half only:
``scripts/_venv.sh`` runs the two halves in two processes at once (numba compiles on one core; the LNCC's
kernels are ~9 CPU s of the ~16; each process writes its own kernels' cache files, and the one kernel
both use, the maximal-set pass, is written atomically by numba).
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from credal_core import AODE, BMAAODE, LNCC, NCC, CompAODE, CredalBMAAODE, CredalCompAODE  # noqa: E402
from credal_core._compiled import numba_enabled  # noqa: E402
from credal_core.reject import lower_top_posterior  # noqa: E402


def _data(rng, rows: int, missing: bool):
    X = rng.integers(0, 3, size=(rows, 5))
    y = np.where(X[:, 0] + rng.integers(0, 2, rows) > 1, "b", "a")
    frame = pd.DataFrame(X.astype(str), columns=[f"f{j}" for j in range(5)])
    if missing:
        frame = frame.mask(rng.random(frame.shape) < 0.1)
    return X, frame, y


def _split_lower_posterior() -> None:
    """The NCC's lower posterior where the rivals' share splits (credal_core._ncc_lower_split: more than
    two classes, rivals with missing training values; the reject option on Compare): two alike rivals,
    never the instance's value, two of ten values missing (the tests' case where a split beats every
    vertex)."""
    rival = [1.0] * 8 + [np.nan] * 2
    X = pd.DataFrame({"f0": [0.0] * 6 + [1.0] * 2 + rival + rival, "f1": [0.0, 1.0] * 4 + [0.0] * 20})
    y = np.array([0] * 8 + [1] * 10 + [2] * 10)
    lower_top_posterior(NCC(s=1.0).fit(X, y), X.iloc[[0]], [0])


def main(families: list[str]) -> int:
    unknown = set(families) - {"lncc", "others"}
    if unknown:
        print(f"warm_kernels: unknown half {sorted(unknown)}; choose from lncc, others", file=sys.stderr)
        return 2
    families = families or ["lncc", "others"]
    if not numba_enabled():
        print("warm_kernels: numba is not enabled; nothing to compile")
        return 0
    start = time.process_time()
    rng = np.random.default_rng(0)
    for missing in (False, True):
        X, frame, y = _data(rng, 120, missing)
        inputs = [frame] if missing else [X, frame]
        for data in inputs:
            if "lncc" in families:
                for model in (LNCC(alpha=0.75), LNCC(alpha=0.75, include_instance=False)):
                    model.fit(data, y).predict_set(data)
            if "others" in families:
                for model in (NCC(s=1.0), NCC(s=1.0, epsilon=0.01)):
                    model.fit(data, y).predict_set(data)
                for model in (AODE(), BMAAODE(), CompAODE()):
                    model.fit(data, y).predict_proba(data)
                for model in (CredalBMAAODE(), CredalCompAODE()):
                    model.fit(data, y).predict_set(data)
    if "others" in families:
        _split_lower_posterior()
    print(f"warm_kernels: compiled or loaded the kernels of {' and '.join(families)} in "
          f"{time.process_time() - start:.1f} CPU s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
