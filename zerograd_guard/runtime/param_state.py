"""Per-parameter state machine, fed by two autograd hooks and by the step/clear observers.

Between two steps of its optimizer, a parameter's gradient goes through a *window*:
zero or more backward passes accumulate into it, clears may discard them. The window's
*origin* says what the first accumulation landed on:

* ``CLEAN``   — ``None``, a cleared gradient, or a gradient changed since the step
  (zeroed in place, replaced): correct.
* ``STALE``   — the very gradient object the previous step applied, same version:
  a missing clear, unless its values are all zero (``p.grad.data.zero_()`` bumps no
  version). A device-side ``grad.any()`` flag is queued; it is read, batched with the
  other parameters', only when the step is judged.
* ``UNKNOWN`` — no step boundary observed yet (the guard started mid-training).

Only identities, version counters, ``None`` checks and counters are used here: no
host-device synchronisation, no gradient copies.
"""

from __future__ import annotations

import weakref
from typing import Any

import torch
from torch.utils.hooks import unserializable_hook

from zerograd_guard.runtime import consumed
from zerograd_guard.runtime.sites import Mark, _last_backward, backward_site

NONE, CLEAN, STALE, UNKNOWN, CONTINUE = range(5)
_current_task = consumed.current_task_function()  # called once per accumulation
_latest = consumed.latest
_consumed = consumed.consumed_tasks


def grad_version(grad: torch.Tensor) -> int:
    """The version counter; -1 where torch refuses to read it (inference tensors)."""
    try:
        return grad._version
    except RuntimeError:
        return -1


class ParamState:
    """What happened to one parameter's gradient since its optimizer's last step."""

    __slots__ = (
        "__weakref__",
        "accumulations",
        "boundary_grad",
        "boundary_version",
        "clear_site",
        "cleared",
        "discard_later",
        "discard_site",
        "discarded",
        "discarded_clean",
        "finalizer",
        "flag",
        "handles",
        "judged",
        "later_sites",
        "leak_site",
        "leaked",
        "origin",
        "param",
        "pass_task",
        "pass_version",
        "pending",
        "pending_flag",
        "provisional",
        "stepped",
        "touched",
        "unusual",
        "window_site",
    )

    def __init__(self, param: torch.Tensor) -> None:
        self.param: weakref.ref[torch.Tensor] = weakref.ref(param)
        self.handles: list[Any] = []
        self.finalizer: weakref.finalize | None = None  # set by the registry
        self.stepped = False
        self.boundary_grad: weakref.ref[torch.Tensor] | None = None
        self.boundary_version = -1
        self.touched = False
        self.provisional = False
        # Sites are kept as marks (``sites.site_of`` gives their lines).
        self.clear_site: Mark | None = None  # the last clear of this parameter
        self.reset_window()

    def reset_window(self) -> None:
        """Start a new window. The fields below ``unusual`` change only off the correct
        path (a discard, a stale start, a leak) and are reset only when it was set: this
        runs for every parameter at every step."""
        self.judged = False
        self.accumulations = 0
        self.origin = NONE
        self.cleared = False
        self.pending = NONE
        self.window_site: Mark | None = None  # the backward pass that opened the window
        # The last pass of the window: its graph task, and the parameter's version then
        # (read only while ``accumulations`` is non-zero, so never reset).
        self.pass_task = consumed.NO_TASK
        self.pass_version = -1
        self.unusual = True
        self._reset_unusual()

    def _reset_unusual(self) -> None:
        self.unusual = False
        self.discarded = 0
        self.discarded_clean = 0
        self.flag: torch.Tensor | None = None
        self.pending_flag: torch.Tensor | None = None
        self.discard_site: Mark | None = None  # ... of the last window a clear discarded
        self.discard_later: list[Mark] | None = None  # ... and its later backward lines
        # Other backward lines of this window than the one that opened it, in order.
        self.later_sites: list[Mark] | None = None
        # The window holds a pass another optimizer's step consumed, and a later pass.
        self.leaked = False
        self.leak_site: Mark | None = None

    # --- events -------------------------------------------------------------------

    def seen_without_gradient(self) -> None:
        """Its optimizer was built under the guard while ``.grad`` was ``None``.

        Nothing can be stale before the first step, so that step is judged like any
        later one, from a *provisional* boundary: backward passes land on ``CLEAN``
        and a clear that discards them all is seen (ZG102). The heuristics that need a
        real previous step (unobserved optimizer, discarded-window warning) skip it.
        """
        self.stepped = True
        self.provisional = True

    def api_clear(self, deliberate: bool = False, site: Mark | None = None) -> None:
        """A clear ran (``zero_grad``, or ``None`` seen after accumulating): a window ends.

        The cleared passes count as discarded unless something used them first: another
        optimizer's step consumed the last one, the parameter itself changed since then
        (SAM's ``first_step`` perturbs the weights with the gradient, then clears), opacus
        keeps them in ``p.summed_grad``, or the clear is ``zerograd_guard.discard()``.
        """
        accumulations = self.accumulations
        self.cleared = True
        self.judged = False
        if site is not None:
            self.clear_site = site
        if not accumulations:
            return
        self.unusual = True
        if not (deliberate or self._used_before_clear()):
            self.discarded += accumulations
            self.discard_site = self.window_site
            self.discard_later = self.later_sites
            if self.origin in (CLEAN, STALE):
                self.discarded_clean += accumulations
        self.accumulations = 0
        self.origin = NONE
        self.flag = None
        self.leaked = False
        self.leak_site = None
        self.later_sites = None

    def _used_before_clear(self) -> bool:
        if consumed.was_consumed(self.pass_task):
            return True
        param = self.param()
        if param is None:
            return True
        return (
            param._version != self.pass_version or getattr(param, "summed_grad", None) is not None
        )

    def _origin_without_pre_hook(self, grad: torch.Tensor | None) -> int:
        """Classify a window whose first accumulation came without a pre-hook call.

        FSDP2 reduces gradients itself, then assigns the sharded ``.grad`` (when it is
        ``None``) or adds into it in place, and calls only the post-accumulate hooks.
        Adding into the very gradient object the previous step applied, with no clear
        seen since, is a missing clear. Its old values are gone by now (no value check),
        and FSDP2's gradients share version counters across parameters: a hand-written
        in-place clear (``p.grad.zero_()``) cannot be told apart here.
        """
        if grad is None or self.cleared:
            return CLEAN
        if not self.stepped:
            return UNKNOWN
        boundary = self.boundary_grad
        if boundary is not None and boundary() is grad:
            self.unusual = True
            self.pending_flag = _CERTAIN
            return STALE
        return CLEAN

    def untouched_since_step(self, grad: torch.Tensor) -> bool:
        """Same object and version as when the previous step applied it."""
        boundary = self.boundary_grad
        return (
            boundary is not None
            and boundary() is grad
            and grad_version(grad) == self.boundary_version
        )

    @unserializable_hook  # pickling a watched parameter must not warn about the guard
    def before_accumulation(self, incoming: torch.Tensor) -> None:
        """Pre-accumulation hook: classify what the coming accumulation lands on."""
        if self.cleared:  # the correct path: a clear since the step (no pass since)
            self.pending = CLEAN
            self.touched = True
            return
        param = self.param()
        if param is None:
            return
        grad = param.grad
        self.touched = True
        self.judged = False
        if self.accumulations and grad is not None:
            self.pending = CONTINUE
            return
        if self.accumulations:
            # ``p.grad = None`` by hand after a backward pass: a clear like any other.
            self.api_clear()
        if grad is None or self.cleared:
            self.pending = CLEAN
        elif not self.stepped:
            self.pending = UNKNOWN
        elif self.untouched_since_step(grad):
            self.pending = STALE
            self.unusual = True
            self.pending_flag = any_nonzero(grad)
        else:
            self.pending = CLEAN

    @unserializable_hook
    def after_accumulation(self, param: torch.Tensor) -> None:
        """Post-accumulation hook: the backward pass really landed in ``.grad``."""
        self.touched = True
        self.judged = False
        pending = self.pending
        self.pending = NONE
        task = _current_task()
        if not self.accumulations:
            _latest[0] = task
            if pending == CLEAN:  # the correct path: a clear since the step
                self.origin = CLEAN
            else:
                if pending == NONE:
                    pending = self._origin_without_pre_hook(param.grad)
                self.origin = UNKNOWN if pending in (NONE, CONTINUE) else pending
                if pending == STALE:
                    self.flag = self.pending_flag
                    self.pending_flag = None
            self.window_site = (
                _last_backward[1] if task == _last_backward[0] != -1 else backward_site(task)
            )
            self.cleared = False
            self.accumulations = 1
            self.pass_task = task
            self.pass_version = param._version
            return
        if task != self.pass_task:  # a later backward pass of this window
            if consumed.was_consumed(self.pass_task):
                self.unusual = True
                self.leaked = True  # the earlier pass was another optimizer's: it stepped it
                if self.leak_site is None:
                    self.leak_site = backward_site(task)
            site = _last_backward[1] if task == _last_backward[0] != -1 else backward_site(task)
            if site is not None and site != self.window_site:
                later = self.later_sites
                if later is None:
                    self.unusual = True
                    self.later_sites = [site]  # type: ignore[list-item]
                elif site not in later:
                    later.append(site)  # type: ignore[arg-type]
        self.accumulations += 1
        self.pass_task = task
        self.pass_version = param._version


def close_windows(entries: list[tuple[torch.Tensor, ParamState]], consume: bool = True) -> bool:
    """The optimizer applied (or, on a GradScaler inf-skip, skipped) these gradients:
    record each one's object and version and start a new window.

    Returns whether some parameter had a backward pass in the window; with ``consume``,
    the windows' last passes are marked consumed (``consumed``). One loop for the whole
    step, inlined: it runs for every parameter at every step.
    """
    observed = False
    last_task = consumed.NO_TASK
    for param, state in entries:
        if state.accumulations:
            observed = True
            task = state.pass_task
            if task != last_task:  # usually one backward pass for all the parameters
                last_task = task
                if consume and task not in _consumed:
                    consumed.mark_consumed(task)
        elif not state.handles and param.requires_grad:  # unfrozen since first seen
            install_hooks(state, param)
        grad = param.grad
        if grad is None:
            state.boundary_grad = None
            state.boundary_version = -1
        else:
            # A gradient's weak reference is made once: ``weakref.ref`` returns the one
            # it already has (a gradient kept across steps), else a new one.
            state.boundary_grad = _weak(grad)
            try:
                state.boundary_version = grad._version
            except RuntimeError:  # an inference tensor (see grad_version)
                state.boundary_version = -1
        state.stepped = True
        state.provisional = False
        state.judged = False
        state.accumulations = 0
        state.origin = NONE
        state.cleared = False
        state.pending = NONE
        state.window_site = None
        if state.unusual:
            state._reset_unusual()
    return observed


_weak = weakref.ref
_CERTAIN = torch.ones((), dtype=torch.bool)  # a host flag: reading it syncs nothing


def any_nonzero(grad: torch.Tensor) -> torch.Tensor | None:
    """A 0-dim device flag, no sync and no gradient-sized temporary (None if unsupported)."""
    try:
        if grad.is_sparse:
            return torch.any(grad.coalesce().values())
        return torch.any(grad)
    except RuntimeError:
        return None


def install_hooks(state: ParamState, param: torch.Tensor) -> None:
    """Register the two autograd hooks: the state's own methods (it holds the parameter
    weakly), so each hook is one Python call.

    They are moved ahead of hooks registered earlier: with an optimizer step inside a
    post-accumulate hook (PyTorch's optimizer-in-backward recipe) whose optimizers exist
    before the guard, the guard must see the accumulation before that step does.
    """
    pre = param.register_hook(state.before_accumulation)
    post = param.register_post_accumulate_grad_hook(state.after_accumulation)
    state.handles += [pre, post]
    for hooks, handle in ((param._backward_hooks, pre), (param._post_accumulate_grad_hooks, post)):
        if hooks is not None and len(hooks) > 1:
            _move_to_front(hooks, handle.id)


def _move_to_front(hooks: dict[int, Any], key: int) -> None:
    """Re-insert the others after ``key``: autograd walks the dictionary's storage
    (``PyDict_Next``), which ``OrderedDict.move_to_end`` does not reorder."""
    for other in [k for k in hooks if k != key]:
        hooks[other] = hooks.pop(other)


def remove_hooks(state: ParamState) -> None:
    for handle in state.handles:
        handle.remove()
    state.handles.clear()
