"""Generate the rule-defined UCI data sets: ``tic_tac_toe.csv`` and ``monks1.csv`` .. ``monks3.csv``.

Both UCI data sets are *defined* by rules, so they can be rebuilt exactly without downloading them.

**Tic-Tac-Toe Endgame** (D. W. Aha, 1991, UCI Machine Learning Repository): every board that can
stand at the end of a game of noughts and crosses in which x moved first, i.e. every board reached
by legal alternating play (x, o, x, ...) at the moment the game stops, because one player has three
in a row or the board is full.  Nine features ``top_left`` .. ``bottom_right`` (row by row) with
values ``x``, ``o``, ``b`` (blank); ``class`` is ``positive`` iff x has three in a row.  The game
tree is walked exhaustively: 958 end boards, 626 positive (x won) and 332 negative (316 won by o,
16 draws).  Rows are written in the order of the UCI file: the positive boards, then the boards o
won, then the draws, each group sorted square by square with x < o < b.

**MONK's problems** (S. B. Thrun et al., *The MONK's problems: a performance comparison of
different learning algorithms*, CMU-CS-91-197, 1991): six attributes ``a1`` .. ``a6`` with domains
of 3, 3, 2, 3, 4, 2 values coded 1..k; the full attribute space has 432 points.  ``class`` (1/0):

====== ======================================================
monks1 a1 = a2, or a5 = 1
monks2 exactly two of the six attributes take their value 1
monks3 (a5 = 3 and a4 = 1), or (a5 != 4 and a2 != 3)
====== ======================================================

Each file holds all 432 points, labelled by the rule without noise, in lexicographic order of
(a1, ..., a6): this is the UCI ``monks-k.test`` file (minus its instance-id column).  UCI's
``monks-3.train`` sample has 5 % deliberate label noise (6 of its 122 rows contradict the rule);
that noise is *not* reproduced here.

``tests/credal_core/test_sample_datasets.py`` checks the rules on every row and compares with
copies of the UCI files when they are available.  Run from the repository root (byte-identical
output every time)::

    .venv/bin/python sample_data/make_rule_datasets.py
"""

from __future__ import annotations

import csv
import itertools
from collections.abc import Callable, Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent

# ---------------------------------------------------------------- tic-tac-toe
SQUARES = ("top_left", "top_middle", "top_right",
           "middle_left", "middle_middle", "middle_right",
           "bottom_left", "bottom_middle", "bottom_right")
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8),   # rows
         (0, 3, 6), (1, 4, 7), (2, 5, 8),   # columns
         (0, 4, 8), (2, 4, 6))              # diagonals
_UCI_VALUE_ORDER = {"x": 0, "o": 1, "b": 2}


def three_in_a_row(board: Sequence[str], player: str) -> bool:
    """Whether ``player`` ("x" or "o") holds a full row, column or diagonal of ``board``."""
    return any(all(board[i] == player for i in line) for line in LINES)


def end_boards() -> set[tuple[str, ...]]:
    """All boards at which a game (x first, alternating moves) stops: someone has won or no blank is left."""
    found: set[tuple[str, ...]] = set()
    visited: set[tuple[str, ...]] = set()   # a position reached by several move orders is expanded once
    board = ["b"] * 9

    def play(mover: str) -> None:
        position = tuple(board)
        if position in visited:
            return
        visited.add(position)
        if three_in_a_row(board, "x") or three_in_a_row(board, "o") or "b" not in board:
            found.add(position)
            return
        for square in range(9):
            if board[square] == "b":
                board[square] = mover
                play("o" if mover == "x" else "x")
                board[square] = "b"

    play("x")
    return found


def tic_tac_toe_rows() -> list[tuple[str, ...]]:
    """The 958 rows (nine squares + class) in the order of the UCI file."""
    def uci_order(boards):
        return sorted(boards, key=lambda b: [_UCI_VALUE_ORDER[v] for v in b])

    boards = end_boards()
    x_won = [b for b in boards if three_in_a_row(b, "x")]
    o_won = [b for b in boards if three_in_a_row(b, "o")]      # x and o never both win at an end
    draws = [b for b in boards if not three_in_a_row(b, "x") and not three_in_a_row(b, "o")]
    return ([b + ("positive",) for b in uci_order(x_won)]
            + [b + ("negative",) for b in uci_order(o_won) + uci_order(draws)])


# ---------------------------------------------------------------- MONK's problems
MONKS_ATTRIBUTES = ("a1", "a2", "a3", "a4", "a5", "a6")
MONKS_DOMAIN_SIZES = (3, 3, 2, 3, 4, 2)


def _monk1(a: Sequence[int]) -> bool:
    return a[0] == a[1] or a[4] == 1


def _monk2(a: Sequence[int]) -> bool:
    return sum(value == 1 for value in a) == 2


def _monk3(a: Sequence[int]) -> bool:
    return (a[4] == 3 and a[3] == 1) or (a[4] != 4 and a[1] != 3)


MONKS_RULES: dict[int, Callable[[Sequence[int]], bool]] = {1: _monk1, 2: _monk2, 3: _monk3}


def monks_rows(problem: int) -> list[tuple[int, ...]]:
    """All 432 attribute combinations of MONK's problem ``problem`` (1, 2 or 3) with their 0/1 class."""
    rule = MONKS_RULES[problem]
    space = itertools.product(*(range(1, k + 1) for k in MONKS_DOMAIN_SIZES))
    return [point + (int(rule(point)),) for point in space]


# ---------------------------------------------------------------- writing
def _write(path: Path, header: Sequence[str], rows) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


def main(folder: Path = HERE) -> None:
    """Write the four files into ``folder`` (default: this script's folder)."""
    folder = Path(folder)
    _write(folder / "tic_tac_toe.csv", (*SQUARES, "class"), tic_tac_toe_rows())
    for problem in MONKS_RULES:
        _write(folder / f"monks{problem}.csv", (*MONKS_ATTRIBUTES, "class"), monks_rows(problem))


if __name__ == "__main__":
    main()
