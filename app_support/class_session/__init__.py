"""Class sessions (issue 25): a lecturer unlocks a lesson's steps for everyone, sees how the class
answered, and pools the class's own experiments.

``logic`` (class links, seeds, which step a student may see, tallies; no Streamlit), ``figures`` (plain
plotly builders and the join link's QR code), ``render`` (one lesson step on the page, with a class's
hooks), ``service`` (the process's one :class:`~app_support.class_store.ClassStore`).  The page is
``pages/class_session.py`` (``/class``); the storage is ``app_support.class_store``.
"""
