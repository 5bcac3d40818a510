"""Support of the page "Profile likelihood" (``pages/profile_likelihood.py``): its URL state and cached
computations (``model``) and its figure builders (``figures``, no streamlit import)."""
