"""How thoroughly the randomised cross-checks and property tests run.

The sizes written in the tests are those of the full run (``bash scripts/test.sh``, what CI runs): each
brute-force suite still compares its closed form with the slow computation on well over a hundred random
small data sets, and each property test draws its examples. ``CREDAL_TEST_DEPTH`` scales every such count:
``CREDAL_TEST_DEPTH=3 bash scripts/test.sh`` is the deep run (about the sizes of the 2026-11 suites, which
took twice as long as the 5-minute budget of the full run) — worth doing before a release and after any
change to a closed form; ``--fast`` uses 0.25.
"""
from __future__ import annotations

import math
import os

DEPTH = float(os.environ.get("CREDAL_TEST_DEPTH", "1"))


def cases(n: int) -> int:
    """``n`` random cases scaled by the run's depth (never fewer than one)."""
    return max(1, math.ceil(n * DEPTH))


def examples(n: int) -> int:
    """Hypothesis ``max_examples`` scaled by the run's depth (never fewer than five)."""
    return max(5, math.ceil(n * DEPTH))
