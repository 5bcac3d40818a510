"""Argument checks shared by the whole package (no heavy imports: light modules use them too)."""
from __future__ import annotations

import numpy as np

__all__ = ["check_number", "check_integer"]


def check_number(name: str, value, low: float, high: float = np.inf, *, low_open: bool = False) -> float:
    """A finite real hyper-parameter in [low, high] (or (low, high] with ``low_open``), else ValueError."""
    is_real = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)
    if not is_real or not np.isfinite(value) or value > high or (value <= low if low_open else value < low):
        bracket = "(" if low_open else "["
        raise ValueError(f"{name} must be a finite number in {bracket}{low:g}, {high:g}]; got {value!r}")
    return float(value)


def check_integer(name: str, value, low: int) -> int:
    """An integer (not a bool) of at least ``low``, else ValueError."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise ValueError(f"{name} must be an integer >= {low}; got {value!r}")
    return int(value)
