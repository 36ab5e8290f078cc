"""Reuse the CLI tests' helpers (``cli_helpers``) and their in-process ``lint`` fixture."""

from __future__ import annotations

import sys
from pathlib import Path

CLI_TESTS = str(Path(__file__).parent.parent / "cli")
if CLI_TESTS not in sys.path:
    sys.path.insert(0, CLI_TESTS)

from cli_helpers import lint  # noqa: E402, F401  (the fixture, for every test in this folder)
