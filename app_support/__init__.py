"""Helpers for the Streamlit pages; nothing here does credal mathematics (that is ``credal_core``).

Layout: one package per page, named as the page (``app_support/<stem>/`` for ``pages/<stem>.py``, see
:mod:`app_support.registry`): ``model.py`` (its URL state and cached computations), ``figures.py``
(plotly builders, no streamlit import), sometimes ``text.py``; pages of one family may share a package,
each page's module named after it (``app_support/lessons/glossary.py`` for ``pages/glossary.py``). The
modules directly in ``app_support/`` are shared by every page: ``page`` (skeleton), ``url_state``,
``routing``, ``jobs`` (worker processes, queue, progress bars), ``long_runs`` (Stop button), ``data`` /
``cached_samples`` / ``uploads`` (data loading), ``figures`` (figure helpers), ``text``, ``registry``. A
page uses the shared modules and its own package, never another page's ``model``; the Learn pages (one
family on the lessons' model) share their support and may show an Explore page's figure through that
page's ``figures`` module (tests/app_support/test_layout.py checks both).
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys

# The modules' names before the per-page layout (issue 23) -> their modules now.  An old name imports
# the same module object (so a monkeypatch through it reaches the page's functions); nothing in
# app_support, pages/ or their tests uses them.  Remove this table once no code outside them does
# (tests/credal_core/experiments/test_consolidation.py).
MOVED = {
    "app_support.cache_home": "app_support.home.model",
    "app_support.cache_profile": "app_support.profile_likelihood.model",
    "app_support.figures_profile": "app_support.profile_likelihood.figures",
    "app_support.figures_intervals": "app_support.intervals_vs_n.figures",
    "app_support.figures_determinacy": "app_support.determinacy_curves.figures",
    "app_support.cache_aode": "app_support.aode_weights.model",
    "app_support.figures_aode": "app_support.aode_weights.figures",
    "app_support.cache_selection": "app_support.classifier_selection.model",
    "app_support.figures_selection": "app_support.classifier_selection.figures",
    "app_support.cache_compare": "app_support.compare.model",
    "app_support.figures_compare": "app_support.compare.figures",
    "app_support.figures_stats": "app_support.compare.critical_difference",
    "app_support.cache_missing": "app_support.missing_values.model",
    "app_support.figures_missing": "app_support.missing_values.figures",
}


class _OldNames(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports an old name of :data:`MOVED` as its module (the import system keeps what a loader puts in
    ``sys.modules``)."""

    def find_spec(self, name, path=None, target=None):
        return importlib.util.spec_from_loader(name, self) if name in MOVED else None

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        sys.modules[module.__name__] = importlib.import_module(MOVED[module.__name__])


if not any(isinstance(finder, _OldNames) for finder in sys.meta_path):
    sys.meta_path.append(_OldNames())
