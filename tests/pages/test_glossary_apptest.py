"""The Glossary and References pages (AppTest): every term with its anchor, formula and source; every link
the lessons make into the glossary has its entry; the four papers and the works the pages rely on."""

from __future__ import annotations

import re
from pathlib import Path

from _apptest import open_page

from app_support.lessons.glossary import TERMS, anchors
from app_support.lessons.references import PAPERS, WORKS

ROOT = Path(__file__).resolve().parents[2]


def test_glossary_lists_every_term_with_anchor_formula_and_source():
    at = open_page(str(ROOT / "pages/glossary.py"))
    headers = {h.proto.anchor: h.value for h in at.subheader}
    assert set(headers) == set(anchors())
    assert len(at.latex) == sum(1 for t in TERMS if t.latex)
    assert all(t.source for t in TERMS)
    for t in TERMS:  # one or two sentences each
        assert 1 <= len(re.findall(r"[.!?](\s|$)", t.text)) <= 3, t.anchor


def test_every_glossary_link_of_the_lessons_and_pages_resolves():
    linked = set()
    for path in [*ROOT.glob("app_support/lessons/*.py"), *ROOT.glob("pages/*.py")]:
        linked |= set(re.findall(r"glossary#([a-z0-9-]+)", path.read_text()))
        linked |= set(re.findall(r"g\('([a-z0-9-]+)'", path.read_text()))
    assert linked, "the lessons link into the glossary"
    assert linked <= set(anchors()), sorted(linked - set(anchors()))


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
