"""The project index of the current run, installed once per process.

The index is shared by every task of a run; it is installed in the parent (tasks run
in-process) and in each worker by the pool's initializer, so a task carries only its
small ``ProjectContext``. A run without an index (``--no-project``, or ``lint_file``
called directly) analyses each file alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from zerograd_guard.lint.options import AnalysisOptions
from zerograd_guard.lint.project.graph import Project, ProjectContext

if TYPE_CHECKING:
    from zerograd_guard.lint.project.external import ProjectLookup
    from zerograd_guard.lint.project.seeds import ImportSeeds

_current: Project | None = None


def install(project: Project | None) -> None:
    global _current
    _current = project


def current() -> Project | None:
    return _current


def lookup(context: ProjectContext | None, options: AnalysisOptions) -> ProjectLookup | None:
    """The external lookup for a task's file, or None (per-file mode)."""
    if context is None or _current is None:
        return None
    entry = _current.entries.get(context.path)
    if entry is None:
        return None
    from zerograd_guard.lint.project.external import lookup_for

    return lookup_for(_current, entry, options)


def seeds(context: ProjectContext | None) -> ImportSeeds | None:
    """What a statement of the task's file must use to reach a backward in another module
    (the fast path's extra seeds); None: not known (no index)."""
    if context is None or _current is None:
        return None
    entry = _current.entries.get(context.path)
    if entry is None:
        return None
    from zerograd_guard.lint.project.seeds import import_seeds

    return import_seeds(_current, entry)
