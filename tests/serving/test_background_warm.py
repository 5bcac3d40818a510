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
