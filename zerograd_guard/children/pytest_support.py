"""What the pytest plugin needs to guard a test's child processes (torch-free).

One :class:`TestChildren` per guarded test: it opens the propagation when the test
starts, and after each test phase turns the children's findings into the test's
outcome — in error mode a child violation fails a test that would otherwise pass; the
children's reports are always attached to the test report as a section.
"""

from __future__ import annotations

import os
from typing import Any

from zerograd_guard.children import env
from zerograd_guard.children.propagation import Propagation, start_propagation
from zerograd_guard.children.records import ChildViolation

SECTION = "zerograd-guard: child processes"


class TestChildren:
    """The child processes of one guarded test."""

    __test__ = False  # not a test class, whatever pytest's naming rules say

    def __init__(self, mode: str, accumulate: int | None) -> None:
        self.mode = mode
        self.propagation: Propagation = start_propagation(mode, accumulate)
        self._reported = 0
        self._warned = 0

    def update_report(self, report: Any) -> None:
        """Fold findings the children made since the last phase into this phase's report."""
        violations = self.propagation.collect()
        warnings = self.propagation.collect_warnings()
        new_violations = violations[self._reported :]
        new_warnings = warnings[self._warned :]
        self._reported, self._warned = len(violations), len(warnings)
        if not new_violations and not new_warnings:
            return
        text = render(new_violations, new_warnings)
        if self.mode == "error" and new_violations and report.passed:
            report.outcome = "failed"
            report.longrepr = f"GradientGuardError in a process started by this test:\n{text}"
        else:
            report.sections.append((SECTION, text))

    def summary(self) -> dict[str, Any]:
        """Per-child results for the JSON report."""
        return {"children": [record.summary() for record in self.propagation.records()]}

    def close(self) -> None:
        self.propagation.close()


def render(violations: list[ChildViolation], warnings: list[ChildViolation]) -> str:
    lines = [violation.render() for violation in violations]
    lines += [f"warning: {warning.render()}" for warning in warnings]
    return "\n\n".join(lines)


def leave_guarded_parent() -> None:
    """A pytest process started by a guarded test runs its own guard (or none)."""
    if os.environ.get(env.CHILD_MODE):
        from zerograd_guard.children.child import leave_parent

        leave_parent()
