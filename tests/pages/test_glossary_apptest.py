"""The Glossary and References pages (AppTest): every term with its anchor, formula and source; every link
the lessons make into the glossary has its entry; the four papers and the works the pages rely on."""

from __future__ import annotations

import re
from pathlib import Path

from _apptest import open_page

from app_support.lessons.glossary import TERMS, anchors
from app_support.lessons.references import PAPERS, WORKS
from app_support.text import PAPER_TITLES

ROOT = Path(__file__).resolve().parents[2]


def test_glossary_lists_every_term_with_anchor_formula_and_source():
    at = open_page(str(ROOT / "pages/glossary.py"))
    headers = {h.proto.anchor: h.value for h in at.subheader}
    assert set(headers) == set(anchors())
    assert len(at.latex) == sum(1 for t in TERMS if t.latex)
    assert all(t.source for t in TERMS)
    for t in TERMS:  # one or two sentences each
        assert 1 <= len(re.findall(r"[.!?](\s|$)", t.text)) <= 3, t.anchor


def test_every_glossary_and_references_link_of_the_pages_and_app_support_resolves():
    linked, cited = set(), set()
    for path in [*ROOT.glob("app_support/**/*.py"), *ROOT.glob("pages/*.py")]:
        text = path.read_text()
        linked |= set(re.findall(r"glossary#([a-z0-9-]+)", text))
        linked |= set(re.findall(r"g\('([a-z0-9-]+)'", text))
        cited |= set(re.findall(r"\(/references#([a-z0-9-]+)[ )]", text))   # not f-string templates
    assert linked, "the lessons link into the glossary"
    assert linked <= set(anchors()), sorted(linked - set(anchors()))
    assert cited <= {ref.key for ref in (*PAPERS, *WORKS)}, sorted(cited)
    # app_support.text.paper_link builds its anchors: the four papers' entries
    assert {f"paper-{n}" for n in PAPER_TITLES} <= {ref.key for ref in PAPERS}


def test_references_page_names_the_four_papers_and_the_works():
    at = open_page(str(ROOT / "pages/references.py"))
    text = " ".join(m.value for m in at.markdown)
    for ref in (*PAPERS, *WORKS):
        assert ref.citation in text and ref.used
    for title in (
        "Likelihood-based naive credal classifier",
        "Credal classification based on AODE",
        "Likelihood-based inference for probabilistic graphical models",
        "Dynamic classifier selection based on",
    ):
        assert title.lower() in text.lower()
    papers = {p.name[:3]: p for p in (ROOT.parent / "shared" / "papers").glob("*.txt")}
    for ref in PAPERS:  # titles as the papers' own first lines give them, where present
        paper = papers.get(ref.short)
        if paper is not None:
            head = paper.read_text()[:600].lower()
            title = ref.citation.split("*")[1].rstrip(".").lower()
            assert title.split(":")[0] in head, (ref.short, title)
