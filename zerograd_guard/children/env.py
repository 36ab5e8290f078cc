"""Environment variables that carry the guard from a parent process to its Python children.

Kept free of torch (and of every other import) so the child bootstrap, which runs
in every Python child at interpreter start-up, costs next to nothing.
"""

from __future__ import annotations

import os

CHILD_MODE = "ZEROGRAD_GUARD_CHILD_MODE"
"""``error`` or ``warn``: the mode the child's guard runs in. Unset: children are not guarded."""

CHILD_REPORT_DIR = "ZEROGRAD_GUARD_CHILD_REPORT_DIR"
"""Directory where each guarded child writes ``<pid>.json`` with what its guard found."""

CHILD_ACCUMULATE = "ZEROGRAD_GUARD_CHILD_ACCUMULATE"
"""Optional ``accumulate(k)`` contract (an integer) applied in the child too."""

PYTHONPATH = "PYTHONPATH"

BOOT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "boot")
"""Holds only ``sitecustomize.py``; put first on a child's ``PYTHONPATH`` to guard it."""
