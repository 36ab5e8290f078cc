"""What a rule's ``check()`` receives: one analysed source text."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from zerograd_guard.lint.findings import Finding, Fix

if TYPE_CHECKING:
    import libcst as cst

    from zerograd_guard.lint.extract.positions import Positions, Span
    from zerograd_guard.lint.flow.engine import Observations
    from zerograd_guard.lint.model.program import ModuleModel


@dataclass
class AnalyzedModule:
    """The model of one source text plus what the flow check observed.

    * ``source`` — the analysed text (fix edits are offsets into it);
    * ``module`` — the libcst tree;
    * ``model`` — the event model (``ModuleModel``: functions, classes, imports, the
      resolved backward / clear / step / call events and the control flow around them);
    * ``observations`` — the flow check's results (``Observations``);
    * ``positions`` — spans of nodes, computed on demand.
    """

    source: str
    module: cst.Module
    model: ModuleModel
    observations: Observations
    positions: Positions

    def span(self, node: cst.CSTNode) -> Span:
        return self.positions.span(node)

    def line(self, node: cst.CSTNode) -> int:
        return self.positions.span(node).line

    def code(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(node)

    def finding(
        self, code: str, message: str, node: cst.CSTNode, fix: Fix | None = None
    ) -> Finding:
        """A finding spanning ``node``."""
        span = self.positions.span(node)
        return Finding(
            code=code,
            message=message,
            line=span.line,
            column=span.column,
            end_line=span.end_line,
            end_column=span.end_column,
            fix=fix,
        )
