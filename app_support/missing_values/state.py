"""The URL state of the page "Missing values", declared once: the page reads and writes it, and the lessons'
links into the page (``app_support.lessons.links.missing``) write it (no streamlit calls here)."""
from __future__ import annotations

from app_support.data import sample_names
from app_support.uploads import LIMITS
from app_support.url_state import Choice, Flag, Names, Number, Text, UrlState

__all__ = ["MAX_STEPS", "UPLOAD", "DATA", "MECHANISMS", "STATE"]

MAX_STEPS = 10        # conservative rows (features declared non-MAR one more at a time)
UPLOAD = "upload"
DATA = (*sample_names(), UPLOAD)
MECHANISMS = {"mnar": "not at random: hide the chosen value", "mcar": "at random (MCAR)"}
STATE = UrlState(
    Choice("data", DATA, "weather"), Number("row", 8, 1, LIMITS.max_rows, integer=True),
    Names("missing", ("outlook",), sep="|"), Flag("loo", True), Number("s", 1.0, 0.1, 10.0, step=0.1),
    Number("hide", 1.0, 0.0, 1.0, step=0.05), Choice("mech", tuple(MECHANISMS), "mnar"),
    Text("hfeat", "outlook", max_len=200), Text("hval", "sunny", max_len=200),
    Number("seed", 0, 0, 9_999, integer=True), Number("tr", -1, -1, 2 + MAX_STEPS, integer=True),
    Text("a", max_len=200), Text("b", max_len=200),
)
