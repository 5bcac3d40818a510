r"""A two-class problem for :class:`~credal_core.likelihood.profile.PairProfile` as whole-number counts,
and the LNCC's answer on it in words (the "Profile likelihood" page's inputs and verdict).

:class:`PairInput` holds :math:`n(c), n(\neg c)` and the counts :math:`n(c, \tilde f_j)`,
:math:`n(\neg c, \tilde f_j)` of the instance's feature values; it is built only from counts that
``PairProfile`` accepts (its ``ValueError`` says what is wrong) and has a compact text form for shared
links.  :func:`lncc_answer` turns a profile's critical α's and a level α into the set the LNCC returns
and the sentences that say so.

>>> pair = PairInput.from_text("5-1", "6-2")        # 000 Example 2
>>> pair.to_text()
('5-1', '6-2')
>>> answer = lncc_answer(pair.profile(), 0.5)
>>> answer.returned, answer.classes, answer.headline
('c', '{c}', 'c dominates ¬c for α > 0.233')
"""
from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass

from .profile import PairProfile, paper_presets

__all__ = ["PairInput", "paper_pairs", "LnccAnswer", "lncc_answer", "dominance_headline", "readable",
           "critical_text"]

_COUNT = re.compile(r"\d{1,7}")            # a count in a link: at most 7 digits


def _pair(text: str) -> tuple[int, int] | None:
    parts = str(text).split("-")
    if len(parts) != 2 or not all(_COUNT.fullmatch(p) for p in parts):
        return None
    return int(parts[0]), int(parts[1])


@dataclass(frozen=True)
class PairInput:
    """Whole-number counts of a two-class problem that :class:`PairProfile` accepts."""

    n_c: int
    n_not: int
    counts_c: tuple[int, ...]
    counts_not: tuple[int, ...]

    @classmethod
    def from_counts(cls, n_c, n_not, counts_c, counts_not) -> PairInput:
        """Check the counts with :class:`PairProfile` (its ``ValueError`` is raised unchanged: empty
        cells are not finite numbers, a feature count above its class count is named) and keep them
        as whole numbers."""
        counts_c, counts_not = list(counts_c), list(counts_not)
        PairProfile(n_c, n_not, counts_c, counts_not)
        if any(float(v) != round(float(v)) for v in (n_c, n_not, *counts_c, *counts_not)):
            raise ValueError("counts must be whole numbers")
        return cls(int(n_c), int(n_not), tuple(int(v) for v in counts_c), tuple(int(v) for v in counts_not))

    @classmethod
    def from_text(cls, counts: str, totals: str) -> PairInput | None:
        """``"5-1,0-2"`` (one ``n(c, f̃_j)-n(¬c, f̃_j)`` per feature) and ``"6-2"`` (``n(c)-n(¬c)``);
        None if malformed or refused."""
        pairs = [_pair(group) for group in str(counts).split(",")]
        total = _pair(totals)
        if not pairs or None in pairs or total is None:
            return None
        try:
            return cls.from_counts(total[0], total[1], [a for a, _ in pairs], [b for _, b in pairs])
        except ValueError:
            return None

    def to_text(self) -> tuple[str, str]:
        """The ``(counts, totals)`` text form read by :meth:`from_text`."""
        return (",".join(f"{a}-{b}" for a, b in zip(self.counts_c, self.counts_not)),
                f"{self.n_c}-{self.n_not}")

    def profile(self, include_instance: bool = True) -> PairProfile:
        return PairProfile(self.n_c, self.n_not, list(self.counts_c), list(self.counts_not),
                           include_instance=include_instance)


@functools.cache
def paper_pairs() -> dict[str, PairInput]:
    """:func:`paper_presets` (000 Examples 2 and 3) as :class:`PairInput`, checked once per process."""
    return {name: PairInput.from_counts(p["n_c"], p["n_not"], p["counts_c"], p["counts_not"])
            for name, p in paper_presets().items()}


def readable(x: float, digits: int = 4) -> str:
    """Rounded for reading: trailing zeros dropped, a true minus sign, tiny values in scientific form."""
    if x != 0 and abs(x) < 10.0 ** -(digits - 1):
        text = f"{x:.2e}"
    else:
        text = f"{x:.{digits}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text.replace("-", "−")


def critical_text(critical: float) -> str:
    """A critical α for display: ``1 (never)`` when the class can never dominate."""
    return "1 (never)" if critical >= 1 else readable(critical)


def dominance_headline(critical: float, critical_reverse: float) -> str:
    """Which class can dominate, and from which α on (000 §4: c ≻ ¬c iff α > the critical α)."""
    if critical < 1:
        return f"c dominates ¬c for α > {readable(critical, 3)}" if critical > 0 else \
            "c dominates ¬c for every α > 0"
    if critical_reverse < 1:
        return (f"¬c dominates c for α > {readable(critical_reverse, 3)}" if critical_reverse > 0
                else "¬c dominates c for every α > 0")
    return "neither class can dominate: the LNCC returns {c, ¬c} for every α"


@dataclass(frozen=True)
class LnccAnswer:
    """The LNCC's answer at one level α: ``returned`` is ``"c"``, ``"not c"`` or ``"both"``."""

    alpha: float
    returned: str
    classes: str            # "{c}", "{¬c}" or "{c, ¬c}"
    headline: str           # from the critical α's alone: does not move with α
    reason: str             # why: where the α-cut's posterior range lies

    @property
    def determinate(self) -> bool:
        return self.returned != "both"


def lncc_answer(profile: PairProfile, alpha: float, cut: tuple[float, float] | None = None) -> LnccAnswer:
    """The set the LNCC returns at ``alpha`` (:meth:`PairProfile.dominance`), with the sentences that
    explain it ("At α = … the LNCC returns {classes}: {reason}"); ``cut`` is the α-cut's posterior range
    (computed here when not given)."""
    c_wins, not_c_wins = profile.dominance(alpha)
    returned = "c" if c_wins else ("not c" if not_c_wins else "both")
    lo, hi = profile.alpha_cut(alpha) if cut is None else cut
    classes = {"c": "{c}", "not c": "{¬c}", "both": "{c, ¬c}"}[returned]
    side = {"c": "entirely right of 1/2, so c is more probable for every NBC kept.",
            "not c": "entirely left of 1/2, so ¬c is more probable for every NBC kept.",
            "both": "not strictly on one side of 1/2: the NBCs kept disagree (or tie), so neither class "
                    "dominates."}[returned]
    range_text = f"[{lo:.4f}, {hi:.4f}]" if math.isfinite(lo) and math.isfinite(hi) else "empty"
    reason = f"the α-cut's posterior range {range_text} lies {side}"
    return LnccAnswer(float(alpha), returned, classes,
                      dominance_headline(profile.critical_alpha, profile.critical_alpha_reverse), reason)
