"""Class sessions (issue 25): a lecturer unlocks a lesson's steps for everyone, sees how the class
answered, and pools the class's own experiments.

``logic`` (class links, seeds, which step a student may see, tallies; no Streamlit), ``figures`` (plain
plotly builders and the join link's QR code), ``service`` (the process's one
:class:`~app_support.class_store.ClassStore`).  A step is drawn by ``app_support.lessons.render`` with a
class's hooks, as the Lessons page draws it.  The page is
``pages/class_session.py`` (``/class``); the storage is ``app_support.class_store``.
"""
