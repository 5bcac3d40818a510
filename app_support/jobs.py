"""Long work leaves the web process: worker processes shared by all sessions, behind one queue.

Cross-validations and sweeps (Compare, Determinacy curves, the AODE comparison, the selector's Table
2) are split by the experiment engine into fold tasks; here they run in a pool of worker processes
(``CREDAL_JOB_WORKERS``, default: one per core), or on an existing Dask cluster when
``CREDAL_DASK_SCHEDULER`` holds its address — never in the server's script threads, which only
wait (releasing the interpreter lock) and draw the progress bar.

A first-come queue admits ``CREDAL_MAX_JOBS`` runs at once (default 2) and shows the others their
place ("2 runs ahead of yours"); past ``CREDAL_MAX_QUEUE`` waiting runs (default 40) a new run is
refused with a message instead of hanging.  A session runs one job at a time: a new click reruns the
page, which stops the old run first.  Stop, a closed tab or a lost connection stop the script at its
next progress update (Streamlit's stop request); the engine then cancels every fold task not yet
started, so at most the tasks already running (one per worker, a fold each) finish, unused.
"""
from __future__ import annotations

import contextlib
import multiprocessing
import os
import sys
import threading
import time
import types

import streamlit as st

__all__ = ["JobQueue", "QueueFull", "bar_progress", "queued_job", "start_process_pool", "worker_pool"]


def _env_int(name: str, default: int, low: int = 1) -> int:
    try:
        return max(low, int(os.environ.get(name, default)))
    except ValueError:
        return default


class QueueFull(RuntimeError):
    """More runs are waiting than the queue holds."""


class JobQueue:
    """First come, first served admission of at most ``max_running`` runs (thread-safe; no streamlit)."""

    def __init__(self, max_running: int, max_waiting: int):
        self.max_running, self.max_waiting = max_running, max_waiting
        self._lock = threading.Lock()
        self._waiting: list[object] = []
        self._running: set[object] = set()

    def enter(self, ticket: object) -> None:
        with self._lock:
            if len(self._waiting) >= self.max_waiting:
                raise QueueFull(f"{len(self._waiting)} runs are already waiting")
            self._waiting.append(ticket)

    def try_start(self, ticket: object) -> int:
        """0 when the run starts now (it is then running), else the number of runs ahead of it."""
        with self._lock:
            if ticket in self._running:
                return 0
            ahead = self._waiting.index(ticket)
            if ahead < self.max_running - len(self._running):
                self._waiting.remove(ticket)
                self._running.add(ticket)
                return 0
            return len(self._running) + ahead

    def leave(self, ticket: object) -> None:
        with self._lock:
            self._running.discard(ticket)
            if ticket in self._waiting:
                self._waiting.remove(ticket)

    def counts(self) -> tuple[int, int]:
        with self._lock:
            return len(self._running), len(self._waiting)


@st.cache_resource(show_spinner=False)
def _queue() -> JobQueue:
    return JobQueue(_env_int("CREDAL_MAX_JOBS", 2), _env_int("CREDAL_MAX_QUEUE", 40, 0))


@contextlib.contextmanager
def _plain_main():
    """Streamlit runs each page as the module ``__main__``; a spawned worker would import (and so run)
    that page.  While workers start, ``__main__`` is an empty module, so they import nothing of it."""
    real = sys.modules["__main__"]
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        sys.modules["__main__"] = real


def start_process_pool(n_workers: int):
    """A pool of ``n_workers`` spawned processes, all started now (a pool that starts workers lazily
    would start them later, from a page run)."""
    from concurrent.futures import ProcessPoolExecutor, wait

    # spawn: forking a multi-threaded server process could copy a held lock into the child
    pool = ProcessPoolExecutor(max_workers=n_workers, mp_context=multiprocessing.get_context("spawn"))
    with _plain_main():
        # each sleeping task occupies a worker, so every submit starts one more process
        warm = [pool.submit(time.sleep, 0.3) for _ in range(n_workers)]
    wait(warm)
    return pool


@st.cache_resource(show_spinner=False)
def _executor():
    address = os.environ.get("CREDAL_DASK_SCHEDULER")
    if address:
        from dask.distributed import Client

        return Client(address, timeout="10s")
    return start_process_pool(_env_int("CREDAL_JOB_WORKERS", os.cpu_count() or 1))


def worker_pool():
    """The executor every long run of this server uses (created once, shared by all sessions; made
    again if a worker process died, which breaks a process pool for good)."""
    pool = _executor()
    if getattr(pool, "_broken", False):
        _executor.clear()
        pool = _executor()
    return pool


@contextlib.contextmanager
def queued_job(what: str = "run"):
    """Wait in the shared queue (showing the place), then yield the worker pool for the engine's
    ``scheduler=``; the place is always given back, whatever ends the run."""
    queue, ticket = _queue(), object()
    try:
        queue.enter(ticket)
    except QueueFull:
        st.warning(f"The server's queue is full ({queue.max_waiting} runs waiting): please try your "
                   f"{what} again in a minute.")
        st.stop()
    slot, shown, since = st.empty(), None, time.monotonic()
    try:
        while (ahead := queue.try_start(ticket)) > 0:
            # redraw when the place changes (each redraw in a cached run is replayed on every cache hit),
            # and every 2 s anyway: a redraw is where a Stop click or a closed tab ends the wait
            if ahead != shown or time.monotonic() - since > 2:
                runs = "run" if ahead == 1 else "runs"
                slot.info(f"Waiting for a free worker: {ahead} {runs} ahead of yours.")
                shown, since = ahead, time.monotonic()
            time.sleep(0.3)
        if shown is not None:
            slot.empty()
        yield worker_pool()
    finally:
        queue.leave(ticket)


def bar_progress(bar, label: str, unit: str, step: float = 0.05):
    """A ``progress(done, total)`` callback that redraws ``bar`` when it has moved by ``step`` (and at
    the end): inside a cached function every redraw is recorded and replayed on each cache hit, so
    a long run must not leave hundreds of them.  A redraw is also where a Stop click takes effect."""
    shown = [-1.0]

    def report(done: int, total: int) -> None:
        if done / total - shown[0] >= step or done == total:
            shown[0] = done / total
            bar.progress(done / total, text=f"{label}… {done} of {total} {unit}")
    return report
