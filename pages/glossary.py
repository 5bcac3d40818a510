"""Glossary: every term of the lessons and every abbreviation on a page, with formula and paper; one anchor
per term, so a page links ``/glossary#<anchor>`` (``app_support.lessons.glossary``)."""

from __future__ import annotations

import re

import streamlit as st

from app_support.lessons.glossary import TERMS
from app_support.page import page_setup
from app_support.text import cite, cite_plain

page_setup("Glossary")
st.markdown(cite(
    "Each term in a sentence or two, its formula and where it comes from. The papers 000, 001, 003 "
    "and 004 are listed in full on the [references](/references) page."
))


def shown(name: str) -> str:
    """Text shown literally by markdown: in NCC_ε or f_j an underscore is not the start of italics."""
    return name.replace("_", "\\_")


def latex_cited(body: str) -> str:
    """A formula whose ``\\text{…}`` names a paper by number: the authors and year follow (a formula takes no
    link), ``&`` escaped for TeX."""
    return re.sub(r"\\text\{([^{}]*)\}",
                  lambda m: "\\text{" + cite_plain(m.group(1)).replace("&", "\\&") + "}", body)


# a term named by paper numbers: its authors and year in the list (a link holds no link), links in its title
st.markdown(" · ".join(f"[{cite_plain(shown(t.name.split(' — ')[0]))}](#{t.anchor})" for t in TERMS))
for entry in TERMS:
    st.subheader(cite(shown(entry.name)), anchor=entry.anchor, divider="gray")
    st.markdown(cite(shown(entry.text)))
    if entry.latex:
        st.latex(latex_cited(entry.latex))
    if entry.source:
        st.caption(f"Source: {cite(entry.source)}")
