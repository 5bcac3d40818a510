"""Data preparation: validation and integer codes with count tables (``counts``), the CSV / ARFF
loader (``csv_loader``), discretisers (``discretise``) and the per-fold preparation (``preparation``).

Import from the modules themselves (``from credal_core.data.counts import CountTables``); this
package imports nothing, so loading the CSV reader does not load scikit-learn.
"""
