"""scripts/serve.sh end to end: two "machines" on one, HAProxy in front, a browser and simulated students.

A worker-only serve.sh on 127.0.0.2 (``--no-proxy``; the worker machine) and a proxy serve.sh with one local
worker that lists it as a ``--backend``. Through the proxy, in Chromium: a deep link with URL state, a
slider moved with the keyboard, and a CSV uploaded on the compare page — the upload is a separate HTTP
request (``PUT /_stcore/upload_file/<session>/...``) that only the worker holding the session accepts, so
it succeeds only if HAProxy's cookie keeps the browser on that worker. A second browser (fresh cookies) is
sent to the other worker and uploads there too. The control, with a simulated student of
benchmarks/load_test.py: the same upload sent past the proxy to the other worker is refused — stickiness
is what makes uploads work. Then new students alternate between the local and the remote worker, and the
proxy's serve.sh stops on SIGTERM and takes every child with it.

One pair of serve.sh starts for all of it (each start of a worker and each first page run cost seconds of
CPU). serve.sh installs HAProxy with apt-get when it is missing (as scripts/test.sh installs chromium).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import shutil
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

import psutil
import pytest
from _server import OUTPUT, ROOT, chromium_browser, free_port, playwright_or_skip, save_screenshot

from benchmarks.load_test import ProtocolError, Student, free_port_block

pytestmark = pytest.mark.browser
sync_api = playwright_or_skip()

DATA = ("patient,fever,cough,age,diagnosis\n" + "\n".join(
    f"p{i},{'yes' if i % 3 else 'no'},{'dry' if i % 4 else 'wet'},{20 + (i * 7) % 50},"
    f"{'flu' if (i % 3 and i % 4) else 'cold'}" for i in range(60)) + "\n").encode()
COMPARE = "compare?samples=&folds=3&repeats=1&clf=NBC,NCC"


@contextlib.contextmanager
def serve(output: Path, workers: int, *options: str):
    """Run serve.sh until it says "ready"; yields (process, proxy URL, first worker port). Its output goes
    to ``output``; stopped with SIGTERM on the way out if still running."""
    port, base = free_port(), free_port_block(workers)
    cmd = ["bash", str(ROOT / "scripts" / "serve.sh"), "--workers", str(workers), "--port", str(port),
           "--worker-base-port", str(base), *options]
    with output.open("w") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 300
        while "serve.sh: ready" not in output.read_text():
            assert proc.poll() is None, f"serve.sh exited early:\n{output.read_text()}"
            assert time.monotonic() < deadline, f"serve.sh not ready:\n{output.read_text()}"
            time.sleep(0.3)
        yield proc, f"http://127.0.0.1:{port}/", base
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


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


def test_two_machines_behind_the_proxy_deep_link_upload_alternation_and_a_clean_stop():
    OUTPUT.mkdir(exist_ok=True)
    remote_dir = OUTPUT / "serve_remote"                      # a given run directory: kept
    shutil.rmtree(remote_dir, ignore_errors=True)            # (serve.sh appends to its logs)
    remote_port = free_port_block(1)
    with serve(OUTPUT / "serve_remote.log", 1, "--no-proxy", "--worker-address", "127.0.0.2",
               "--worker-base-port", str(remote_port), "--run-dir", str(remote_dir)) as (remote, _, _):
        assert "without a proxy" in (OUTPUT / "serve_remote.log").read_text()
        output = OUTPUT / "serve_proxy.log"
        with serve(output, 1, "--backend", f"127.0.0.2:{remote_port}") as (proc, url, base):
            run_dir = Path(re.search(r"config and logs in (\S+)", output.read_text()).group(1))
            config = (run_dir / "haproxy.cfg").read_text()
            assert not run_dir.is_relative_to(ROOT)                  # generated outside the repository
            assert f"bind 127.0.0.1:{url.rsplit(':', 1)[1].rstrip('/')}" in config   # this machine only
            assert "cookie CREDAL_WORKER insert" in config              # sticky sessions
            assert "http-check send meth GET uri /_stcore/health" in config
            assert "timeout tunnel" in config                           # upgraded websockets stay open
            assert f"server r0 127.0.0.2:{remote_port}" in config
            with urllib.request.urlopen(url + "_stcore/health", timeout=10) as response:
                assert response.status == 200
                cookies = response.headers.get_all("Set-Cookie")
                assert any(c.startswith(("CREDAL_WORKER=w0;", "CREDAL_WORKER=r0;")) for c in cookies)

            worker_urls = {"w0": f"http://127.0.0.1:{base}/", "r0": f"http://127.0.0.2:{remote_port}/"}
            deep_link_slider_and_uploads(url)
            # the control and the alternation (the browsers are closed: their websockets too)
            asyncio.run(upload_past_the_proxy_is_refused(url, worker_urls))
            asyncio.run(new_students_alternate(url))

            children = psutil.Process(proc.pid).children(recursive=True)
            commands = [" ".join(child.cmdline()) for child in children]
            # the local worker: Streamlit's command line through serving.worker (legacy pages mode off)
            assert sum("-m serving.worker run app.py" in c and "--runner.postScriptGC false" in c
                       for c in commands) == 1
            assert any("haproxy" in c for c in commands)
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=30) == 143
            gone, alive = psutil.wait_procs(children, timeout=10)
            assert alive == [], f"left running: {alive}"
            assert not run_dir.exists()                                 # its own temporary directory
        assert remote.poll() is None                                    # the worker machine serves on
    assert (remote_dir / "worker-0.log").exists()                       # a given run directory is kept


def deep_link_slider_and_uploads(proxy_url: str) -> None:
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
        assert {worker, worker_of(second)} == {"w0", "r0"}
        save_screenshot(page, "serve_proxy")


async def upload_past_the_proxy_is_refused(url: str, worker_urls: dict[str, str]) -> None:
    student = Student(url, timeout=120)
    try:
        await student.open("compare", "samples=&folds=2&repeats=1&clf=NBC")
        worker = student.cookies.get("CREDAL_WORKER")
        assert worker in worker_urls and student.find("file_uploader") is not None
        (other,) = set(worker_urls) - {worker}
        urls = await student.file_urls("again.csv")
        with pytest.raises(ProtocolError, match="HTTP 400"):
            await student.put_file(urls, "again.csv", DATA, base_url=worker_urls[other])
        await student.put_file(urls, "again.csv", DATA)                 # through the proxy: accepted
        assert student.errors == []
    finally:
        await student.close()


async def new_students_alternate(url: str) -> None:
    students = []
    try:
        for _ in range(4):
            student = Student(url, timeout=120)
            students.append(student)
            await student.open("", "")
        workers = sorted(s.cookies.get("CREDAL_WORKER") for s in students)
        assert workers == ["r0", "r0", "w0", "w0"]
        assert all(s.errors == [] for s in students)
    finally:
        for student in students:
            await student.close()
