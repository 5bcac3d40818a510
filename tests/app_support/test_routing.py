"""The deep-link hand-over (app_support/routing.py) relies on one private attribute of the pinned Streamlit.

A `pages/` folder beside app.py makes a fresh server start in Streamlit's legacy multipage mode; the
hand-over switches it off through ``PagesManager.uses_pages_directory``.  If an upgrade removes that
attribute the hand-over silently does nothing and shared links opened first on a fresh server lose
app.py's navigation — so this test fails loudly instead.
"""
from streamlit.runtime.pages_manager import PagesManager


def test_the_private_attribute_the_hand_over_switches_still_exists():
    assert hasattr(PagesManager, "uses_pages_directory"), (
        "streamlit no longer has PagesManager.uses_pages_directory: app_support/routing.py's deep-link "
        "hand-over does nothing now; find the new switch (or a public API) and update routing.py")
