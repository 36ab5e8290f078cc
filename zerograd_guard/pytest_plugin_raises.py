"""Violations a test expected: ``pytest.raises(GradientGuardError)`` caught them.

A test that asserts the guard catches a bug (``with pytest.raises(GradientGuardError):
buggy_loop()``) passes, and its violation is neither a failure ("exception swallowed by
the code under test") nor counted in the summary and the JSON report.

pytest offers no hook for an exception that ``pytest.raises`` caught, so during a
guarded test ``pytest.raises`` is wrapped: the wrapper notes a guard error its context
(or its call form) caught. A test module that bound ``raises`` at import
(``from pytest import raises``) calls the unwrapped function: its expected violations
still count as swallowed (the known limitation, documented in docs/runtime.md).
"""

from __future__ import annotations

from types import TracebackType
from typing import Any

import pytest


class ExpectedViolations:
    """The findings of guard errors that ``pytest.raises`` caught during one test."""

    def __init__(self) -> None:
        self.findings: list[Any] = []
        self._original = pytest.raises
        pytest.raises = self._raises  # type: ignore[assignment]

    def includes(self, finding: object) -> bool:
        return any(finding is expected for expected in self.findings)

    def close(self) -> None:
        if pytest.raises == self._raises:
            pytest.raises = self._original  # type: ignore[assignment]

    def _note(self, error: BaseException | None) -> None:
        finding = getattr(error, "finding", None)
        if finding is not None:
            self.findings.append(finding)

    def _raises(self, *args: Any, **kwargs: Any) -> Any:
        __tracebackhide__ = True
        result = self._original(*args, **kwargs)
        if isinstance(result, pytest.ExceptionInfo):  # the call form: already caught
            self._note(result.value)
            return result
        return _NotingContext(result, self._note)


class _NotingContext:
    """``pytest.raises``'s context manager, noting the guard error it suppressed."""

    def __init__(self, context: Any, note: Any) -> None:
        self._context = context
        self._note = note

    def __enter__(self) -> Any:
        return self._context.__enter__()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> bool:
        __tracebackhide__ = True
        suppressed = self._context.__exit__(kind, error, traceback)
        if suppressed:
            self._note(error)
        return suppressed

    def __getattr__(self, name: str) -> Any:
        return getattr(self._context, name)
