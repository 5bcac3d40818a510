"""credal_core — exact credal classifiers (NBC, NCC, NCC_ε, LNCC, the AODE family, threshold selection).

The estimators are imported lazily (PEP 562): ``import credal_core.likelihood`` or
``credal_core.profile`` does not pay for scikit-learn, which keeps the app's first render fast.
"""
from importlib import import_module

__all__ = ["AODE", "BMAAODE", "CompAODE", "CountTables", "CredalBMAAODE", "CredalCompAODE", "LNCC", "NCC",
           "NaiveBayes", "ThresholdSelector"]
__version__ = "0.1.0"

_WHERE = {"CountTables": ".data", "LNCC": ".lncc", "NCC": ".ncc", "NaiveBayes": ".naive_bayes",
          "ThresholdSelector": ".selection", "AODE": ".aode", "BMAAODE": ".aode", "CompAODE": ".aode",
          "CredalBMAAODE": ".aode", "CredalCompAODE": ".aode"}


def __getattr__(name):
    if name in _WHERE:
        value = getattr(import_module(_WHERE[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'credal_core' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
