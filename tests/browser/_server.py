"""Shared by the browser tests: start `streamlit run app.py` on a free 127.0.0.1 port, and Chromium's path."""

from __future__ import annotations

import atexit
import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OUTPUT = Path(__file__).resolve().parent / "output"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking"]
HAVE_CHROMIUM = Path(CHROMIUM).exists()
NO_CHROMIUM = f"{CHROMIUM} is not installed (scripts/test.sh installs it with apt-get)"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until_serving(url: str, proc: subprocess.Popen, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited early with code {proc.returncode}")
        try:
            with urllib.request.urlopen(url + "_stcore/health", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.3)
    raise TimeoutError(f"streamlit did not serve {url} within {timeout:.0f} s")


def _start(log_name: str) -> tuple[str, subprocess.Popen, object]:
    port = free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "streamlit", "run", "app.py",
           "--server.headless", "true", "--server.address", "127.0.0.1", "--server.port", str(port),
           "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]
    OUTPUT.mkdir(exist_ok=True)
    url = f"http://127.0.0.1:{port}/"
    log = (OUTPUT / log_name).open("w")
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_until_serving(url, proc)
    except BaseException:
        _stop(proc, log)
        raise
    return url, proc, log


def _stop(proc: subprocess.Popen, log) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    log.close()


_SHARED: dict = {}


def _stop_shared() -> None:
    if "proc" in _SHARED:
        _stop(_SHARED.pop("proc"), _SHARED.pop("log"))


@contextlib.contextmanager
def streamlit_app(log_name: str, *, fresh: bool = False):
    """Serve app.py headless on 127.0.0.1 and yield the base URL.

    One server is shared by every browser test of the run (started on first use, stopped when the
    test process exits; its log is output/streamlit_shared.log): starting Streamlit costs seconds.
    ``fresh=True`` starts a server of its own (log output/<log_name>), for what only a freshly started
    server shows (the first deep link handed over to app.py's navigation).
    """
    if fresh:
        url, proc, log = _start(log_name)
        try:
            yield url
        finally:
            _stop(proc, log)
        return
    proc = _SHARED.get("proc")
    if proc is None or proc.poll() is not None:
        _SHARED["url"], _SHARED["proc"], _SHARED["log"] = _start("streamlit_shared.log")
        atexit.register(_stop_shared)
    yield _SHARED["url"]


def save_screenshot(page, name: str, settle_ms: int = 0) -> None:
    """Save the whole page as output/<name>.png for the README (``bash scripts/screenshots.sh`` sets
    ``CREDAL_SCREENSHOTS=1``); other runs skip it: a full-page capture of a tall page renders it all
    again in software, seconds of CPU per test that check nothing."""
    if os.environ.get("CREDAL_SCREENSHOTS") != "1":
        return
    page.wait_for_timeout(settle_ms)          # the charts' last redraw
    page.screenshot(path=str(OUTPUT / f"{name}.png"), full_page=True)


def playwright_or_skip():
    """Playwright's sync API for a browser-test module, or skip the module (no chromium, no playwright)."""
    if not HAVE_CHROMIUM:
        pytest.skip(NO_CHROMIUM, allow_module_level=True)
    return pytest.importorskip("playwright.sync_api")


@contextlib.contextmanager
def chromium_browser():
    """Debian's chromium driven by Playwright (headless, no sandbox), closed on the way out."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()
