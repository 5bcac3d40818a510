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

from .encoding import (  # noqa: F401  (private names re-exported for old imports)
    _INTEGER_SPAN_SLOTS,
    MISSING,
    UNSEEN,
    _factorize_integer_matrix,
    _integer_lookup,
    _positions,
    _sorted_categories,
    union_categories,
)
from .lookup import Gather, lookup, lookup_sum
from .tables import CountTables, _align  # noqa: F401
from .validation import (  # noqa: F401
    _check_label_values,
    _check_missing_labels,
    _declared_values,
    _factorize,
    _factorize_arrow_strings,
    _frame,
    _is_integer_array,
    _label_array,
    _values_problem,
    as_frame,
    check_categories_policy,
    check_labels,
    declared_classes,
    labels_as_text,
)

__all__ = ["MISSING", "UNSEEN", "CountTables", "Gather", "as_frame", "check_categories_policy",
           "check_labels", "declared_classes", "labels_as_text", "lookup", "lookup_sum", "union_categories"]
