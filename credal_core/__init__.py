"""credal_core — exact naive credal classifiers (NBC, NCC, NCC_ε, LNCC) on categorical data."""
from .data import CountTables
from .lncc import LNCC
from .naive_bayes import NaiveBayes
from .ncc import NCC

__all__ = ["CountTables", "LNCC", "NCC", "NaiveBayes"]
__version__ = "0.1.0"
