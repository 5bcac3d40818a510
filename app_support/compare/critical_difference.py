"""Critical-difference diagram, moved to :mod:`credal_core.plots.critical_difference` so that the command
line draws 001 Fig. 7 too; kept here for the app's imports."""
from credal_core.plots.critical_difference import critical_difference_figure  # noqa: F401

__all__ = ["critical_difference_figure"]
