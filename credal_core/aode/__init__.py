"""The AODE family of paper 001: AODE, BMA-AODE, COMP-AODE and the credal BMA-AODE*, COMP-AODE*."""
from ._spode import SpodeTables
from .aode import AODE
from .bma import BMAAODE
from .compression import CompAODE
from .credal import CredalBMAAODE, CredalCompAODE

__all__ = ["AODE", "BMAAODE", "CompAODE", "CredalBMAAODE", "CredalCompAODE", "SpodeTables"]
