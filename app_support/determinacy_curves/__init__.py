"""Support of the page "Determinacy curves" (``pages/determinacy_curves.py``): its URL state and cached
computations (``model``) and its figure builders (``figures``, no streamlit import)."""
