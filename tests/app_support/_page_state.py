"""A page's URL-state declaration without running the page: a page script is Streamlit code from top to
bottom, but its ``STATE = UrlState(...)`` and the constants it uses come before the first Streamlit call.
``page_state(path)`` executes the script's statements up to and including that assignment."""

from __future__ import annotations

import ast
from pathlib import Path

from app_support.url_state import UrlState

PAGES = Path(__file__).resolve().parents[2] / "pages"


def page_state(page: str, name: str = "STATE") -> tuple[UrlState, dict]:
    """``(STATE, namespace)`` of ``pages/<page>.py``: the namespace holds the page's declarations."""
    path = PAGES / f"{page}.py"
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for end, node in enumerate(tree.body):
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == name for t in node.targets):
            break
    else:
        raise AssertionError(f"{path.name} declares no {name}")
    namespace: dict = {"__name__": f"page_state_{page}"}
    exec(compile(ast.Module(tree.body[:end + 1], type_ignores=[]), str(path), "exec"), namespace)
    state = namespace[name]
    assert isinstance(state, UrlState)
    return state, namespace
