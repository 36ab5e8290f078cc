"""Parent side: make Python processes started from here run the guard and report back.

:func:`start_propagation` puts :data:`~zerograd_guard.children.env.BOOT_DIR` first on
``PYTHONPATH`` and sets the child environment variables; every Python child
(``subprocess``, ``multiprocessing`` spawn/forkserver, ``torch.multiprocessing.spawn``,
and their own children) then loads the boot ``sitecustomize``, which guards it as
soon as it imports torch. Forked children inherit the parent's guard instead; they
report through :meth:`Propagation.record_forked`, which listens to the parent's
guard monitor while the propagation is open. :meth:`Propagation.collect` reads what
the children found. Importing this module does not import torch.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from typing import Any, Protocol

from zerograd_guard.children import env
from zerograd_guard.children.records import (
    ChildRecord,
    ChildViolation,
    read_records,
    violations_of,
    write_record,
)

MODES = ("error", "warn")


class _FindingLike(Protocol):
    code: str

    def render(self) -> str: ...

    def as_dict(self) -> dict[str, Any]: ...


class Propagation:
    """An active hand-over of the guard to child processes; undo it with :meth:`close`."""

    def __init__(self, mode: str, accumulate: int | None = None) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
        self.mode = mode
        self.accumulate = accumulate
        self.report_dir = tempfile.mkdtemp(prefix="zerograd-guard-children-")
        self._owner_pid = os.getpid()
        self._forked: ChildRecord | None = None
        self._saved = {
            name: os.environ.get(name)
            for name in (env.PYTHONPATH, env.CHILD_MODE, env.CHILD_REPORT_DIR, env.CHILD_ACCUMULATE)
        }
        self._closed = False
        self._apply_environment()
        self._listeners = _monitor_listeners()
        if self._listeners is not None:
            self._listeners.append(self.record_forked)
        _open.append(self)

    def _apply_environment(self) -> None:
        previous = os.environ.get(env.PYTHONPATH, "")
        entries = [entry for entry in previous.split(os.pathsep) if entry and entry != env.BOOT_DIR]
        os.environ[env.PYTHONPATH] = os.pathsep.join([env.BOOT_DIR, *entries])
        os.environ[env.CHILD_MODE] = self.mode
        os.environ[env.CHILD_REPORT_DIR] = self.report_dir
        if self.accumulate is None:
            os.environ.pop(env.CHILD_ACCUMULATE, None)
        else:
            os.environ[env.CHILD_ACCUMULATE] = str(self.accumulate)
        self._applied = {name: os.environ.get(name) for name in self._saved}

    def _restore_environment(self) -> None:
        """Undo only what this propagation set: a variable someone changed meanwhile (a
        session fixture extending ``PYTHONPATH``) keeps their change, minus the boot
        directory."""
        for name, value in self._saved.items():
            current = os.environ.get(name)
            if current == self._applied[name]:
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value
            elif name == env.PYTHONPATH and current is not None:
                kept = [entry for entry in current.split(os.pathsep) if entry != env.BOOT_DIR]
                os.environ[name] = os.pathsep.join(kept)

    def record_forked(self, finding: _FindingLike, is_violation: bool) -> bool:
        """Save a finding made in a *forked* child (which inherited the parent's guard).

        Returns False, doing nothing, when called in the process that started the
        propagation: the parent's own guard report already holds its findings.
        """
        pid = os.getpid()
        if pid == self._owner_pid or self._closed:
            return False
        if self._forked is None or self._forked.pid != pid:
            self._forked = ChildRecord(pid=pid, argv=list(sys.argv), mode=self.mode)
        entry = {**finding.as_dict(), "code": finding.code, "text": finding.render()}
        entry["rank"] = current_rank()
        (self._forked.violations if is_violation else self._forked.warnings).append(entry)
        write_record(self.report_dir, self._forked)
        return True

    def records(self) -> list[ChildRecord]:
        """Every child's record so far (one per guarded child process that found or finished)."""
        return read_records(self.report_dir)

    def collect(self) -> list[ChildViolation]:
        """The violations every child reported so far, ordered by pid."""
        return [violation for record in self.records() for violation in violations_of(record)]

    def collect_warnings(self) -> list[ChildViolation]:
        """The warnings every child reported so far (and violations of warn-mode children)."""
        return [
            warning for record in self.records() for warning in violations_of(record, warnings=True)
        ]

    def close(self) -> None:
        """Restore the environment and delete the report directory (collect first)."""
        if self._closed or os.getpid() != self._owner_pid:
            return
        self._closed = True
        if self in _open:
            _open.remove(self)
        if self._listeners is not None and self.record_forked in self._listeners:
            self._listeners.remove(self.record_forked)
        self._restore_environment()
        shutil.rmtree(self.report_dir, ignore_errors=True)

    def __enter__(self) -> Propagation:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


_open: list[Propagation] = []


def propagating_here() -> bool:
    """True while this very process has an open propagation (not merely inherited one)."""
    return any(propagation._owner_pid == os.getpid() for propagation in _open)


def start_propagation(mode: str = "error", accumulate: int | None = None) -> Propagation:
    """Guard the Python processes started from now on until ``close()``; see the module doc."""
    return Propagation(mode, accumulate)


def _monitor_listeners() -> list[Any] | None:
    """The guard monitor's finding listeners, or None where the runtime guard cannot load."""
    try:
        from zerograd_guard.runtime.monitor import MONITOR
    except ImportError:
        return None
    return MONITOR.listeners


def current_rank() -> int | None:
    """This process's distributed rank: the initialised process group's, else ``$RANK``."""
    distributed = sys.modules.get("torch.distributed")
    try:
        if distributed is not None and distributed.is_available() and distributed.is_initialized():
            return int(distributed.get_rank())
    except (RuntimeError, ValueError):
        pass
    rank = os.environ.get("RANK")
    return int(rank) if rank is not None and rank.isdigit() else None
