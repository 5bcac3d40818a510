"""Support of the page "Missing values" (``pages/missing_values.py``): its URL state and cached
computations (``model``) and its figure builders (``figures``, no streamlit import)."""
