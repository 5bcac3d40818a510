"""Support of the page "Classifier selection" (``pages/classifier_selection.py``): its URL state and
cached computations (``model``) and its figure builders (``figures``, no streamlit import)."""
