"""Run independent experiments: in this process, on local cores (joblib), or on a Dask cluster.

Every task carries its own seed, so results do not depend on where or in which order the tasks
run: the same sweep gives identical tables on one core, on two, or on a ``dask.distributed``
cluster.  ``progress(done, total)`` is called after each finished task; a callback that raises
(e.g. a "Stop" button in the app) cancels the tasks not yet started.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

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
    scheduler : str or dask.distributed.Client, optional
        Address of an existing Dask scheduler (``"tcp://host:8786"``) or a connected client; the
        tasks then run on that cluster and ``n_jobs`` is ignored.
    progress : callable, optional
        ``progress(done, total)`` after each task.
    """
    tasks = list(tasks)
    total = len(tasks)
    results = [None] * total
    report = progress or (lambda done, total: None)
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
