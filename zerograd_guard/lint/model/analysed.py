"""What a rule's ``check()`` receives: one analysed source text."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from zerograd_guard.lint.findings import Finding, Fix

if TYPE_CHECKING:
    import libcst as cst

    from zerograd_guard.lint.extract.positions import Positions, Span
    from zerograd_guard.lint.flow.engine import Observations
    from zerograd_guard.lint.model.events import Event
    from zerograd_guard.lint.model.program import FunctionModel, ModuleModel
    from zerograd_guard.lint.project.places import ForeignPlaces


@dataclass
class AnalyzedModule:
    """The model of one source text plus what the flow check observed.

    * ``source`` — the analysed text (fix edits are offsets into it);
    * ``module`` — the libcst tree;
    * ``model`` — the event model (``ModuleModel``: functions, classes, imports, the
      resolved backward / clear / step / call events and the control flow around them);
    * ``observations`` — the flow check's results (``Observations``);
    * ``positions`` — spans of nodes, computed on demand;
    * ``places`` — project mode: where nodes of other modules' events are reported (at
      the call in this file they ran under); None when every event is this file's.
    """

    source: str
    module: cst.Module
    model: ModuleModel
    observations: Observations
    positions: Positions
    places: ForeignPlaces | None = None
    # names whose class a branch chooses, with how many classes (``resolve_module``)
    choices: dict[tuple[str, str], int] = field(default_factory=dict)

    def is_foreign(self, node: cst.CSTNode) -> bool:
        """Whether ``node`` is in another module (no fix may edit it from here)."""
        return self.places is not None and self.places.is_foreign(node)

    def place(self, node: cst.CSTNode, call: cst.CSTNode | None = None) -> str:
        """Where ``node`` is, for a message: ``line 12``, or for another module's node
        ``trainer/steps.py:8 (in `train_step`, called at line 12)``; ``call``: the call
        of this file it ran under, where not the first one it was seen under."""
        line = self.line(call if call is not None else node)
        if self.places is None or not self.places.is_foreign(node):
            return f"line {line}"
        return self.places.describe(node, line)

    def definition_place(self, function: FunctionModel) -> str:
        """Where ``function`` is defined, for a message: ``line 9``, or for another
        module's function (project mode) ``optim/lars.py:9``."""
        loaded = function.origin
        line = self._line_in(loaded, function.node)
        if loaded is None or self.model.external is None:
            return f"line {line}"
        return f"{loaded.display(self.model.external.importer)}:{line}"  # type: ignore[attr-defined]

    def own_line(self, event: Event) -> int:
        """``event``'s line in its own file (another module's, for its event)."""
        return self._line_in(event.function.origin if event.function else None, event.node)

    def _line_in(self, loaded: object | None, node: cst.CSTNode) -> int:
        """``node``'s line in this file, or in another module ``loaded`` it belongs to."""
        if loaded is None:
            return self.line(node)
        return loaded.positions.span(node).line  # type: ignore[attr-defined]

    def span(self, node: cst.CSTNode) -> Span:
        return self.positions.span(node)

    def line(self, node: cst.CSTNode) -> int:
        return self.positions.span(node).line

    def code(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(node)

    def finding(
        self,
        code: str,
        message: str,
        node: cst.CSTNode,
        fix: Fix | None = None,
        hint: str | None = None,
    ) -> Finding:
        """A finding spanning ``node``: ``message`` says what is wrong, ``hint`` what to do."""
        span = self.positions.span(node)
        return Finding(
            code=code,
            message=message,
            line=span.line,
            column=span.column,
            end_line=span.end_line,
            end_column=span.end_column,
            fix=fix,
            hint=hint,
        )
