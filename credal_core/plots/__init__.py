"""Plotly figures of the package's results (paper 001 Figs. 5-7, the reject option, critical differences).

They need plotly, which is not a dependency of ``credal_core`` (it comes with the ``app`` extra:
``pip install 'credal-core[app]'``); nothing else in ``credal_core`` imports this package, so the
classifiers keep working without it.  The app and ``python -m credal_core compare --figures`` use them.
"""
