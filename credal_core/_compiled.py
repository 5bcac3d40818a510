"""Optional compiled kernels (numba), with the numpy code kept as the fallback.

numba is an optional dependency (extra ``[fast]``; in ``requirements.txt``, so the README's commands
install it). When it is importable and the environment variable ``CREDAL_NUMBA`` is not ``0``, a few hot
loops run as compiled kernels; otherwise the numpy code runs. Both paths give the same verdicts and are
tested equal on random inputs (``tests/credal_core/test_compiled.py`` and the kernels' own tests).

numba is imported on a kernel's first call, never when ``credal_core`` is imported (importing numba
costs ~0.5 s: the import-time target). Kernels are compiled with ``cache=True``: the machine code is kept
in ``__pycache__`` and later processes load it in milliseconds instead of compiling again.

Examples
--------
>>> import numpy as np
>>> from credal_core._compiled import compiled_kernel
>>> @compiled_kernel
... def total(values):
...     acc = 0.0
...     for v in values:
...         acc += v
...     return acc
>>> float(total(np.arange(4.0)))
6.0
"""
from __future__ import annotations

import functools
import importlib.util
import os
from collections.abc import Callable

__all__ = ["compiled_kernel", "numba_enabled"]


@functools.cache
def _numba_installed() -> bool:
    return importlib.util.find_spec("numba") is not None


def numba_enabled() -> bool:
    """True when numba is installed and not switched off with ``CREDAL_NUMBA=0`` (read on every call,
    so a test can switch between the compiled and the numpy path)."""
    return os.environ.get("CREDAL_NUMBA", "1") != "0" and _numba_installed()


class compiled_kernel:
    """A plain Python function compiled by ``numba.njit(cache=True, nogil=True)`` on its first call.

    Calling the kernel when numba is not enabled runs the Python function itself (slow but correct:
    callers choose their numpy path with :func:`numba_enabled` instead).
    """

    def __init__(self, function: Callable | None = None, **options) -> None:
        self._options = {"cache": True, "nogil": True, **options}
        self._function = function
        self._compiled: Callable | None = None
        if function is not None:
            functools.update_wrapper(self, function)

    def __call__(self, *args, **kwargs):
        if self._function is None:                    # used as @compiled_kernel(fastmath=False, ...)
            self._function = args[0]
            functools.update_wrapper(self, self._function)
            return self
        if not numba_enabled():
            return self._function(*args, **kwargs)
        if self._compiled is None:
            import numba

            try:
                self._compiled = numba.njit(**self._options)(self._function)
            except RuntimeError:                      # no cache locator (source not in a file): no cache
                self._compiled = numba.njit(**{**self._options, "cache": False})(self._function)
        return self._compiled(*args, **kwargs)
