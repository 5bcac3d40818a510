"""Class sessions' storage, shared by every server process (issue 25, item 5).

``ClassStore`` (in :mod:`.store`) holds classes, students, answers, reveals and pooled results in SQLite
(default, ``.data/classes.sqlite``) or PostgreSQL (``CREDAL_CLASS_DB=postgresql://...``); :mod:`.rules`
checks every input; :mod:`.database` resolves the URL and keeps the versioned schema.  No Streamlit here:
the class page caches one store per process (``st.cache_resource``).
"""
from .store import (
    JOIN_LIMIT,
    JOIN_WINDOW_S,
    ClassExpired,
    ClassNotFound,
    ClassState,
    ClassStore,
    NotAStudent,
    NotTeacher,
    Summary,
    TooManyJoins,
)

__all__ = ["JOIN_LIMIT", "JOIN_WINDOW_S", "ClassExpired", "ClassNotFound", "ClassState", "ClassStore",
           "NotAStudent", "NotTeacher", "Summary", "TooManyJoins"]
