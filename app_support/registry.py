"""The app's pages, listed once (no streamlit import).

``app.py`` builds its navigation from :data:`REGISTRY`, the Home page its links, and the screenshot
script, the load tester and the tests their page lists.  One entry per page; a page's ``stem`` names
everything that belongs to it: ``pages/<stem>.py``, its support ``app_support/<stem>/``, its tests
(``tests/pages/test_<stem>_apptest.py``, ``tests/browser/test_<stem>_browser.py``) and its screenshot
``docs/screenshots/<stem>.png``.

An entry whose page file does not exist (a page being written) is left out by :func:`pages`, so the
app keeps running meanwhile; ``tests/app_support/test_registry.py`` fails while any registered file is
missing, so a page cannot stay registered without its file.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["PageEntry", "REGISTRY", "SECTIONS", "ROOT", "pages", "page", "by_section"]

ROOT = Path(__file__).resolve().parents[1]
SECTIONS = ("", "Learn", "Explore")          # navigation order; "" is the untitled top (Home)


@dataclass(frozen=True)
class PageEntry:
    """One page of the app.

    Attributes
    ----------
    stem : str
        File stem: the page is ``pages/<stem>.py``.
    title : str
        Shown in the navigation, the page heading's usual text and the Home page's link.
    icon : str
        Material icon of the navigation entry (``:material/<name>:``).
    url_path : str
        The page's address below the app's root; ``""`` for the default page (Home).
    section : str
        Navigation section, one of :data:`SECTIONS`.
    description : str
        One line on what the page shows (the Home page's link reads ``title: description``).
    """

    stem: str
    title: str
    icon: str
    url_path: str
    section: str
    description: str

    @property
    def path(self) -> str:
        """The page file, relative to the repository root (what ``st.Page`` and ``st.page_link`` take)."""
        return f"pages/{self.stem}.py"

    @property
    def file(self) -> Path:
        return ROOT / self.path

    @property
    def default(self) -> bool:
        return self.url_path == ""


REGISTRY: tuple[PageEntry, ...] = (
    PageEntry("home", "Home", ":material/home:", "", "",
              "what credal classification is, and a live NBC-vs-NCC example"),
    PageEntry("lessons", "Lessons", ":material/school:", "lessons", "Learn",
              "a guided path of short steps, each with a question answered before the reveal and graded by "
              "the exact core"),
    PageEntry("glossary", "Glossary", ":material/menu_book:", "glossary", "Learn",
              "every term of the lessons and every abbreviation on a page, with formula and paper"),
    PageEntry("references", "References", ":material/library_books:", "references", "Learn",
              "the four papers and the works the pages rely on, with what each page takes from which"),
    PageEntry("class_session", "Class session", ":material/groups:", "class", "Learn",
              "a lecturer starts a class on a lesson, students join with its code, and the class answers "
              "together"),
    PageEntry("profile_likelihood", "Profile likelihood", ":material/show_chart:", "profile_likelihood",
              "Explore", "the likelihood-based credal classifier (LNCC) on the papers' examples, with a "
                         "Monte Carlo cloud under the exact curve"),
    PageEntry("network_likelihood", "Profile likelihood in a network", ":material/hub:",
              "network_likelihood", "Explore",
              "the profile likelihood of a query in a small Bayesian network"),
    PageEntry("intervals_vs_n", "Intervals vs N", ":material/stacked_line_chart:", "intervals_vs_n",
              "Explore", "likelihood and IDM intervals as the sample grows, and how often each "
                         "classifier admits ignorance"),
    PageEntry("determinacy_curves", "Determinacy curves", ":material/monitoring:", "determinacy_curves",
              "Explore", "how often NCC_ε and LNCC_α commit to one class as the sample grows (Antonucci, "
                         "Cattaneo & Corani 2011, Fig. 5 and Table 1)"),
    PageEntry("aode_weights", "AODE compression weights", ":material/scale:", "aode_weights", "Explore",
              "Bayesian model averaging against compression coefficients, and their credal versions"),
    PageEntry("earlier_credal", "Credal model averaging, trees and the reject option",
              ":material/account_tree:", "earlier_credal", "Explore",
              "CMA's inclusion intervals, a credal decision tree, and the reject option's cost against d"),
    PageEntry("classifier_selection", "Classifier selection", ":material/alt_route:", "classifier_selection",
              "Explore", "pick, per instance, the naive Bayes classifier that tolerates more imprecision"),
    PageEntry("compare", "Compare on your data", ":material/upload_file:", "compare", "Explore",
              "every classifier on your own CSV files, with tests across data sets"),
    PageEntry("missing_values", "Missing values", ":material/help_center:", "missing_values", "Explore",
              "one instance with holes under missing at random, imputation and the conservative rule "
              "(NCC2), with the counts behind each verdict"),
)


def pages(*, existing_only: bool = True) -> tuple[PageEntry, ...]:
    """The registered pages in navigation order (sections in :data:`SECTIONS` order, entries in
    registry order within a section); with ``existing_only``, those whose file exists."""
    order = {section: i for i, section in enumerate(SECTIONS)}
    entries = sorted(REGISTRY, key=lambda p: order[p.section])           # stable: registry order kept
    return tuple(p for p in entries if not existing_only or p.file.exists())


def page(stem: str) -> PageEntry:
    """The entry of ``pages/<stem>.py``."""
    for entry in REGISTRY:
        if entry.stem == stem:
            return entry
    raise KeyError(f"no registered page {stem!r}; registered: {[p.stem for p in REGISTRY]}")


def by_section(entries: tuple[PageEntry, ...] | None = None) -> dict[str, list[PageEntry]]:
    """``entries`` (default: the existing pages) grouped by section, sections in navigation order,
    empty sections left out — the mapping ``st.navigation`` takes (after ``st.Page`` of each)."""
    entries = pages() if entries is None else entries
    groups = {section: [p for p in entries if p.section == section] for section in SECTIONS}
    return {section: group for section, group in groups.items() if group}
