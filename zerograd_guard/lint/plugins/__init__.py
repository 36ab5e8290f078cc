"""Plugins: third-party packages that teach zerograd-lint about their own code.

A plugin is any object (usually a module) with ``@hookimpl`` functions named
after the hook specs in ``hookspecs``; installed packages register one under
the ``zerograd_guard`` entry point group.
"""

from __future__ import annotations

import pluggy

PROJECT_NAME = "zerograd_guard"
ENTRY_POINT_GROUP = "zerograd_guard"

hookspec = pluggy.HookspecMarker(PROJECT_NAME)
hookimpl = pluggy.HookimplMarker(PROJECT_NAME)

__all__ = ["ENTRY_POINT_GROUP", "PROJECT_NAME", "hookimpl", "hookspec"]
