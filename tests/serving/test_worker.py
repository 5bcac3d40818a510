"""serving.worker: Streamlit's command line with the legacy pages-directory mode switched off first
(app_support.routing.navigation_only), so a worker's first deep link lands in app.py's navigation (the
browser check: tests/browser/test_class_failover_browser.py)."""
from __future__ import annotations

import subprocess
import sys

import streamlit
from streamlit.runtime.pages_manager import PagesManager

from app_support.routing import navigation_only
from serving.supervisor import ROOT


def test_navigation_only_keeps_a_pages_folder_from_starting_the_legacy_mode(monkeypatch):
    monkeypatch.setattr(PagesManager, "uses_pages_directory", None)
    assert (ROOT / "pages").is_dir()
    assert navigation_only() is True
    PagesManager(str(ROOT / "app.py"))                   # what a new session's script runner builds
    assert PagesManager.uses_pages_directory is False
    monkeypatch.setattr(PagesManager, "uses_pages_directory", None)
    PagesManager(str(ROOT / "app.py"))                   # the control: without it, legacy mode
    assert PagesManager.uses_pages_directory is True


def test_the_worker_runs_streamlits_own_command_line():
    done = subprocess.run([sys.executable, "-m", "serving.worker", "version"], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert streamlit.__version__ in done.stdout
