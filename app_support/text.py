"""Text helpers shared by the pages (no streamlit import)."""
from __future__ import annotations

import math
import re

__all__ = ["plain", "percent", "paper_link", "cite", "cite_plain", "cite_chart", "glossary_link",
           "PAPER_TITLES"]

MARKDOWN_SPECIAL = re.compile(r"[\\`*_{}\[\]()#+\-.!|<>$~:]")


def plain(text) -> str:
    """User text (file, column and class names, messages quoting them) shown literally in markdown."""
    return MARKDOWN_SPECIAL.sub(r"\\\g<0>", str(text)).replace("\n", " ")


def percent(x, digits: int = 1) -> str:
    """``0.123`` → ``12.3%``; ``—`` for a missing or undefined value."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    return f"{100 * x:.{digits}f}%"


# ------------------------------------------------------------------ citations and glossary links
# The four papers the pages cite by number: the tooltip names them (authors, year, title); the link opens
# their full entry on the References page (``app_support.lessons.references``: anchors ``paper-<n>``).
PAPER_TITLES = {
    "000": "Antonucci, Cattaneo & Corani 2011, Likelihood-based naive credal classifier (ISIPTA '11)",
    "001": "Corani & Antonucci 2012, Credal classification based on AODE and compression coefficients",
    "003": "Cattaneo 2010, Likelihood-based inference for probabilistic graphical models (PGM 2010)",
    "004": "Li, De Bock & de Cooman 2019, Dynamic classifier selection based on imprecise probabilities "
           "(SMPS 2018)",
}

# "000 Ex. 2", "001 §3.4-3.5", "004 Table 2", "003, Cor. 1", "000's", "paper 001": a paper's number not
# inside a larger number (10,000 / 0.001), with the place in it that follows, if any.
_PLACE = (r"(?:,?\s(?:§\s?|Ex\.\s|Example\s|Examples\s|Fig\.\s|Figs\.\s|Table\s|Theorem\s|Theorems\s"
          r"|Cor\.\s|eq\.\s|eqs\.\s|Alg\.\s)[0-9](?:[0-9.\-–]*[0-9])?)?")
_CITATION = re.compile(r"(?<![\d,.\[#\-/])\b(000|001|003|004)\b(?![\d,]\d)(?!-ex)" + _PLACE)


def paper_link(paper: str, where: str = "", text: str | None = None) -> str:
    """A markdown link naming one of the four papers: ``paper_link("001", "§3.4")`` →
    ``[001 §3.4](/references#paper-001 "Corani & Antonucci 2012, Credal classification…")``."""
    if paper not in PAPER_TITLES:
        raise ValueError(f"unknown paper {paper!r}; one of {sorted(PAPER_TITLES)}")
    label = text or f"{paper} {where}".strip()
    return f'[{label}](/references#paper-{paper} "{PAPER_TITLES[paper]}")'


def cite(markdown: str) -> str:
    """``markdown`` (the page's own text, never user text) with every citation of a paper by number
    made a :func:`paper_link`."""
    def link(match: re.Match) -> str:
        return paper_link(match.group(1), text=match.group(0))
    return _CITATION.sub(link, markdown)


def _short_name(paper: str) -> str:
    """``"001"`` → ``"Corani & Antonucci 2012"`` (the authors and year of :data:`PAPER_TITLES`)."""
    return re.match(r".*?\d{4}", PAPER_TITLES[paper]).group(0)


def cite_plain(text: str) -> str:
    """``text`` (the page's own, never user text) with each paper number followed by its authors and year,
    for places that take no link (select-box options, table cells): ``"001 Fig. 5"`` →
    ``"001 Fig. 5 (Corani & Antonucci 2012)"``; at the end of a parenthesis after a comma instead, not in
    a second one: ``"median split (004)"`` → ``"median split (004, Li, De Bock & de Cooman 2019)"``."""
    def named(match: re.Match) -> str:
        closes = match.string.startswith(")", match.end())
        name = _short_name(match.group(1))
        return f"{match.group(0)}, {name}" if closes else f"{match.group(0)} ({name})"
    return _CITATION.sub(named, text)


def cite_chart(text: str) -> str:
    """``text`` (the page's own, never user text) for a Plotly title or annotation: each paper number
    becomes a link to its References entry (Plotly renders ``<a href>`` in text) followed by its authors
    and year, so the title names the paper on a projector and on paper too."""
    def link(match: re.Match) -> str:
        return (f'<a href="/references#paper-{match.group(1)}" target="_self">{match.group(0)}</a>'
                f" ({_short_name(match.group(1))})")
    return _CITATION.sub(link, text)


def glossary_link(anchor: str, text: str | None = None) -> str:
    """A markdown link to the glossary's entry ``anchor`` (``app_support.lessons.glossary``)."""
    return f"[{text or anchor}](/glossary#{anchor})"
