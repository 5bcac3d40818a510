"""Shared by the browser tests: start `streamlit run app.py` on a free 127.0.0.1 port, and Chromium's path."""

from __future__ import annotations

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


@contextlib.contextmanager
def streamlit_app(log_name: str):
    """Serve app.py headless on 127.0.0.1; yields the base URL; the log goes to output/<log_name>."""
    port = free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "streamlit", "run", "app.py",
           "--server.headless", "true", "--server.address", "127.0.0.1", "--server.port", str(port),
           "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]
    OUTPUT.mkdir(exist_ok=True)
    url = f"http://127.0.0.1:{port}/"
    with (OUTPUT / log_name).open("w") as log:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            wait_until_serving(url, proc)
            yield url
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


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
