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
page's ``figures`` module; any page may link a lesson step through ``lessons.catalogue.step_link``
(tests/app_support/test_layout.py checks all three).
"""
