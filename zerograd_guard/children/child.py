"""Child side: guard this process from the moment it imports torch, and report to the parent.

The boot ``sitecustomize`` watches for ``import torch`` when the parent's environment
asks for it (:data:`~zerograd_guard.children.env.CHILD_MODE`) and then calls
:func:`guard_from_environment`: children that never import torch never load this.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import sys
import warnings
from collections.abc import Callable
from typing import Any, NoReturn

from zerograd_guard.children import env
from zerograd_guard.children.propagation import MODES, current_rank, propagating_here
from zerograd_guard.children.records import ChildRecord, write_record
from zerograd_guard.children.watcher import uninstall_all


class ChildSession:
    """This child's guard and the record it keeps in the parent's report directory."""

    def __init__(self, mode: str, report_dir: str, accumulate: int | None) -> None:
        self.mode = mode
        self.report_dir = report_dir
        self.accumulate = accumulate
        self.record = ChildRecord(pid=os.getpid(), argv=list(sys.argv), mode=mode)
        self.guard: Any = None
        self._rank_known = False
        self.detached = False

    def activate(self) -> None:
        """Enter a process-wide guard; it stays active until the interpreter exits."""
        from torch.optim.optimizer import register_optimizer_step_post_hook

        # Submodules, not the package: torch may finish importing while
        # ``zerograd_guard.runtime`` itself is still initialising (it imports torch).
        from zerograd_guard.runtime.guard import guard
        from zerograd_guard.runtime.monitor import MONITOR
        from zerograd_guard.runtime.report import GradientGuardWarning

        # The parent reports every finding; the child's own warning output would repeat them.
        warnings.filterwarnings("ignore", category=GradientGuardWarning)
        session = guard(mode=self.mode, accumulate=self.accumulate)
        session.__enter__()
        self.guard = session
        MONITOR.listeners.append(self.on_finding)
        register_optimizer_step_post_hook(self._note_rank)
        atexit.register(self.finish)
        _flush_before_os_exit(self.finish)

    def _note_rank(self, optimizer: object, args: object, kwargs: object) -> None:
        # Workers usually destroy their process group before exiting: learn the rank
        # at the first step, while it is still known. (A hook cannot remove itself
        # while torch iterates the hooks, so later steps only pay this test.)
        if not self._rank_known:
            self._rank_known = True
            self.record.rank = current_rank()

    def on_finding(self, finding: Any, is_violation: bool) -> None:
        """Write the finding to the parent immediately: workers may end with ``os._exit``."""
        if self.detached:
            return
        self._own_record()
        entry = {**finding.as_dict(), "code": finding.code, "text": finding.render()}
        entry["rank"] = current_rank()
        (self.record.violations if is_violation else self.record.warnings).append(entry)
        self.record.rank = entry["rank"]
        self._write()

    def finish(self) -> None:
        """At interpreter exit: record how many steps were checked."""
        if self.detached:
            return
        self._own_record()
        report = getattr(self.guard, "report", None)
        self.record.steps_checked = int(getattr(report, "steps_checked", 0))
        self.record.rank = self.record.rank if self.record.rank is not None else current_rank()
        self.record.finished = True
        self._write()

    def detach(self) -> None:
        """Stop guarding and reporting for the parent (this process guards on its own)."""
        self.detached = True
        if self.guard is not None:
            from zerograd_guard.runtime.monitor import MONITOR

            if self.on_finding in MONITOR.listeners:
                MONITOR.listeners.remove(self.on_finding)
            self.guard.__exit__(None, None, None)
            self.guard = None

    def _own_record(self) -> None:
        # A fork of this child inherits the session; it reports under its own pid.
        if self.record.pid != os.getpid():
            self.record = ChildRecord(pid=os.getpid(), argv=list(sys.argv), mode=self.mode)

    def _write(self) -> None:
        write_record(self.report_dir, self.record)


def _flush_before_os_exit(flush: Callable[[], None]) -> None:
    """Make ``os._exit`` write the record first, as ``atexit`` does not run there.

    Distributed and multiprocessing workers commonly end with ``os._exit`` (coverage.py
    offers the same patch for the same reason). Only done in guarded child processes.
    """
    original = os._exit

    def _exit(status: int) -> NoReturn:
        with contextlib.suppress(Exception):
            flush()
        original(status)

    os._exit = _exit


def session_from_environment() -> ChildSession | None:
    """The session the parent asked for through the environment, or None."""
    mode = os.environ.get(env.CHILD_MODE, "")
    report_dir = os.environ.get(env.CHILD_REPORT_DIR, "")
    if mode not in MODES or not report_dir or not os.path.isdir(report_dir):
        return None
    raw_accumulate = os.environ.get(env.CHILD_ACCUMULATE, "")
    accumulate = int(raw_accumulate) if raw_accumulate.isdigit() else None
    return ChildSession(mode, report_dir, accumulate)


_session: ChildSession | None = None


def guard_from_environment() -> ChildSession | None:
    """Called by the boot watcher once torch is imported: guard this process if asked."""
    global _session
    session = session_from_environment()
    if session is None:
        return None
    _session = session
    _activate_when_possible(session)
    return session


def leave_parent() -> None:
    """This process runs its own guard (a pytest run, ``zerograd-guard run``): stop
    reporting to the guarded parent, and do not hand the parent's guard to our children.

    A test suite that runs pytest or training scripts in subprocesses on purpose (to
    check that they fail) must not fail itself because of what they found. Does
    nothing in the process that opened the propagation (an in-process pytest run or
    ``run_script`` call inside a guarded test): that is not a child.
    """
    global _session
    if propagating_here():
        return
    uninstall_all()
    if _session is not None:
        _session.detach()
        _session = None
    for name in (env.CHILD_MODE, env.CHILD_REPORT_DIR, env.CHILD_ACCUMULATE):
        os.environ.pop(name, None)
    entries = os.environ.get(env.PYTHONPATH, "").split(os.pathsep)
    kept = [entry for entry in entries if entry and entry != env.BOOT_DIR]
    if kept:
        os.environ[env.PYTHONPATH] = os.pathsep.join(kept)
    else:
        os.environ.pop(env.PYTHONPATH, None)


def _activate_when_possible(session: ChildSession) -> None:
    """Activate now, or at the first module forward if the guard package is mid-import.

    A child that imports ``zerograd_guard.runtime`` before torch finishes importing
    torch from inside that package: the guard cannot be built until it completes.
    """
    runtime = sys.modules.get("zerograd_guard.runtime")
    if runtime is not None and getattr(runtime.__spec__, "_initializing", False):
        _activate_at_first_forward(session)
    else:
        _activate_safely(session)


def _activate_at_first_forward(session: ChildSession) -> None:
    from torch.nn.modules.module import register_module_forward_pre_hook

    def first_forward(module: object, args: object) -> None:
        # torch iterates a copy of the global hooks: removing this one here is safe.
        handle.remove()
        if not session.detached:
            _activate_safely(session)

    handle = register_module_forward_pre_hook(first_forward)


def _activate_safely(session: ChildSession) -> None:
    # A broken guard must never break the user's child process: say so and go on.
    try:
        session.activate()
    except Exception as error:  # reported, never raised into user code
        print(
            f"zerograd-guard: could not guard child process {os.getpid()}: {error}",
            file=sys.stderr,
        )
