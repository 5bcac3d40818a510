"""The background computation of a page's slider steps (app_support.long_runs.warm_in_background): only
when serve.sh's workers ask for it (CREDAL_WARM=1), once per process and key, at most a share of a core."""
from __future__ import annotations

import threading
import time

import pytest

from app_support import long_runs
from serving.options import parse
from serving.supervisor import Supervisor


@pytest.fixture
def fresh(monkeypatch):
    monkeypatch.setattr(long_runs, "_WARMING", set())


def test_it_starts_only_when_asked_and_once_per_key(fresh, monkeypatch):
    ran, done = [], threading.Event()

    def steps():
        return [lambda: ran.append(1), done.set]
    monkeypatch.delenv("CREDAL_WARM", raising=False)
    assert long_runs.warm_in_background("page a", steps) is False          # tests, scripts/app.sh
    monkeypatch.setenv("CREDAL_WARM", "1")
    assert long_runs.warm_in_background("page a", steps) is True
    assert long_runs.warm_in_background("page a", steps) is False          # once per process and key
    assert done.wait(10) and ran == [1]
    assert long_runs.warm_in_background("page b", lambda: []) is True


def test_run_steps_sleeps_so_as_to_take_at_most_its_share_of_a_core(monkeypatch):
    slept = []
    monkeypatch.setattr(long_runs.time, "sleep", slept.append)

    def busy():
        end = time.thread_time() + 0.02
        while time.thread_time() < end:
            pass
    assert long_runs.run_steps([busy, busy], share=0.25) == 2
    assert len(slept) == 2 and all(pause >= 3 * 0.02 * 0.99 for pause in slept)     # 0.02 s busy, 0.06 s idle


def test_serve_sh_workers_warm_unless_told_not_to(monkeypatch, tmp_path):
    monkeypatch.delenv("CREDAL_WARM", raising=False)
    options = parse(["--workers", "2"])
    assert Supervisor(options, tmp_path).env["CREDAL_WARM"] == "1"
    monkeypatch.setenv("CREDAL_WARM", "0")
    assert Supervisor(options, tmp_path).env["CREDAL_WARM"] == "0"


def test_run_steps_goes_on_at_once_while_nobody_is_connected(monkeypatch):
    slept = []
    monkeypatch.setattr(long_runs.time, "sleep", slept.append)
    assert long_runs.run_steps([lambda: None] * 3, busy=lambda: False) == 3 and slept == []
    assert long_runs.run_steps([lambda: None] * 2, busy=lambda: True) == 2 and len(slept) == 2


def test_without_a_server_a_warm_behaves_as_during_a_class():
    assert long_runs.sessions_connected() is True


def test_the_warm_at_start_claims_each_pages_key_once(fresh, monkeypatch):
    import sys
    import types

    from serving import warm
    ran = []
    for name, key in (("fake_page_a", "a"), ("fake_page_b", "b"), ("fake_page_c", "a")):
        module = types.ModuleType(name)
        module.default_warm = lambda key=key, name=name: (key, [lambda name=name: ran.append(name)])
        monkeypatch.setitem(sys.modules, name, module)
    monkeypatch.setattr(long_runs, "sessions_connected", lambda: False)          # nobody connected yet
    frozen = []
    monkeypatch.setattr(warm.gc, "freeze", lambda: frozen.append(len(ran)))     # not this test process's
    module = types.ModuleType("fake_page_e")                    # a second part under its first part's key
    module.default_warm = lambda: ("e", [lambda: ran.append("e")])
    module.rest = lambda: (None, [lambda: ran.append("e, rest")])
    monkeypatch.setitem(sys.modules, "fake_page_e", module)
    assert warm.warm_defaults(("fake_page_a", "fake_page_b", "fake_page_c", "fake_page_e",
                               "fake_page_e:rest", "fake_page_a:default_warm")) == 4
    assert ran == ["fake_page_a", "fake_page_b", "e", "e, rest"]  # keys claimed once
    assert warm.warm_defaults(("fake_page_e:rest",)) == 0        # its first part not claimed here: skipped
    assert frozen[0] == 0                                         # the modules' objects, before the steps
    monkeypatch.setenv("CREDAL_WARM", "1")
    assert long_runs.warm_in_background("a", lambda: [lambda: ran.append("again")]) is False


def test_the_warm_at_start_waits_for_serve_sh(monkeypatch):
    from serving import warm
    monkeypatch.delenv("CREDAL_WARM", raising=False)
    assert warm.start_when_ready() is None
    monkeypatch.setenv("CREDAL_WARM", "1")
    monkeypatch.setattr(warm, "warm_defaults", lambda: pytest.fail("warmed before the server started"))
    thread = warm.start_when_ready(timeout=0.3, poll=0.05)        # no Streamlit server in this process
    thread.join(5)
    assert not thread.is_alive()


def test_each_pages_warm_at_start_uses_the_key_its_first_view_starts(fresh, monkeypatch):
    from app_support.aode_weights import model as aode
    from app_support.earlier_credal import model as credal
    from app_support.missing_values import model as missing
    started = []
    for module in (aode, credal):
        monkeypatch.setattr(module, "warm_in_background", lambda key, steps: started.append(key))
    aode.weights_view.clear()
    values = aode.url_state(aode.sample_rows("synthetic_nb")).defaults()
    aode.weights_view("synthetic_nb", int(values["n"]), float(values["eps"]))
    credal._start_warming("weather", 1.0, 0.01)
    assert started == [aode.default_warm()[0], credal.default_warm()[0]]
    assert missing.default_warm()[0] == "missing_values weather"


def test_after_the_warm_at_start_the_servers_objects_leave_the_collectors_scans(monkeypatch):
    import gc

    from serving import warm
    calls = []
    monkeypatch.setenv("CREDAL_WARM", "1")
    monkeypatch.setattr(warm, "runtime_started", lambda: True)
    monkeypatch.setattr(warm, "warm_defaults", lambda: calls.append("warm") or 3)
    monkeypatch.setattr(gc, "collect", lambda *args: calls.append("collect") or 0)
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))
    warm.start_when_ready(timeout=5, poll=0.01).join(10)
    assert calls == ["warm", "collect", "freeze"]


def test_the_warm_at_start_waits_while_a_class_is_connected(fresh, monkeypatch):
    import sys
    import types

    from serving import warm
    connected, ran, slept = iter([True, True, False, False]), [], []
    module = types.ModuleType("fake_page_d")
    module.default_warm = lambda: ("d", [lambda: ran.append(1), lambda: ran.append(2)])
    monkeypatch.setitem(sys.modules, "fake_page_d", module)
    monkeypatch.setattr(long_runs, "sessions_connected", lambda: next(connected))
    monkeypatch.setattr(warm.time, "sleep", slept.append)
    monkeypatch.setattr(warm.gc, "freeze", lambda: None)
    assert warm.warm_defaults(("fake_page_d",)) == 2
    assert ran == [1, 2] and slept == [warm.IDLE_POLL] * 2       # two looks found a session connected


def test_the_warm_threads_missing_context_warning_is_dropped_and_no_other():
    """Streamlit's "missing ScriptRunContext" warning, logged from a thread named "warm …", is dropped by
    the filter start_when_ready installs; the same warning from another thread, and other records, pass."""
    import logging

    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

    from serving.warm import QuietWarmThreads

    logger = logging.getLogger("streamlit.runtime.scriptrunner_utils.script_run_context")
    seen = []

    class Keep(logging.Handler):
        def emit(self, record):
            seen.append(record.getMessage())

    handler, quiet = Keep(level=logging.WARNING), QuietWarmThreads()
    logger.addHandler(handler)
    logger.addFilter(quiet)
    try:
        for name in ("warm at start", "warm earlier_credal weather", "ScriptRunner.scriptThread"):
            thread = threading.Thread(target=get_script_run_ctx, name=name)
            thread.start()
            thread.join()
        logger.warning("something else from %s", "warm at start")
    finally:
        logger.removeHandler(handler)
        logger.removeFilter(quiet)
    assert seen == ["Thread 'ScriptRunner.scriptThread': missing ScriptRunContext! This warning can be "
                    "ignored when running in bare mode.", "something else from warm at start"]
