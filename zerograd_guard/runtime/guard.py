"""Public entry points: ``guard()`` (context manager and decorator) and ``accumulate(k)``."""

from __future__ import annotations

import functools
import inspect
import warnings
import weakref
from collections.abc import Callable, Mapping
from typing import Any, Literal, TypeVar

import torch

from zerograd_guard.runtime.monitor import MONITOR
from zerograd_guard.runtime.report import Finding, GradientGuardWarning, GuardReport

Mode = Literal["error", "warn"]
F = TypeVar("F", bound=Callable[..., Any])
# ``k`` for every optimizer, or per optimizer: keyed by the optimizer itself, by its
# report label (``"Adam #2"``) or by its class name (``"Adam"``).
Contract = int | Mapping[Any, int]


class Contracts:
    """Per-optimizer ``accumulate`` counts (optimizers held weakly)."""

    def __init__(self, counts: Mapping[Any, int]) -> None:
        self._by_optimizer: dict[int, tuple[weakref.ref[Any], int]] = {}
        self._by_name: dict[str, int] = {}
        for key, count in counts.items():
            _check_count(count)
            if isinstance(key, torch.optim.Optimizer):
                self._by_optimizer[id(key)] = (weakref.ref(key), count)
            elif isinstance(key, str):
                self._by_name[key] = count
            else:
                raise ValueError(
                    f"accumulate keys are optimizers, labels or class names, not {key!r}"
                )

    def count_for(self, optimizer: torch.optim.Optimizer, label: str) -> int | None:
        held = self._by_optimizer.get(id(optimizer))
        if held is not None and held[0]() is optimizer:
            return held[1]
        found = self._by_name.get(label)
        return found if found is not None else self._by_name.get(type(optimizer).__name__)


def _check_count(count: object) -> None:
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ValueError(f"accumulate must be a positive integer, not {count!r}")


class Guard:
    """One guard session. Sessions nest: hooks are installed once, findings go to all.

    The innermost session decides whether a violation raises (``mode="error"``) or
    warns, and the innermost ``accumulate`` contract applies.
    """

    def __init__(self, mode: Mode | None = "error", accumulate: Contract | None = None) -> None:
        if mode not in ("error", "warn", None):
            raise ValueError(f"guard mode must be 'error' or 'warn', not {mode!r}")
        self.contracts: Contracts | None = None
        if isinstance(accumulate, Mapping):
            self.contracts = Contracts(accumulate)
            accumulate = None
        elif accumulate is not None:
            _check_count(accumulate)
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

    def contract_for(self, optimizer: torch.optim.Optimizer, label: str) -> int | None:
        """This session's ``accumulate`` count for ``optimizer`` (None: no contract)."""
        if self.contracts is not None:
            return self.contracts.count_for(optimizer, label)
        return self.accumulate

    def __enter__(self) -> Guard:
        if self._depth == 0:
            MONITOR.push(self)
        self._depth += 1
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._depth -= 1
        if self._depth == 0:
            try:
                self._report_stalled()
            finally:
                MONITOR.pop(self)

    def _report_stalled(self) -> None:
        """At the end of a session: optimizers that stopped stepping (a warning)."""
        for finding in MONITOR.stalled():
            self.report.warnings.append(finding)
            warnings.warn(finding.render(), GradientGuardWarning, stacklevel=3)

    def __call__(self, function: F) -> F:
        if (
            inspect.isgeneratorfunction(function)
            or inspect.iscoroutinefunction(function)
            or (inspect.isasyncgenfunction(function))
        ):
            # Its body runs after the call returns, in pieces: a decorator cannot guard it.
            raise TypeError(
                f"@guard cannot decorate {function.__qualname__}: a generator or async "
                "function runs after the call returns; use `with zerograd_guard.guard():` "
                "inside its body instead"
            )

        @functools.wraps(function)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            with self:
                return function(*args, **kwargs)

        return guarded  # type: ignore[return-value]


def guard(mode: Mode | Callable[..., Any] = "error", accumulate: Contract | None = None) -> Any:
    """Guard a block (``with guard():``) or a function (``@guard()`` or ``@guard``).

    In ``"error"`` mode a violation raises :class:`GradientGuardError` at the
    offending ``optimizer.step()``; in ``"warn"`` mode it is reported as a warning.
    The returned object's ``.report`` holds steps checked, violations and events.
    """
    if callable(mode):
        return Guard()(mode)
    return Guard(mode, accumulate)


def accumulate(k: Contract) -> Guard:
    """Contract: every optimizer step inside consumes exactly ``k`` backward passes.

    One micro-batch is one backward pass that reached the optimizer's parameters and
    was not consumed by another optimizer's step. ``k`` may be per optimizer:
    ``accumulate({opt_d: 2, opt_g: 1})`` (keys: optimizers, report labels such as
    ``"Adam #2"``, or class names); optimizers not named have no contract. A shorter
    window is accepted once after a full one (an epoch's last window; see the docs).
    Off-by-one accumulation or a clear every micro-batch is a ZG103 violation. Inside
    another guard it inherits that guard's mode; alone it guards in error mode.
    """
    return Guard(mode=None, accumulate=k)
