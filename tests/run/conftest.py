"""Markers for the ``zerograd-guard run`` tests."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: starts Python subprocesses; runs in CI")
