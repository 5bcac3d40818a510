"""The per-page layout of the app's support code (issue 23), checked on the source:

* no Streamlit cache inside ``pages/``: a page's cached computations live in its support package;
* the shared modules (directly in ``app_support/``) import no page's support;
* a page (``pages/<stem>.py`` and ``app_support/<stem>/``) imports the shared modules and its own support
  (its package, or a module named after it: ``app_support/lessons/glossary.py`` for ``pages/glossary.py``),
  never another page's — except on the Learn pages, one family built on the lessons' model (a class
  session runs lessons): they share their support, and may show an Explore page's figure through that
  page's ``figures`` module (one builder per figure).
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

import app_support
from app_support.registry import REGISTRY, ROOT, page

SUPPORT = ROOT / "app_support"
PAGE_PACKAGES = {entry.stem for entry in REGISTRY}
MOVED = getattr(app_support, "MOVED", {})     # old module names, while they last


def _is_module(dotted: str) -> bool:
    path = ROOT.joinpath(*dotted.split("."))
    return dotted in MOVED or path.with_suffix(".py").exists() or path.is_dir()


def imported_modules(path: Path, package: str) -> list[str]:
    """Every module ``path`` imports (anywhere in it), absolute: ``from app_support import x`` gives
    ``app_support.x``, a relative import is resolved against ``package``; old names (app_support.MOVED)
    are given as their modules now."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            found += [f"{base}.{alias.name}" if _is_module(f"{base}.{alias.name}") else base
                      for alias in node.names]
    return [MOVED.get(name, name) for name in found]


def owner(module: str) -> str | None:
    """The page whose support ``module`` is (None: a shared module, or not app_support)."""
    parts = module.split(".")
    if parts[0] != "app_support" or len(parts) < 2:
        return None
    return parts[1] if parts[1] in PAGE_PACKAGES else None


def test_the_scan_sees_relative_and_absolute_imports_and_old_names(tmp_path):
    source = tmp_path / "m.py"
    source.write_text("from . import figures\nfrom .model import x\nimport app_support.aode_weights.model\n"
                      "from app_support import jobs, home\n\n\ndef f():\n"
                      "    from app_support.compare.model import y\n")
    assert imported_modules(source, "app_support.aode_weights") == [
        "app_support.aode_weights.figures", "app_support.aode_weights.model",
        "app_support.aode_weights.model", "app_support.jobs", "app_support.home", "app_support.compare.model"]
    assert [owner(m) for m in ("app_support.jobs", "app_support.home.model", "credal_core.aode")] == [
        None, "home", None]
    for old, new in MOVED.items():                          # an old module name is its module now
        source.write_text(f"import {old}\n")
        assert imported_modules(source, "app_support") == [new]


def _cache_calls(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr in ("cache_data", "cache_resource", "cache")]


@pytest.mark.parametrize("path", sorted((ROOT / "pages").glob("*.py")), ids=lambda p: p.name)
def test_no_streamlit_cache_inside_a_page(path):
    assert _cache_calls(path) == [], f"{path.name}: move its cached computations to app_support/{path.stem}/"


def test_the_cache_scan_finds_a_cached_function(tmp_path):
    source = tmp_path / "page.py"
    source.write_text("import streamlit as st\n\n@st.cache_data(show_spinner=False)\ndef f():\n    pass\n")
    assert _cache_calls(source) == [3]


def test_the_shared_modules_import_no_pages_support():
    offenders = [(path.name, module) for path in sorted(SUPPORT.glob("*.py"))
                 for module in imported_modules(path, "app_support")
                 if owner(module)]
    assert offenders == []


# The lessons' index: an Explore page links the lesson step that explains what it shows instead of
# explaining it again (issue 24), through catalogue.step_link — the one lesson module it may import.
LESSON_INDEX = "app_support.lessons.catalogue"


def _page_files(stem: str) -> list[tuple[Path, str]]:
    files = [(ROOT / "pages" / f"{stem}.py", "pages")]
    package = SUPPORT / stem
    if package.is_dir():
        files += [(path, "app_support." + ".".join(path.relative_to(SUPPORT).parent.parts))
                  for path in sorted(package.rglob("*.py"))]
    return [(path, pkg) for path, pkg in files if path.exists()]


@pytest.mark.parametrize("stem", [entry.stem for entry in REGISTRY])
def test_a_page_uses_only_the_shared_modules_and_its_own_support(stem):
    learn = page(stem).section == "Learn"
    offenders = []
    for path, package in _page_files(stem):
        for module in imported_modules(path, package):
            other = owner(module)
            if other in (None, stem) or module.rsplit(".", 1)[-1] == stem:
                continue                          # shared, its package, or a module named after it
            if learn and page(other).section == "Learn":
                continue                          # the Learn pages are one family on the lessons' model
            if learn and module.split(".")[2:3] in (["figures"], ["model"], ["state"], ["counts"]):
                continue                          # a Learn page showing an Explore page's view and figure
                #                                   (one computation), or linking it at given values
                #                                   (counts: the count table lesson 6's link carries)
            if module == LESSON_INDEX:
                continue                          # any page may link a lesson step (its explanation, once)
            offenders.append(f"{path.relative_to(ROOT)} imports {module}")
    assert offenders == []
