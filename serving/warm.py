"""The workers' warm at start: when a worker of ``serve.sh`` starts (``CREDAL_WARM=1``, the supervisor's
default), one daemon thread computes the slider steps of the pages' first views — Credal model averaging's
s, Classifier selection's first view, Fig. 3's splits and k, Missing values' s, AODE weights' ε, then
Credal model averaging's ε (:data:`WARMS`) — through the pages' own cached functions, so that a class
opening those pages finds them computed.

A teacher starts the server before class: the steps run while no browser session is connected (12-14 CPU
s per worker, 18-24 s with two workers on this 2-core machine), and wait while one is — a class gets every
cycle and computes what it reaches first itself (a step of
Classifier selection runs in the job pool, beyond any share of the warm's own thread). Each page's own
warm on its first view is then a no-op (the same key, claimed here); another data set still starts its
own warm, at a tenth of a core (:func:`app_support.long_runs.warm_in_background`).

Then the process's objects — imported modules and the computed views, about half a million, kept for the
server's life — are moved out of the cyclic garbage collector's reach (``gc.freeze``): its full
collections, which stop every session's run while they scan the heap (0.3-0.5 s each, 8-10 of them in a
class of 100 on a warmed worker), then scan only what the class itself creates (0.04-0.25 s).
"""
from __future__ import annotations

import gc
import importlib
import logging
import os
import threading
import time

# "module:function" giving (key, steps), most costly per value first: Credal model averaging's s (0.04-0.1
# CPU s a value), Classifier selection's Fig. 3 (100 splits), Missing values' s and AODE weights' ε
# (0.02-0.05 s a value), then Credal model averaging's ε (a key of None: claimed with its s steps)
WARMS = ("app_support.earlier_credal.model:default_warm_s",
         "app_support.classifier_selection.model:default_warm",
         "app_support.missing_values.model:default_warm", "app_support.aode_weights.model:default_warm",
         "app_support.earlier_credal.model:default_warm_eps")
LOG = logging.getLogger("serving.warm")
IDLE_POLL = 1.0        # seconds between two looks for a server with no session connected


def runtime_started() -> bool:
    """Whether this process's Streamlit server is up (its caches are then the ones its sessions use)."""
    from streamlit.runtime import Runtime
    from streamlit.runtime.runtime import RuntimeState
    return Runtime.exists() and Runtime.instance().state != RuntimeState.INITIAL


def warm_defaults(modules=WARMS) -> int:
    """Claim each page's default warm and run their steps in turn while no browser session is connected
    (a step waits while one is: the warm is for the time before class, and a class computes what it
    reaches first itself), the objects of the modules imported first frozen (``gc.freeze``: a class
    arriving before the warm ends meets short collections too); returns the steps done."""
    from app_support import long_runs
    steps = []
    claimed = set()
    for entry in modules:
        module, _, function = entry.partition(":")
        key, page_steps = getattr(importlib.import_module(module), function or "default_warm")()
        if key is None and module in claimed or key is not None and long_runs.claim(key):
            claimed.add(module)
            steps += page_steps
    gc.collect()
    gc.freeze()                 # the modules imported: out of the collector's scans while the steps run
    done = 0
    for step in steps:
        while long_runs.sessions_connected():     # a class is here: every cycle is the class's
            time.sleep(IDLE_POLL)
        step()
        done += 1
    return done


class QuietWarmThreads(logging.Filter):
    """Drops Streamlit's "missing ScriptRunContext" warning for the warm threads (named "warm …"): they
    call the pages' cached functions outside any session on purpose (about 66 lines per worker's log)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (isinstance(record.msg, str) and "missing ScriptRunContext" in record.msg
                    and record.args and str(record.args[0]).startswith("warm"))


def start_when_ready(timeout: float = 300.0, poll: float = 0.5) -> threading.Thread | None:
    """With ``CREDAL_WARM=1``: a daemon thread that waits (at most ``timeout`` s) for the server to start,
    then runs :func:`warm_defaults` and freezes the objects it leaves (``gc.freeze``); None otherwise."""
    if os.environ.get("CREDAL_WARM") != "1":
        return None
    logging.getLogger("streamlit.runtime.scriptrunner_utils.script_run_context").addFilter(QuietWarmThreads())

    def run():
        deadline = time.monotonic() + timeout
        while not runtime_started():
            if time.monotonic() > deadline:
                return
            time.sleep(poll)
        began = time.monotonic()
        try:
            done = warm_defaults()
        except Exception:                       # noqa: BLE001 - a warm never takes the worker down
            LOG.exception("the warm at start failed")
            done = 0
        gc.collect()
        gc.freeze()                             # what the server keeps for its life: out of the GC's scans
        LOG.warning("warm at start: %d steps in %.1f s (%.1f CPU s); %d objects frozen", done,
                    time.monotonic() - began, time.thread_time(), gc.get_freeze_count())
    thread = threading.Thread(target=run, name="warm at start", daemon=True)
    thread.start()
    return thread
