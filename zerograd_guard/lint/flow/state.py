"""The abstract state of one path: what each optimizer's gradients hold, and the branch
conditions this path has assumed.

A status is a small tuple:

* ``("E",)`` unknown at function entry (what the caller left; for a loop, only its first
  iteration sees it);
* ``("U",)`` unknown after an unknown call that was handed the optimizer;
* ``("C",)`` cleared, nothing accumulated since;
* ``("F", backwards)`` fresh gradients from the backward events in ``backwards``;
* ``("FC", loop, backwards)`` fresh gradients carried over the back edge of ``loop`` on a
  path that skipped the step (an accumulation window or a micro-batch loop);
* ``("D", clear, discarded, loop, clears)`` fresh gradients discarded by ``clear`` before
  any step saw them; ``discarded`` / ``loop`` are set when they were carried over
  ``loop``; ``clears`` holds every clear since;
* ``("FW", backward, clear, discarded, loop)`` fresh gradients after such a discard: when
  the latest ``backward`` is one of those ``discarded`` at the step, the clear broke the
  accumulation of that very backward;
* ``("S", step, skipped, guards)`` applied by ``step`` and not cleared since (stale);
* ``("SF", backward, step, reset, skipped, guards)`` stale gradients of ``step`` plus what
  ``backward`` added; ``backward`` is the first since the last step of any optimizer
  (``reset``: another optimizer stepped since, so the next backward is the one that feeds
  this optimizer); ``skipped`` / ``guards``: what proves a leak (see ``pairing``).

A state is ``(default, entries, assumptions)``: ``entries`` is a sorted tuple of
``(optimizer key, status)``; ``default`` is the status of every optimizer not listed
(unknown ones); ``assumptions`` a frozenset of ``(frame tag, Atom, value)``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Status = tuple[Any, ...]
State = tuple[Status, tuple[tuple[str, Status], ...], frozenset[tuple[Any, Any, bool]]]

UNKNOWN: Status = ("U",)
ENTRY: Status = ("E",)
CLEARED: Status = ("C",)


def initial() -> State:
    return (ENTRY, (), frozenset())


def status(state: State, key: str) -> Status:
    for entry, value in state[1]:
        if entry == key:
            return value
    return state[0]


def sorted_entries(entries: dict[str, Status]) -> tuple[tuple[str, Status], ...]:
    """Entries in key order (keys are unique, so plain tuple order is key order)."""
    return tuple(sorted(entries.items()))


def map_statuses(state: State, change: Callable[[Status], Status]) -> State:
    """``state`` with ``change`` applied to every status (the keys, and so their order,
    stay as they are)."""
    return (change(state[0]), tuple((key, change(value)) for key, value in state[1]), state[2])


def with_entries(state: State, entries: dict[str, Status], default: Status | None = None) -> State:
    return (
        state[0] if default is None else default,
        sorted_entries(entries),
        state[2],
    )


def materialize(state: State, keys: set[str]) -> State:
    """List ``keys`` explicitly so a later change of the default does not reach them."""
    entries = dict(state[1])
    missing = [key for key in keys if key not in entries]
    if not missing:
        return state
    for key in missing:
        entries[key] = state[0]
    return with_entries(state, entries)


def related(module: str, other: str) -> bool:
    """``model`` / ``self.model`` / ``model.module`` are the same module for clearing."""
    if module == other or module.startswith(other + ".") or other.startswith(module + "."):
        return True
    return module.rsplit(".", 1)[-1] == other.rsplit(".", 1)[-1]
