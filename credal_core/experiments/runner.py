"""Run independent experiments: here, on local cores (joblib), in a process pool, or on a Dask cluster.

Every task carries its own seed, so results do not depend on where or in which order the tasks
run: the same sweep gives identical tables on one core, on two, or on a ``dask.distributed``
cluster.  ``progress(done, total)`` is called after each finished task; a callback that raises
(e.g. a "Stop" button in the app) cancels the tasks not yet started.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, wait

__all__ = ["run_tasks"]


def _indexed(fn, item):
    index, task = item
    return index, fn(task)


def run_tasks(fn: Callable, tasks: Sequence, *, n_jobs: int | None = 1, scheduler=None,
              progress: Callable[[int, int], None] | None = None) -> list:
    """``[fn(task) for task in tasks]``, possibly in parallel; results in task order.

    Parameters
    ----------
    fn : callable
        A module-level function (picklable) of one task.
    tasks : sequence
    n_jobs : int or None, default=1
        Local worker processes (joblib's loky backend); 1 runs in this process, -1 uses every core.
    scheduler : str, dask.distributed.Client or concurrent.futures.Executor, optional
        Address of an existing Dask scheduler (``"tcp://host:8786"``), a connected client, or a
        (process-pool) executor shared by several callers, e.g. the app's worker processes; the
        tasks then run there and ``n_jobs`` is ignored.
    progress : callable, optional
        ``progress(done, total)`` after each task.
    """
    tasks = list(tasks)
    total = len(tasks)
    results = [None] * total
    report = progress or (lambda done, total: None)
    if isinstance(scheduler, Executor):
        return _run_executor(fn, tasks, scheduler, report)
    if scheduler is not None:
        return _run_dask(fn, tasks, scheduler, report)
    if n_jobs == 1 or total <= 1:
        for i, task in enumerate(tasks):
            results[i] = fn(task)
            report(i + 1, total)
        return results
    from joblib import Parallel, delayed

    parallel = Parallel(n_jobs=n_jobs, return_as="generator_unordered")
    for done, (i, value) in enumerate(parallel(delayed(_indexed)(fn, item) for item in enumerate(tasks)), 1):
        results[i] = value
        report(done, total)
    return results


def _run_dask(fn, tasks, scheduler, report):
    from dask.distributed import Client, as_completed

    # a wrong address fails after 10 s (OSError / TimeoutError) instead of Dask's default 30 s
    client = scheduler if isinstance(scheduler, Client) else Client(scheduler, timeout="10s")
    try:
        futures = client.map(fn, tasks, pure=False)
        position = {f.key: i for i, f in enumerate(futures)}
        results = [None] * len(tasks)
        try:
            for done, future in enumerate(as_completed(futures), 1):
                results[position[future.key]] = future.result()
                report(done, len(tasks))
        except BaseException:
            client.cancel(futures)
            raise
        return results
    finally:
        if client is not scheduler:
            client.close()


def _run_executor(fn, tasks, executor: Executor, report):
    """Submit every task, collect in completion order; on any exception (a Stop click, a closed
    session) cancel the tasks not started yet, so an abandoned run leaves at most the tasks
    already running (one per worker) to finish."""
    futures = {executor.submit(fn, task): i for i, task in enumerate(tasks)}
    results = [None] * len(tasks)
    pending = set(futures)
    try:
        done_count = 0
        while pending:
            # a short timeout keeps the caller's progress callback (and its stop checks) alive
            done, pending = wait(pending, timeout=0.25, return_when=FIRST_COMPLETED)
            for future in done:
                results[futures[future]] = future.result()
                done_count += 1
            report(done_count, len(tasks))
    except BaseException:
        for future in pending:
            future.cancel()
        raise
    return results
