"""The built-in rules. Each module holds one rule with its docs and examples."""

from __future__ import annotations

from zerograd_guard.lint.rules.base import Rule
from zerograd_guard.lint.rules.zg101 import GradientsNotCleared
from zerograd_guard.lint.rules.zg102 import StepWithoutFreshGradients
from zerograd_guard.lint.rules.zg103 import ClearBreaksAccumulation
from zerograd_guard.lint.rules.zg104 import GradientsLeakAcrossModels

BUILTIN_RULES: tuple[type[Rule], ...] = (
    GradientsNotCleared,
    StepWithoutFreshGradients,
    ClearBreaksAccumulation,
    GradientsLeakAcrossModels,
)


def rule_by_code(code: str) -> type[Rule] | None:
    """The built-in rule with ``code`` (case-insensitive), or None."""
    wanted = code.upper()
    return next((rule for rule in BUILTIN_RULES if rule.code == wanted), None)


__all__ = ["BUILTIN_RULES", "Rule", "rule_by_code"]
