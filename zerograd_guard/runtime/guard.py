"""Public entry points: ``guard()`` (context manager and decorator) and ``accumulate(k)``."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Literal, TypeVar

from zerograd_guard.runtime.monitor import MONITOR
from zerograd_guard.runtime.report import Finding, GuardReport

Mode = Literal["error", "warn"]
F = TypeVar("F", bound=Callable[..., Any])


class Guard:
    """One guard session. Sessions nest: hooks are installed once, findings go to all.

    The innermost session decides whether a violation raises (``mode="error"``) or
    warns, and the innermost ``accumulate`` contract applies.
    """

    def __init__(self, mode: Mode | None = "error", accumulate: int | None = None) -> None:
        if mode not in ("error", "warn", None):
            raise ValueError(f"guard mode must be 'error' or 'warn', not {mode!r}")
        if accumulate is not None and (not isinstance(accumulate, int) or accumulate < 1):
            raise ValueError(f"accumulate must be a positive integer, not {accumulate!r}")
        self._mode = mode
        self.accumulate = accumulate
        self.report = GuardReport()
        self._depth = 0
        # Violations this guard recorded while a nested guard with its own mode was
        # innermost: that guard raised or warned them, the caller handled them.
        self.delegated: list[Finding] = []

    @property
    def mode(self) -> Mode:
        """``None`` at construction means: inherit the enclosing session's mode."""
        if self._mode is not None:
            return self._mode
        sessions = MONITOR.sessions
        for session in reversed(sessions):
            if session is not self and session._mode is not None:
                return session._mode
        return "error"

    def __enter__(self) -> Guard:
        if self._depth == 0:
            MONITOR.push(self)
        self._depth += 1
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._depth -= 1
        if self._depth == 0:
            MONITOR.pop(self)

    def __call__(self, function: F) -> F:
        @functools.wraps(function)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            with self:
                return function(*args, **kwargs)

        return guarded  # type: ignore[return-value]


def guard(mode: Mode | Callable[..., Any] = "error", accumulate: int | None = None) -> Any:
    """Guard a block (``with guard():``) or a function (``@guard()`` or ``@guard``).

    In ``"error"`` mode a violation raises :class:`GradientGuardError` at the
    offending ``optimizer.step()``; in ``"warn"`` mode it is reported as a warning.
    The returned object's ``.report`` holds steps checked, violations and events.
    """
    if callable(mode):
        return Guard()(mode)
    return Guard(mode, accumulate)


def accumulate(k: int) -> Guard:
    """Contract: every optimizer step inside consumes exactly ``k`` backward passes.

    Off-by-one accumulation or a clear every micro-batch is a ZG103 violation. Inside
    another guard it inherits that guard's mode; alone it guards in error mode.
    """
    return Guard(mode=None, accumulate=k)
