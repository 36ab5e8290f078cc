"""Which backward passes an optimizer step consumed, by autograd graph-task id.

A backward pass often reaches the parameters of several optimizers (a GAN's generator
loss flows through the discriminator). When one of them steps, the pass is *consumed*:
what it left on the other optimizers' parameters is another optimizer's loss. Clearing
it is neither a discarded window nor a pass of those optimizers' own; stepping it
together with a later pass of their own is the cross-model leak (ZG101).

Graph-task ids come from a process-wide counter, so they are not reused. The table is
bounded: the oldest half is dropped when it is full (the only effect of dropping an id
is that a pass is no longer known to be consumed, which makes the guard more lenient).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import islice

import torch

MAX_TASKS = 4096
NO_TASK = -1

_graph_task_id = getattr(torch._C, "_current_graph_task_id", None)
_consumed: dict[int, None] = {}
consumed_tasks = _consumed  # never replaced: read directly by the hot path's membership check
# The latest backward pass that reached a watched parameter, for steps that saw none.
latest: list[int] = [NO_TASK]


def current_task_function() -> Callable[[], int]:
    """A function returning the running backward pass's graph-task id (``NO_TASK``
    outside one): torch's own where it has one, so the hot path makes no extra call."""
    if _graph_task_id is not None:
        return _graph_task_id  # type: ignore[no-any-return]
    return lambda: NO_TASK


def mark_consumed(task: int) -> None:
    if task == NO_TASK or task in _consumed:
        return
    if len(_consumed) >= MAX_TASKS:
        for old in list(islice(_consumed, MAX_TASKS // 2)):
            del _consumed[old]
    _consumed[task] = None


def mark_latest_consumed() -> None:
    """A step with no observed pass of its own (its hooks came too late, or autograd
    never calls them): assume it consumed the latest backward pass."""
    mark_consumed(latest[0])


def was_consumed(task: int) -> bool:
    return task in _consumed


def forget_all() -> None:
    _consumed.clear()
    latest[0] = NO_TASK
