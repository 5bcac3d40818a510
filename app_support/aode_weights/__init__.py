"""Support of the page "AODE compression weights" (``pages/aode_weights.py``): its URL state and cached
computations (``model``) and its figure builders (``figures``, no streamlit import)."""
