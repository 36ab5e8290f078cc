"""Shared fixtures for the engine integration tests."""

from __future__ import annotations

from types import ModuleType

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "slow: takes several seconds (process spawning, torch.compile); runs in CI"
    )


@pytest.fixture
def runtime() -> ModuleType:
    """``zerograd_guard.runtime``, or skip while the runtime guard does not exist yet."""
    try:
        from zerograd_guard import runtime
    except ImportError as error:
        pytest.skip(f"runtime guard not importable: {error}")
    if not hasattr(runtime, "guard"):
        pytest.skip("runtime guard not built yet (zerograd_guard.runtime.guard)")
    return runtime


def assert_silent(report: object, steps: int) -> None:
    """No violation, no warning, and exactly ``steps`` steps judged."""
    assert report.violations == []  # type: ignore[attr-defined]
    assert report.warnings == []  # type: ignore[attr-defined]
    assert report.steps_checked == steps  # type: ignore[attr-defined]
