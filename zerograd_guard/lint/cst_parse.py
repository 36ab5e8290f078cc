"""libcst's parser without its per-node validation.

libcst's native parser builds the tree by calling each node class's constructor, and
every constructor validates its node (``CSTNode.__post_init__`` calls ``_validate``:
parentheses balanced, whitespace where the grammar needs it, ...). On a tree the parser
has just built from valid source those checks cannot fail; they are there for trees
built by hand. libcst says so itself (``PERF: It might make more sense to move
validation work into the visitor, which would allow us to avoid validating the tree
when parsing a file``). They cost about 13% of a parse, the largest share of the
linter's time on files with training loops, so the linter parses with them switched
off. Only the parse runs unvalidated: nodes built afterwards (``--fix``) are validated
as usual. ``tests/lint/test_cst_parse.py`` checks that the trees are equal to the
validated parse's on every file of the test corpus.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import libcst as cst
from libcst._nodes.base import CSTNode

_VALIDATE = CSTNode.__post_init__
_lock = threading.Lock()
_parsing = 0  # parses in flight in this process (threads): validation is off while > 0


def _no_validation(self: CSTNode) -> None:
    """Stands in for ``CSTNode.__post_init__`` while the parser builds a tree."""


@contextmanager
def _unvalidated() -> Iterator[None]:
    global _parsing
    with _lock:
        if _parsing == 0:
            CSTNode.__post_init__ = _no_validation  # type: ignore[method-assign]
        _parsing += 1
    try:
        yield
    finally:
        with _lock:
            _parsing -= 1
            if _parsing == 0:
                CSTNode.__post_init__ = _VALIDATE  # type: ignore[method-assign]


def parse_module(source: str) -> cst.Module:
    """``libcst.parse_module(source)``, without validating the nodes it builds."""
    with _unvalidated():
        return cst.parse_module(source)
