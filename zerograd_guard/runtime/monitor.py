"""The process-wide monitor: installs hooks while at least one guard session is active.

Hooks installed (all removed when the last session exits):

* global optimizer step pre/post hooks — judge at the step, record the boundary after;
* per parameter, lazily for parameters of optimizers seen (built under the guard, or
  at their first ``zero_grad`` or ``step``): ``register_hook`` (before accumulation) and
  ``register_post_accumulate_grad_hook`` (after);
* the wrappers in ``patches``.

What is watched, and for how long, lives in ``registry``: the monitor routes events.
Autograd may call the parameter hooks from device threads: they only touch their own
parameter's state, which is safe under the GIL.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import warnings
import weakref
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import torch
from torch.optim.optimizer import (
    register_optimizer_step_post_hook,
    register_optimizer_step_pre_hook,
)

from zerograd_guard.runtime import codes, consumed
from zerograd_guard.runtime.in_flight import StepsInFlight
from zerograd_guard.runtime.naming import parameter_names
from zerograd_guard.runtime.param_state import close_windows
from zerograd_guard.runtime.patches import Patches
from zerograd_guard.runtime.registry import Entry, OptimizerTracker, Registry
from zerograd_guard.runtime.report import (
    Finding,
    GradientGuardError,
    GradientGuardWarning,
    StepEvent,
)
from zerograd_guard.runtime.sessions import SessionStacks
from zerograd_guard.runtime.sites import (
    Mark,
    Site,
    _last_backward,
    capture_mark,
    internal_by_id,
    sites_of,
)
from zerograd_guard.runtime.verdict import (
    Judgement,
    StepContext,
    clean_step,
    judge_step,
)

if TYPE_CHECKING:
    from zerograd_guard.runtime.guard import Guard

_get_ident = threading.get_ident
_getframe = sys._getframe
_internal_by_id = internal_by_id

# Extension point for the engines/multi-process layer (``zerograd-guard run``, findings
# shipped from worker processes): ``MONITOR.listeners`` callables receive every finding
# and whether it is a violation, after the active sessions recorded it and before the
# error is raised.
FindingListener = Callable[[Finding, bool], None]


class Monitor:
    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._stacks = SessionStacks()
        # The same dictionary as ``_stacks``' (never rebound): the hot paths read the
        # calling thread's sessions from it directly (``_stacks.current()`` otherwise).
        self._by_thread = self._stacks.by_thread
        self.registry = Registry()
        self._handles: list[Any] = []
        self._patches = Patches(self)
        self._in_flight = StepsInFlight()
        self._deliberate_clears = 0  # > 0 while zerograd_guard.discard() clears
        self._contracts = False  # some session declares accumulate(...)
        self.listeners: list[FindingListener] = []

    # --- sessions -------------------------------------------------------------------

    @property
    def active(self) -> bool:
        """Some guard session is active, in any thread (the hooks are installed)."""
        return bool(self._stacks)

    @property
    def _sessions(self) -> list[Guard]:
        """The sessions that apply to the calling thread (``sessions``)."""
        return self._stacks.current()

    @property
    def sessions(self) -> tuple[Guard, ...]:
        return tuple(self._stacks.current())

    def push(self, session: Guard) -> None:
        with self._lock:
            if not self._stacks:
                self._install()
            self._stacks.push(session)
            self._contracts = _any_contract(self._stacks.all())

    def pop(self, session: Guard) -> None:
        with self._lock:
            self._stacks.pop(session)
            self._contracts = _any_contract(self._stacks.all())
            if not self._stacks:
                self._uninstall()

    def _install(self) -> None:
        try:
            self._handles.append(register_optimizer_step_pre_hook(self._on_step_pre))
            self._handles.append(register_optimizer_step_post_hook(self._on_step_post))
            self._patches.install()
        except BaseException:
            self._uninstall()
            raise

    def _uninstall(self) -> None:
        for handle in self._handles:
            handle.remove()
        self._handles.clear()
        self._patches.restore()
        self.registry.clear()
        self._in_flight.clear()
        consumed.forget_all()

    # --- registry -------------------------------------------------------------------

    def _tracker(self, optimizer: torch.optim.Optimizer) -> OptimizerTracker:
        tracker = self.registry.trackers.get(id(optimizer))  # known_tracker, inlined
        if tracker is not None and tracker.ref() is optimizer:
            return tracker
        tracker = self.registry.new_tracker(optimizer)
        for session in self._sessions:
            session.report.add_optimizer(tracker.label)
        return tracker

    def _entries(
        self, optimizer: torch.optim.Optimizer, tracker: OptimizerTracker | None = None
    ) -> list[Entry]:
        if tracker is None:
            tracker = self._tracker(optimizer)
        groups = optimizer.param_groups
        if groups is tracker.groups and len(groups) == tracker.group_count:
            return tracker.entries  # Registry.entries' cache hit, inlined (every step)
        return self.registry.entries(optimizer, tracker)

    # --- observers --------------------------------------------------------------------

    def _on_step_pre(self, optimizer: torch.optim.Optimizer, args: Any, kwargs: Any) -> Any:
        __tracebackhide__ = True
        sessions = self._by_thread.get(_get_ident()) or self._stacks.current()
        if not sessions:  # a call in flight while the last guard exited
            return None
        wrapper = _getframe(1)  # torch's step wrapper (see in_flight)
        in_flight = self._in_flight
        stack = getattr(in_flight.local, "stack", None)  # in_flight.stack(), inlined
        if stack is None:
            stack = in_flight.stack()
        elif stack and in_flight.nested(wrapper):
            return None  # part of the outer step (SAM's base step, super().step())
        tracker = self.registry.trackers.get(id(optimizer))  # _tracker's hit, inlined
        if tracker is None or tracker.ref() is not optimizer:
            tracker = self._tracker(optimizer)
        if len(args) < 2 and not kwargs:  # a plain `optimizer.step()`: no closure
            self._judge(optimizer, tracker, sessions=sessions)
            stack.append((id(wrapper), wrapper.f_code))  # in_flight.enter, inlined
            return None
        closure, args, kwargs = _take_closure(args, kwargs)
        if closure is not None:
            if getattr(closure, "__zerograd_closure__", False):
                in_flight.enter(wrapper)
                return None
            wrapped = self._wrap_closure(closure, optimizer)
            tracker.unjudged_closure = True
            in_flight.enter(wrapper)
            if kwargs is not None and "closure" in kwargs:
                return args, {**kwargs, "closure": wrapped}
            return (args[0], wrapped, *args[2:]), kwargs
        self._judge(optimizer, tracker, sessions=sessions)
        in_flight.enter(wrapper)
        return None

    def _wrap_closure(self, closure: Callable[..., Any], optimizer: Any) -> Callable[..., Any]:
        optimizer_ref = weakref.ref(optimizer)

        def judged_closure(*args: Any, **kwargs: Any) -> Any:
            __tracebackhide__ = True
            before = _last_backward[0]
            result = closure(*args, **kwargs)
            owner = optimizer_ref()
            if owner is not None and self.active:
                tracker = self._tracker(owner)
                tracker.unjudged_closure = False
                # a closure that ran a backward pass (LBFGS's, not Lightning's empty one)
                self._judge(owner, tracker, in_closure=_last_backward[0] != before)
                tracker.counted_in_step = True  # LBFGS evaluates it many times: one step
                self._boundary(owner, tracker)
            return result

        judged_closure.__zerograd_closure__ = True  # type: ignore[attr-defined]
        return judged_closure

    def _on_step_post(self, optimizer: torch.optim.Optimizer, args: Any, kwargs: Any) -> None:
        if not (self._by_thread.get(_get_ident()) or self._stacks.current()):
            return
        wrapper = _getframe(1)
        stack = getattr(self._in_flight.local, "stack", None)
        if stack and stack[-1][0] == id(wrapper) and stack[-1][1] is wrapper.f_code:
            stack.pop()  # in_flight.leave's usual case, inlined
        elif not self._in_flight.leave(wrapper):
            return
        tracker = self.registry.trackers.get(id(optimizer))  # _tracker's hit, inlined
        if tracker is None or tracker.ref() is not optimizer:
            tracker = self._tracker(optimizer)
        if tracker.unjudged_closure:  # an optimizer that ignored its closure: judge now
            tracker.unjudged_closure = False
            self._judge(optimizer, tracker)
        tracker.steps += 1
        tracker.counted_in_step = False
        groups = optimizer.param_groups  # _boundary, inlined (every step)
        if groups is tracker.groups and len(groups) == tracker.group_count:
            entries = tracker.entries
        else:
            entries = self.registry.entries(optimizer, tracker)
        if not close_windows(entries):
            consumed.mark_latest_consumed()

    def _boundary(
        self, optimizer: torch.optim.Optimizer, tracker: OptimizerTracker | None = None
    ) -> None:
        if tracker is None:
            tracker = self._tracker(optimizer)
        groups = optimizer.param_groups  # _entries' cache hit, inlined (every step)
        if groups is tracker.groups and len(groups) == tracker.group_count:
            entries = tracker.entries
        else:
            entries = self.registry.entries(optimizer, tracker)
        if not close_windows(entries):
            consumed.mark_latest_consumed()

    def optimizer_cleared(self, optimizer: torch.optim.Optimizer) -> None:
        if not (self._by_thread.get(_get_ident()) or self._stacks.current()):
            return  # a wrapper kept by user code past the last guard
        if "_optimizer_step_pre_hooks" not in getattr(optimizer, "__dict__", ()):
            optimizer = _unwrapped(optimizer)  # a framework's wrapper (not a torch optimizer)
        try:
            caller = _getframe(2)  # the patched zero_grad's caller: the user's, usually
        except ValueError:
            caller = None
        known = _internal_by_id.get(id(caller.f_code)) if caller is not None else None
        if known is not None and not known[1]:  # capture_mark(3)'s usual case, inlined
            site: Mark | None = (caller.f_code, caller.f_lasti)  # type: ignore[union-attr]
        else:
            site = capture_mark(3)
        deliberate = self._deliberate_clears > 0
        tracker = self.registry.trackers.get(id(optimizer))  # _entries' cache hit, inlined
        groups = optimizer.param_groups
        if (
            tracker is not None
            and groups is tracker.groups
            and len(groups) == tracker.group_count
            and tracker.ref() is optimizer
        ):
            entries = tracker.entries
        else:
            entries = self._entries(optimizer)
        for _, state in entries:
            if state.accumulations:
                state.api_clear(deliberate, site)
            else:  # nothing to discard (the usual clear, right after a step): inlined
                state.cleared = True
                state.judged = False
                state.clear_site = site

    def optimizer_grouped(self, optimizer: torch.optim.Optimizer) -> None:
        """A param group was added (in the optimizer's constructor, usually) under the guard.

        Its parameters not yet watched get their state and hooks now, before any backward
        pass; those without a gradient start from a provisional boundary so the first
        step is judged. A parameter with a gradient already (from before the optimizer)
        stays unknown until a real step: that gradient may legitimately be stepped.
        """
        if not self._sessions:
            return
        registry = self.registry
        for param in optimizer.param_groups[-1]["params"]:
            if registry.known_state(param) is not None:
                continue
            state = registry.new_state(param)
            if param.grad is None:
                state.seen_without_gradient()

    def module_cleared(self, module: torch.nn.Module) -> None:
        if not self._sessions:  # a wrapper kept by user code past the last guard
            return
        site = capture_mark(3)
        known_state = self.registry.known_state
        deliberate = self._deliberate_clears > 0
        for param in module.parameters():
            state = known_state(param)
            if state is not None:
                state.api_clear(deliberate, site)

    def swapping(
        self, tensors: tuple[torch.Tensor, ...]
    ) -> contextlib.AbstractContextManager[None]:
        return self.registry.weak_references_released(tensors)

    @contextlib.contextmanager
    def deliberate_clears(self) -> Iterator[None]:
        """Clears inside drop their backward passes on purpose (``zerograd_guard.discard``)."""
        with self._lock:
            self._deliberate_clears += 1
        try:
            yield
        finally:
            with self._lock:
                self._deliberate_clears -= 1

    def step_count(self, optimizer: torch.optim.Optimizer) -> int:
        tracker = self.registry.known_tracker(optimizer)
        return tracker.steps if tracker is not None else -1

    def scaler_stepped(self, optimizer: torch.optim.Optimizer, steps_before: int) -> None:
        """GradScaler returned: if no step hook ran, the step was skipped (inf/NaN)."""
        if steps_before >= 0 and self.step_count(optimizer) == steps_before:
            self._boundary(optimizer)

    # --- judging ----------------------------------------------------------------------

    def _judge(
        self,
        optimizer: torch.optim.Optimizer,
        tracker: OptimizerTracker,
        in_closure: bool = False,
        sessions: list[Guard] | None = None,
    ) -> None:
        """Judge the step about to run; ``sessions``: the calling thread's, if known."""
        __tracebackhide__ = True
        groups = optimizer.param_groups  # _entries' cache hit, inlined (every step)
        if groups is tracker.groups and len(groups) == tracker.group_count:
            entries = tracker.entries
        else:
            entries = self.registry.entries(optimizer, tracker)
        for _, state in entries:
            if not state.judged:
                break
        else:
            if entries:
                return  # an outer optimizer (Lookahead-style) already judged this very step
        contract = _contract(self._sessions, optimizer, tracker.label) if self._contracts else None
        passes = clean_step(entries, contract)
        if passes is not None:
            if contract is not None:
                tracker.windows.full()
            if (
                sessions is not None
                and len(sessions) == 1
                and passes <= tracker.largest_window
                and not tracker.counted_in_step
            ):  # _record_clean's usual case, inlined
                report = sessions[0].report
                report.steps_checked += 1
                report.events.append(
                    _new_event(StepEvent, (tracker.label, tracker.steps + 1, passes, "ok"))
                )
                return
            self._record_clean(tracker, passes, sessions)
            return
        context = StepContext(
            optimizer=optimizer,
            label=tracker.label,
            step=tracker.steps + 1,
            contract=contract,
            short_window_allowed=tracker.windows.short_allowed,
            in_closure=in_closure,
        )
        judgement = judge_step(entries, context, tracker.warned)
        if contract is not None and not judgement.violations and judgement.backward_passes:
            tracker.windows.seen(judgement.backward_passes, contract)
        self._record(tracker, context, judgement)

    def stalled(self) -> list[Finding]:
        """Optimizers that stopped stepping while backward passes piled up on their
        parameters: more passes since their last step than their largest window (or
        their contract's k). Only optimizers that stepped at least once (an optimizer
        never stepped may be an evaluation script's)."""
        findings = []
        for tracker in list(self.registry.trackers.values()):
            optimizer = tracker.ref()
            if optimizer is None or not tracker.steps:
                continue
            entries = self._entries(optimizer, tracker)
            piled = [entry for entry in entries if entry[1].accumulations]
            pending = max((state.accumulations for _, state in piled), default=0)
            contract = _contract(self._sessions, optimizer, tracker.label) or 0
            if pending <= max(tracker.largest_window, contract):
                continue
            findings.append(
                Finding(
                    rule=codes.STALLED,
                    optimizer=tracker.label,
                    step=tracker.steps,
                    parameters=parameter_names([param for param, _ in piled], optimizer),
                    detail=f"{pending} backward pass(es) since its last step (step "
                    f"{tracker.steps}); its largest window was {tracker.largest_window}",
                    backward_sites=_first_sites(state.window_site for _, state in piled),
                )
            )
        return findings

    def _record_clean(
        self,
        tracker: OptimizerTracker,
        backward_passes: int,
        sessions: list[Guard] | None = None,
    ) -> None:
        """A step with no finding: count it and keep its (bounded) event, nothing more."""
        if backward_passes > tracker.largest_window:
            tracker.largest_window = backward_passes
        if tracker.counted_in_step:
            return
        event = _new_event(StepEvent, (tracker.label, tracker.steps + 1, backward_passes, "ok"))
        if sessions is None:
            sessions = self._sessions
        if len(sessions) == 1:  # the usual case, unrolled
            report = sessions[0].report
            report.steps_checked += 1
            report.events.append(event)
            return
        for session in sessions:
            report = session.report
            report.steps_checked += 1
            report.events.append(event)

    def _record(
        self, tracker: OptimizerTracker, context: StepContext, judgement: Judgement
    ) -> None:
        __tracebackhide__ = True
        sessions = self._sessions
        if judgement.backward_passes > tracker.largest_window:
            tracker.largest_window = judgement.backward_passes
        event = StepEvent(tracker.label, context.step, judgement.backward_passes, judgement.verdict)
        for session in sessions if not tracker.counted_in_step else ():
            report = session.report
            report.steps_checked += 1
            report.events.append(event)
        findings = [(finding, True) for finding in judgement.violations]
        for warning in judgement.warnings:
            if warning.code not in tracker.warned:
                tracker.warned.add(warning.code)
                findings.append((warning, False))
        if not findings:
            return
        for session in sessions:
            for finding, is_violation in findings:
                (session.report.violations if is_violation else session.report.warnings).append(
                    finding
                )
        if sessions and sessions[-1]._mode is not None:
            for session in sessions[:-1]:
                session.delegated.extend(judgement.violations)
        for listener in list(self.listeners):
            for finding, is_violation in findings:
                listener(finding, is_violation)
        raising = sessions[-1].mode == "error" if sessions else False
        for finding, is_violation in findings:
            if not (is_violation and raising):
                _warn_at_step(finding)
        if raising and judgement.violations:
            # Judge the next step afresh even if the caller swallows the error.
            close_windows(self._entries(context.optimizer, tracker), consume=False)
            raise GradientGuardError(judgement.violations[0])


# ``StepEvent(...)`` runs a Python ``__new__``; this builds the same tuple in C (per step).
_new_event = tuple.__new__


def _warn_at_step(finding: Finding) -> None:
    """Attribute the warning to the user's ``optimizer.step()`` line, not to torch."""
    site = finding.step_site
    if site is None:
        warnings.warn(finding.render(), GradientGuardWarning, stacklevel=5)
    else:
        code, line = site
        warnings.warn_explicit(finding.render(), GradientGuardWarning, code.co_filename, line)


def _first_sites(marks: Iterator[Mark | None]) -> list[Site]:
    return sites_of(marks, 3)


def _unwrapped(optimizer: torch.optim.Optimizer) -> torch.optim.Optimizer:
    """The torch optimizer behind a wrapper that subclasses its class without running
    ``Optimizer.__init__`` (Lightning's ``LightningOptimizer``): one optimizer, one label."""
    for _ in range(8):
        state = getattr(optimizer, "__dict__", {})
        if "_optimizer_step_pre_hooks" in state:
            return optimizer
        inner = state.get("_optimizer", state.get("optimizer"))
        if not isinstance(inner, torch.optim.Optimizer) or inner is optimizer:
            return optimizer
        optimizer = inner
    return optimizer


def _any_contract(sessions: list[Guard]) -> bool:
    return any(s.accumulate is not None or s.contracts is not None for s in sessions)


def _contract(sessions: list[Guard], optimizer: torch.optim.Optimizer, label: str) -> int | None:
    """The innermost session's contract that covers this optimizer."""
    for session in reversed(sessions):
        count = session.contract_for(optimizer, label)
        if count is not None:
            return count
    return None


def _take_closure(args: Any, kwargs: Any) -> tuple[Any, tuple[Any, ...], Any]:
    """The closure passed to ``step``; torch's hook ``args`` start with the optimizer."""
    if kwargs and kwargs.get("closure") is not None:
        return kwargs["closure"], tuple(args), kwargs
    if len(args) > 1 and callable(args[1]):
        return args[1], tuple(args), kwargs
    return None, tuple(args), kwargs


MONITOR = Monitor()
