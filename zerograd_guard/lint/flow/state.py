"""The abstract state of one path: what each optimizer's gradients hold, and the branch
conditions this path has assumed.

A status says what one optimizer's gradients hold; its ``kind`` (a ``StatusKind``) is
what the rules read. Each kind is its own small named tuple (the kind is its last field,
so statuses of different kinds never compare equal):

* ``Entry`` unknown at function entry (what the caller left; for a loop, only its first
  iteration sees it);
* ``Unknown`` unknown after an unknown call that was handed the optimizer;
* ``Cleared`` cleared, nothing accumulated since;
* ``Fresh`` fresh gradients from the backward events in ``backwards``;
* ``Carried`` fresh gradients carried over the back edge of ``loop`` on a path that
  skipped the step (an accumulation window or a micro-batch loop);
* ``Discarded`` fresh gradients discarded by ``clear`` before any step saw them;
  ``carried`` / ``loop`` are set when they were carried over ``loop``; ``clears`` holds
  every clear since;
* ``Refilled`` fresh gradients after such a discard: when the latest ``backward`` is one
  of those ``carried`` at the step, the clear broke the accumulation of that very
  backward;
* ``Stale`` applied by ``step`` and not cleared since;
* ``StaleFresh`` stale gradients of ``step`` plus what ``backward`` added; ``backward`` is
  the first since the last step of any optimizer (``reset``: another optimizer stepped
  since, so the next backward is the one that feeds this optimizer); ``skipped`` /
  ``guards`` / ``enclosing``: what proves a leak (see ``pairing``);
* ``Foreign`` gradients that ``backwards`` wrote into this optimizer's parameters through
  another model's loss (a generator's loss through the discriminator), after that other
  optimizer applied them at ``consumer``: this optimizer's own backward comes next;
* ``ForeignFresh`` such gradients plus this optimizer's own fresh ones: its step applies
  both (the cross-model leak).

A ``State`` is ``(default, entries, assumptions)``: ``entries`` is a sorted tuple of
``(optimizer key, status)``; ``default`` is the status of every optimizer not listed
(unknown ones); ``assumptions`` a frozenset of ``(frame tag, Atom, value)``.

Statuses are built often on hot paths: build them with their constructor, not
``_replace`` (which costs several times more).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from zerograd_guard.lint.model.status_kind import StatusKind

if TYPE_CHECKING:
    from zerograd_guard.lint.model.events import Atom, Event, Loop


class Entry(NamedTuple):
    kind: StatusKind = StatusKind.ENTRY


class Unknown(NamedTuple):
    kind: StatusKind = StatusKind.UNKNOWN


class Cleared(NamedTuple):
    kind: StatusKind = StatusKind.CLEARED


class Fresh(NamedTuple):
    backwards: frozenset[Event]
    kind: StatusKind = StatusKind.FRESH


class Carried(NamedTuple):
    loop: Loop
    backwards: frozenset[Event]
    kind: StatusKind = StatusKind.CARRIED


class Discarded(NamedTuple):
    clear: Event
    carried: frozenset[Event] | None
    loop: Loop | None
    clears: frozenset[Event]
    kind: StatusKind = StatusKind.DISCARDED


class Refilled(NamedTuple):
    backward: Event
    clear: Event
    carried: frozenset[Event]
    loop: Loop
    kind: StatusKind = StatusKind.REFILLED


class Stale(NamedTuple):
    step: Event
    skipped: frozenset[Atom | None]
    guards: frozenset[Atom | None]
    enclosing: frozenset[Atom | None] = frozenset()
    kind: StatusKind = StatusKind.STALE


class StaleFresh(NamedTuple):
    backward: Event
    step: Event
    reset: bool
    skipped: frozenset[Atom | None]
    guards: frozenset[Atom | None]
    enclosing: frozenset[Atom | None] = frozenset()
    kind: StatusKind = StatusKind.STALE_FRESH


class Foreign(NamedTuple):
    backwards: frozenset[Event]
    consumer: Event
    kind: StatusKind = StatusKind.FOREIGN


class ForeignFresh(NamedTuple):
    backwards: frozenset[Event]
    consumer: Event
    kind: StatusKind = StatusKind.FOREIGN_FRESH


Status = (
    Entry
    | Unknown
    | Cleared
    | Fresh
    | Carried
    | Discarded
    | Refilled
    | Stale
    | StaleFresh
    | Foreign
    | ForeignFresh
)
Entries = tuple[tuple[str, Status], ...]
Assumption = tuple[int, "Atom", bool]


class State(NamedTuple):
    default: Status
    entries: Entries
    assumptions: frozenset[Any]


UNKNOWN: Status = Unknown()
ENTRY: Status = Entry()
CLEARED: Status = Cleared()


def initial() -> State:
    return State(ENTRY, (), frozenset())


def status(state: State, key: str) -> Status:
    for entry, value in state.entries:
        if entry == key:
            return value
    return state.default


def sorted_entries(entries: dict[str, Status]) -> Entries:
    """Entries in key order (keys are unique, so plain tuple order is key order)."""
    return tuple(sorted(entries.items()))


def map_statuses(state: State, change: Callable[[Status], Status]) -> State:
    """``state`` with ``change`` applied to every status (the keys, and so their order,
    stay as they are)."""
    return State(
        change(state.default),
        tuple((key, change(value)) for key, value in state.entries),
        state.assumptions,
    )


def with_entries(state: State, entries: dict[str, Status], default: Status | None = None) -> State:
    """``state`` with ``entries`` (a dict made from ``state.entries``, values changed and
    keys perhaps added): with no key added the dict still holds them in key order."""
    return State(
        state.default if default is None else default,
        tuple(entries.items()) if len(entries) == len(state.entries) else sorted_entries(entries),
        state.assumptions,
    )


def materialize(state: State, keys: set[str]) -> State:
    """List ``keys`` explicitly so a later change of the default does not reach them."""
    entries = dict(state.entries)
    missing = [key for key in keys if key not in entries]
    if not missing:
        return state
    for key in missing:
        entries[key] = state.default
    return with_entries(state, entries)


# What a wrapper holds under its own name, with the same parameters (DataParallel's and
# DDP's ``model.module``, ``torch.compile``'s ``model._orig_mod``).
WRAPPED = frozenset({"module", "_orig_mod"})


def contains(module: str, other: str) -> bool:
    """Whether clearing ``module`` clears all of ``other``'s parameters: ``related``,
    but not a submodule of ``other`` (``model.generator`` of ``model``), unless it is
    what a wrapper holds (``model.module``)."""
    if module.startswith(other + "."):
        return module[len(other) + 1 :] in WRAPPED
    return related(module, other)


def submodule(module: str) -> bool:
    """Whether ``module`` names an attribute of another module (``model.generator``, not
    ``self.model`` nor what a wrapper holds, ``model.module``): clearing it may clear
    only part of what an optimizer over the whole model steps."""
    name = module[5:] if module.startswith("self.") else module
    head, dot, last = name.rpartition(".")
    return bool(dot) and bool(head) and "[" not in name and last not in WRAPPED


def related(module: str, other: str) -> bool:
    """``model`` / ``self.model`` / ``model.module`` are the same module for clearing."""
    if module == other or module.startswith(other + ".") or other.startswith(module + "."):
        return True
    return module.rsplit(".", 1)[-1] == other.rsplit(".", 1)[-1]
