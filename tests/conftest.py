"""Test-run settings shared by every test directory.

Hypothesis profiles: ``ci`` (the default: the examples each test asks for) and ``fast`` (at most 15
examples per property, for ``bash scripts/test.sh --fast``); chosen by ``HYPOTHESIS_PROFILE``.
"""
from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", deadline=None)
settings.register_profile("fast", deadline=None, max_examples=15)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
