"""The workers' warm at start: when a worker of ``serve.sh`` starts (``CREDAL_WARM=1``, the supervisor's
default), one daemon thread computes the slider steps of the pages' first views — AODE weights' ε,
Missing values' s, Classifier selection's first view, Fig. 3's splits and k, then Credal model
averaging's s and ε (each page's ``default_warm``) — through the pages' own cached functions, so that a
class opening those pages finds them computed.

A teacher starts the server before class: while no browser session is connected the steps run at once
(about 40 CPU s per worker, mostly Credal model averaging's cross-validations); once one is, at a tenth
of a core (:func:`app_support.long_runs.run_steps`). Each page's own warm on its first view is then a
no-op (the same key, claimed here); another data set still starts its own warm on its first view.

Then the process's objects — imported modules and the computed views, some millions, all kept for the
server's life — are moved out of the cyclic garbage collector's reach (``gc.freeze``): its full
collections, which stop every session's run while they scan the heap (0.45-0.6 s each, 8-10 of them in a
class of 100 on a warmed worker), then scan only what the class itself creates.
"""
from __future__ import annotations

import gc
import importlib
import logging
import os
import threading
import time

WARMS = ("app_support.aode_weights.model", "app_support.missing_values.model",
         "app_support.classifier_selection.model", "app_support.earlier_credal.model")
LOG = logging.getLogger("serving.warm")


def runtime_started() -> bool:
    """Whether this process's Streamlit server is up (its caches are then the ones its sessions use)."""
    from streamlit.runtime import Runtime
    from streamlit.runtime.runtime import RuntimeState
    return Runtime.exists() and Runtime.instance().state != RuntimeState.INITIAL


def warm_defaults(modules=WARMS) -> int:
    """Claim each page's default warm and run their steps in turn (:func:`long_runs.run_steps`), the
    objects of the modules imported first frozen (``gc.freeze``: a class arriving before the warm ends
    meets short collections too); returns the steps done."""
    from app_support import long_runs
    steps = []
    for name in modules:
        key, page_steps = importlib.import_module(name).default_warm()
        if long_runs.claim(key):
            steps += page_steps
    gc.collect()
    gc.freeze()                 # the modules imported: out of the collector's scans while the steps run
    return long_runs.run_steps(steps)


def start_when_ready(timeout: float = 300.0, poll: float = 0.5) -> threading.Thread | None:
    """With ``CREDAL_WARM=1``: a daemon thread that waits (at most ``timeout`` s) for the server to start,
    then runs :func:`warm_defaults` and freezes the objects it leaves (``gc.freeze``); None otherwise."""
    if os.environ.get("CREDAL_WARM") != "1":
        return None

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
