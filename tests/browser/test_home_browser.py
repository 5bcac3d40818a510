"""Real-browser test of the home page: `streamlit run app.py` + Playwright driving Debian's chromium."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
OUTPUT = Path(__file__).resolve().parent / "output"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking"]

if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} is not installed (scripts/test.sh installs it with apt-get)",
                allow_module_level=True)

sync_api = pytest.importorskip("playwright.sync_api")


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


@pytest.fixture(scope="module")
def server_url():
    port = free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    cmd = [sys.executable, "-m", "streamlit", "run", "app.py",
           "--server.headless", "true", "--server.address", "127.0.0.1", "--server.port", str(port),
           "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]
    log = (OUTPUT.mkdir(exist_ok=True) or OUTPUT / "streamlit.log").open("w")
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
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
        log.close()


def determinacy(page) -> str:
    metric = page.get_by_test_id("stMetric").filter(has_text="NCC determinacy")
    return metric.get_by_test_id("stMetricValue").inner_text().strip()


def test_home_page_in_chromium(server_url):
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1500})
            page.goto(server_url, wait_until="domcontentloaded")
            expect = sync_api.expect
            expect(page.get_by_role("heading", name="Credal classification explorer")).to_be_visible(
                timeout=60_000)
            expect(page).to_have_title("Credal classification explorer", timeout=10_000)
            expect(page.get_by_test_id("stMetricValue").first).to_have_text(re.compile(r"\d+%"),
                                                                           timeout=60_000)
            expect(page.locator(".katex").first).to_be_visible()  # the dominance formula is rendered
            expect(page.get_by_test_id("stPlotlyChart")).to_be_visible(timeout=30_000)

            before = determinacy(page)
            thumb = page.get_by_role("slider")
            expect(thumb).to_have_value("2")
            thumb.focus()
            for _ in range(30):  # 30 steps of 0.1: s goes from 2.0 to 5.0
                thumb.press("ArrowRight")
            expect(thumb).to_have_value("5", timeout=10_000)
            metric_value = page.get_by_test_id("stMetric").filter(has_text="NCC determinacy").get_by_test_id(
                "stMetricValue")
            expect(metric_value).not_to_have_text(before, timeout=30_000)
            expect(page).to_have_url(re.compile(r"[?&]s=5\.0\b"), timeout=10_000)

            page.wait_for_timeout(1000)  # let the chart finish its redraw before the screenshot
            page.screenshot(path=str(OUTPUT / "home.png"), full_page=True)
        finally:
            browser.close()
