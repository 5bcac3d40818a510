"""References: the four papers in full and the works the pages rely on, with what each page takes from which
(``app_support.lessons.references``)."""

from __future__ import annotations

import streamlit as st

from app_support.lessons.references import PAPERS, WORKS
from app_support.page import page_setup
from app_support.text import cite, cite_plain


def show(reference) -> None:
    st.subheader(cite_plain(reference.short), anchor=reference.key)     # "000 (Antonucci, Cattaneo & …)"
    st.markdown(reference.citation)
    st.markdown(cite("\n".join(f"- **{page}**: {what}" for page, what in reference.used)))


page_setup("References")
st.markdown(cite(
    "The pages name the four papers by number (“000 Ex. 2”, “001 §3.3”); here they are in full, with "
    "what each page takes from each. Terms are explained in the [glossary](/glossary)."
))
st.header("The four papers")
for paper in PAPERS:
    show(paper)
st.header("The works the pages rely on")
for work in WORKS:
    show(work)
st.caption("The software itself: see CITATION.cff in the repository.")
