"""Real-browser test through scripts/serve.sh: two Streamlit workers behind HAProxy.

A deep link with URL state, a slider moved with the keyboard, and a CSV uploaded on the compare page, all
through the proxy: the upload is a separate HTTP request (``PUT /_stcore/upload_file/<session>/...``) that
only the worker holding the session accepts, so it succeeds only if HAProxy's cookie keeps the browser on
that worker. A second browser (fresh cookies) is sent to the other worker and uploads there too. The
control, with a simulated student of benchmarks/load_test.py on the same serve.sh: the same upload sent
past the proxy to the other worker is refused — stickiness is what makes uploads work. (One serve.sh start
for all of it: each start of a worker and each first page run cost seconds of CPU.)
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import signal
import subprocess

import pytest
from _server import (
    OUTPUT,
    ROOT,
    chromium_browser,
    free_port,
    playwright_or_skip,
    save_screenshot,
    wait_until_serving,
)

from benchmarks.load_test import ProtocolError, Student, free_port_block

pytestmark = pytest.mark.browser
sync_api = playwright_or_skip()

DATA = ("patient,fever,cough,age,diagnosis\n" + "\n".join(
    f"p{i},{'yes' if i % 3 else 'no'},{'dry' if i % 4 else 'wet'},{20 + (i * 7) % 50},"
    f"{'flu' if (i % 3 and i % 4) else 'cold'}" for i in range(60)) + "\n").encode()
COMPARE = "compare?samples=&folds=3&repeats=1&clf=NBC,NCC"


@contextlib.contextmanager
def served_class(workers: int):
    """``bash scripts/serve.sh --workers N`` on free ports (config and logs in output/serve_proxy/);
    yields the proxy's URL and the first worker's port."""
    port = free_port()
    base = free_port_block(workers)          # serve.sh's workers take consecutive ports from a base
    run_dir = OUTPUT / "serve_proxy"
    OUTPUT.mkdir(exist_ok=True)
    cmd = ["bash", str(ROOT / "scripts" / "serve.sh"), "--workers", str(workers), "--port", str(port),
           "--worker-base-port", str(base), "--run-dir", str(run_dir)]
    with (OUTPUT / "serve_proxy.log").open("w") as log:
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            url = f"http://127.0.0.1:{port}/"
            wait_until_serving(url, proc, timeout=300)     # the proxy listens once every worker is healthy
            yield url, base
        finally:
            proc.send_signal(signal.SIGTERM)                # serve.sh stops its workers and HAProxy
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@pytest.fixture(scope="module")
def proxy():
    with served_class(2) as (url, base):
        yield url, base


def worker_of(context) -> str:
    return next(c["value"] for c in context.cookies() if c["name"] == "CREDAL_WORKER")


def upload_and_compare(page, base_url: str) -> None:
    expect = sync_api.expect
    page.goto(base_url + COMPARE, wait_until="domcontentloaded")
    expect(page.get_by_role("heading", name="Compare on your data")).to_be_visible(timeout=120_000)
    uploader = page.locator("input[type=file]")
    expect(uploader).to_be_attached(timeout=120_000)
    uploader.set_input_files(files=[{"name": "clinic.csv", "mimeType": "text/csv", "buffer": DATA}])
    # shown only when the worker that runs this session received the file
    expect(page.get_by_text(re.compile(r"clinic\.csv: 60 rows"))).to_be_visible(timeout=120_000)
    expect(page.get_by_test_id("stDataFrame").first).to_be_visible(timeout=180_000)
    expect(page.get_by_test_id("stException")).to_have_count(0)


def test_deep_link_slider_and_upload_through_the_proxy(proxy):
    proxy_url, base = proxy
    expect = sync_api.expect
    with chromium_browser() as browser:
        first = browser.new_context(viewport={"width": 1400, "height": 2000})
        page = first.new_page()
        # a shared link with URL state, opened through the proxy
        page.goto(proxy_url + "profile_likelihood?preset=000-ex2&alpha=0.26&samples=500",
                  wait_until="domcontentloaded")
        expect(page.get_by_role("heading", name="Profile likelihood", exact=True)).to_be_visible(
            timeout=120_000)
        thumb = page.get_by_test_id("stSlider").filter(has_text="α (likelihood threshold").get_by_role(
            "slider")
        expect(thumb).to_have_value("0.26", timeout=60_000)
        thumb.focus()
        thumb.press("ArrowLeft")
        expect(thumb).to_have_value("0.25", timeout=30_000)
        # the page ran on the server and mirrored the new value in the URL
        expect(page).to_have_url(re.compile(r"[?&]alpha=0\.25\b"), timeout=30_000)
        expect(page).to_have_url(re.compile(r"[?&]preset=000-ex2\b"))
        expect(page.get_by_test_id("stException")).to_have_count(0)
        worker = worker_of(first)

        upload_and_compare(page, proxy_url)
        assert worker_of(first) == worker             # the whole visit stayed on one worker

        # a second student while the first one's websocket is open: HAProxy's leastconn sends the new
        # browser to the other worker, and its upload must land there
        second = browser.new_context(viewport={"width": 1400, "height": 2000})
        upload_and_compare(second.new_page(), proxy_url)
        assert {worker, worker_of(second)} == {"w0", "w1"}
        save_screenshot(page, "serve_proxy")

    # the control (the browsers are closed: their websockets too)
    asyncio.run(upload_past_the_proxy_is_refused(proxy_url, base))
    assert (OUTPUT / "serve_proxy" / "haproxy.cfg").exists()          # a given run directory is kept


async def upload_past_the_proxy_is_refused(url: str, base: int) -> None:
    student = Student(url, timeout=120)
    try:
        await student.open("compare", "samples=&folds=2&repeats=1&clf=NBC")
        worker = student.cookies.get("CREDAL_WORKER")
        assert worker in ("w0", "w1") and student.find("file_uploader") is not None
        other = base + (1 if worker == "w0" else 0)
        urls = await student.file_urls("again.csv")
        with pytest.raises(ProtocolError, match="HTTP 400"):
            await student.put_file(urls, "again.csv", DATA, base_url=f"http://127.0.0.1:{other}/")
        await student.put_file(urls, "again.csv", DATA)                 # through the proxy: accepted
        assert student.errors == []
    finally:
        await student.close()
