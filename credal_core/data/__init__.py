"""Data preparation: validation (``validation``), integer codes (``encoding``), the count tables
(``tables``), look-ups in them (``lookup``) and pair counts (``pairs``), with ``counts`` re-exporting the
first four for old imports; the CSV / ARFF loader (``csv_loader``), discretisers (``discretise``) and the
per-fold preparation (``preparation``).

Import from the modules themselves (``from credal_core.data.counts import CountTables`` still works);
this package imports nothing, so loading the CSV reader does not load scikit-learn.
"""
