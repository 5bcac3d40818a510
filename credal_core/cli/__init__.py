"""The command line: ``python -m credal_core compare FILE...`` (and the paper reproductions).

``compare`` cross-validates classifiers on any number of CSV / ARFF files with every protocol choice
of the app's Compare page (:mod:`.compare`); classifiers are named by short aliases
(:mod:`.classifiers`); ``--tests`` adds the tests across data sets and ``--markdown`` / ``--latex``
paper-ready tables (:mod:`.report`).  ``table1`` and ``fig5`` reproduce paper 000 §5.1 (the same as
``python -m credal_core.experiments table1``).
"""
from __future__ import annotations

import argparse
import sys

__all__ = ["main"]


def main(argv=None) -> int:
    from . import compare

    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in ("table1", "fig5"):
        from ..experiments.__main__ import main as experiments_main

        return experiments_main(argv)
    parser = argparse.ArgumentParser(prog="python -m credal_core", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", metavar="{compare,table1,fig5}")
    commands.required = True
    sub = commands.add_parser("compare", help="cross-validate classifiers on CSV / ARFF files",
                              description=compare.DESCRIPTION, epilog=compare.EXAMPLES,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    compare.add_arguments(sub)
    commands.add_parser("table1", help="paper 000 Table 1 (see python -m credal_core table1 --help)",
                        add_help=False)
    commands.add_parser("fig5", help="paper 000 Fig. 5 (see python -m credal_core fig5 --help)",
                        add_help=False)
    args = parser.parse_args(argv)
    return compare.run(sub, args)
