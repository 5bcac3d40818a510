"""The constants of the LNCC's verdict, in one place: the compiled certificates
(:mod:`._lncc_kernels`), the estimator (:mod:`.lncc`) and the exact route's early exit
(:func:`credal_core.likelihood.pairwise.dominance_verdicts`) read them from here.

Every certificate is a proof, so these only decide how many verdicts the compiled kernel settles
and how fast; never a verdict (the rows it leaves go to the exact route).

numba caches the kernel's machine code with these values compiled in, and notices a change of
``_lncc_kernels.py`` only: :func:`._lncc_kernels.certify` passes the current values to the kernel,
which raises when they differ from those it was compiled with (then touch ``_lncc_kernels.py``, or
delete ``credal_core/naive/__pycache__``).
"""
from __future__ import annotations

__all__ = ["MAX_CELLS", "REACH", "ROUNDING", "TAYLOR_ORDER"]

# Taylor order Q of the compiled per-row sums (the kernel's sums are written out for this order)
TAYLOR_ORDER = 6

# Largest |e| max_j 1/(c_j + z) at which an expansion around the centre z is used (its remainder
# carries a factor 1 / (1 - ρ)).
REACH = 0.75

# Relative rounding margin: a certificate must hold by this times the sum of the absolute values of
# the terms it adds up (float sums of a few hundred terms err by far less).
ROUNDING = 1e-11

# Cells of the kernel's branch and bound per interval before a row is left to the exact route.
MAX_CELLS = 48
