"""The shared job queue (app_support/jobs.py) and the engine's cancellation of abandoned runs."""
from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from app_support.jobs import JobQueue, QueueFull
from credal_core.experiments.runner import run_tasks


def test_first_come_first_served_with_places_shown():
    queue = JobQueue(max_running=2, max_waiting=10)
    tickets = [object() for _ in range(5)]
    for t in tickets:
        queue.enter(t)
    assert [queue.try_start(t) for t in tickets] == [0, 0, 2, 3, 4]      # runs ahead of each
    queue.leave(tickets[0])
    assert queue.try_start(tickets[3]) == 2        # not its turn: one running, ticket 2 first in line
    assert queue.try_start(tickets[2]) == 0
    assert queue.try_start(tickets[3]) == 2
    assert queue.counts() == (2, 2)


def test_a_full_queue_refuses_instead_of_hanging():
    queue = JobQueue(max_running=1, max_waiting=2)
    queue.enter(object())
    queue.enter(object())
    with pytest.raises(QueueFull):
        queue.enter(object())


def test_leaving_while_waiting_frees_the_place():
    queue = JobQueue(max_running=1, max_waiting=5)
    a, b, c = object(), object(), object()
    for t in (a, b, c):
        queue.enter(t)
    assert queue.try_start(a) == 0
    queue.leave(b)                                  # a closed tab while waiting
    assert queue.try_start(c) == 1
    queue.leave(a)
    assert queue.try_start(c) == 0


def _slow(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def test_a_stopped_run_cancels_every_task_not_started():
    """What a Stop click or a closed session does: the progress callback raises, the engine cancels."""
    started = []
    lock = threading.Lock()

    def task(i):
        with lock:
            started.append(i)
        return _slow(0.2)

    def stop(done, total):
        if done >= 1:
            raise KeyboardInterrupt("stop")

    with ThreadPoolExecutor(max_workers=2) as pool:
        with pytest.raises(KeyboardInterrupt):
            run_tasks(task, list(range(40)), scheduler=pool, progress=stop)
        time.sleep(0.6)
        assert len(started) <= 6, started            # the running ones finish; the other 34+ never start


def test_an_executor_gives_the_same_results_in_task_order():
    with ThreadPoolExecutor(max_workers=3) as pool:
        assert run_tasks(_slow, [0.03, 0.0, 0.02, 0.01], scheduler=pool) == [0.03, 0.0, 0.02, 0.01]
