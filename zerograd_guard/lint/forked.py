"""Work split over forked workers that inherit this process's state.

For passes over thousands of files whose inputs are already in memory here (the run's
tasks, the index entries of the last run): a forked worker inherits them, so only index
ranges go out and only results come back. Where processes are not forked (the spawn
platforms), the work runs here.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

T = TypeVar("T")

# Below this many items the work runs here: forking workers and sending results back
# costs more than doing it (a file's index entry or pre-filter answer: about 1 ms).
MIN_ITEMS = 1_000

_work: Callable[[int], Any] | None = None  # what the forked workers run


def can_fork() -> bool:
    """Whether workers here are forked (they inherit what this process holds), asked
    without fixing the process's start method."""
    method = multiprocessing.get_start_method(allow_none=True)
    return (method or multiprocessing.get_all_start_methods()[0]) == "fork"


def _run_range(start: int, stop: int) -> list[Any]:
    assert _work is not None  # set before the workers were forked
    return [_work(index) for index in range(start, stop)]


def map_forked(work: Callable[[int], T], count: int, jobs: int) -> list[T]:
    """``[work(i) for i in range(count)]``, in order, computed by ``jobs`` forked workers
    in small ranges (one slow range must not leave the others idle) when there are at
    least ``MIN_ITEMS``. ``work`` must not raise; a worker that dies (a signal, the OOM
    killer) leaves the work to this process."""
    global _work
    if jobs <= 1 or count < max(2, MIN_ITEMS) or not can_fork():
        return [work(index) for index in range(count)]
    size = max(1, count // (jobs * 8))
    _work = work
    try:
        with ProcessPoolExecutor(
            max_workers=jobs, mp_context=multiprocessing.get_context("fork")
        ) as pool:
            futures = [
                pool.submit(_run_range, start, min(start + size, count))
                for start in range(0, count, size)
            ]
            return [result for future in futures for result in future.result()]
    except BrokenProcessPool:
        return [work(index) for index in range(count)]
    finally:
        _work = None
