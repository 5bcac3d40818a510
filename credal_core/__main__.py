"""``python -m credal_core compare FILE...`` — see :mod:`credal_core.cli`."""
import sys

from credal_core.cli import main

if __name__ == "__main__":
    sys.exit(main())
