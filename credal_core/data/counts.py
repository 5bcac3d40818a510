"""The categorical data layer's former single module, kept so that every old import works.

The layer is split by job:

- :mod:`.validation` — feature tables and class labels checked (``as_frame``, ``check_labels``,
  ``declared_classes``, ``labels_as_text``, ``check_categories_policy``);
- :mod:`.encoding` — integer codes (``UNSEEN``, ``MISSING``, ``union_categories``, the fast coders);
- :mod:`.tables` — :class:`CountTables`, the additive count tables;
- :mod:`.lookup` — ``Gather``, ``lookup``, ``lookup_sum`` (tables read at many coded instances).

``from credal_core.data.counts import X`` gives the same object as importing ``X`` from its new module.
"""
from __future__ import annotations

from . import encoding, tables, validation
from .encoding import MISSING, UNSEEN, union_categories
from .lookup import Gather, lookup, lookup_sum
from .tables import CountTables
from .validation import as_frame, check_categories_policy, check_labels, declared_classes, labels_as_text

__all__ = ["MISSING", "UNSEEN", "CountTables", "Gather", "as_frame", "check_categories_policy",
           "check_labels", "declared_classes", "labels_as_text", "lookup", "lookup_sum", "union_categories"]

_MODULES = (encoding, validation, tables)


def __getattr__(name: str):
    """The private helpers that lived here (``_factorize``, ``_align``, ...), from their new modules."""
    for module in _MODULES:
        if name.startswith("_") and hasattr(module, name):
            return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
