"""Shared by the browser tests: start `streamlit run app.py` on a free 127.0.0.1 port, and Chromium's path."""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import json
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
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


def _start(log_name: str, own_session: bool = False) -> tuple[str, subprocess.Popen, object]:
    port = free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "serving.worker", "run", "app.py",       # as app.sh and serve.sh start it
           "--server.headless", "true", "--server.address", "127.0.0.1", "--server.port", str(port),
           "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]
    OUTPUT.mkdir(exist_ok=True)
    url = f"http://127.0.0.1:{port}/"
    log = (OUTPUT / log_name).open("w")
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=own_session)
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


_OWN: dict = {}


def _stop_own() -> None:
    if "proc" in _OWN:
        _stop(_OWN.pop("proc"), _OWN.pop("log"))


def _shared_across_workers() -> str:
    """The URL of the one Streamlit server shared by every test process of the run.

    tests/conftest.py gives the run a directory (``CREDAL_TEST_SHARED``) and stops the server when the
    run ends; the first test process that needs the server starts it under a file lock (in a session
    of its own, so it outlives that process) and writes its URL and pid there; the others read them.
    One server instead of one per xdist worker: Streamlit's start, the job workers' start and each
    page's first-visit grids are paid once.
    """
    shared = Path(os.environ["CREDAL_TEST_SHARED"])
    info = shared / "streamlit.json"
    with (shared / "streamlit.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if info.exists():
            known = json.loads(info.read_text())
            # a loaded machine can keep a live server from answering for a while: wait for it rather
            # than start a second one (which the run's end would not stop)
            deadline = time.monotonic() + 120
            while _alive(known["pid"]) and time.monotonic() < deadline:
                if _healthy(known["url"]):
                    return known["url"]
                time.sleep(1)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(known["pid"], signal.SIGKILL)
        url, proc, log = _start("streamlit_shared.log", own_session=True)
        log.close()
        _OWN["shared_proc"] = proc            # held: it runs on after this process, stopped by conftest
        info.write_text(json.dumps({"url": url, "pid": proc.pid}))
        return url


def stop_shared_server(shared: Path) -> None:
    """Stop the run's shared server (called by tests/conftest.py once every test process is done), then
    any browser server a test process left behind (see ``_browser_endpoint``)."""
    try:
        info = shared / "streamlit.json"
        if info.exists():
            pid = json.loads(info.read_text())["pid"]
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGTERM)
                deadline = time.monotonic() + 15
                while time.monotonic() < deadline and _alive(pid):
                    time.sleep(0.1)
                os.killpg(pid, signal.SIGKILL)
    finally:
        _stop_browser_server(wait=True)              # a run without xdist: this process's own
        for pid_file in shared.glob("browser-*.pid"):
            with contextlib.suppress(ValueError, OSError):
                pid, started = pid_file.read_text().split()
                _stop_process_tree(int(pid), float(started))


def _stop_process_tree(pid: int, started: float | None = None) -> None:
    """Stop a browser server still running: SIGTERM, so that it closes chromium and deletes the profile
    directory, then SIGKILL to what is left of its tree. ``started`` (the process's start time, for a
    server this process did not start) guards against a reused pid. Chromium runs in a session of its
    own (Playwright starts it detached), so the tree is collected before node is asked to stop."""
    import psutil

    try:
        node = psutil.Process(pid)
        if started is not None and abs(node.create_time() - started) > 0.01:
            return
        tree = [node] + node.children(recursive=True)
    except psutil.Error:
        return
    node.terminate()
    _, alive = psutil.wait_procs(tree, timeout=10)
    for process in alive:
        with contextlib.suppress(psutil.Error):
            process.kill()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with contextlib.suppress(OSError):                   # a zombie (its parent has not reaped it) is gone
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
    return False


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "_stcore/health", timeout=5) as response:
            return response.status == 200
    except OSError:
        return False


@contextlib.contextmanager
def streamlit_app(log_name: str, *, fresh: bool = False):
    """Serve app.py headless on 127.0.0.1 and yield the base URL.

    One server is shared by every browser test of the run, across pytest-xdist's worker processes
    (its log is output/streamlit_shared.log; see ``_shared_across_workers``); run outside
    tests/conftest.py's setting, a process starts its own and stops it when it exits.
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
    if os.environ.get("CREDAL_TEST_SHARED"):
        yield _shared_across_workers()
        return
    proc = _OWN.get("proc")
    if proc is None or proc.poll() is not None:
        _OWN["url"], _OWN["proc"], _OWN["log"] = _start("streamlit_own.log")
        atexit.register(_stop_own)
    yield _OWN["url"]


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


# Every context the tests open turns CSS animations and transitions off: a headless chromium renders in
# software, and Streamlit's running indicators and fades kept it redrawing frames while a test waits for
# the server (most of the browser tests' CPU time). What the tests check is the same without them.
_NO_MOTION_CSS = ("*, *::before, *::after { animation: none !important; transition: none !important; "
                  "caret-color: transparent !important; }")
_NO_MOTION_SCRIPT = f"""
(() => {{
  const add = () => {{
    const style = document.createElement("style");
    style.textContent = {json.dumps(_NO_MOTION_CSS)};
    document.head.appendChild(style);
  }};
  if (document.head) add(); else document.addEventListener("DOMContentLoaded", add);
}})();
"""


# Every browser test also checks that the browser requested nothing outside the app's own server (a
# classroom may have no internet, and students' visits must not leak to third parties): every request of
# every context (documents, scripts, fonts, images, favicons, websockets) is recorded, and when the test
# body has passed, any whose host is not one the test navigated to fails it. The pages' favicon links are
# checked too, since a browser may fetch them later. Together the browser tests open every page of
# app.py's navigation and work its widgets, so this covers more than first renders.
# Why it exists: Streamlit's frontend loads a Material icon favicon (``st.Page(..., icon=":material/home:")``
# becomes the tab's icon) from ``https://fonts.gstatic.com/s/i/short-term/release/materialsymbolsrounded/
# <name>/default/24px.svg``. app.py avoids that with a ``page_icon`` of its own in ``st.set_page_config``
# (an emoji, sent as an inline ``data:`` SVG): a favicon set there takes precedence over the pages' icons,
# which still show in the navigation (drawn with the Material Symbols font bundled with Streamlit).
LOCAL_SCHEMES = {"data", "blob", "about", "chrome", "chrome-extension", "devtools"}
OUTSIDE_FIX = ("app.py must give st.set_page_config a locally served page_icon (an emoji, or an image file "
               "of the repository); otherwise Streamlit's frontend fetches each page's Material icon favicon "
               "from fonts.gstatic.com (see tests/browser/_server.py)")
_FAVICONS_JS = "() => [...document.querySelectorAll('link[rel~=icon]')].map(link => link.href)"


def outside_requests(urls, servers) -> list[str]:
    """The URLs whose host is none of ``servers`` (inline data: and blob: URLs never leave the browser)."""
    found = []
    for url in urls:
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in LOCAL_SCHEMES and parts.netloc not in servers:
            found.append(url)
    return sorted(set(found))


class _RecordingContext:
    """A Playwright browser context that records its requests and, when closed, its pages' favicons."""

    def __init__(self, context, browser: "_StillBrowser") -> None:
        self._context = context
        self._browser = browser
        self.closed = False
        context.on("request", browser._record)

    def close(self, **options):
        self._browser._note_favicons(self._context)
        self.closed = True
        return self._context.close(**options)

    def __getattr__(self, name):
        return getattr(self._context, name)


class _StillBrowser:
    """A Playwright browser whose new contexts and pages have no animations (see ``_NO_MOTION_CSS``) and
    record what they request (see ``LOCAL_SCHEMES``)."""

    def __init__(self, browser) -> None:
        self._browser = browser
        self._contexts: list[_RecordingContext] = []
        self.requested: list[str] = []
        self.servers: set[str] = set()           # the hosts the tests navigated to
        self.favicons: list[str] = []

    def _record(self, request) -> None:
        self.requested.append(request.url)
        if request.is_navigation_request():
            self.servers.add(urllib.parse.urlsplit(request.url).netloc)

    def _note_favicons(self, context) -> None:
        from playwright.sync_api import Error

        for page in context.pages:
            with contextlib.suppress(Error):     # a page closed or navigating away has no links to read
                self.favicons += page.evaluate(_FAVICONS_JS)

    def new_context(self, **options):
        context = self._browser.new_context(reduced_motion="reduce", **options)
        context.add_init_script(_NO_MOTION_SCRIPT)
        recording = _RecordingContext(context, self)
        self._contexts.append(recording)
        return recording

    def new_page(self, **options):
        return self.new_context(**options).new_page()

    def close_contexts(self) -> None:
        """Close the contexts still open, waiting: a connected browser's ``close()`` only drops the
        connection (the server closes its contexts later), and no page of a test (nor its Streamlit
        session) may outlive it."""
        from playwright.sync_api import Error

        for context in self._contexts:
            if not context.closed:
                with contextlib.suppress(Error):
                    context.close()

    def check_no_outside_requests(self) -> None:
        for context in self._contexts:
            if not context.closed:
                self._note_favicons(context._context)
        assert self.servers, "the request recording saw no page load"
        leaks = outside_requests(self.requested, self.servers)
        assert leaks == [], f"requests outside {sorted(self.servers)}: {leaks}. {OUTSIDE_FIX}"
        icons = outside_requests(self.favicons, self.servers)
        assert icons == [], f"favicons outside {sorted(self.servers)}: {icons}. {OUTSIDE_FIX}"

    def __getattr__(self, name):
        return getattr(self._browser, name)


_BROWSER_SERVER: dict = {}


def _stop_browser_server(wait: bool = False) -> None:
    """Ask this process's browser server to stop (it closes chromium and deletes the profile directory on
    SIGTERM). At exit without waiting: the test process exits meanwhile, and the run's end
    (``stop_shared_server``) waits for any that is still closing."""
    proc = _BROWSER_SERVER.pop("proc", None)
    pid_file = _BROWSER_SERVER.pop("pid_file", None)
    if proc is None or proc.poll() is not None:
        return
    if not wait:
        proc.terminate()
        return
    _stop_process_tree(proc.pid)                 # our unreaped child: its pid cannot have been reused
    proc.wait(timeout=5)
    if pid_file is not None:
        pid_file.unlink(missing_ok=True)


def _browser_endpoint() -> str:
    """The websocket address of this test process's one chromium (Playwright's ``launch-server``, started
    on first use and stopped when the process exits).

    Why one per process: a chromium start costs ~1.5 s of CPU, and the run has a dozen browser tests on
    two cores. Each test still connects with a Playwright of its own and works in fresh browser
    contexts (nothing of one test's pages, cookies or cache reaches the next); only the browser process
    is kept. (A Playwright kept across tests would leave its event loop marked running between tests,
    and the next test's ``asyncio.run`` would refuse to start.)
    """
    proc = _BROWSER_SERVER.get("proc")
    if proc is not None and proc.poll() is None:
        return _BROWSER_SERVER["endpoint"]
    # what ``python -m playwright launch-server`` runs, without the Python process in between (a SIGTERM
    # must reach the node server itself); a private module of the pinned playwright: an upgrade that
    # moves it fails every browser test at this import
    from playwright._impl._driver import compute_driver_executable, get_driver_env

    node, cli = compute_driver_executable()
    with tempfile.TemporaryDirectory() as folder:
        config = Path(folder) / "launch.json"
        config.write_text(json.dumps({"executablePath": CHROMIUM, "args": CHROMIUM_ARGS, "headless": True}))
        cmd = [node, cli, "launch-server", "--browser", "chromium", "--config", str(config)]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, start_new_session=True,
                                env=get_driver_env())
        _BROWSER_SERVER["proc"] = proc
        atexit.register(_stop_browser_server)
        if os.environ.get("CREDAL_TEST_SHARED"):          # the run's end stops it if this process cannot
            import psutil

            pid_file = Path(os.environ["CREDAL_TEST_SHARED"]) / f"browser-{proc.pid}.pid"
            pid_file.write_text(f"{proc.pid} {psutil.Process(proc.pid).create_time()!r}")
            _BROWSER_SERVER["pid_file"] = pid_file
        ready, _, _ = select.select([proc.stdout], [], [], 120)
        endpoint = proc.stdout.readline().strip() if ready else ""     # printed once the browser runs
    if not endpoint.startswith("ws://"):
        _stop_browser_server(wait=True)
        raise RuntimeError(f"Playwright's browser server did not start within 120 s (said {endpoint!r})")
    _BROWSER_SERVER["endpoint"] = endpoint
    return endpoint


@contextlib.contextmanager
def chromium_browser():
    """Debian's chromium driven by Playwright (headless, no sandbox, no animations); the contexts the test
    opened are closed on the way out; a test whose body passed then fails if the browser requested
    anything outside the app's server. The chromium process is this test process's one (see
    ``_browser_endpoint``)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.connect(_browser_endpoint())
        still = _StillBrowser(browser)
        try:
            yield still
            still.check_no_outside_requests()
        finally:
            still.close_contexts()
            browser.close()


# every plotly title's box against its chart's box: the texts of those that stick out (issue 24 item 3)
CLIPPED_TITLES = """() => [...document.querySelectorAll('[data-testid=stPlotlyChart]')].flatMap(chart => {
  const box = chart.getBoundingClientRect();
  return [...chart.querySelectorAll('.gtitle')].filter(t => {
    const r = t.getBoundingClientRect();
    return r.width > 0 && (r.left < box.left - 1 || r.right > box.right + 1);
  }).map(t => t.textContent);
})"""


def open_page(browser, url: str, heading: str, *, width: int = 1400, height: int = 3000, exact: bool = False,
              timeout: float = 60_000):
    """A new page of ``browser`` (``width`` × ``height``) at ``url``, returned once its heading ``heading``
    is visible (the page's first run has drawn it)."""
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(url, wait_until="domcontentloaded")
    expect(page.get_by_role("heading", name=heading, exact=exact)).to_be_visible(timeout=timeout)
    return page


def shots_to_folder(page, name: str) -> None:
    """The first screen and each visible chart as PNG files in ``CREDAL_SHOT_DIR`` when it is set (to look
    at them; unlike ``save_screenshot``, nothing for the README)."""
    folder = os.environ.get("CREDAL_SHOT_DIR")
    if folder:
        page.screenshot(path=str(Path(folder) / f"{name}.png"))
        shown = [e for e in page.get_by_test_id("stPlotlyChart").all() if e.is_visible()]
        for i, element in enumerate(shown):
            element.screenshot(path=str(Path(folder) / f"{name}_chart{i}.png"))


def move_slider(thumb, key: str, times: int, value: str, timeout: float = 10_000) -> None:
    """Focus a slider's thumb, press ``key`` ``times`` times (one rerun each), then wait until the thumb
    shows ``value``."""
    from playwright.sync_api import expect

    thumb.focus()
    for _ in range(times):
        thumb.press(key)
    expect(thumb).to_have_value(value, timeout=timeout)
