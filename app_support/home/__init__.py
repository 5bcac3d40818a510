"""Support of the page "Home" (``pages/home.py``): its URL state and cached computations (``model``) and
its figure builders (``figures``, no streamlit import)."""
