"""The runtime guard: asserts at every ``optimizer.step()`` that gradients were cleared
(or deliberately accumulated) since the previous step. Needs torch."""

from zerograd_guard.runtime.discard import discard
from zerograd_guard.runtime.guard import Guard, accumulate, guard
from zerograd_guard.runtime.report import (
    Finding,
    GradientGuardError,
    GradientGuardWarning,
    GuardReport,
    StepEvent,
)

__all__ = [
    "Finding",
    "GradientGuardError",
    "GradientGuardWarning",
    "Guard",
    "GuardReport",
    "StepEvent",
    "accumulate",
    "discard",
    "guard",
]
