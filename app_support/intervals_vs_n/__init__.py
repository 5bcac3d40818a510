"""Support of the page "Intervals vs N" (``pages/intervals_vs_n.py``): its URL state and cached
computations (``model``) and its figure builders (``figures``, no streamlit import)."""
