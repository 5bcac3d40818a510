"""Support of the page "Compare on your data" (``pages/compare.py``): its URL state and cached
computations (``model``) and its figure builders (``figures``, no streamlit import)."""
