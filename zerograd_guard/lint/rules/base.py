"""The rule interface. One rule = one small class carrying its own documentation
and its own VALID / INVALID examples; the test suite runs the examples and the
docs pages are generated from them, so rule, tests and docs cannot drift apart.

INVALID examples mark each expected finding with a trailing ``# expect: ZGxxx``
comment on the line where the finding must be reported.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, ClassVar, Literal

if TYPE_CHECKING:
    from zerograd_guard.lint.findings import Finding


class Rule:
    """Base class of every rule, built in or contributed by a plugin."""

    code: ClassVar[str]  # "ZG101"
    name: ClassVar[str]  # "gradients-not-cleared" (kebab-case, stable)
    summary: ClassVar[str]  # one line, used as SARIF shortDescription
    explanation: ClassVar[str]  # markdown: why it bites, how to fix (no examples)
    level: ClassVar[Literal["error", "warning", "note"]] = "error"
    # Fixes the rule can offer; described in its docs page.
    fix_description: ClassVar[str | None] = None
    VALID: ClassVar[tuple[str, ...]] = ()
    INVALID: ClassVar[tuple[str, ...]] = ()

    def check(self, model: object) -> Iterable[Finding]:
        """Read the analysed model of one source text and yield findings."""
        raise NotImplementedError
