"""The URL state of the page "Classifier selection" and the names it uses, declared once: the page reads and
writes it, and the lessons' links into the page (``app_support.lessons.links.selection``) write it (no
streamlit here)."""
from __future__ import annotations

from dataclasses import dataclass

from app_support.classifier_selection.counts import COUNTS, DEFAULT_TABLE
from app_support.url_state import Choice, Flag, Names, Number, Row, Text, UrlState

__all__ = ["DATASETS", "DISTANCES", "MODES", "SOURCES", "K_MIN", "K_MAX", "PAPER_SUBSETS", "PAPER_NAMES",
           "Features", "DATA", "TABLE", "url_state"]

# the samples of app_support.data this page offers (004's Balloons and TIC, and two of ours)
DATASETS = ("balloons", "weather", "synthetic_nb", "tic_tac_toe")
DISTANCES = ("euclidean", "chebyshev")
MODES = ("resubstitution", "cross_validation")
SOURCES = ("test", "typed")
K_MIN, K_MAX = 1, 30
_SQUARES = ("top_left", "top_middle", "top_right", "middle_left", "middle_middle", "middle_right",
            "bottom_left", "bottom_middle", "bottom_right")
# 004 Table 1, 1-based feature numbers in UCI order: Balloons (1,2,3,4) / (1,3,4); TIC (1,5,7,8) / (1,2,5,7,8)
PAPER_SUBSETS = {
    "balloons": (("color", "size", "act", "age"), ("color", "act", "age")),
    "tic_tac_toe": (tuple(_SQUARES[i - 1] for i in (1, 5, 7, 8)),
                    tuple(_SQUARES[i - 1] for i in (1, 2, 5, 7, 8))),
}
PAPER_NAMES = {"balloons": "Balloons", "tic_tac_toe": "TIC"}     # keys of 004 Table 2


@dataclass(frozen=True)
class Features(Names):
    """Column names of the data set; a link naming none of them gets the default subset."""

    def parse(self, raw: str | None) -> tuple:
        return super().parse(raw) or tuple(self.default)


# read first: the other fields follow the data set; ``counts`` is a two-class count table (lesson 6), given
# by ``TABLE`` (``counts.parse_table`` checks it: a table it refuses gives a note and the default data set)
DATA = Choice("data", DATASETS + (COUNTS,), "balloons")
TABLE = Text("counts", DEFAULT_TABLE, max_len=200)


def url_state(columns: tuple, subsets: tuple[tuple, tuple], values: tuple = ()) -> UrlState:
    """The page's query parameters; ``f1`` / ``f2`` are columns of the chosen data set (default: its
    004 Table 1 or SFS subsets), ``x`` the typed instance: one value per column joined by ``|``,
    ``values[j]`` the choices of column ``j`` (a value the column does not have reads as its first)."""
    return UrlState(
        DATA, TABLE,
        Features("f1", subsets[0], options=columns), Features("f2", subsets[1], options=columns),
        Number("k", 3, K_MIN, K_MAX, integer=True), Choice("dist", DISTANCES, "euclidean"),
        Number("seed", 0, 0, 9_999, integer=True), Choice("mode", MODES, "resubstitution"),
        Number("runs", 100, 10, 100, step=10, integer=True), Choice("source", SOURCES, "test"),
        # Balloons, split 0, test row 4: C1 and C2 disagree; k = 4 adds 4 tied rows and flips the choice
        Number("row", 4, 0, 10_000, integer=True),
        Row("x", tuple(map(tuple, values))), Flag("table2", False),
    )
