"""Each Explore page (and Home) links the glossary at its first use of a term, and names its papers: every
visible text of a page that cites "000 / 001 / 003 / 004" goes through ``app_support.text.cite`` (or
``paper_link``), which links the citation to the References page.  That every link's anchor exists is
checked, for all of pages/ and app_support/, in tests/pages/test_glossary_apptest.py."""

from __future__ import annotations

import ast
import re

import pytest

from app_support.registry import ROOT, pages
from app_support.text import _CITATION, cite

VISIBLE = {"markdown", "caption", "header", "subheader", "success", "info", "warning", "error", "write"}
EXPLORE = [p for p in pages() if p.section in ("", "Explore")]


def _sources(entry) -> list:
    """The page's file and the files of its own app_support package (where some pages keep their text)."""
    own = ROOT / "app_support" / entry.stem
    return [entry.file, *(sorted(own.glob("*.py")) if own.is_dir() else [])]


def _name(func) -> str:
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _text(node) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value for v in node.values if isinstance(v, ast.Constant))
    return None


def uncited(source: str) -> list[str]:
    """The visible texts (first argument of st.markdown & co., ``help=``) that cite a paper by number
    without going through ``cite``."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        shown = node.args[:1] if _name(node.func) in VISIBLE else []
        shown += [k.value for k in node.keywords if k.arg == "help"]
        for arg in shown:
            text = _text(arg)                     # a call (cite(...), paper_link(...)) has no text here
            if text and _CITATION.search(text):
                out.append(text[:80])
    return out


def test_the_check_sees_an_uncited_text_and_accepts_a_cited_one():
    assert uncited('st.caption("as in 000 Example 2")') == ["as in 000 Example 2"]
    assert uncited('st.caption(cite("as in 000 Example 2"), help=cite("001 §3.4"))') == []
    assert uncited('st.slider("s", help="1,000 rows")') == []


@pytest.mark.parametrize("entry", EXPLORE, ids=lambda p: p.stem)
def test_each_explore_page_links_the_glossary_and_names_its_papers(entry):
    sources = [path.read_text() for path in _sources(entry)]
    assert any(re.search(r"\]\(/glossary#[a-z0-9-]+\)", s) for s in sources), entry.stem
    for path, source in zip(_sources(entry), sources):
        assert uncited(source) == [], path.name


def test_cite_leaves_glossary_links_and_page_links_alone():
    text = "the [NCC](/glossary#ncc) of [000 Example 2](/profile_likelihood?preset=000-ex2)"
    assert cite(text) == text
