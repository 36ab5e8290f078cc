"""What a guard found: violations, warnings and per-step events, and how they are printed."""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from zerograd_guard.runtime.codes import RuleText
from zerograd_guard.runtime.sites import Site, describe_site, site_record

MAX_NAMES_SHOWN = 6
MAX_EVENTS = 10_000  # per session: a long `run` must not grow memory with the step count
MAX_OPTIMIZER_LABELS = 1_000  # per session: short-lived optimizers must not grow it either


class GradientGuardError(AssertionError):
    """Raised at ``optimizer.step()`` when the guard (error mode) finds a violation."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(finding.render())
        self.finding = finding


class GradientGuardWarning(UserWarning):
    """Emitted for warnings, and for violations in warn mode."""


@dataclass
class Finding:
    """One violation or warning, tied to one optimizer step."""

    rule: RuleText
    optimizer: str
    step: int
    parameters: list[str]
    detail: str = ""
    step_site: Site | None = None
    backward_sites: list[Site] = field(default_factory=list)
    clear_site: Site | None = None
    # The clears of these parameters were tracked: no ``clear_site`` means never cleared.
    clears_known: bool = False

    @property
    def never_cleared(self) -> bool:
        return self.clears_known and self.clear_site is None

    @property
    def code(self) -> str:
        return self.rule.code

    def render(self) -> str:
        names = ", ".join(self.parameters[:MAX_NAMES_SHOWN])
        if len(self.parameters) > MAX_NAMES_SHOWN:
            names += f", ... ({len(self.parameters) - MAX_NAMES_SHOWN} more)"
        lines = [
            f"{self.rule.code} {self.rule.title}",
            f"  optimizer: {self.optimizer}, step {self.step}",
            f"  parameters ({len(self.parameters)}): {names}",
        ]
        if self.detail:
            lines.append(f"  {self.detail}")
        lines.append(f"  step:       {describe_site(self.step_site)}")
        for site in self.backward_sites:
            lines.append(f"  backward:   {describe_site(site)}")
        if self.clear_site is not None:
            lines.append(f"  last clear: {describe_site(self.clear_site)}")
        elif self.never_cleared:
            lines.append("  last clear: never (these parameters were not cleared under the guard)")
        lines.append(f"  fix: {self.rule.fix}")
        lines.append(f"  docs: {self.rule.docs}")
        return "\n".join(lines)

    def as_dict(self) -> dict[str, Any]:
        return {
            "code": self.rule.code,
            "message": self.rule.title,
            "optimizer": self.optimizer,
            "step": self.step,
            "parameters": list(self.parameters),
            "detail": self.detail,
            "step_site": site_record(self.step_site),
            "backward_sites": [site_record(site) for site in self.backward_sites],
            "clear_site": site_record(self.clear_site),
            "never_cleared": self.never_cleared,
            "fix": self.rule.fix,
            "docs": self.rule.docs,
        }


class StepEvent(NamedTuple):
    """One judged optimizer step: how many backward passes it consumed, and the verdict.

    A named tuple, not a dataclass: one is made per step, on the hot path.
    """

    optimizer: str
    step: int
    backward_passes: int
    verdict: str


@dataclass
class GuardReport:
    """Everything one guard session saw. Appends are atomic under the GIL.

    ``events`` keeps the most recent ``MAX_EVENTS`` judged steps; ``optimizers`` the
    labels of the first ``MAX_OPTIMIZER_LABELS`` optimizers seen, ``optimizers_seen``
    counts them all.
    """

    steps_checked: int = 0
    violations: list[Finding] = field(default_factory=list)
    warnings: list[Finding] = field(default_factory=list)
    events: deque[StepEvent] = field(default_factory=lambda: deque(maxlen=MAX_EVENTS))
    optimizers: list[str] = field(default_factory=list)
    optimizers_seen: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add_optimizer(self, label: str) -> None:
        with self._lock:
            if label in self.optimizers:
                return
            self.optimizers_seen += 1
            if len(self.optimizers) < MAX_OPTIMIZER_LABELS:
                self.optimizers.append(label)

    def as_dict(self) -> dict[str, Any]:
        return {
            "steps_checked": self.steps_checked,
            "optimizers": list(self.optimizers),
            "violations": [finding.as_dict() for finding in self.violations],
            "warnings": [finding.as_dict() for finding in self.warnings],
        }
