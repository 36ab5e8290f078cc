"""``zerograd-guard run``: run an unmodified training script with the guard active.

The script runs in this process with the semantics of ``python script.py``
(``__name__ == "__main__"``, ``sys.argv``, the script's directory first on
``sys.path``); Python processes it starts are guarded too
(:mod:`zerograd_guard.children`). ``--max-steps`` stops it cleanly after that many
optimizer steps, through a global step post-hook that raises a private
``BaseException`` (so a script's ``except Exception`` cannot swallow it).
"""

from __future__ import annotations

import ctypes
import importlib.util
import json
import os
import runpy
import sys
import threading
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from zerograd_guard.children import ChildRecord, ChildViolation, start_propagation
from zerograd_guard.children.child import leave_parent
from zerograd_guard.children.records import violations_of
from zerograd_guard.folding import fold_repeats
from zerograd_guard.terminal_tail import TerminalTail

EXIT_VIOLATION = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
NOTHING_WATCHED = (
    "zerograd-guard: warning: NO OPTIMIZER WAS WATCHED: the script never stepped or cleared "
    "a torch.optim optimizer, so nothing was checked (a hand-written update such as "
    "p.data.add_(p.grad, alpha=-lr) is invisible to the guard); --strict fails such a run"
)


class UsageError(Exception):
    """A problem with the command line or the script path (exit status 2)."""


class _StepLimitReached(BaseException):
    """Raised by the step limiter after the last allowed step; caught by :func:`run_script`."""


class StepLimit:
    """Counts completed top-level optimizer steps and stops the script after ``limit``.

    A wrapper optimizer whose ``step`` calls an inner optimizer's ``step`` fires the
    global hooks twice, nested: only the outermost step counts.

    Training in another thread: the limit ends that thread (its traceback is not
    printed) and is raised asynchronously in the thread running the script, which
    then stops like a single-threaded script (at its next bytecode, e.g. when its
    ``join()`` returns).
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.steps = 0
        self._depth = 0
        self._runner: int | None = None  # the thread running the script
        self._runner_told = False

    @contextmanager
    def installed(self) -> Iterator[StepLimit]:
        from torch.optim.optimizer import (
            register_optimizer_step_post_hook,
            register_optimizer_step_pre_hook,
        )

        handles = [
            register_optimizer_step_pre_hook(self._enter_step),
            register_optimizer_step_post_hook(self._leave_step),
        ]
        previous_hook = threading.excepthook

        def quiet_limit(args: threading.ExceptHookArgs) -> None:
            if not issubclass(args.exc_type, _StepLimitReached):
                previous_hook(args)

        threading.excepthook = quiet_limit
        self._runner = threading.get_ident()
        try:
            yield self
        finally:
            self._runner = None
            for handle in handles:
                handle.remove()
            if threading.excepthook is quiet_limit:
                threading.excepthook = previous_hook

    def _enter_step(self, optimizer: object, args: object, kwargs: object) -> None:
        self._depth += 1

    def _leave_step(self, optimizer: object, args: object, kwargs: object) -> None:
        self._depth = max(self._depth - 1, 0)
        if self._depth == 0:
            self.steps += 1
            if self.steps >= self.limit:
                runner = self._runner
                if runner is not None and runner != threading.get_ident():
                    self._tell_runner(runner)
                raise _StepLimitReached

    def _tell_runner(self, runner: int) -> None:
        if self._runner_told:
            return
        self._runner_told = True
        ctypes.pythonapi.PyThreadState_SetAsyncExc(
            ctypes.c_ulong(runner), ctypes.py_object(_StepLimitReached)
        )


@dataclass
class RunOutcome:
    """What a guarded run produced."""

    script_status: int
    """The script's own exit status (0, its ``SystemExit`` code, 1 on an uncaught error)."""
    mode: str
    report: Any
    """The guard's ``GuardReport`` for this process."""
    children: list[ChildRecord] = field(default_factory=list)
    stopped_after: int | None = None
    """Set when ``--max-steps`` stopped the script."""
    interrupted: bool = False
    strict: bool = False
    """``--strict``: warnings, and a run that watched no optimizer, fail it too."""
    mid_line: bool = False
    """The script's last write to stdout/stderr left the cursor mid-line (a ``\r`` bar)."""

    @property
    def child_violations(self) -> list[ChildViolation]:
        return [v for record in self.children for v in violations_of(record)]

    @property
    def child_warnings(self) -> list[ChildViolation]:
        return [v for record in self.children for v in violations_of(record, warnings=True)]

    @property
    def violation_count(self) -> int:
        return len(self.report.violations) + len(self.child_violations)

    @property
    def warning_count(self) -> int:
        return len(self.report.warnings) + len(self.child_warnings)

    @property
    def watched_nothing(self) -> bool:
        """No optimizer was seen, here or in a guarded child (a manual-SGD script)."""
        return not self.report.optimizers_seen and not any(
            record.steps_checked for record in self.children
        )

    def exit_status(self) -> int:
        if self.interrupted:
            return EXIT_INTERRUPTED
        if (self.mode == "error" or self.strict) and self.violation_count:
            return EXIT_VIOLATION
        if self.strict and (self.warning_count or self.watched_nothing):
            return EXIT_VIOLATION
        return self.script_status

    def as_dict(self) -> dict[str, Any]:
        return {
            **self.report.as_dict(),
            "mode": self.mode,
            "script_status": self.script_status,
            "stopped_after": self.stopped_after,
            "interrupted": self.interrupted,
            "strict": self.strict,
            "watched_nothing": self.watched_nothing,
            "children": [record.summary() for record in self.children],
        }


@dataclass(frozen=True)
class _Target:
    """What runs as ``__main__``: a script file, or a module found on ``sys.path``."""

    filename: str
    """The file Python compiles it under (tracebacks start at its frame)."""
    module: str | None = None
    """``-m``'s module name; None for a script."""


def run_script(
    script: str | os.PathLike[str],
    args: Sequence[str] = (),
    *,
    mode: str = "error",
    max_steps: int | None = None,
    accumulate: int | None = None,
    strict: bool = False,
    report_now: Callable[[RunOutcome], int] | None = None,
    library: Sequence[str] = (),
) -> RunOutcome:
    """Run ``script`` as ``__main__`` under the guard; never raises for the script's errors.

    ``report_now`` prints an outcome and returns the run's exit status: called if the
    script ends the process with ``os._exit()``, which no ``finally`` survives.
    ``library`` names modules whose frames sites skip, like a training library's (an
    in-house trainer); a name that cannot be found is a usage error.
    """
    path = Path(script)
    if not path.is_file():
        raise UsageError(f"{script}: no such script file")
    target = _Target(os.fspath(path))
    return _run_guarded(target, args, mode, max_steps, accumulate, strict, report_now, library)


def run_module(
    module: str,
    args: Sequence[str] = (),
    *,
    mode: str = "error",
    max_steps: int | None = None,
    accumulate: int | None = None,
    strict: bool = False,
    report_now: Callable[[RunOutcome], int] | None = None,
    library: Sequence[str] = (),
) -> RunOutcome:
    """Run ``module`` as ``python -m module`` would, under the guard (a package runs its
    ``__main__``); never raises for the module's errors. ``report_now`` and ``library``
    as for :func:`run_script`."""
    target = _Target(_module_file(module), module)
    return _run_guarded(target, args, mode, max_steps, accumulate, strict, report_now, library)


def _module_file(module: str) -> str:
    """The file ``python -m module`` would run (a package's ``__main__``), with the
    working directory first on ``sys.path`` as ``-m`` puts it."""
    with _path_first(os.getcwd()):
        try:
            spec = importlib.util.find_spec(module)
            if spec is not None and spec.submodule_search_locations is not None:
                spec = importlib.util.find_spec(module + ".__main__")
        except (ImportError, ValueError):
            spec = None
    if spec is None or not spec.origin or not os.path.isfile(spec.origin):
        raise UsageError(f"{module}: no module of that name")
    return spec.origin


def _run_guarded(
    target: _Target,
    args: Sequence[str],
    mode: str,
    max_steps: int | None,
    accumulate: int | None,
    strict: bool,
    report_now: Callable[[RunOutcome], int] | None,
    library: Sequence[str],
) -> RunOutcome:
    if max_steps is not None and max_steps < 1:
        raise UsageError(f"--max-steps must be at least 1, not {max_steps}")
    leave_parent()
    try:
        from zerograd_guard.runtime import GradientGuardError, GradientGuardWarning, guard
    except ImportError as error:
        raise UsageError(
            f"the runtime guard needs torch (pip install torch; docs/install.md): {error}"
        ) from None

    propagation = start_propagation(mode, accumulate)
    limit = StepLimit(max_steps) if max_steps is not None else None
    session = guard(mode=mode, accumulate=accumulate)
    outcome = RunOutcome(script_status=0, mode=mode, report=None, strict=strict)
    terminal = TerminalTail()

    def abrupt_exit(status: int) -> int:
        outcome.script_status = status
        outcome.mid_line = terminal.mid_line
        outcome.report = session.report
        outcome.children = propagation.records()
        return report_now(outcome) if report_now is not None else status

    try:
        with (
            _reported_before_os_exit(abrupt_exit),
            terminal.tracking(),
            _as_main(target, args),
            _library_modules(library),
            _quiet(GradientGuardWarning),
            session,
            limit.installed() if limit is not None else nullcontext(),
        ):
            outcome.script_status = _run_main(target, reraise=(GradientGuardError,))
    except _StepLimitReached:
        outcome.stopped_after = limit.steps if limit is not None else None
    except GradientGuardError:
        outcome.script_status = EXIT_VIOLATION  # the report below says why
    except KeyboardInterrupt:
        outcome.interrupted = True
    finally:
        outcome.mid_line = terminal.mid_line
        outcome.report = session.report
        outcome.children = propagation.records()
        propagation.close()
    return outcome


def _run_main(target: _Target, reraise: tuple[type[BaseException], ...]) -> int:
    """Execute the script or module; returns its exit status like the interpreter would.

    ``reraise`` (the guard's error), the step limit and Ctrl-C propagate to the caller;
    any other uncaught error prints its traceback and gives status 1.
    """
    try:
        if target.module is None:
            runpy.run_path(target.filename, run_name="__main__")
        else:  # alter_sys: sys.argv[0] and sys.modules["__main__"] as ``python -m`` sets them
            runpy.run_module(target.module, run_name="__main__", alter_sys=True)
    except SystemExit as exit_request:
        return _status_of(exit_request)
    except (_StepLimitReached, KeyboardInterrupt, *reraise):
        raise
    except BaseException as error:
        _report_uncaught(error, target.filename)
        return 1
    return 0


def _report_uncaught(error: BaseException, filename: str) -> None:
    """Report an uncaught error as ``python script.py`` does: through ``sys.excepthook``,
    with the traceback starting at the script's own frame (this runner's and runpy's
    frames left out). An error raised before the script ran a line (a syntax error)
    keeps no frames, as Python prints it.
    """
    frames = error.__traceback__
    while frames is not None and frames.tb_frame.f_code.co_filename != filename:
        frames = frames.tb_next
    # The default hook prints the exception's own __traceback__, not the one passed.
    sys.excepthook(type(error), error.with_traceback(frames), frames)


def _status_of(exit_request: SystemExit) -> int:
    code = exit_request.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


@contextmanager
def _reported_before_os_exit(finish: Callable[[int], int]) -> Iterator[None]:
    """While the script runs, ``os._exit(status)`` in this process first reports the run
    (``finish`` returns the status to exit with): violations the script caught itself
    must not vanish with the process. A forked child's ``os._exit`` (multiprocessing,
    DataLoader workers) is left alone."""
    real_exit = os._exit
    pid = os.getpid()

    def reporting_exit(status: int) -> None:
        if os.getpid() == pid:
            os._exit = real_exit
            try:
                sys.stdout.flush()
                status = finish(status)
            finally:
                real_exit(status)
        real_exit(status)

    os._exit = reporting_exit
    try:
        yield
    finally:
        if os._exit is reporting_exit:
            os._exit = real_exit


@contextmanager
def _library_modules(names: Sequence[str]) -> Iterator[None]:
    """Sites skip these modules' frames; guarded children inherit the list (environment).
    Looked up once the script's directory is on ``sys.path``, before it runs."""
    if not names:
        yield
        return
    from zerograd_guard.runtime.sites import LIBRARY_ENV, add_library_modules

    missing = add_library_modules(names)
    if missing:
        raise UsageError(f"--library {missing[0]}: no such module (is it importable here?)")
    saved = os.environ.get(LIBRARY_ENV)
    os.environ[LIBRARY_ENV] = ",".join([*([saved] if saved else []), *names])
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop(LIBRARY_ENV, None)
        else:
            os.environ[LIBRARY_ENV] = saved


@contextmanager
def _quiet(category: type[Warning]) -> Iterator[None]:
    """Silence the guard's live warnings: the end-of-run report lists each one once."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", category)
        yield


@contextmanager
def _as_main(target: _Target, args: Sequence[str]) -> Iterator[None]:
    """``sys.argv`` and ``sys.path[0]`` as ``python script.py args...`` (the script's
    directory first) or ``python -m module args...`` (the working directory first; runpy
    then sets ``sys.argv[0]`` to the module's file) sets them."""
    saved_argv = sys.argv[:]
    sys.argv = [target.filename, *args]
    if target.module is None:
        first = os.path.dirname(os.path.realpath(target.filename))
    else:
        first = os.getcwd()
    try:
        with _path_first(first):
            yield
    finally:
        sys.argv[:] = saved_argv


@contextmanager
def _path_first(directory: str) -> Iterator[None]:
    """``directory`` as ``sys.path[0]``, as the interpreter puts a script's directory."""
    saved_path = sys.path[:]
    if sys.path:
        sys.path[0] = directory
    else:
        sys.path.append(directory)
    try:
        yield
    finally:
        sys.path[:] = saved_path


def print_outcome(outcome: RunOutcome, stream: TextIO) -> None:
    """The end-of-run report: a summary line, then each distinct finding's full text.

    A bug in a loop repeats at every step; the same finding (code, optimizer,
    parameters, step line) is printed once with the other steps it recurred at.
    """
    report = outcome.report
    violations = [(f.as_dict(), f.render()) for f in report.violations]
    violations += [(c.details, c.render()) for c in outcome.child_violations]
    warned = [(f.as_dict(), f.render()) for f in report.warnings]
    warned += [(c.details, c.render()) for c in outcome.child_warnings]
    lines = [_summary(outcome)]
    if outcome.watched_nothing:
        lines.append(NOTHING_WATCHED)
    lines += [text for _, text in fold_repeats(violations)]
    lines += ["warning: " + text for _, text in fold_repeats(warned)]
    fresh_line = "\n" if outcome.mid_line else ""
    stream.write(fresh_line + "\n".join(lines) + "\n")


def _summary(outcome: RunOutcome) -> str:
    report = outcome.report
    child_steps = sum(record.steps_checked for record in outcome.children)
    parts = [
        f"{report.steps_checked} optimizer step{'s' * (report.steps_checked != 1)} checked",
        f"{outcome.violation_count} violation{'s' * (outcome.violation_count != 1)}",
        f"{len(report.warnings) + len(outcome.child_warnings)} warning(s)",
    ]
    if outcome.children:
        parts.append(f"{len(outcome.children)} guarded child process(es), {child_steps} steps")
    text = "zerograd-guard: " + ", ".join(parts)
    if outcome.strict:
        text += " (--strict: warnings fail the run)"
    if outcome.stopped_after is not None:
        text += f" (stopped after {outcome.stopped_after} steps: --max-steps)"
    if outcome.interrupted:
        text += " (interrupted)"
    return text


def write_json_report(outcome: RunOutcome, path: str | os.PathLike[str]) -> None:
    Path(path).write_text(json.dumps(outcome.as_dict(), indent=2, default=str) + "\n")
