"""The rule interface. One rule = one small class carrying its own documentation
and its own VALID / INVALID examples; the test suite runs the examples and the
docs pages are generated from them, so rule, tests and docs cannot drift apart.

INVALID examples mark each expected finding with a trailing ``# expect: ZGxxx``
comment on the line where the finding must be reported.

What ``check()`` receives
-------------------------
``check(model)`` is called once per analysed source text with an
``zerograd_guard.lint.model.analysed.AnalyzedModule``:

* ``model.source`` (str) and ``model.module`` (the ``libcst.Module``);
* ``model.model`` — the event model (``ModuleModel``): ``functions`` (each a
  ``FunctionModel`` whose ``body`` is a tree of ``Event`` / ``If`` / ``Loop`` / ``Try`` /
  ``Jump``), ``classes``, ``imports`` and ``ties`` (optimizer -> modules its parameters came
  from). Every ``Event`` has a ``kind`` (``EventKind.BACKWARD`` / ``CLEAR`` / ``STEP`` /
  ``CALL`` / ``HAVOC`` / ``KILL``), the libcst ``node`` it came from and, for clears and
  steps, the ``optimizers`` (names, ``"*"`` for all) or ``modules`` it acts on;
* ``model.observations`` — what the flow check saw (``Observations``: ``leaks``,
  ``step_statuses``, ``discards``, ``broken_windows``), keyed by events;
* ``model.finding(code, message, node, fix=None, hint=None)`` builds a ``Finding`` at a
  node (its position is computed only then); ``message`` says what is wrong and the
  lines involved, ``hint`` the advice for this finding (shown as ``help``);
  ``model.span(node)`` / ``model.line(node)`` / ``model.code(node)`` give positions and
  source text.

A rule yields ``Finding`` objects; it never raises for odd code (return nothing instead).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, ClassVar, Literal

if TYPE_CHECKING:
    from zerograd_guard.lint.findings import Finding
    from zerograd_guard.lint.model.analysed import AnalyzedModule
    from zerograd_guard.lint.testing import Invalid


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
    # Strings, or ``zerograd_guard.lint.testing.Invalid(code, fixed=...)`` to pin the fix.
    INVALID: ClassVar[tuple[str | Invalid, ...]] = ()

    def check(self, model: AnalyzedModule) -> Iterable[Finding]:
        """Read the analysed model of one source text and yield findings."""
        raise NotImplementedError


def optimizer_label(key: str) -> str:
    """How a message names an optimizer key."""
    if key == "*":
        return "the optimizers"
    if key == "<manual>":
        return "the manual update"
    if key.endswith(".grad"):
        return f"the manual update of `{key[:-5]}`"
    return f"`{key.rsplit(':', 1)[-1]}`"
