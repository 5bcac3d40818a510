"""Classroom load test: simulated students that speak Streamlit's own websocket protocol (no browser each).

    .venv/bin/python benchmarks/load_test.py run --start serve --workers 2 --pages home,aode_weights \\
        --students 1,10,30 [--mixed] [--json out.json] [--max-p95 1.0 --max-errors 0 --max-rss-mb 2048]
    .venv/bin/python benchmarks/load_test.py run --url http://127.0.0.1:8501/ --pages '' --mixed
    .venv/bin/python benchmarks/load_test.py cpu-per-rerun --start app --post-script-gc off

A simulated student does what the browser does: ``GET`` the page (HAProxy's worker cookie and the XSRF
cookie come back), ``/_stcore/health`` and ``/_stcore/host-config``, then opens the ``/_stcore/stream``
websocket with those cookies and sends a ``rerun_script`` BackMsg whose ``ClientState`` carries the deep
link's query string and the page's URL name. The server answers with ForwardMsgs (``new_session``,
``navigation``, the page's deltas, ``script_finished``). Widgets are found in the deltas of the first render
(by label, or the first slider outside a form); moving one sends another ``rerun_script`` with that
widget's new value in ``widget_states`` (and the widget's ``fragment_id`` when it sits in an
``st.fragment``), the current query string and page hash, and the hashes of the large messages already
received (``cached_message_hashes``, as the browser's message cache does). A rerun's latency runs from
sending it to the ``script_finished`` ForwardMsg (one with status ``FINISHED_EARLY_FOR_RERUN`` does not
count: a newer run follows); the first render's runs from the page's ``GET`` to the first run's end.
Errors are exceptions rendered on the page (deltas with an ``exception`` element), compile errors,
"page not found", dropped connections and time-outs.

Scenarios (``run``):

- ``<page>`` × N students: each opens the page at once (spread over ``--ramp`` s), waits for the first
  render, then moves the page's slider ``--moves`` times about ``--interval`` s apart (a seeded random walk
  of one to three steps, so students meet each other's cached values as a class does). On Determinacy
  curves the widget is the indicator shown after the page's first run; on Compare each student presses
  "Run the comparison" once with a seed of their own (a real cross-validation each).
  Lesson steps are scenarios too, ``lesson-<lesson id>-<step>`` (every step whose live widget is a
  slider): the Lessons page at that step, "Show the answer" pressed (counted in the first render), then
  the step's slider moved.
  With ``--deadline`` no student starts a move after that many seconds (slow pages would otherwise make
  a scenario last many minutes); the moves left are reported as ``moves_cut``.
- ``mixed``: ``--mixed-compare`` students (10) run comparisons on Compare while ``--mixed-sliders`` (20)
  move sliders on the other pages (round-robin) once every comparison has started; the slider users'
  latencies decide the limits.

- ``flood``: one student holds a key on ``--flood-page``'s slider (a new value every 0.03 s, never
  waiting for the run — each request makes the server stop that session's run and start the newest) while
  ``--flood-others`` students (10) move sliders on the other pages; their latencies decide the limits, and
  the row says how many reruns the flooder sent and how many runs the server finished for it.

``cpu-per-rerun``: one student per page, ``--reruns`` slider moves to values not visited before in the
session; CPU seconds of the server's process tree per rerun (idle CPU subtracted), the issue's target being
at most 0.05 s on every page (a class of 100 on 2 cores needs about 0.02 s). Before the moves, ``--opens``
further sessions open the page one by one (the first session warmed the caches): CPU per first render
(a class of 100 arriving within a second on 2 cores needs about 0.04 s). With ``--passes 2`` each page is
measured again on the same server by a new student making the same moves: what a move costs once a
classmate (or the background warm of serve.sh) has computed its value.

Server CPU and RSS are summed over the server's process tree (the Streamlit process, or serve.sh with its
workers and HAProxy) from /proc via psutil. The load generator shares the machine's cores with the server:
its own CPU seconds are in the JSON (``client_cpu_s``), with the machine's load average.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import math
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

import psutil
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.Slider_pb2 import Slider
from streamlit.proto.WidgetStates_pb2 import WidgetState
from tornado.httpclient import AsyncHTTPClient, HTTPRequest
from tornado.websocket import websocket_connect

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
from app_support.registry import pages as registered_pages  # noqa: E402  (the app's one page list)

FINISHED = ForwardMsg.ScriptFinishedStatus
WIDGET_KINDS = {"slider", "selectbox", "number_input", "button", "file_uploader", "radio", "checkbox"}
# the large ForwardMsgs the browser keeps and names back to the server, which then sends a reference only
MAX_MESSAGE_BYTES = 256 * 2**20


# ---------------------------------------------------------------- pages and scenarios
@dataclasses.dataclass(frozen=True)
class PageSpec:
    """One page of the app and the widget a student moves on it.

    Attributes
    ----------
    name : str
        Scenario name.
    url_path : str
        The page's URL path ('' for the default page).
    kind : str
        Widget kind to move ('slider' or 'selectbox'); with no match the first slider outside a form is
        taken, so a renamed label still finds the page's slider.
    label : str
        Regular expression matched against the widget labels (search, not full match).
    query : str
        Query string of the deep link the student opens.
    press : str
        A button pressed once after the first render, before the widget is looked for (a lesson step's
        "Show the answer": the step's live widget and figure come after the answer); its run counts in
        the first render's time.
    """

    name: str
    url_path: str
    kind: str
    label: str
    query: str = ""
    press: str = ""


# The control a student moves on each page: (widget kind, label pattern[, deep-link query]); the pages and
# their addresses are the app's registry (app_support/registry.py). A page left out here has no scenario.
CONTROLS = {
    "home": ("slider", r"^s \("),
    "profile_likelihood": ("slider", r"^α"),
    "intervals_vs_n": ("slider", ""),
    # the page runs its default experiment on the first visit; afterwards the indicator is the control
    # outside the settings form
    "determinacy_curves": ("selectbox", r"^Indicator"),
    "aode_weights": ("slider", r"^ε"),
    "classifier_selection": ("slider", r"^k "),
    # "run": the student presses the form's submit button with a seed of their own; the indicator
    # selectbox (outside the form) is the control used by cpu-per-rerun
    "compare": ("selectbox", r"^Indicator to compare"),
    "network_likelihood": ("slider", r"^Cut-off β"),
    "earlier_credal": ("slider", r"^IDM strength s"),
    "missing_values": ("slider", r"^s \("),
}
PAGES = {entry.stem: PageSpec(entry.stem, entry.url_path, *CONTROLS[entry.stem])
         for entry in registered_pages() if entry.stem in CONTROLS}


def _lesson_steps() -> dict[str, PageSpec]:
    """Every lesson step whose live widget is a slider, as a scenario ``lesson-<lesson id>-<step>``: the
    Lessons page at ``?lesson=<id>&step=<n>&seed=1`` (one seed: the students share the step's numbers, as
    a class does), the step's slider moved."""
    from app_support.lessons.catalogue import lessons

    lessons_page = next(entry for entry in registered_pages() if entry.stem == "lessons")
    return {f"lesson-{item.id}-{n}": PageSpec(f"lesson-{item.id}-{n}", lessons_page.url_path, "slider",
                                              "^" + re.escape(step.widget.label) + "$",
                                              f"lesson={item.id}&step={n}&seed=1", "^Show the answer$")
            for item in lessons() for n, step in enumerate(item.steps, start=1)
            if step.widget.kind != "toggle"}


LESSON_STEPS = _lesson_steps()
PAGES.update(LESSON_STEPS)


def add_deep_links(names: list[str]) -> None:
    """Register each ``<page>@<query>`` of ``names`` as a scenario: ``<page>``'s, opened at that deep link
    (e.g. ``earlier_credal@data=tic_tac_toe``: the class on another data set, every view new)."""
    for name in names:
        base, at, query = name.partition("@")
        if at and base in PAGES and name not in PAGES:
            PAGES[name] = dataclasses.replace(PAGES[base], name=name, query=query)


SLIDER_PAGES = [name for name in PAGES if name != "compare" and name not in LESSON_STEPS]
MIXED_SLIDER_PAGES = ["home", "profile_likelihood", "intervals_vs_n", "aode_weights", "classifier_selection"]


class ProtocolError(RuntimeError):
    """The server answered in a way a browser would show as an error (or not at all)."""


# ---------------------------------------------------------------- one simulated student
@dataclasses.dataclass
class Widget:
    """A widget as last rendered: its kind, its proto message, its fragment and when it was seen."""

    kind: str
    proto: object
    fragment_id: str
    seen: int


def _decimals(step: float) -> int:
    """Decimal places of a slider step, so moved values are sent as the browser shows them (0.27, not
    0.27000000000000002)."""
    text = f"{step:.10f}".rstrip("0")
    return len(text.split(".")[1]) if "." in text else 0


class Student:
    """One browser's session: HTTP cookies, the websocket, the widgets of the page, timings and errors.

    Parameters
    ----------
    base_url : str
        The app's (or the proxy's) URL, ending in '/'.
    timeout : float
        Seconds to wait for one script run to finish before counting a time-out error.
    """

    def __init__(self, base_url: str, timeout: float = 300.0):
        self.base_url = base_url if base_url.endswith("/") else base_url + "/"
        self.timeout = timeout
        self.cookies: dict[str, str] = {}
        self.ws = None
        self.session_id = ""
        self.page_hash = ""
        self.query = ""
        self.url_path = ""
        self.widgets: dict[str, Widget] = {}
        # the browser's widget state manager: the value each widget has now (a slider's values, or
        # option indices of a select slider; a selectbox's option)
        self.values: dict[str, object] = {}
        self.errors: list[str] = []
        # text of the newest full run (headings, markdown, alerts, expander labels): what a reader sees
        self.texts: list[str] = []
        self.bytes_received = 0
        self.nudges = 0                 # reruns sent without waiting (nudge)
        self.runs_finished = 0          # script_finished messages of complete runs
        self._seen = 0
        self._cached: set[str] = set()
        self._run_done: asyncio.Future | None = None
        self._file_urls: dict[str, asyncio.Future] = {}
        self._reader: asyncio.Task | None = None
        self._closing = False

    # --- HTTP, as the browser does before the websocket
    def _cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    def _keep_cookies(self, headers) -> None:
        for raw in headers.get_list("Set-Cookie"):
            # by hand: Streamlit's XSRF cookie holds '|', which http.cookies refuses
            name, _, rest = raw.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0].strip()

    async def _http(self, path: str, method: str = "GET", body=None, headers=None, base_url=None):
        request = HTTPRequest((base_url or self.base_url) + path, method=method, body=body,
                              headers={"Cookie": self._cookie_header(), **(headers or {})},
                              request_timeout=self.timeout, follow_redirects=False)
        response = await AsyncHTTPClient().fetch(request, raise_error=False)
        self._keep_cookies(response.headers)
        if response.code >= 400 or response.code == 599:
            raise ProtocolError(f"{method} /{path}: HTTP {response.code} {response.body[:200]!r}")
        return response

    # --- the websocket
    async def open(self, url_path: str, query: str = "") -> float:
        """Load the page as a browser does and wait for its first render; returns the seconds taken.

        Parameters
        ----------
        url_path : str
            The page's URL path ('' for the default page).
        query : str
            The deep link's query string (without '?').
        """
        start = time.perf_counter()
        self.url_path, self.query = url_path, query
        await self._http(url_path + (f"?{query}" if query else ""))
        await self._http("_stcore/health")
        await self._http("_stcore/host-config")
        ws_url = "ws" + self.base_url[4:] + "_stcore/stream"
        origin = self.base_url.rstrip("/")
        request = HTTPRequest(ws_url, headers={"Cookie": self._cookie_header(), "Origin": origin},
                              request_timeout=self.timeout)
        # compression offered as a browser offers it (Streamlit declines by default)
        self.ws = await websocket_connect(request, subprotocols=["streamlit"], compression_options={},
                                          max_message_size=MAX_MESSAGE_BYTES)
        self._reader = asyncio.create_task(self._read())
        await self._run(page_name=url_path)
        return time.perf_counter() - start

    async def close(self) -> None:
        self._closing = True
        if self.ws is not None:
            self.ws.close()
        if self._reader is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._reader, 5)

    def _client_state(self, page_name: str = ""):
        message = BackMsg()
        state = message.rerun_script
        state.query_string = self.query
        state.page_script_hash = self.page_hash
        state.page_name = page_name
        state.widget_states.SetInParent()
        state.cached_message_hashes.extend(sorted(self._cached))
        info = state.context_info
        info.timezone, info.timezone_offset, info.locale = "UTC", 0, "en-US"
        info.url = self.base_url + self.url_path + (f"?{self.query}" if self.query else "")
        info.is_embedded, info.color_scheme = False, "light"
        return message

    async def _run(self, states=(), fragment_id: str = "", page_name: str = "") -> float:
        """Send one rerun_script and wait for its script_finished; returns the seconds taken."""
        message = self._client_state(page_name)
        message.rerun_script.widget_states.widgets.extend(states)
        if fragment_id:
            message.rerun_script.fragment_id = fragment_id
        self._run_done = asyncio.get_running_loop().create_future()
        start = time.perf_counter()
        await self.ws.write_message(message.SerializeToString(), binary=True)
        try:
            status = await asyncio.wait_for(asyncio.shield(self._run_done), self.timeout)
        except asyncio.TimeoutError:
            raise ProtocolError(f"no script_finished within {self.timeout:.0f} s") from None
        if status == FINISHED.FINISHED_WITH_COMPILE_ERROR:
            raise ProtocolError("the script did not compile")
        return time.perf_counter() - start

    async def _read(self) -> None:
        ws = self.ws
        try:
            while True:
                data = await ws.read_message()
                if data is None:
                    if not self._closing:
                        self.errors.append("websocket closed by the server")
                    break
                self.bytes_received += len(data)
                message = ForwardMsg()
                message.ParseFromString(data)
                self._handle(message)
        except Exception as problem:            # a broken connection ends the session, counted below
            if not self._closing:
                self.errors.append(f"websocket: {problem!r}")
        if self._run_done is not None and not self._run_done.done():
            self._run_done.set_exception(ProtocolError("the websocket closed during a run"))

    def _handle(self, message: ForwardMsg) -> None:
        kind = message.WhichOneof("type")
        if message.metadata.cacheable and message.hash:
            self._cached.add(message.hash)
        if kind == "delta":
            delta = message.delta
            if delta.WhichOneof("type") == "add_block":
                if delta.add_block.WhichOneof("type") == "expandable":
                    self.texts.append(delta.add_block.expandable.label)
                return
            if delta.WhichOneof("type") != "new_element":
                return
            element = delta.new_element
            element_kind = element.WhichOneof("type")
            if element_kind in ("markdown", "heading", "alert"):
                self.texts.append(getattr(element, element_kind).body)
            elif element_kind == "exception":
                text = element.exception.message or element.exception.type
                self.errors.append(f"exception on the page: {element.exception.type}: {text[:300]}")
            elif element_kind in WIDGET_KINDS:
                widget = getattr(element, element_kind)
                self._seen += 1
                self.widgets[widget.id] = Widget(element_kind, widget, delta.fragment_id, self._seen)
                self._remember_value(element_kind, widget)
        elif kind == "new_session":
            self.texts = []
            self.session_id = message.new_session.initialize.session_id or self.session_id
            self.page_hash = self.page_hash or message.new_session.page_script_hash
        elif kind == "navigation":
            self.page_hash = message.navigation.page_script_hash
        elif kind == "page_info_changed":
            self.query = message.page_info_changed.query_string     # st.query_params mirrored in the URL
        elif kind == "page_not_found":
            self.errors.append(f"page not found: {message.page_not_found.page_name!r}")
        elif kind == "session_event" and message.session_event.WhichOneof("type") == \
                "script_compilation_exception":
            self.errors.append("script compilation exception")
        elif kind == "file_urls_response":
            future = self._file_urls.get(message.file_urls_response.response_id)
            if future is not None and not future.done():
                future.set_result(message.file_urls_response)
        elif kind == "script_finished":
            status = message.script_finished
            self.runs_finished += status != FINISHED.FINISHED_EARLY_FOR_RERUN
            # a run cut short by st.rerun() (or a newer rerun) is followed by another run
            if status != FINISHED.FINISHED_EARLY_FOR_RERUN and self._run_done is not None \
                    and not self._run_done.done():
                self._run_done.set_result(status)

    # --- widgets
    def _remember_value(self, kind: str, proto) -> None:
        """Keep a widget's value as the browser does: the server's value when it sets one (``set_value``),
        else the value we sent last, else the widget's default."""
        if kind == "slider":
            if proto.set_value and len(proto.value):
                self.values[proto.id] = list(proto.value)
            elif proto.id not in self.values:
                self.values[proto.id] = list(proto.default)
        elif kind == "selectbox":
            if proto.set_value and proto.HasField("raw_value"):
                self.values[proto.id] = proto.raw_value
            elif proto.id not in self.values and proto.HasField("default") and len(proto.options):
                self.values[proto.id] = proto.options[proto.default]

    def find(self, kind: str, label: str = "", in_form: bool = False) -> Widget | None:
        """The most recently rendered widget of this kind whose label matches (outside forms unless
        ``in_form``)."""
        pattern = re.compile(label) if label else None
        matches = [w for w in self.widgets.values() if w.kind == kind
                   and bool(getattr(w.proto, "form_id", "")) == in_form
                   and (pattern is None or pattern.search(w.proto.label))]
        return max(matches, key=lambda w: w.seen, default=None)

    def find_for(self, spec: PageSpec) -> Widget:
        """The widget a student moves on this page: by the spec's label, else the first slider outside a
        form."""
        widget = self.find(spec.kind, spec.label)
        if widget is None:
            sliders = [w for w in self.widgets.values() if w.kind == "slider" and not w.proto.form_id]
            widget = min(sliders, key=lambda w: w.seen, default=None)
        if widget is None:
            raise ProtocolError(f"no {spec.kind} matching {spec.label!r} on page {spec.name}")
        return widget

    async def move(self, widget: Widget, rng: random.Random, walk: int = 0) -> float:
        """Move a slider (or pick another selectbox option) and wait for the rerun; returns seconds.

        Parameters
        ----------
        widget : Widget
            As returned by :meth:`find_for`.
        rng : random.Random
            Picks one to three steps up or down (``walk`` = 0).
        walk : int
            +1 or -1: one step in that direction, turning at the ends (values not visited before).
        """
        return await self._run([self._moved_state(widget, rng, walk)], widget.fragment_id)

    async def nudge(self, widget: Widget, rng: random.Random) -> None:
        """Move the widget and send the rerun without waiting for it, as a browser does while a key is
        held on a slider: the server stops the session's run in progress and starts the newest."""
        message = self._client_state()
        message.rerun_script.widget_states.widgets.extend([self._moved_state(widget, rng, 0)])
        if widget.fragment_id:
            message.rerun_script.fragment_id = widget.fragment_id
        await self.ws.write_message(message.SerializeToString(), binary=True)
        self.nudges += 1

    def _moved_state(self, widget: Widget, rng: random.Random, walk: int):
        proto = widget.proto
        state = WidgetState(id=proto.id)
        current = self.values.get(proto.id)
        if widget.kind == "slider" and (proto.type == Slider.SELECT_SLIDER or len(proto.options) > 0):
            index = int(_moved(int(current[0]), 0, len(proto.options) - 1, 1, rng, walk))
            self.values[proto.id] = [index]
            state.string_array_value.data[:] = [proto.options[index]]
        elif widget.kind == "slider":
            values = [_moved(current[0], proto.min, proto.max, proto.step, rng, walk)]
            shift = values[0] - current[0]        # a range slider moves as a whole
            values += [min(max(v + shift, proto.min), proto.max) for v in current[1:]]
            values = [round(v, _decimals(proto.step)) for v in values]
            self.values[proto.id] = values
            state.double_array_value.data[:] = values
        elif widget.kind == "selectbox":
            options = list(proto.options)
            index = options.index(current) if current in options else 0
            self.values[proto.id] = state.string_value = options[(index + 1) % len(options)]
        else:
            raise ProtocolError(f"cannot move a {widget.kind}")
        return state

    async def submit(self, button: Widget, states=()) -> float:
        """Press a form's submit button with the given form widget states; returns the seconds taken."""
        return await self._run([*states, WidgetState(id=button.proto.id, trigger_value=True)],
                               button.fragment_id)

    async def file_urls(self, name: str):
        """Ask the session for one file's upload URLs (a ``file_urls_request`` BackMsg, as the browser's
        uploader does); returns the ``FileURLs`` message (``upload_url``, ``file_id``)."""
        request_id = uuid.uuid4().hex
        future = self._file_urls[request_id] = asyncio.get_running_loop().create_future()
        message = BackMsg()
        message.file_urls_request.request_id = request_id
        message.file_urls_request.file_names.append(name)
        message.file_urls_request.session_id = self.session_id
        try:
            await self.ws.write_message(message.SerializeToString(), binary=True)
            response = await asyncio.wait_for(future, self.timeout)
        except asyncio.TimeoutError:
            raise ProtocolError(f"no file URLs within {self.timeout:.0f} s") from None
        finally:
            self._file_urls.pop(request_id, None)
        if response.error_msg:
            raise ProtocolError(f"file URLs refused: {response.error_msg}")
        return response.file_urls[0]

    async def put_file(self, urls, name: str, data: bytes, base_url: str | None = None) -> None:
        """``PUT`` a file to its upload URL as the browser does (multipart, the XSRF cookie echoed in the
        ``X-Xsrftoken`` header); ``base_url`` sends it elsewhere (tests: straight to another worker)."""
        boundary = uuid.uuid4().hex
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n"
                f"Content-Type: text/csv\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
        await self._http(urls.upload_url.lstrip("/"), "PUT", body, {
            "Content-Type": f"multipart/form-data; boundary={boundary}",
            "X-Xsrftoken": self.cookies.get("_streamlit_xsrf", "")}, base_url)

    async def upload(self, uploader: Widget, name: str, data: bytes) -> float:
        """Upload one file to an ``st.file_uploader`` (URLs, ``PUT``, then a rerun with the uploader's new
        state); returns the seconds from the PUT to the end of the rerun."""
        urls = await self.file_urls(name)
        start = time.perf_counter()
        await self.put_file(urls, name, data)
        state = WidgetState(id=uploader.proto.id)
        info = state.file_uploader_state_value.uploaded_file_info.add()
        info.name, info.size, info.file_id = name, len(data), urls.file_id
        info.file_urls.CopyFrom(urls)
        await self._run([state], uploader.fragment_id)
        return time.perf_counter() - start


def _moved(value: float, lo: float, hi: float, step: float, rng: random.Random, walk: int) -> float:
    """A new slider value: ``walk`` steps (turning at the ends) or one to three random steps, never the
    current value."""
    if walk:
        candidate = value + walk * step
        if not lo - 1e-12 <= candidate <= hi + 1e-12:
            candidate = value - walk * step
    else:
        size = rng.choice([1, 2, 3]) * rng.choice([-1, 1])
        candidate = min(max(value + size * step, lo), hi)
        if abs(candidate - value) < step / 2:
            candidate = min(max(value - size * step, lo), hi)
    return lo + round((candidate - lo) / step) * step if step else candidate


# ---------------------------------------------------------------- the server's process tree
class ProcessTree:
    """CPU seconds and resident memory summed over a process and its descendants (psutil reads /proc).

    CPU of descendants that exited between two readings is lost; the servers here keep their processes.
    """

    def __init__(self, pid: int):
        self.root = psutil.Process(pid)

    def _members(self):
        try:
            return [self.root, *self.root.children(recursive=True)]
        except psutil.NoSuchProcess:
            return []

    def cpu_seconds(self) -> float:
        total = 0.0
        for proc in self._members():
            with contextlib.suppress(psutil.Error):
                times = proc.cpu_times()
                total += times.user + times.system
        return total

    def rss_bytes(self) -> int:
        total = 0
        for proc in self._members():
            with contextlib.suppress(psutil.Error):
                total += proc.memory_info().rss
        return total


def find_server_pid(url: str) -> int | None:
    """The process listening on the URL's port on this machine (serve.sh when it is HAProxy's parent)."""
    parsed = urllib.parse.urlparse(url)
    port = parsed.port or 80
    with contextlib.suppress(psutil.Error):
        for conn in psutil.net_connections(kind="tcp"):
            if conn.status == psutil.CONN_LISTEN and conn.laddr.port == port and conn.pid:
                proc = psutil.Process(conn.pid)
                parent = proc.parent()
                if parent is not None and any("serve.sh" in part for part in parent.cmdline()):
                    return parent.pid
                return proc.pid
    return None


class Sampler:
    """Peak RSS of a process tree, sampled every ``period`` seconds while a scenario runs."""

    def __init__(self, tree: ProcessTree | None, period: float = 0.5):
        self.tree, self.period, self.peak = tree, period, 0
        self._task = None

    async def _loop(self):
        while True:
            self.peak = max(self.peak, await asyncio.to_thread(self.tree.rss_bytes))
            await asyncio.sleep(self.period)

    def __enter__(self):
        if self.tree is not None:
            self._task = asyncio.get_running_loop().create_task(self._loop())
        return self

    def __exit__(self, *exc):
        if self._task is not None:
            self._task.cancel()


# ---------------------------------------------------------------- starting a server
def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_healthy(url: str, proc: subprocess.Popen, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited early with code {proc.returncode}")
        with contextlib.suppress(OSError):
            with urllib.request.urlopen(url + "_stcore/health", timeout=2) as response:
                if response.status == 200:
                    return
        time.sleep(0.3)
    raise TimeoutError(f"the server did not answer {url}_stcore/health within {timeout:.0f} s")


@contextlib.contextmanager
def started_server(kind: str, workers: int = 1, post_script_gc: bool | None = None, app_dir: Path = ROOT,
                   log_path: Path | None = None):
    """Start ``kind`` = 'app' (one ``streamlit run app.py`` as scripts/app.sh does, headless) or 'serve'
    (``scripts/serve.sh --workers N``) on free 127.0.0.1 ports; yields (url, pid of the tree's root).

    ``post_script_gc`` (app only): True / False force Streamlit's ``runner.postScriptGC``; None leaves it
    to the app's ``.streamlit/config.toml``, as scripts/app.sh does.
    """
    port = free_port()
    if kind == "app":
        cmd = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.address", "127.0.0.1",
               "--server.port", str(port), "--server.headless", "true", "--browser.gatherUsageStats", "false",
               "--server.fileWatcherType", "none"]
        if post_script_gc is not None:
            cmd += ["--runner.postScriptGC", "true" if post_script_gc else "false"]
    elif kind == "serve":
        cmd = ["bash", str(app_dir / "scripts" / "serve.sh"), "--workers", str(workers), "--port", str(port),
               "--worker-base-port", str(free_port_block(workers))]
    else:
        raise ValueError(f"unknown server kind {kind!r}")
    log = open(log_path, "w") if log_path else tempfile.TemporaryFile("w")    # noqa: SIM115
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    # a process group of its own: it is stopped as one at the end, whatever it started
    proc = subprocess.Popen(cmd, cwd=app_dir, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_healthy(url, proc, 300)
        yield url, proc.pid
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        log.close()


def free_port_block(count: int) -> int:
    """A first port P such that P .. P+count-1 are free on 127.0.0.1 now (serve.sh's worker ports)."""
    for _ in range(100):
        base = random.randint(20000, 60000 - count)
        sockets = []
        try:
            for port in range(base, base + count):
                sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                sockets.append(sock)
                sock.bind(("127.0.0.1", port))
            return base
        except OSError:
            continue
        finally:
            for sock in sockets:
                sock.close()
    raise RuntimeError("no block of free ports found")


# ---------------------------------------------------------------- statistics and reports
def quantile(values: list[float], q: float) -> float:
    """Linear-interpolation quantile (numpy's default); NaN for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    position = (len(ordered) - 1) * q
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def latency_summary(values: list[float]) -> dict:
    return {"n": len(values), "p50": quantile(values, 0.5), "p95": quantile(values, 0.95),
            "max": max(values) if values else math.nan}


@dataclasses.dataclass
class Outcome:
    """What the students of one scenario (or one group of it) measured."""

    first: list[float] = dataclasses.field(default_factory=list)
    reruns: list[float] = dataclasses.field(default_factory=list)
    errors: list[str] = dataclasses.field(default_factory=list)
    bytes_received: int = 0
    cut: int = 0          # moves not made: the scenario's deadline had passed

    def absorb(self, student: Student, first: float | None, reruns: list[float]) -> None:
        if first is not None:
            self.first.append(first)
        self.reruns.extend(reruns)
        self.errors.extend(student.errors)
        self.bytes_received += student.bytes_received


async def slider_student(url: str, spec: PageSpec, outcome: Outcome, moves: int, interval: float,
                         delay: float, seed: int, timeout: float, start_moving: asyncio.Event | None = None,
                         deadline: float | None = None):
    """Open ``spec``'s page, wait for the first render, move its widget ``moves`` times (no new move after
    ``deadline``, a ``time.monotonic()`` value: the moves left are counted in ``outcome.cut``)."""
    rng = random.Random(seed)
    await asyncio.sleep(delay)
    student = Student(url, timeout)
    first, reruns = None, []
    try:
        first = await _open_pressed(student, spec)
        widget = student.find_for(spec)
        if start_moving is not None:
            await start_moving.wait()
        for done in range(moves):
            await asyncio.sleep(interval * rng.uniform(0.8, 1.2))
            if deadline is not None and time.monotonic() > deadline:
                outcome.cut += moves - done
                break
            reruns.append(await student.move(widget, rng))
            widget = student.find_for(spec)       # re-read: ids and values come from the newest render
    except Exception as problem:
        student.errors.append(f"{spec.name}: {problem!r}"[:400])
    finally:
        await student.close()
        outcome.absorb(student, first, reruns)


async def compare_student(url: str, outcome: Outcome, delay: float, seed: int, timeout: float,
                          opened: asyncio.Event | None = None, query: str = ""):
    """Open Compare (its default samples), then press "Run the comparison" with seed ``seed``."""
    await asyncio.sleep(delay)
    student = Student(url, timeout)
    first, reruns = None, []
    try:
        first = await student.open(PAGES["compare"].url_path, query)
        if opened is not None:
            opened.set()
        seed_input = student.find("number_input", r"^Seed", in_form=True)
        button = student.find("button", r"Run", in_form=True)
        if seed_input is None or button is None:
            raise ProtocolError("no Seed input / Run button in the compare form")
        data_type_int = seed_input.proto.data_type == 0
        state = WidgetState(id=seed_input.proto.id)
        if data_type_int:
            state.int_value = seed
        else:
            state.double_value = float(seed)
        reruns.append(await student.submit(button, [state]))
    except Exception as problem:
        student.errors.append(f"compare: {problem!r}"[:400])
    finally:
        await student.close()
        outcome.absorb(student, first, reruns)


async def measured(tree: ProcessTree | None, coroutine):
    """Run a scenario's coroutine; returns (wall s, server CPU s, peak RSS bytes, end RSS, client CPU s)."""
    cpu0 = tree.cpu_seconds() if tree else math.nan
    client0 = time.process_time()
    start = time.perf_counter()
    with Sampler(tree) as sampler:
        await coroutine
    wall = time.perf_counter() - start
    cpu = tree.cpu_seconds() - cpu0 if tree else math.nan
    end_rss = tree.rss_bytes() if tree else 0
    return wall, cpu, max(sampler.peak, end_rss), end_rss, time.process_time() - client0


def scenario_row(name: str, students: int, server: str, groups: dict[str, Outcome], measures,
                 judged: str) -> dict:
    wall, cpu, peak, end_rss, client_cpu = measures
    row = {"scenario": name, "students": students, "server": server, "load_average_1min": os.getloadavg()[0],
           "wall_s": wall, "server_cpu_s": cpu,
           "server_rss_peak_mb": peak / 2**20, "server_rss_end_mb": end_rss / 2**20,
           "client_cpu_s": client_cpu, "judged_group": judged, "groups": {}}
    for group, outcome in groups.items():
        row["groups"][group] = {
            "first_render": latency_summary(outcome.first), "rerun": latency_summary(outcome.reruns),
            "errors": len(outcome.errors), "error_samples": outcome.errors[:5], "moves_cut": outcome.cut,
            "kb_received_per_student": outcome.bytes_received / 1024 / max(students, 1)}
    judged_group = row["groups"][judged]
    row["first_render"], row["rerun"] = judged_group["first_render"], judged_group["rerun"]
    row["errors"] = sum(g["errors"] for g in row["groups"].values())
    return row


def _fmt(summary: dict) -> str:
    if not summary["n"]:
        return f"{'—':>20}"
    return f"{summary['p50']:6.2f} {summary['p95']:6.2f} {summary['max']:6.2f}"


TABLE_HEADER = (f"{'scenario':<34} {'stud':>4} {'server':<10} {'first p50    p95    max':>22} "
                f"{'rerun p50    p95    max':>22} {'n':>4} {'err':>4} {'cpu s':>7} {'rss MB':>7} "
                f"{'wall s':>7} {'load':>5}")


def table_line(row: dict) -> str:
    return (f"{row['scenario']:<34} {row['students']:>4} {row['server']:<10} {_fmt(row['first_render']):>22} "
            f"{_fmt(row['rerun']):>22} {row['rerun']['n']:>4} {row['errors']:>4} {row['server_cpu_s']:7.1f} "
            f"{row['server_rss_peak_mb']:7.0f} {row['wall_s']:7.1f} {row['load_average_1min']:5.1f}")


# ---------------------------------------------------------------- scenarios
async def _open_pressed(student: "Student", spec: PageSpec) -> float:
    """Open ``spec``'s page and press its button if it has one (a lesson step's "Show the answer": its
    slider and figure come after the answer); the seconds both took, a student's first render."""
    seconds = await student.open(spec.url_path, spec.query)
    if spec.press:
        button = student.find("button", spec.press)
        if button is None:
            raise ProtocolError(f"no button matching {spec.press!r} on page {spec.name}")
        seconds += await student.submit(button)
    return seconds


async def warm_up(url: str, pages: list[str], sessions: int, timeout: float) -> None:
    """Open each page ``sessions`` times at once (so every worker behind the proxy gets one) and close:
    imports and the default view's caches are warm, as after the teacher's own visit."""
    for name in pages:
        spec = PAGES[name]
        students = [Student(url, timeout) for _ in range(sessions)]
        results = await asyncio.gather(*(_open_pressed(s, spec) for s in students), return_exceptions=True)
        for student in students:
            await student.close()
        problems = [r for r in results if isinstance(r, Exception)]
        if problems:
            print(f"warm-up of {name}: {problems[0]!r}", file=sys.stderr)


async def page_scenario(url: str, name: str, students: int, args, tree, server: str) -> dict:
    outcome = Outcome()
    ramp = args.ramp if students > 1 else 0.0
    rng = random.Random(args.seed)
    if name == "compare":
        base = rng.randint(1, 10**5)      # seeds nobody used on this server: every press cross-validates
        jobs = [compare_student(url, outcome, rng.uniform(0, ramp), base + i, args.timeout)
                for i in range(students)]
    else:
        deadline = time.monotonic() + args.deadline if args.deadline else None
        jobs = [slider_student(url, PAGES[name], outcome, args.moves, args.interval, rng.uniform(0, ramp),
                               rng.randint(0, 2**31), args.timeout, deadline=deadline)
                for _ in range(students)]
    measures = await measured(tree, asyncio.gather(*jobs))
    return scenario_row(name, students, server, {name: outcome}, measures, name)


async def mixed_scenario(url: str, args, tree, server: str) -> dict:
    """``--mixed-compare`` students press Run on Compare; once every one of them has pressed,
    ``--mixed-sliders`` students (already on their pages) start moving their sliders."""
    compare, sliders = Outcome(), Outcome()
    rng = random.Random(args.seed + 1)
    base = rng.randint(1, 10**5)
    n_compare, n_sliders = args.mixed_compare, args.mixed_sliders
    opened = [asyncio.Event() for _ in range(n_compare)]
    start_moving = asyncio.Event()

    async def release_sliders():
        for event in opened:
            await event.wait()
        await asyncio.sleep(2.0)            # the comparisons are under way
        start_moving.set()

    jobs = [compare_student(url, compare, rng.uniform(0, args.ramp), base + i, args.compare_timeout,
                            opened[i]) for i in range(n_compare)]
    jobs += [slider_student(url, PAGES[MIXED_SLIDER_PAGES[i % len(MIXED_SLIDER_PAGES)]], sliders, args.moves,
                            args.interval, rng.uniform(0, args.ramp), rng.randint(0, 2**31), args.timeout,
                            start_moving)
             for i in range(n_sliders)]
    jobs.append(release_sliders())
    measures = await measured(tree, asyncio.gather(*jobs))
    return scenario_row(f"mixed ({n_compare} compare + {n_sliders} sliders)", n_compare + n_sliders, server,
                        {"sliders": sliders, "compare": compare}, measures, "sliders")


async def flood_scenario(url: str, args, tree, server: str) -> dict:
    """One student holds a key on ``--flood-page``'s slider (a new value every ``--flood-interval`` s,
    never waiting for the run: each rerun request stops that session's run in progress) while
    ``--flood-others`` students move sliders on the other pages as usual; their latencies decide."""
    others, flooder_outcome = Outcome(), Outcome()
    rng = random.Random(args.seed + 2)
    spec = PAGES[args.flood_page]
    start_moving, stop = asyncio.Event(), asyncio.Event()
    counts = {}

    async def flooder():
        student = Student(url, args.timeout)
        try:
            flooder_outcome.first.append(await student.open(spec.url_path, spec.query))
            widget = student.find_for(spec)
            start_moving.set()
            while not stop.is_set():
                await student.nudge(widget, rng)
                await asyncio.sleep(args.flood_interval)
            await asyncio.sleep(1.0)          # the last run's answer
        except Exception as problem:
            student.errors.append(f"flooder: {problem!r}"[:400])
        finally:
            counts.update(sent=student.nudges, finished=student.runs_finished)
            await student.close()
            flooder_outcome.absorb(student, None, [])

    async def class_moves():
        pages = [p for p in MIXED_SLIDER_PAGES if p != args.flood_page] or MIXED_SLIDER_PAGES
        await asyncio.gather(*[
            slider_student(url, PAGES[pages[i % len(pages)]], others, args.moves, args.interval,
                           rng.uniform(0, args.ramp), rng.randint(0, 2**31), args.timeout, start_moving)
            for i in range(args.flood_others)])
        stop.set()

    measures = await measured(tree, asyncio.gather(flooder(), class_moves()))
    row = scenario_row(f"flood ({args.flood_page} held + {args.flood_others} sliders)", args.flood_others + 1,
                       server, {"others": others, "flooder": flooder_outcome}, measures, "others")
    row["flooder_reruns_sent"] = counts.get("sent", 0)
    row["flooder_runs_finished"] = counts.get("finished", 0)
    return row


async def wait_idle(tree: ProcessTree, limit: float, period: float = 2.0,
                    idle_cores: float = 0.1) -> float | None:
    """Wait (at most ``limit`` s) until the server tree uses under ``idle_cores`` of a core over ``period`` s
    — with serve.sh, its workers' warm at start (``serving/warm.py``) has then finished, as on a server
    started a minute or two before class. The seconds waited, or None when the limit came first."""
    start = time.monotonic()
    while time.monotonic() - start < limit:
        before = tree.cpu_seconds()
        await asyncio.sleep(period)
        if (tree.cpu_seconds() - before) / period < idle_cores:
            return time.monotonic() - start
    return None


async def run_scenarios(url: str, args, tree, server: str) -> list[dict]:
    pages = [p for p in args.pages.split(",") if p] if args.pages else []
    unknown = [p for p in pages if p not in PAGES]
    if unknown:
        raise SystemExit(f"unknown pages {unknown}; known: {', '.join(PAGES)}")
    counts = [int(c) for c in args.students.split(",") if c]
    waited = None
    if args.wait_warm and tree is not None:
        waited = await wait_idle(tree, args.wait_warm)
        print(f"server tree idle after {waited:.0f} s (serve.sh's warm at start done)" if waited is not None
              else f"server tree still busy after {args.wait_warm:.0f} s: measuring anyway", flush=True)
    if not args.no_warm_up:
        warm = list(dict.fromkeys(pages + (MIXED_SLIDER_PAGES + ["compare"] if args.mixed else [])
                                  + (MIXED_SLIDER_PAGES + [args.flood_page] if args.flood else [])))
        await warm_up(url, warm, args.workers if args.start == "serve" else 1, args.timeout)
    rows = []
    print(TABLE_HEADER, flush=True)
    for name in pages:
        for count in counts:
            rows.append(await page_scenario(url, name, count, args, tree, server))
            rows[-1]["waited_for_warm_s"] = waited          # None: a fresh server (or not waited for)
            print(table_line(rows[-1]), flush=True)
    if args.flood:
        rows.append(await flood_scenario(url, args, tree, server))
        print(table_line(rows[-1]), flush=True)
        print(f"    flooder: {rows[-1]['flooder_reruns_sent']} reruns sent, "
              f"{rows[-1]['flooder_runs_finished']} runs finished", flush=True)
    if args.mixed:
        rows.append(await mixed_scenario(url, args, tree, server))
        print(table_line(rows[-1]), flush=True)
        for group, data in rows[-1]["groups"].items():
            print(f"    {group:<30} first {_fmt(data['first_render'])}   rerun/press {_fmt(data['rerun'])}"
                  f"   errors {data['errors']}", flush=True)
    return rows


async def _first_render_cpu(url: str, spec: PageSpec, args, tree: ProcessTree,
                            idle_rate: float) -> list[float]:
    """CPU seconds of the server tree for each of ``args.opens`` new sessions opening ``spec``'s page one
    after the other (its button pressed, as a student's first render counts it), once a first session has
    warmed the caches: what every further student of a class costs on arrival."""
    cpus = []
    for _ in range(args.opens):
        student = Student(url, args.timeout)
        try:
            cpu0, t0 = tree.cpu_seconds(), time.perf_counter()
            await _open_pressed(student, spec)
            await asyncio.sleep(args.settle)
            cpus.append(tree.cpu_seconds() - cpu0 - idle_rate * (time.perf_counter() - t0))
        finally:
            await student.close()
    return cpus


async def cpu_per_rerun(url: str, args, tree: ProcessTree) -> list[dict]:
    """One student per page: CPU seconds of the server tree per slider rerun, idle CPU subtracted."""
    pages = [p for p in args.pages.split(",") if p]
    rows = []
    print(f"{'page':<22} {'widget':<44} {'cpu/rerun s':>11} {'max s':>7} {'first s':>7} {'idle s/s':>8} "
          f"{'wall p50 s':>10} {'KB/rerun':>9}", flush=True)
    for pass_, name in [(k, name) for k in range(1, args.passes + 1) for name in pages]:
        spec = PAGES[name]
        student = Student(url, args.timeout)
        try:
            await _open_pressed(student, spec)
            widget = student.find_for(spec)
            label = widget.proto.label
            # idle rate of the tree (websocket pings, HAProxy checks), subtracted from every reading; it is
            # measured after the first render has settled, over long enough a time for the clock-tick
            # resolution of /proc's CPU times (10 ms) to be small beside it, and reported
            await asyncio.sleep(max(args.settle, 1.0))
            idle0, t0 = tree.cpu_seconds(), time.perf_counter()
            await asyncio.sleep(args.idle)
            idle_rate = (tree.cpu_seconds() - idle0) / (time.perf_counter() - t0)
            firsts = await _first_render_cpu(url, spec, args, tree, idle_rate)
            cpus, walls, sizes = [], [], []
            direction = 1
            for _ in range(args.reruns):
                before_bytes = student.bytes_received
                cpu0, t0 = tree.cpu_seconds(), time.perf_counter()
                proto = widget.proto
                if widget.kind == "slider" and not len(proto.options):
                    value = student.values[proto.id][0]
                    if value + proto.step > proto.max + 1e-12:
                        direction = -1
                    elif value - proto.step < proto.min - 1e-12:
                        direction = 1
                walls.append(await student.move(widget, random.Random(0), walk=direction))
                # the run's tail (message sending, the post-script GC when on) lands after script_finished
                await asyncio.sleep(args.settle)
                cpus.append(tree.cpu_seconds() - cpu0 - idle_rate * (time.perf_counter() - t0))
                sizes.append(student.bytes_received - before_bytes)
                widget = student.find_for(spec)
            row = {"page": name, "pass": pass_, "widget": label, "cpu_per_rerun_s": sum(cpus) / len(cpus),
                   "cpu_max_s": max(cpus), "cpu_each_s": [round(c, 4) for c in cpus],
                   "cpu_first_render_s": sum(firsts) / len(firsts) if firsts else math.nan,
                   "cpu_first_each_s": [round(c, 4) for c in firsts],
                   "idle_cpu_per_s": idle_rate, "wall_p50_s": quantile(walls, 0.5),
                   "kb_per_rerun": sum(sizes) / len(sizes) / 1024, "errors": student.errors[:5]}
        except Exception as problem:
            row = {"page": name, "pass": pass_, "widget": "", "cpu_per_rerun_s": math.nan,
                   "cpu_max_s": math.nan,
                   "cpu_first_render_s": math.nan,
                   "idle_cpu_per_s": math.nan, "wall_p50_s": math.nan, "kb_per_rerun": math.nan,
                   "errors": [*student.errors[:4], repr(problem)[:300]]}
        finally:
            await student.close()
        rows.append(row)
        shown = name + (f" ({pass_})" if args.passes > 1 else "")
        print(f"{shown:<22} {row['widget'][:44]:<44} {row['cpu_per_rerun_s']:11.3f} {row['cpu_max_s']:7.3f} "
              f"{row['cpu_first_render_s']:7.3f} {row['idle_cpu_per_s']:8.4f} {row['wall_p50_s']:10.3f} "
              f"{row['kb_per_rerun']:9.1f}"
              + (f"   errors: {row['errors'][0]}" if row["errors"] else ""), flush=True)
    return rows


# ---------------------------------------------------------------- command line
def _server_label(args) -> str:
    if args.url:
        return "url"
    if args.start == "serve":
        return f"serve×{args.workers}"
    return {None: "app", True: "app-gc", False: "app-nogc"}[args.post_script_gc]


async def _main_async(args) -> int:
    async def with_server(url: str, pid: int | None):
        tree = ProcessTree(pid) if pid else None
        if args.command == "cpu-per-rerun":
            if tree is None:
                raise SystemExit("cpu-per-rerun needs the server's process: --start, or --server-pid")
            return await cpu_per_rerun(url, args, tree)
        return await run_scenarios(url, args, tree, _server_label(args))

    if args.url:
        url = args.url if args.url.endswith("/") else args.url + "/"
        rows = await with_server(url, args.server_pid or find_server_pid(url))
    else:
        with started_server(args.start, args.workers, args.post_script_gc,
                            log_path=Path(args.server_log) if args.server_log else None) as (url, pid):
            rows = await with_server(url, pid)
    if args.json:
        Path(args.json).write_text(json.dumps({"command": " ".join(sys.argv), "server": _server_label(args),
                                               "rows": rows}, indent=2, default=str))
    return judge(rows, args)


def judge(rows: list[dict], args) -> int:
    """Exit status: 1 when a row breaks a given limit (each broken limit is printed), else 0."""
    broken = []
    for row in rows:
        name = row.get("scenario") or row.get("page")
        if args.command == "cpu-per-rerun":
            if args.max_cpu is not None and not row["cpu_per_rerun_s"] <= args.max_cpu:
                broken.append(f"{name}: CPU per rerun {row['cpu_per_rerun_s']:.3f} s > {args.max_cpu} s")
            if args.max_errors is not None and len(row["errors"]) > args.max_errors:
                broken.append(f"{name}: errors {row['errors']}")
            continue
        if args.max_p95 is not None and not row["rerun"]["p95"] <= args.max_p95:
            broken.append(f"{name} ({row['students']}): rerun p95 {row['rerun']['p95']:.2f} s > "
                          f"{args.max_p95} s")
        if args.max_errors is not None and row["errors"] > args.max_errors:
            samples = [s for g in row["groups"].values() for s in g["error_samples"]][:3]
            broken.append(f"{name} ({row['students']}): {row['errors']} errors > {args.max_errors}: "
                          f"{samples}")
        if args.max_rss_mb is not None and row["server_rss_peak_mb"] > args.max_rss_mb:
            broken.append(f"{name} ({row['students']}): RSS {row['server_rss_peak_mb']:.0f} MB > "
                          f"{args.max_rss_mb} MB")
    for line in broken:
        print("LIMIT EXCEEDED:", line, file=sys.stderr)
    return 1 if broken else 0


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    common = argparse.ArgumentParser(add_help=False)
    target = common.add_argument_group("server")
    target.add_argument("--url", help="an already running app or proxy, e.g. http://127.0.0.1:8501/")
    target.add_argument("--server-pid", type=int, help="with --url: root of the process tree to measure "
                        "(default: whatever listens on the URL's port, or serve.sh above it)")
    target.add_argument("--start", choices=["app", "serve"], default="app",
                        help="start the server: 'app' = one streamlit process as scripts/app.sh (default), "
                             "'serve' = scripts/serve.sh --workers N")
    target.add_argument("--workers", type=int, default=2, help="with --start serve (default 2)")
    target.add_argument("--post-script-gc", choices=["config", "on", "off"], default="config",
                        help="with --start app: Streamlit's gc.collect(2) after every run; 'config' "
                             "(default): as the app's .streamlit/config.toml says, as scripts/app.sh runs "
                             "it (serve.sh's workers always run with it off)")
    target.add_argument("--no-post-script-gc", dest="post_script_gc", action="store_const", const="off",
                        help="the same as --post-script-gc off")
    target.add_argument("--server-log", help="write the started server's output here")
    common.add_argument("--timeout", type=float, default=300.0, help="seconds per script run (default 300)")
    common.add_argument("--json", help="write every row to this JSON file")
    common.add_argument("--max-errors", type=int, help="exit 1 above this many errors in a scenario")

    run = sub.add_parser("run", parents=[common], help="students move sliders (and run comparisons)")
    run.add_argument("--pages", default=",".join(SLIDER_PAGES),
                     help=f"comma-separated, of: {', '.join(PAGES)} (default: every slider page); "
                          "'' for none; <page>@<query> opens a page at a deep link, e.g. "
                          "earlier_credal@data=tic_tac_toe")
    run.add_argument("--students", default="1,10,30", help="class sizes, comma-separated (default 1,10,30)")
    run.add_argument("--moves", type=int, default=5, help="slider moves per student (default 5)")
    run.add_argument("--interval", type=float, default=1.0, help="seconds between moves (±20 %%; default 1)")
    run.add_argument("--ramp", type=float, default=1.0,
                     help="students start within this many seconds (default 1)")
    run.add_argument("--mixed", action="store_true", help="also the mixed class (compare + sliders)")
    run.add_argument("--flood", action="store_true",
                     help="also a class with one student holding a key on a slider (see --flood-page)")
    run.add_argument("--flood-page", default="aode_weights", choices=SLIDER_PAGES)
    run.add_argument("--flood-interval", type=float, default=0.03,
                     help="seconds between the flooding student's reruns (default 0.03: a held key)")
    run.add_argument("--flood-others", type=int, default=10, help="students moving sliders meanwhile")
    run.add_argument("--mixed-compare", type=int, default=10)
    run.add_argument("--mixed-sliders", type=int, default=20)
    run.add_argument("--compare-timeout", type=float, default=900.0,
                     help="seconds for one comparison in the mixed class (default 900)")
    run.add_argument("--deadline", type=float,
                     help="seconds after a scenario's start when students stop starting new moves (runs in "
                          "flight finish; the moves left are reported as moves_cut); default: none")
    run.add_argument("--seed", type=int, default=0)
    run.add_argument("--wait-warm", type=float, default=0.0,
                     help="before the warm-up, wait at most this many s for the server tree to go idle "
                          "(under 0.1 core over 2 s): serve.sh's warm at start done, as on a server started "
                          "before class (serving/warm.py); default 0: measure at once (a fresh server)")
    run.add_argument("--no-warm-up", action="store_true",
                     help="skip opening each page once before measuring (cold imports and caches)")
    run.add_argument("--max-p95", type=float, help="exit 1 when a scenario's rerun p95 (s) is above")
    run.add_argument("--max-rss-mb", type=float, help="exit 1 when the server tree's peak RSS is above")

    cpu = sub.add_parser("cpu-per-rerun", parents=[common],
                         help="one student: server CPU seconds per slider rerun, per page")
    cpu.add_argument("--pages", default=",".join(PAGES))
    cpu.add_argument("--reruns", type=int, default=10)
    cpu.add_argument("--passes", type=int, default=1,
                     help="go through the pages this many times on the same server: from the second pass on "
                          "the moves meet values the server has computed (its caches' hit cost; default 1)")
    cpu.add_argument("--opens", type=int, default=3,
                     help="new sessions opening the page after the first (warm caches): CPU per first "
                          "render (default 3)")
    cpu.add_argument("--settle", type=float, default=0.5,
                     help="seconds after each run before reading the CPU (default 0.5)")
    cpu.add_argument("--idle", type=float, default=3.0,
                     help="seconds over which the idle CPU rate is measured before the moves (default 3)")
    cpu.add_argument("--max-cpu", type=float, help="exit 1 when a page's mean CPU per rerun (s) is above")
    args = parser.parse_args(argv)
    args.post_script_gc = {"config": None, "on": True, "off": False}[args.post_script_gc]
    add_deep_links((getattr(args, "pages", "") or "").split(","))
    if args.command == "run" and args.pages == "" and not (args.mixed or args.flood):
        parser.error("nothing to run: give --pages, --mixed and/or --flood")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    return asyncio.run(_main_async(args))


if __name__ == "__main__":
    sys.exit(main())
