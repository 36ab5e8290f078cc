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
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

RUN_THRESHOLDS = (50_000, 20, 20)


@contextlib.contextmanager
def raised_thresholds() -> Iterator[None]:
    thresholds = gc.get_threshold()
    gc.set_threshold(*RUN_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)


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
