"""A guard error's failure report in the traceback style the user asked for (``--tb``).

The error is raised inside torch's ``optimizer.step()`` by the guard's step hook: the
frames below the user's last frame (torch's, the guard's own) say nothing. The
traceback is cut after the last frame outside them, so every style shows the chain
from the test down to the user's (or a library's) ``optimizer.step()`` line, then the
guard's message. ``--tb=auto`` (pytest's default) shows that chain in the short style;
``--fulltrace`` keeps every frame.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

import zerograd_guard


def guard_failure_repr(item: pytest.Item, excinfo: pytest.ExceptionInfo[BaseException]) -> Any:
    """The report's ``longrepr`` for a guard error, in ``--tb``'s style."""
    config = item.config
    if config.getoption("fulltrace", False):
        return item.repr_failure(excinfo)
    style = config.getoption("tbstyle", "auto")
    pytest_filter = getattr(item, "_traceback_filter", None)  # cuts above the test function

    def shown_frames(info: pytest.ExceptionInfo[BaseException]) -> Any:
        frames = pytest_filter(info) if pytest_filter is not None else info.traceback
        return _up_to_the_step(frames.filter(info))

    # Native and line styles read the traceback itself: the frames shown, from the test
    # function down to the step (the crash line is then the user's step line).
    excinfo.traceback = shown_frames(excinfo)
    if style in ("native", "line"):
        return item.repr_failure(excinfo)
    return excinfo.getrepr(
        funcargs=True,
        showlocals=config.getoption("showlocals", False),
        style="short" if style == "auto" else style,
        tbfilter=shown_frames,
        truncate_locals=config.get_verbosity() <= 1,
    )


def _internal_roots() -> tuple[str, ...]:
    import torch

    return tuple(
        os.path.dirname(os.path.abspath(module.__file__)) + os.sep
        for module in (torch, zerograd_guard)
        if module.__file__
    )


def _up_to_the_step(traceback: Any) -> Any:
    """The traceback without its trailing torch / zerograd-guard frames."""
    roots = _internal_roots()
    entries = list(traceback)
    while len(entries) > 1 and os.path.abspath(str(entries[-1].path)).startswith(roots):
        entries.pop()
    return type(traceback)(entries)
