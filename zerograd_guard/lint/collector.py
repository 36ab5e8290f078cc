"""The cyclic garbage collector while the linter runs.

A libcst parse allocates millions of objects that all live until the file is done, so
the default first threshold (700) runs a collection every few hundred nodes, each
traversing the growing tree: ~15% of the analysis of a large file. The trees hold few
cycles; a higher threshold only delays collecting them. And the project index, alive for
the whole run, is millions of small objects that every full collection traversed: the
``ast`` and libcst parses of project mode were twice as slow as the same parses in
per-file mode until it was frozen out of the collector's scans (``gc.freeze``; forked
workers inherit both settings). Both are undone afterwards, so a process that lints again
(a test session, an editor's server) gets its collector back as it was.
``analyze_source`` raises the thresholds too, so every entry point (the language server,
the Python API, the benchmarks) analyses under the collector settings of a CLI run.
"""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Iterator

RUN_THRESHOLDS = (50_000, 20, 20)


_lock = threading.Lock()
_raised = 0  # runs in flight in this process (threads, nesting) under RUN_THRESHOLDS
_saved: tuple[int, ...] = ()  # the thresholds before the first of them


@contextlib.contextmanager
def raised_thresholds() -> Iterator[None]:
    """``RUN_THRESHOLDS`` while any run in this process (any thread, nested or not) is in
    flight; the first one in saves the thresholds, the last one out puts them back."""
    global _raised, _saved
    with _lock:
        if _raised == 0:
            _saved = gc.get_threshold()
            gc.set_threshold(*RUN_THRESHOLDS)
        _raised += 1
    try:
        yield
    finally:
        with _lock:
            _raised -= 1
            if _raised == 0:
                gc.set_threshold(*_saved)


@contextlib.contextmanager
def frozen_heap() -> Iterator[None]:
    """The objects alive now are left out of the collector's scans while it lasts. A host
    process that froze objects itself keeps its own freeze: ``gc.unfreeze`` would hand
    back its objects too, so nothing is frozen here then."""
    if gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
