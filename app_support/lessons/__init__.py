"""Lessons: a guided path through credal classification, with questions the exact core grades.

``model`` (lessons, steps, questions, verdicts), ``problems`` (the small seeded problems), one module
per lesson (``lesson_*``), ``catalogue`` (their order and the lesson links), ``links`` (into the full
pages), ``glossary`` and ``references`` (the glossary's and the references page's content): no
streamlit in these.  ``render`` draws one step on the page (streamlit), for ``pages/lessons.py`` and, with
a class's hooks, ``pages/class_session.py``.
"""
