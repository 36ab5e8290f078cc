"""The optimizers and parameters the monitor watches, and their weak-reference lifetimes.

State is keyed by ``id()`` but validated through weak references, so the guard keeps
no optimizer, model or gradient alive. Each entry carries its own ``weakref.finalize``:
when the object dies the entry is dropped and nothing of it stays behind (no list of
dead finalizers). Registry changes take a lock; lookups do not (dict reads are atomic
under the GIL).
"""

from __future__ import annotations

import contextlib
import threading
import weakref
from collections.abc import Iterator
from typing import Any

import torch

from zerograd_guard.runtime.param_state import ParamState, install_hooks, remove_hooks

Entry = tuple[torch.Tensor, ParamState]


class ContractWindows:
    """Which windows an ``accumulate(k)`` contract accepts for one optimizer.

    A window of exactly ``k`` passes is full. A shorter one is accepted when the window
    before it was full: the last window of an epoch,
    which Lightning and timm step on purpose. A short first window (the classic
    ``if i % k == 0`` off-by-one) and two short windows in a row are violations.
    """

    __slots__ = ("full_seen", "short_open")

    def __init__(self) -> None:
        self.full_seen = False
        self.short_open = False

    @property
    def short_allowed(self) -> bool:
        return self.full_seen and not self.short_open

    def full(self) -> None:
        self.full_seen = True
        self.short_open = False

    def seen(self, passes: int, contract: int) -> None:
        if passes >= contract:
            self.full()
        else:
            self.short_open = True


class OptimizerTracker:
    """One optimizer seen by the monitor (held weakly).

    ``entries`` caches the optimizer's (parameter, state) pairs; it is rebuilt when the
    param groups change (``add_param_group``, groups replaced). Holding the parameters
    here keeps nothing alive that the optimizer does not already hold: the tracker is
    dropped when the optimizer dies.
    """

    __slots__ = (
        "counted_in_step",
        "entries",
        "finalizer",
        "group_count",
        "groups",
        "label",
        "largest_window",
        "ref",
        "steps",
        "unjudged_closure",
        "warned",
        "windows",
    )

    def __init__(self, optimizer: torch.optim.Optimizer, label: str) -> None:
        self.ref = weakref.ref(optimizer)
        self.entries: list[Entry] = []
        self.groups: list[dict[str, Any]] | None = None
        self.group_count = 0
        # A closure was passed to the running step and has not been called yet.
        self.unjudged_closure = False
        # A closure evaluation of the running step was counted (LBFGS runs it many times).
        self.counted_in_step = False
        self.label = label
        self.steps = 0
        self.largest_window = 0  # most backward passes one of its steps consumed
        self.warned: set[str] = set()  # warning codes already given: once per optimizer
        self.finalizer: weakref.finalize | None = None
        self.windows = ContractWindows()


class Registry:
    """Trackers of the optimizers seen and states of their parameters."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self.states: dict[int, ParamState] = {}
        self.trackers: dict[int, OptimizerTracker] = {}
        self._optimizers_seen = 0

    # --- optimizers -------------------------------------------------------------------

    def known_tracker(self, optimizer: torch.optim.Optimizer) -> OptimizerTracker | None:
        tracker = self.trackers.get(id(optimizer))
        if tracker is not None and tracker.ref() is optimizer:
            return tracker
        return None

    def new_tracker(self, optimizer: torch.optim.Optimizer) -> OptimizerTracker:
        with self._lock:
            self._optimizers_seen += 1
            label = f"{type(optimizer).__name__} #{self._optimizers_seen}"
            tracker = OptimizerTracker(optimizer, label)
            key = id(optimizer)
            self.trackers[key] = tracker
            tracker.finalizer = weakref.finalize(optimizer, _forget, self.trackers, key, tracker)
            return tracker

    def entries(self, optimizer: torch.optim.Optimizer, tracker: OptimizerTracker) -> list[Entry]:
        groups = optimizer.param_groups
        # add_param_group appends; load_state_dict and user code replace the list.
        if groups is not tracker.groups or len(groups) != tracker.group_count:
            tracker.entries = [
                (param, self.state_for(param)) for group in groups for param in group["params"]
            ]
            tracker.groups = groups
            tracker.group_count = len(groups)
        return tracker.entries

    # --- parameters -------------------------------------------------------------------

    def known_state(self, param: torch.Tensor) -> ParamState | None:
        state = self.states.get(id(param))
        if state is not None and state.param() is param:
            return state
        return None

    def state_for(self, param: torch.Tensor) -> ParamState:
        state = self.known_state(param)
        return state if state is not None else self.new_state(param)

    def new_state(self, param: torch.Tensor) -> ParamState:
        with self._lock:
            state = ParamState(param)
            key = id(param)
            self.states[key] = state
            state.finalizer = weakref.finalize(param, _forget, self.states, key, state)
            if param.requires_grad:
                install_hooks(state, param)
            return state

    # --- lifetime ---------------------------------------------------------------------

    @contextlib.contextmanager
    def weak_references_released(self, tensors: tuple[torch.Tensor, ...]) -> Iterator[None]:
        """Drop the registry's weak references to ``tensors`` (parameters or gradients)
        while the block runs, then take them again: ``torch.utils.swap_tensors`` refuses
        tensors that have any, and keeps the Python objects' identity (not their autograd
        hooks: those are installed again)."""
        watched = [t for t in tensors if isinstance(t, torch.Tensor) and weakref.getweakrefs(t)]
        if not watched:
            yield
            return
        with self._lock:
            params = [(t, self.known_state(t)) for t in watched]
            params = [(t, state) for t, state in params if state is not None]
            grads = [
                (t, state)
                for t in watched
                for state in self.states.values()
                if state.boundary_grad is not None and state.boundary_grad() is t
            ]
            for _, state in params:
                if state.finalizer is not None:
                    state.finalizer.detach()
                state.param = _released
            for _, state in grads:
                state.boundary_grad = None
            try:
                yield
            finally:
                for param, state in params:
                    state.param = weakref.ref(param)
                    _relink_hooks(state, param)
                    key = id(param)
                    state.finalizer = weakref.finalize(param, _forget, self.states, key, state)
                for grad, state in grads:
                    state.boundary_grad = weakref.ref(grad)

    def clear(self) -> None:
        """Forget everything: detach every finalizer, remove every hook."""
        with self._lock:
            for tracker in self.trackers.values():
                if tracker.finalizer is not None:
                    tracker.finalizer.detach()
            for state in self.states.values():
                if state.finalizer is not None:
                    state.finalizer.detach()
                remove_hooks(state)
            self.states.clear()
            self.trackers.clear()
            self._optimizers_seen = 0


def _relink_hooks(state: ParamState, param: torch.Tensor) -> None:
    """After a swap the hook dictionaries stay on the Python object but autograd's link
    to them went with the old tensor. Re-link them when they hold only the guard's
    hooks (a user's hooks stay as a swap without the guard leaves them: dead)."""
    remove_hooks(state)
    if not param.requires_grad:
        return
    if param._backward_hooks or getattr(param, "_post_accumulate_grad_hooks", None):
        return
    param._backward_hooks = None
    param._post_accumulate_grad_hooks = None
    install_hooks(state, param)


def _released() -> None:
    """Stands in for a state's parameter reference during a swap."""
    return None


def _forget(table: dict[int, Any], key: int, entry: object) -> None:
    """Finalizer callback: drop the entry unless the id was reused by a newer one."""
    if table.get(key) is entry:
        del table[key]
