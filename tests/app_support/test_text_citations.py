"""Paper citations: ``paper_link`` names its paper by a link to the References page with a tooltip, and
``cite`` links every "000 / 001 / 003 / 004" citation of a text but no other number."""

from __future__ import annotations

import re

import pytest

from app_support.lessons.references import PAPERS
from app_support.text import PAPER_TITLES, cite, paper_link

LINK = re.compile(r'\[([^\]]+)\]\(/references#(paper-\d{3}) "([^"]+)"\)')


def test_paper_link_names_the_paper_of_the_references_page():
    by_key = {p.key: p for p in PAPERS}
    for number, title in PAPER_TITLES.items():
        text, anchor, tip = LINK.fullmatch(paper_link(number, "§3.4")).groups()
        assert text == f"{number} §3.4" and anchor in by_key
        # the tooltip's title is the one the References page gives in full
        assert re.split(r"\d{4}, ", tip, maxsplit=1)[1][:35].lower() in by_key[anchor].citation.lower(), tip


def test_paper_link_rejects_an_unknown_paper():
    with pytest.raises(ValueError, match="unknown paper"):
        paper_link("002")


@pytest.mark.parametrize(("text", "cited"), [
    ("as in 000 Example 2, with 10,000 rows and ε = 0.001", ["000 Example 2"]),
    ("paper 001 §3.4-3.5's earlier classifiers", ["001 §3.4-3.5"]),
    ("(000, Fig. 1): as N grows; 003 Ex. 2 and 004's data", ["000, Fig. 1", "003 Ex. 2", "004"]),
    ("[a link](/profile_likelihood?preset=000-ex2) and 1,000 draws", []),
])
def test_cite_links_the_citations_and_nothing_else(text, cited):
    out = cite(text)
    assert [m.group(1) for m in LINK.finditer(out)] == cited
    assert LINK.sub(lambda m: m.group(1), out) == text   # only links added, the text unchanged


def test_cite_plain_names_authors_and_year_after_each_paper_number():
    from app_support.text import cite_plain
    assert cite_plain("001 Fig. 5: safe instances") == "001 Fig. 5 (Corani & Antonucci 2012): safe instances"
    assert cite_plain("003 Example 2 and 004") == ("003 Example 2 (Cattaneo 2010) and "
                                                   "004 (Li, De Bock & de Cooman 2019)")
    assert cite_plain("10,000 rows, α = 0.001") == "10,000 rows, α = 0.001"      # not citations
    # closing a parenthesis: after a comma, not in parentheses within parentheses
    assert cite_plain("median split (004) and MDL (supervised; 001 §3)") == (
        "median split (004, Li, De Bock & de Cooman 2019) and "
        "MDL (supervised; 001 §3, Corani & Antonucci 2012)")


def test_cite_chart_links_each_paper_number_to_its_reference_entry():
    from app_support.text import cite_chart
    title = cite_chart("000 Ex. 2: the profile")
    assert title == ('<a href="/references#paper-000" target="_self">000 Ex. 2</a> '
                     "(Antonucci, Cattaneo & Corani 2011): the profile")
