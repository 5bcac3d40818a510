"""The page registry (app_support/registry.py): the one list of the app's pages, and the lists built from
it."""
from __future__ import annotations

import re
import runpy

import pytest

from app_support import registry
from app_support.registry import REGISTRY, SECTIONS, PageEntry, by_section, page, pages

ROOT = registry.ROOT


def test_every_registered_page_has_its_file():
    """A registered page whose file does not exist is left out of the app (so a page being written does
    not break it); this test keeps that from lasting: the page must be written or its entry removed."""
    missing = [entry.path for entry in REGISTRY if not entry.file.exists()]
    assert missing == [], f"registered pages without their file: {missing}"


def test_every_page_file_is_registered():
    files = {path.stem for path in (ROOT / "pages").glob("*.py")}
    assert sorted(files - {entry.stem for entry in REGISTRY}) == []


def test_names_addresses_and_titles_are_unique_and_home_is_the_one_default():
    for attribute in ("stem", "url_path", "title"):
        values = [getattr(entry, attribute) for entry in REGISTRY]
        assert len(set(values)) == len(values), attribute
    assert [entry.stem for entry in REGISTRY if entry.default] == ["home"]
    for entry in REGISTRY:
        assert entry.section in SECTIONS, entry
        assert entry.default or re.fullmatch(r"[a-z][a-z0-9_]*", entry.url_path), entry
        assert re.fullmatch(r":material/[a-z_]+:", entry.icon), entry
        assert entry.description and "\n" not in entry.description and not entry.description.endswith(".")
        assert re.fullmatch(r"[a-z][a-z0-9_]*", entry.stem) and entry.path == f"pages/{entry.stem}.py"


def test_navigation_order_home_then_learn_then_explore():
    listed = pages(existing_only=False)
    assert listed[0].stem == "home" and listed[0].section == ""
    assert [entry.section for entry in listed] == sorted((e.section for e in listed), key=SECTIONS.index)
    assert [entry.stem for entry in listed if entry.section == "Learn"] == [
        "lessons", "glossary", "references", "class_session"]
    explore = [entry.stem for entry in listed if entry.section == "Explore"]
    assert explore.index("network_likelihood") == explore.index("profile_likelihood") + 1
    assert page("class_session").url_path == "class" and page("lessons").title == "Lessons"
    assert page("network_likelihood").title == "Profile likelihood in a network"


def test_a_page_without_its_file_is_left_out_until_it_exists(monkeypatch):
    ghost = PageEntry("no_such_page_file", "Ghost", ":material/help:", "ghost", "Explore", "not written yet")
    monkeypatch.setattr(registry, "REGISTRY", REGISTRY + (ghost,))
    assert ghost in pages(existing_only=False) and ghost not in pages()
    assert all(ghost not in group for group in by_section().values())
    assert [entry for entry in pages() if entry.stem != ghost.stem] == list(pages())


def test_sections_group_the_pages_in_navigation_order_and_drop_empty_ones():
    everything = pages(existing_only=False)
    groups = by_section(everything)
    assert list(groups) == [s for s in SECTIONS if any(entry.section == s for entry in REGISTRY)]
    assert [entry for group in groups.values() for entry in group] == list(everything)
    only_home = by_section((page("home"),))
    assert list(only_home) == [""] and only_home[""] == [page("home")]


def test_lookup_by_stem():
    assert page("compare").title == "Compare on your data"
    with pytest.raises(KeyError, match="no registered page 'nope'"):
        page("nope")


def test_the_screenshot_script_takes_every_page_of_the_app():
    script = runpy.run_path(str(ROOT / "scripts" / "screenshots.py"))
    assert script["PAGES"] == tuple(entry.stem for entry in pages())


def test_the_test_run_starts_every_pages_browser_test_early():
    from tests.conftest import LONG_FIRST

    for entry in REGISTRY:
        assert f"test_{entry.stem}_browser.py" in LONG_FIRST
