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
import warnings
from collections.abc import Callable
from types import CodeType, FunctionType

__all__ = ["HELPER_OPTIONS", "compiled_kernel", "numba_enabled"]

# Options of a helper kernel called from compiled code only (``@compiled_kernel(**HELPER_OPTIONS)``):
# compiled once and called, not inlined; no Python or C wrapper and no reference counting (it
# allocates nothing); its machine code lives in its callers' cache.
HELPER_OPTIONS = {"error_model": "numpy", "no_cpython_wrapper": True, "no_cfunc_wrapper": True,
                  "_nrt": False, "cache": False}


@functools.cache
def _numba_importable() -> bool:
    # Imported here, on the first decision between the two paths (never at import time), because an
    # installed numba can fail to import — e.g. after numpy was upgraded past the versions it supports.
    if importlib.util.find_spec("numba") is None:
        return False
    try:
        import numba  # noqa: F401
    except Exception as error:  # noqa: BLE001 — whatever breaks numba's import, numpy still works
        warnings.warn(f"numba is installed but cannot be imported ({error}); credal_core runs its numpy "
                      "code instead (same results, slower)", RuntimeWarning, stacklevel=3)
        return False
    return True


def numba_enabled() -> bool:
    """True when numba imports and is not switched off with ``CREDAL_NUMBA=0`` (the variable is read
    on every call, so a test can switch between the compiled and the numpy path)."""
    return os.environ.get("CREDAL_NUMBA", "1") != "0" and _numba_importable()


class compiled_kernel:
    """A plain Python function compiled by ``numba.njit(cache=True, nogil=True)`` on its first call.

    Calling the kernel when numba is not enabled runs the Python function itself (slow but correct:
    callers choose their numpy path with :func:`numba_enabled` instead).

    A kernel may call other kernels (module-level functions decorated with ``compiled_kernel``): when
    it is compiled, the kernels it names are compiled once each and called, not inlined (numba inlines
    closures at every call site, which multiplies the compile time of a large kernel).  numba's cache
    does not notice a change in a called kernel alone: keep such kernels in the caller's file, whose
    every change invalidates the cache.  A helper called from compiled code only may take
    ``no_cpython_wrapper=True, no_cfunc_wrapper=True, cache=False`` (:data:`HELPER_OPTIONS`; its
    machine code is in its callers' cache; it cannot then be called from Python with numba on).
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
        return self.dispatcher()(*args, **kwargs)

    def dispatcher(self):
        """The numba dispatcher of the kernel (created on the first call; it compiles on its own first
        call for each signature, or loads the machine code from the cache)."""
        if self._compiled is None:
            import numba

            function = _calling_dispatchers(self._function)
            try:
                self._compiled = numba.njit(**self._options)(function)
            except RuntimeError:                      # no cache locator (source not in a file): no cache
                self._compiled = numba.njit(**{**self._options, "cache": False})(function)
        return self._compiled


def _global_names(code: CodeType) -> set[str]:
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, CodeType):
            names |= _global_names(const)
    return names


def _calling_dispatchers(function: Callable) -> Callable:
    """``function`` itself, or a copy whose globals name the numba dispatchers of the kernels it calls
    instead of their :class:`compiled_kernel` wrappers (which numba cannot type).  The code object is
    the same, so numba's cache finds the copy's machine code under the function's own name."""
    swaps = {name: value.dispatcher() for name in _global_names(function.__code__)
             if isinstance(value := function.__globals__.get(name), compiled_kernel)}
    if not swaps:
        return function
    copy = FunctionType(function.__code__, {**function.__globals__, **swaps}, function.__name__,
                        function.__defaults__, function.__closure__)
    copy.__kwdefaults__ = function.__kwdefaults__
    copy.__qualname__ = function.__qualname__
    copy.__module__ = function.__module__
    copy.__doc__ = function.__doc__
    return copy
